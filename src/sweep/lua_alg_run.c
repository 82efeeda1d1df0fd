/* lua_alg_run.c - what both forms of a Lua algorithm share (lua_alg.h): the Lua state's
 * lock, protected calls with the error channel, the params and info tables, the check
 * function, and the user_alg callbacks that dispatch to the steps or butterfly form.
 *
 * Lua is entered only under the state's lock: prepare and release take it here; gen_rank
 * runs under it whenever the definition calls Lua while generating (user_alg.h:
 * serialize). A Lua error never escapes: lua_pcall turns it into a cs_error, which the
 * run keeps as its first error (user_alg_run_error).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "sweep/lua_alg.h"
#include "sweep/sweep_internal.h"

#define LOCK_KEY "collsim.lua_alg.lock"

static int lock_gc(lua_State *L)
{
    pthread_mutex_destroy(lua_touserdata(L, 1));
    return 0;
}

pthread_mutex_t *lua_alg_state_lock(lua_State *L)
{
    if (lua_getfield(L, LUA_REGISTRYINDEX, LOCK_KEY) == LUA_TUSERDATA) {
        pthread_mutex_t *m = lua_touserdata(L, -1);
        lua_pop(L, 1);
        return m;
    }
    lua_pop(L, 1);
    pthread_mutex_t *m = lua_newuserdatauv(L, sizeof *m, 0);
    pthread_mutex_init(m, NULL);
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, lock_gc);
    lua_setfield(L, -2, "__gc");
    lua_setmetatable(L, -2);
    lua_setfield(L, LUA_REGISTRYINDEX, LOCK_KEY);
    return m;
}

void lua_alg_push_ref(lua_State *L, int ref)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, ref);
}

int lua_alg_call(const lua_run *u, int nargs, int nresults, cs_error *err, const char *fmt, ...)
{
    lua_State *L = u->a->L;
    int base = lua_gettop(L) - nargs - 1;
    int limited = lua_limits_begin(L, "a call of the algorithm's Lua code");
    int status = lua_pcall(L, nargs, nresults, 0);
    lua_limits_end(L, limited);
    if (status == LUA_OK)
        return 0;
    char what[160], ctx[320], mem[4200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    lua_alg_context(u, ctx, sizeof ctx);
    const char *msg = status == LUA_ERRMEM && lua_limits_memory_error(L, mem, sizeof mem)
                          ? mem : lua_tostring(L, -1);
    cs_fail(err, "%s (%s%s%s)", msg ? msg : "a Lua error whose value is not a string", ctx,
            what[0] ? ", " : "", what);
    lua_settop(L, base);
    return -1;
}

void lua_alg_context(const lua_run *u, char *buf, size_t n)
{
    snprintf(buf, n, "%s %s, P=%d", coll_name(u->a->ua.desc.coll), u->a->ua.name, u->spec.P);
}

int lua_alg_integer(lua_State *L, int idx, int64_t lo, int64_t hi, const char *what,
                    int64_t *out, cs_error *err)
{
    int ok = 0;
    lua_Integer v = lua_type(L, idx) == LUA_TNUMBER ? lua_tointegerx(L, idx, &ok) : 0;
    if (!ok || v < lo || v > hi) {
        char got[64];
        if (lua_type(L, idx) == LUA_TNUMBER)
            snprintf(got, sizeof got, "%.17g", (double)lua_tonumber(L, idx));
        else
            snprintf(got, sizeof got, "a %s", luaL_typename(L, idx));
        return cs_fail(err, "%s must be a whole number in %lld..%lld, got %s", what,
                       (long long)lo, (long long)hi, got);
    }
    *out = v;
    return 0;
}

/* One {lo, hi} pair at idx. */
static int one_range(lua_State *L, int idx, int64_t limit, const char *what, range_list *out,
                     cs_error *err)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE || lua_rawlen(L, idx) != 2)
        return cs_fail(err, "%s: expected {lo, hi} (blocks lo .. hi-1) or a list of them, got "
                            "%s", what, lua_type(L, idx) == LUA_TTABLE ? "another table"
                                                                      : luaL_typename(L, idx));
    int64_t lo, hi;
    lua_rawgeti(L, idx, 1);
    lua_rawgeti(L, idx, 2);
    int rc = lua_alg_integer(L, -2, 0, INT64_MAX, what, &lo, err) < 0 ||
                     lua_alg_integer(L, -1, 0, INT64_MAX, what, &hi, err) < 0
                 ? -1
                 : 0;
    lua_pop(L, 2);
    if (rc == 0 && (hi < lo || hi > limit))
        rc = cs_fail(err, "%s: {%lld, %lld} is not a range of 0..%lld (lo <= hi <= %lld%s)",
                     what, (long long)lo, (long long)hi, (long long)limit, (long long)limit,
                     limit == 1 ? "; the layout has one block, `units` sets more" : "");
    if (rc == 0)
        rl_push(out, lo, hi);
    return rc;
}

int lua_alg_ranges(lua_State *L, int idx, int64_t limit, const char *what, range_list *out,
                   cs_error *err)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE)
        return cs_fail(err, "%s: expected {lo, hi} or a list of {lo, hi}, got %s", what,
                       luaL_typename(L, idx));
    if (lua_rawlen(L, idx) == 0)
        return 0; /* {}: no blocks */
    lua_rawgeti(L, idx, 1);
    int list = lua_type(L, -1) == LUA_TTABLE;
    lua_pop(L, 1);
    if (!list)
        return one_range(L, idx, limit, what, out, err);
    lua_Integer n = (lua_Integer)lua_rawlen(L, idx);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        int rc = one_range(L, -1, limit, what, out, err);
        lua_pop(L, 1);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ---- prepare ------------------------------------------------------------------------------ */

/* params: name -> integer (int, size) or string (choice); values already checked by
 * alg_run_prepare (alg_check_params). */
static void push_params(lua_State *L, const lua_run *u)
{
    lua_newtable(L);
    cs_error err;
    for (const alg_param_desc *d = u->a->params; d->name; d++) {
        int64_t v = 0;
        if (d->type == PARAM_CHOICE) {
            const char *text = coll_spec_param(&u->spec, d->name);
            lua_pushstring(L, text ? text : d->def);
        } else {
            if (d->type == PARAM_INT)
                alg_param_int(u->a->params, &u->spec, d->name, &v, &err);
            else
                alg_param_size(u->a->params, &u->spec, d->name, &v, &err);
            lua_pushinteger(L, v);
        }
        lua_setfield(L, -2, d->name);
    }
}

/* info: collective, P, size, root, dst, ranks_per_node, dims (blocks and units later). */
static void push_info(lua_State *L, const coll_spec *s)
{
    lua_newtable(L);
    lua_pushstring(L, coll_name(s->coll));
    lua_setfield(L, -2, "collective");
    const struct { const char *k; int64_t v; } f[] = {
        {"P", s->P}, {"size", s->bytes}, {"root", s->root}, {"dst", s->dst},
        {"ranks_per_node", s->ranks_per_node}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        lua_pushinteger(L, f[i].v);
        lua_setfield(L, -2, f[i].k);
    }
    if (s->ndims > 0) {
        lua_createtable(L, s->ndims, 0);
        for (int d = 0; d < s->ndims; d++) {
            lua_pushinteger(L, s->dims[d]);
            lua_rawseti(L, -2, d + 1);
        }
        lua_setfield(L, -2, "dims");
    }
}

int lua_alg_call_spec_fn(const lua_run *u, int fn, const char *what, cs_error *err)
{
    lua_State *L = u->a->L;
    lua_alg_push_ref(L, fn);
    lua_pushinteger(L, u->spec.P);
    lua_pushinteger(L, u->spec.bytes);
    lua_alg_push_ref(L, u->params_ref);
    lua_alg_push_ref(L, u->info_ref);
    return lua_alg_call(u, 4, 1, err, "%s", what);
}

/* check(P, size, params, info): nil or true accepts, a string refuses with that message. */
static int run_check(lua_run *u, cs_error *err)
{
    const lua_alg *a = u->a;
    lua_State *L = a->L;
    if (a->check_fn == LUA_NOREF)
        return 0;
    if (lua_alg_call_spec_fn(u, a->check_fn, "check function", err) < 0)
        return USER_ALG_BROKEN;
    int rc = 0;
    if (lua_type(L, -1) == LUA_TSTRING)
        rc = cs_fail(err, "%s", lua_tostring(L, -1));
    else if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1))
        rc = cs_fail(err, "refused by its check function");
    else if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN) {
        char ctx[160];
        lua_alg_context(u, ctx, sizeof ctx);
        cs_fail(err, "%s: the check function must return nil or true (accept) or a message "
                     "(refuse), got %s (%s)", a->where, luaL_typename(L, -1), ctx);
        rc = USER_ALG_BROKEN;
    }
    lua_pop(L, 1);
    return rc;
}

static void set_info_layout(lua_State *L, const lua_run *u, const sched_layout *l)
{
    lua_alg_push_ref(L, u->info_ref);
    lua_pushinteger(L, l->nblocks);
    lua_setfield(L, -2, "blocks");
    lua_pushinteger(L, l->blocks_per_rank);
    lua_setfield(L, -2, "blocks_per_rank");
    lua_pop(L, 1);
}

static void release_locked(lua_run *u)
{
    lua_State *L = u->a->L;
    luaL_unref(L, LUA_REGISTRYINDEX, u->params_ref);
    luaL_unref(L, LUA_REGISTRYINDEX, u->info_ref);
    lua_alg_bfly_release(u);
    free(u);
}

static int la_prepare(void *def, const coll_spec *spec, sched_layout *layout, void **run_ctx,
                      cs_error *err)
{
    const lua_alg *a = def;
    lua_State *L = a->L;
    lua_run *u = xcalloc(1, sizeof *u);
    u->a = a;
    u->spec = *spec;
    pthread_mutex_lock(a->lock);
    int top = lua_gettop(L);
    push_params(L, u);
    u->params_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    push_info(L, spec);
    u->info_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    int rc = run_check(u, err);
    if (rc == 0)
        rc = a->form == LUA_ALG_STEPS ? lua_alg_steps_prepare(u, layout, err)
                                      : lua_alg_bfly_prepare(u, layout, err);
    if (rc == 0) {
        u->nblocks = layout->nblocks;
        set_info_layout(L, u, layout);
    }
    lua_settop(L, top);
    if (rc < 0)
        release_locked(u);
    pthread_mutex_unlock(a->lock);
    if (rc < 0)
        return rc;
    *run_ctx = u;
    return 0;
}

static int la_gen(void *def, const void *run_ctx, const coll_spec *spec, int32_t rank,
                  sched_builder *b, cs_error *err)
{
    const lua_alg *a = def;
    (void)spec;
    lua_run *u = (lua_run *)run_ctx; /* the butterfly's callbacks note errors in it */
    return a->form == LUA_ALG_STEPS ? lua_alg_steps_gen(u, rank, b, err)
                                    : lua_alg_bfly_gen(u, rank, b, err);
}

static void la_release(void *def, void *run_ctx)
{
    const lua_alg *a = def;
    pthread_mutex_lock(a->lock);
    release_locked(run_ctx);
    pthread_mutex_unlock(a->lock);
}

const user_alg_ops lua_alg_ops = {la_prepare, la_gen, la_release};
