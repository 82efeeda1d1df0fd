/* lua_faults.c - the fault keys of collsim.sweep (fail_links, degrade_links, fault_seed):
 * folded into the topology axis before the sweep table is read (sweep_internal.h).
 *
 * Each key takes one value or a list (swept like any key); "none" (or "") means no fault.
 * Every topology of the sweep gets every combination of the fault values as keys of its
 * spec ("torus dims=8x8 fail_links=random:2 fault_seed=3"), so each combination is a
 * topology of its own: built and checked when the sweep is read (a bad spec is an error
 * naming the key), cached as its own platform, and named in the rows' topology column.
 */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "sweep/sweep_internal.h"

static const char *const fault_keys[] = {"fail_links", "degrade_links", "fault_seed"};
#define NFAULT 3

/* Pushes a list (table) of the value(s) at the top of the stack as strings; pops it. */
static void push_values(lua_State *L, const char *key)
{
    int v = lua_gettop(L);
    lua_newtable(L);
    int n = lua_type(L, v) == LUA_TTABLE ? (int)luaL_len(L, v) : 1;
    if (n == 0)
        luaL_error(L, "collsim.sweep: %s: an empty list", key);
    for (int i = 1; i <= n; i++) {
        if (lua_type(L, v) == LUA_TTABLE)
            lua_geti(L, v, i);
        else
            lua_pushvalue(L, v);
        int ty = lua_type(L, -1);
        if (ty != LUA_TSTRING && !(ty == LUA_TNUMBER && lua_isinteger(L, -1)))
            luaL_error(L, "collsim.sweep: %s: expected a string%s or a list of them, got %s",
                       key, strcmp(key, "fault_seed") == 0 ? " or an integer" : "",
                       luaL_typename(L, -1));
        const char *s = lua_tostring(L, -1); /* converts an integer in place */
        if (strpbrk(s, " \t"))
            luaL_error(L, "collsim.sweep: %s: '%s' has a space (one spec per value, items "
                          "separated by commas)", key, s);
        lua_rawseti(L, -2, i);
    }
    lua_remove(L, v);
}

/* Pushes the topology value(s) of the table at index 1 as a list of spec strings. */
static void push_topologies(lua_State *L)
{
    lua_getfield(L, 1, "topology");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getfield(L, 1, "topologies");
    }
    int v = lua_gettop(L);
    int single = lua_type(L, v) != LUA_TTABLE || scenario_is_object(L, v, "collsim.topology");
    int n = single ? 1 : (int)luaL_len(L, v);
    lua_newtable(L);
    for (int i = 1; i <= n; i++) {
        if (single)
            lua_pushvalue(L, v);
        else
            lua_geti(L, v, i);
        if (scenario_is_object(L, -1, "collsim.topology")) {
            lua_getfield(L, -1, "spec");
            lua_remove(L, -2);
        }
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "collsim.sweep: fail_links / degrade_links / fault_seed need the "
                          "topology as collsim.topology... or spec strings, got %s",
                       luaL_typename(L, -1));
        lua_rawseti(L, -2, i);
    }
    lua_remove(L, v);
}

/* Appends every combination of the fault lists (at lists..lists+2, NULL-able as nil) to
 * each topology in list `topos`; pushes the new list. */
static void push_products(lua_State *L, int topos, int lists)
{
    lua_newtable(L);
    int out = lua_gettop(L), n = 0, len[NFAULT], idx[NFAULT] = {0, 0, 0};
    for (int k = 0; k < NFAULT; k++)
        len[k] = lua_isnil(L, lists + k) ? 0 : (int)luaL_len(L, lists + k);
    for (lua_Integer t = 1; t <= luaL_len(L, topos); t++) {
        for (;;) {
            luaL_Buffer b;
            luaL_buffinit(L, &b);
            lua_geti(L, topos, t);
            luaL_addvalue(&b); /* the topology spec */
            for (int k = 0; k < NFAULT; k++) {
                if (!len[k])
                    continue;
                lua_geti(L, lists + k, idx[k] + 1);
                const char *s = lua_tostring(L, -1);
                lua_pop(L, 1); /* the list keeps the string alive */
                if (strcmp(s, "none") != 0 && s[0]) {
                    luaL_addchar(&b, ' ');
                    luaL_addstring(&b, fault_keys[k]);
                    luaL_addchar(&b, '=');
                    luaL_addstring(&b, s);
                }
            }
            luaL_pushresult(&b);
            lua_rawseti(L, out, ++n);
            int k = 0; /* the next combination, like an odometer */
            while (k < NFAULT && (!len[k] || ++idx[k] == len[k])) {
                idx[k] = 0;
                k++;
            }
            if (k == NFAULT)
                break;
        }
    }
}

void sweep_fold_faults(lua_State *L)
{
    int any = 0;
    for (int k = 0; k < NFAULT; k++) {
        any |= lua_getfield(L, 1, fault_keys[k]) != LUA_TNIL;
        lua_pop(L, 1);
    }
    if (!any)
        return;
    lua_newtable(L); /* a copy of the sweep table: the script's own stays as it was */
    int copy = lua_gettop(L);
    for (lua_pushnil(L); lua_next(L, 1);) {
        lua_pushvalue(L, -2); /* key, value, key */
        lua_insert(L, -2);    /* key, key, value */
        lua_settable(L, copy);
    }
    push_topologies(L);
    int topos = lua_gettop(L);
    for (int k = 0; k < NFAULT; k++) {
        if (lua_getfield(L, 1, fault_keys[k]) == LUA_TNIL)
            continue; /* a nil stays as the list placeholder */
        push_values(L, fault_keys[k]);
    }
    push_products(L, topos, topos + 1);
    lua_setfield(L, copy, "topology");
    lua_pushnil(L);
    lua_setfield(L, copy, "topologies");
    for (int k = 0; k < NFAULT; k++) {
        lua_pushnil(L);
        lua_setfield(L, copy, fault_keys[k]);
    }
    lua_settop(L, copy);
    lua_replace(L, 1);
}
