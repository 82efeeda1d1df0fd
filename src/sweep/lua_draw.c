/* lua_draw.c - collsim.draw{...}: pictures of a topology and of a collective's link loads
 * from a scenario, through the same draw_run() as `collsim draw` (src/draw/draw.h,
 * docs/scenarios.md).
 *
 * The call draws at once, while the scenario is loaded (before any sweep point runs;
 * collsim run has claimed and locked the output directory by then: cmd_run.c).
 * `out` and `link_csv` are relative to the output directory; in the sandbox they must
 * stay under it (the check io.open uses), --unsafe-lua lifts that. Returns a table
 * {steps, max_link_bytes, files, first, last} (draw.h: draw_result).
 */
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "cli/cli.h"
#include "common/units.h"
#include "draw/draw.h"
#include "sweep/sweep_internal.h"

static const char *const keys[] = {"topology", "out", "algorithm", "compare", "collective",
                                   "size", "ranks", "ranks_per_node", "placement", "root",
                                   "dst", "dims", "step", "all_steps", "rank", "link_csv",
                                   "frame_seconds", NULL};

static void check_keys(lua_State *L)
{
    for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
        int known = 0;
        for (int i = 0; keys[i] && !known; i++)
            known = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), keys[i]) == 0;
        if (!known)
            luaL_error(L, "collsim.draw: unknown key '%s' (allowed: topology, out, algorithm, "
                          "compare, collective, size, ranks, ranks_per_node, placement, root, "
                          "dst, dims, step, all_steps, rank, link_csv, frame_seconds)",
                       lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
    }
}

static void fail(lua_State *L, const char *key, const cs_error *err)
{
    luaL_error(L, "collsim.draw: %s: %s", key, err->msg);
}

/* The string field `key` (or NULL if absent); other types raise. */
static const char *opt_string(lua_State *L, const char *key)
{
    lua_getfield(L, 1, key);
    const char *s = lua_isnil(L, -1) ? NULL : lua_tostring(L, -1);
    if (!s && !lua_isnil(L, -1))
        luaL_error(L, "collsim.draw: %s must be a string", key);
    lua_pop(L, 1); /* the table keeps the string alive */
    return s;
}

static int32_t opt_int(lua_State *L, const char *key, int32_t dflt, int32_t min)
{
    lua_getfield(L, 1, key);
    int32_t v = dflt;
    if (!lua_isnil(L, -1)) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < min || lua_tointeger(L, -1) > INT32_MAX)
            luaL_error(L, "collsim.draw: %s must be a whole number >= %d", key, (int)min);
        v = (int32_t)lua_tointeger(L, -1);
    }
    lua_pop(L, 1);
    return v;
}

/* An output path: relative to the output directory, allowed by the sandbox. */
static void out_path(lua_State *L, const char *key, char *buf, size_t n)
{
    sweep_plan *p = scenario_plan(L);
    const char *path = opt_string(L, key);
    if (!path)
        return;
    if (path[0] == '/' || !p->outdir[0])
        snprintf(buf, n, "%s", path);
    else
        snprintf(buf, n, "%s/%s", p->outdir, path);
    /* --dry-run creates no output directory (the check would); it draws nothing */
    if (!p->dry_run || access(p->outdir, F_OK) == 0)
        scenario_check_write(L, "collsim.draw", buf);
}

/* Algorithm i from the value on top of the stack: "name" or collsim.algorithm("name",
 * {param = value}) (one value per parameter: a picture is one variant; sorted by name).
 * Returns 0 when the value is neither. */
static int read_one_algorithm(lua_State *L, draw_options *o, int i, const char *key)
{
    if (lua_type(L, -1) == LUA_TSTRING) {
        snprintf(o->algorithms[i], sizeof o->algorithms[i], "%s", lua_tostring(L, -1));
        return 1;
    }
    if (!scenario_is_object(L, -1, "collsim.algorithm"))
        return 0;
    lua_getfield(L, -1, "name");
    snprintf(o->algorithms[i], sizeof o->algorithms[i], "%s", lua_tostring(L, -1));
    lua_getfield(L, -2, "params");
    char what[64];
    snprintf(what, sizeof what, "collsim.draw: %s parameter", key);
    scenario_append_sorted_kv(L, -1, what, o->params[i], sizeof o->params[i], " ");
    lua_pop(L, 2);
    return 1;
}

/* algorithm = "name" or collsim.algorithm("name", {param = value}) */
static void read_algorithm(lua_State *L, draw_options *o)
{
    lua_getfield(L, 1, "algorithm");
    if (read_one_algorithm(L, o, 0, "algorithm"))
        o->nalgorithms = 1;
    else if (!lua_isnil(L, -1))
        luaL_error(L, "collsim.draw: algorithm must be a name or collsim.algorithm(...)");
    lua_pop(L, 1);
}

/* compare = {"a", collsim.algorithm("b", {ports = "1"})}: two algorithms side by side,
 * each with its own parameters */
static void read_compare(lua_State *L, draw_options *o)
{
    lua_getfield(L, 1, "compare");
    if (!lua_isnil(L, -1)) {
        if (o->nalgorithms)
            luaL_error(L, "collsim.draw: algorithm and compare exclude each other");
        if (lua_type(L, -1) != LUA_TTABLE || scenario_is_object(L, -1, "collsim.algorithm") ||
            lua_rawlen(L, -1) != DRAW_MAX_ALGORITHMS)
            luaL_error(L, "collsim.draw: compare must be a list of two algorithms (names or "
                          "collsim.algorithm(...))");
        for (int i = 0; i < DRAW_MAX_ALGORITHMS; i++) {
            lua_rawgeti(L, -1, i + 1);
            if (!read_one_algorithm(L, o, i, "compare"))
                luaL_error(L, "collsim.draw: compare[%d] must be a name or "
                              "collsim.algorithm(...), got %s", i + 1, luaL_typename(L, -1));
            lua_pop(L, 1);
        }
        o->nalgorithms = DRAW_MAX_ALGORITHMS;
    }
    lua_pop(L, 1);
}

static void read_collective(lua_State *L, draw_options *o)
{
    cs_error err;
    const char *coll = opt_string(L, "collective");
    if (coll && coll_from_name(coll, &o->spec.coll, &err) < 0)
        fail(L, "collective", &err);
    if (!coll != !o->nalgorithms)
        luaL_error(L, "collsim.draw: collective goes with algorithm or compare");
    lua_getfield(L, 1, "size");
    if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0)
        o->spec.bytes = lua_tointeger(L, -1);
    else if (lua_type(L, -1) == LUA_TSTRING && parse_size(lua_tostring(L, -1), &o->spec.bytes, &err) < 0)
        fail(L, "size", &err);
    else if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "collsim.draw: size must be a number of bytes or a size (\"1MiB\")");
    lua_pop(L, 1);
    o->spec.root = opt_int(L, "root", o->spec.root, 0);
    o->spec.dst = opt_int(L, "dst", o->spec.dst, 0);
    const char *dims = opt_string(L, "dims"); /* --dims AxB.. */
    if (dims && cli_parse_dims(dims, &o->spec, &err) < 0)
        fail(L, "dims", &err);
}

static void read_options(lua_State *L, draw_options *o)
{
    cs_error err;
    lua_getfield(L, 1, "topology");
    if (scenario_is_object(L, -1, "collsim.topology"))
        lua_getfield(L, -1, "spec");
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, "collsim.draw: topology (a collsim.topology or a spec string) is required");
    snprintf(o->topology, sizeof o->topology, "%s", lua_tostring(L, -1));
    lua_settop(L, 1);
    out_path(L, "out", o->out, sizeof o->out);
    if (!o->out[0])
        luaL_error(L, "collsim.draw: out (a .svg, .png or .json file name) is required");
    out_path(L, "link_csv", o->link_csv, sizeof o->link_csv);
    const char *placement = opt_string(L, "placement");
    if (placement && placement_parse(placement, &o->placement, &err) < 0)
        fail(L, "placement", &err);
    o->ranks = opt_int(L, "ranks", 0, 1);
    o->ranks_per_node = opt_int(L, "ranks_per_node", 1, 1);
    read_algorithm(L, o);
    read_compare(L, o);
    read_collective(L, o);
    o->step = opt_int(L, "step", DRAW_TOTAL, 0);
    o->rank = opt_int(L, "rank", -1, 0);
    lua_getfield(L, 1, "all_steps");
    o->all_steps = lua_toboolean(L, -1);
    lua_getfield(L, 1, "frame_seconds");
    if (lua_isnumber(L, -1))
        o->frame_seconds = lua_tonumber(L, -1);
    lua_settop(L, 1);
    if (o->all_steps && o->step != DRAW_TOTAL)
        luaL_error(L, "collsim.draw: step and all_steps exclude each other");
}

int scenario_l_draw(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    check_keys(L);
    draw_options o;
    draw_options_init(&o);
    o.user_algorithms = sweep_plan_algorithms(scenario_plan(L));
    read_options(L, &o);
    draw_result res;
    cs_error err;
    memset(&res, 0, sizeof res);
    if (!scenario_plan(L)->dry_run && draw_run(&o, &res, &err) < 0) /* --dry-run: no file */
        return luaL_error(L, "collsim.draw: %s", err.msg);
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, res.steps);
    lua_setfield(L, -2, "steps");
    lua_pushinteger(L, res.max_link_bytes);
    lua_setfield(L, -2, "max_link_bytes");
    lua_pushinteger(L, res.nfiles);
    lua_setfield(L, -2, "files");
    lua_pushstring(L, res.first_file);
    lua_setfield(L, -2, "first");
    lua_pushstring(L, res.last_file);
    lua_setfield(L, -2, "last");
    return 1;
}
