/* lua_collsim.c - the `collsim` Lua module: constructors for topologies, algorithms,
 * placements and workloads, unit helpers, size and rank lists, the scenario seed and
 * plot options (docs/scenarios.md documents every function with an example).
 *
 * Every function is a C closure whose first upvalue is the plan (scenario_plan). Values
 * the module returns are plain Lua data (strings, numbers, tables); topology and
 * algorithm objects are tables with the metatables "collsim.topology" and
 * "collsim.algorithm", so that collsim.sweep tells them from lists. Errors are raised
 * with luaL_error, which prefixes the caller's "file:line:".
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "common/units.h"
#include "sweep/lua_alg.h"
#include "sweep/sweep_internal.h"
#include "version.h"

sweep_plan *scenario_plan(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

int scenario_is_object(lua_State *L, int idx, const char *tname)
{
    if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx))
        return 0;
    luaL_getmetatable(L, tname);
    int same = lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return same;
}

const char *scenario_value_text(lua_State *L, int idx, const char *what, char *buf, size_t n)
{
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        const char *s = lua_tostring(L, idx);
        for (const char *c = s; *c; c++)
            if ((unsigned char)*c <= ' ')
                luaL_error(L, "%s: '%s' holds a space or control character", what, s);
        if (!*s)
            luaL_error(L, "%s: empty value", what);
        snprintf(buf, n, "%s", s);
        return buf;
    }
    case LUA_TNUMBER:
        if (lua_isinteger(L, idx))
            snprintf(buf, n, "%lld", (long long)lua_tointeger(L, idx));
        else
            snprintf(buf, n, "%.14g", lua_tonumber(L, idx));
        return buf;
    case LUA_TBOOLEAN: snprintf(buf, n, "%s", lua_toboolean(L, idx) ? "true" : "false"); return buf;
    default:
        luaL_error(L, "%s: expected a string, number or boolean, got %s", what,
                   luaL_typename(L, idx));
        return NULL;
    }
}

int scenario_push_sorted_keys(lua_State *L, int idx, const char *what, int max)
{
    idx = lua_absindex(L, idx);
    lua_newtable(L); /* the keys, to sort */
    int nkeys = 0;
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "%s: keys must be names (key=value), got a %s key", what,
                       luaL_typename(L, -2));
        if (nkeys == max)
            luaL_error(L, "%s: at most %d entries", what, max);
        lua_pushvalue(L, -2);
        lua_rawseti(L, -4, ++nkeys);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    return nkeys;
}

int scenario_join_strings(lua_State *L, int idx, const char *sep, char *buf, size_t n)
{
    idx = lua_absindex(L, idx);
    buf[0] = '\0';
    if (lua_type(L, idx) == LUA_TSTRING) {
        snprintf(buf, n, "%s", lua_tostring(L, idx));
        return 1;
    }
    if (lua_type(L, idx) != LUA_TTABLE)
        return 0;
    for (lua_Integer i = 1; lua_rawgeti(L, idx, i) == LUA_TSTRING; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? sep : "", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 1;
}

void scenario_append_sorted_kv(lua_State *L, int idx, const char *what, char *buf, size_t n,
                               const char *sep)
{
    idx = lua_absindex(L, idx);
    int nkeys = scenario_push_sorted_keys(L, idx, what, INT32_MAX);
    for (int i = 1; i <= nkeys; i++) {
        char value[256], where[320];
        lua_rawgeti(L, -1, i); /* key */
        lua_pushvalue(L, -1);
        lua_gettable(L, idx);  /* value */
        const char *key = lua_tostring(L, -2);
        snprintf(where, sizeof where, "%s: %s", what, key);
        scenario_value_text(L, -1, where, value, sizeof value);
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s=%s", len ? sep : "", key, value);
        lua_pop(L, 2);
    }
    lua_pop(L, 1);
}

/* ---- topologies ------------------------------------------------------------------------- */

/* Pushes the topology object of a spec (validated by building it once). */
static void push_topology(lua_State *L, sweep_plan *p, const char *spec)
{
    cs_error err;
    int32_t ti;
    if (plan_topology_find(p, spec, &ti, &err) < 0)
        luaL_error(L, "topology \"%s\": %s", spec, err.msg);
    const plan_topology *t = &p->topos[ti];
    lua_createtable(L, 0, 6);
    lua_pushstring(L, sweep_plan_str(p, t->spec)); /* a platform file: as found */
    lua_setfield(L, -2, "spec");
    lua_pushstring(L, t->family);
    lua_setfield(L, -2, "family");
    lua_pushinteger(L, t->hosts);
    lua_setfield(L, -2, "hosts");
    lua_pushinteger(L, t->switches);
    lua_setfield(L, -2, "switches");
    lua_pushinteger(L, t->groups);
    lua_setfield(L, -2, "groups");
    if (t->dims[0]) {
        lua_pushstring(L, t->dims);
        lua_setfield(L, -2, "dims");
    }
    luaL_setmetatable(L, "collsim.topology");
}

/* collsim.topology.<family>{key = value, ...} */
static int l_topology_family(lua_State *L)
{
    const char *family = lua_tostring(L, lua_upvalueindex(2));
    char spec[1024], what[64];
    snprintf(spec, sizeof spec, "%s", family);
    snprintf(what, sizeof what, "collsim.topology.%s", family);
    if (!lua_isnoneornil(L, 1)) {
        luaL_checktype(L, 1, LUA_TTABLE);
        char kv[1000] = "";
        scenario_append_sorted_kv(L, 1, what, kv, sizeof kv, " ");
        if (kv[0])
            snprintf(spec + strlen(spec), sizeof spec - strlen(spec), " %s", kv);
    }
    push_topology(L, scenario_plan(L), spec);
    return 1;
}

/* collsim.topology("family k=v ...") */
static int l_topology_call(lua_State *L)
{
    push_topology(L, scenario_plan(L), luaL_checkstring(L, 2));
    return 1;
}

/* tostring(topology) is its spec */
static int l_topology_tostring(lua_State *L)
{
    lua_getfield(L, 1, "spec");
    return 1;
}

void scenario_find_file(lua_State *L, const char *path, char *buf, size_t n)
{
    if (access(path, R_OK) == 0) {
        scenario_portable_path(scenario_plan(L), path, buf, n);
        return;
    }
    scenario_resolve_path(scenario_plan(L), path, buf, n);
    if (access(buf, R_OK) != 0)
        luaL_error(L, "cannot find '%s' (looked in the current directory and next to the "
                      "scenario)", path);
}

/* collsim.machine("platforms/lumi.yaml" [, {key = value}]) */
static int l_machine(lua_State *L)
{
    char spec[1024];
    scenario_find_file(L, luaL_checkstring(L, 1), spec, sizeof spec);
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        char kv[900] = "";
        scenario_append_sorted_kv(L, 2, "collsim.machine", kv, sizeof kv, " ");
        if (kv[0])
            snprintf(spec + strlen(spec), sizeof spec - strlen(spec), " %s", kv);
    }
    push_topology(L, scenario_plan(L), spec);
    return 1;
}

/* ---- units and lists ----------------------------------------------------------------------- */

/* A size argument: an integer number of bytes or a string with units. */
static int64_t check_size(lua_State *L, int idx, const char *what)
{
    if (lua_type(L, idx) == LUA_TNUMBER) {
        if (!lua_isinteger(L, idx) || lua_tointeger(L, idx) < 0)
            luaL_error(L, "%s: a size must be a whole number of bytes >= 0", what);
        return lua_tointeger(L, idx);
    }
    int64_t b;
    cs_error err;
    if (parse_size(luaL_checkstring(L, idx), &b, &err) < 0)
        luaL_error(L, "%s: %s", what, err.msg);
    return b;
}

static int l_size(lua_State *L)
{
    lua_pushinteger(L, check_size(L, 1, "collsim.size"));
    return 1;
}

static int l_bandwidth(lua_State *L)
{
    double v;
    cs_error err;
    if (parse_bandwidth(luaL_checkstring(L, 1), &v, &err) < 0)
        return luaL_error(L, "collsim.bandwidth: %s", err.msg);
    lua_pushnumber(L, v);
    return 1;
}

static int l_time(lua_State *L)
{
    double v;
    cs_error err;
    if (parse_time(luaL_checkstring(L, 1), &v, &err) < 0)
        return luaL_error(L, "collsim.time: %s", err.msg);
    lua_pushnumber(L, v);
    return 1;
}

/* from, from*factor, ... while <= to */
static void push_geometric(lua_State *L, int64_t from, int64_t to, int64_t factor, const char *what)
{
    if (from < 1 || to < from || factor < 2)
        luaL_error(L, "%s: need 1 <= from <= to and factor >= 2", what);
    lua_newtable(L);
    int i = 0;
    for (int64_t v = from; v <= to; v *= factor) {
        lua_pushinteger(L, v);
        lua_rawseti(L, -2, ++i);
        if (v > INT64_MAX / factor)
            break;
    }
}

/* from, from+step, ... while <= to (stopping before v + step could overflow) */
static void push_linear(lua_State *L, int64_t from, int64_t to, int64_t step)
{
    lua_newtable(L);
    lua_Integer i = 0;
    for (int64_t v = from;; v += step) {
        lua_pushinteger(L, v);
        lua_rawseti(L, -2, ++i);
        if ((uint64_t)to - (uint64_t)v < (uint64_t)step) /* to >= v: no overflow in uint64 */
            break;
    }
}

/* collsim.sizes.geometric("32B", "64MiB" [, factor = 2]) */
static int l_sizes_geometric(lua_State *L)
{
    push_geometric(L, check_size(L, 1, "collsim.sizes.geometric"),
                   check_size(L, 2, "collsim.sizes.geometric"), luaL_optinteger(L, 3, 2),
                   "collsim.sizes.geometric");
    return 1;
}

/* collsim.sizes.linear(from, to, step) */
static int l_sizes_linear(lua_State *L)
{
    int64_t from = check_size(L, 1, "collsim.sizes.linear");
    int64_t to = check_size(L, 2, "collsim.sizes.linear");
    int64_t step = check_size(L, 3, "collsim.sizes.linear");
    if (step < 1 || to < from)
        return luaL_error(L, "collsim.sizes.linear: need from <= to and step >= 1");
    push_linear(L, from, to, step);
    return 1;
}

/* collsim.ranks.pow2(from, to) */
static int l_ranks_pow2(lua_State *L)
{
    int64_t from = luaL_checkinteger(L, 1), to = luaL_checkinteger(L, 2);
    if (from < 1 || (from & (from - 1)))
        return luaL_error(L, "collsim.ranks.pow2: 'from' must be a power of two");
    push_geometric(L, from, to, 2, "collsim.ranks.pow2");
    return 1;
}

/* collsim.ranks.range(from, to [, step = 1]) */
static int l_ranks_range(lua_State *L)
{
    int64_t from = luaL_checkinteger(L, 1), to = luaL_checkinteger(L, 2);
    int64_t step = luaL_optinteger(L, 3, 1);
    if (step < 1 || to < from)
        return luaL_error(L, "collsim.ranks.range: need from <= to and step >= 1");
    push_linear(L, from, to, step);
    return 1;
}

/* ---- algorithms ----------------------------------------------------------------------------- */

/* Does any collective have an algorithm of this name? */
static int algorithm_exists(const sweep_plan *p, const char *name)
{
    cs_error err;
    for (int c = 0; c < COLL__COUNT; c++)
        if (registry_find(p->algorithms.n ? &p->algorithms : NULL, (coll_kind)c, name, &err))
            return 1;
    return 0;
}

/* collsim.algorithm(name [, {param = value or {values}}]) */
static int l_algorithm(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if (!algorithm_exists(scenario_plan(L), name))
        return luaL_error(L, "collsim.algorithm: no collective has an algorithm '%s' (see "
                             "collsim list)", name);
    lua_createtable(L, 0, 2);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        lua_pushvalue(L, 2);
    } else {
        lua_newtable(L);
    }
    lua_setfield(L, -2, "params");
    luaL_setmetatable(L, "collsim.algorithm");
    return 1;
}

/* collsim.algorithms("allreduce") -> every algorithm name of the collective */
static int l_algorithms(lua_State *L)
{
    coll_kind c;
    cs_error err;
    if (coll_from_name(luaL_checkstring(L, 1), &c, &err) < 0)
        return luaL_error(L, "collsim.algorithms: %s", err.msg);
    const sweep_plan *p = scenario_plan(L);
    lua_newtable(L);
    int i = 0;
    for (size_t k = 0; k < registry_builtin_count(); k++)
        if (registry_builtin_at(k)->coll == c) {
            lua_pushstring(L, registry_builtin_at(k)->name);
            lua_rawseti(L, -2, ++i);
        }
    for (size_t k = 0; k < p->algorithms.n; k++)
        if (p->algorithms.algs[k]->coll == c) {
            lua_pushstring(L, p->algorithms.algs[k]->name);
            lua_rawseti(L, -2, ++i);
        }
    return 1;
}

/* ---- placements and workloads ------------------------------------------------------------ */

static int l_placement_random(lua_State *L)
{
    if (lua_isnoneornil(L, 1))
        lua_pushliteral(L, "random");
    else
        lua_pushfstring(L, "random:%I", (lua_Integer)luaL_checkinteger(L, 1));
    return 1;
}

static int l_placement_fragmented(lua_State *L)
{
    lua_Integer k = luaL_checkinteger(L, 1);
    if (lua_isnoneornil(L, 2))
        lua_pushfstring(L, "fragmented:%I", k);
    else
        lua_pushfstring(L, "fragmented:%I:%I", k, (lua_Integer)luaL_checkinteger(L, 2));
    return 1;
}

static int l_placement_file(lua_State *L)
{
    char path[1024];
    scenario_find_file(L, luaL_checkstring(L, 1), path, sizeof path);
    lua_pushfstring(L, "file:%s", path);
    return 1;
}

/* The {order = "block" | "cyclic"} options of a placement, as its text suffix. */
static const char *order_suffix(lua_State *L, int idx, const char *what)
{
    if (lua_isnoneornil(L, idx))
        return "";
    luaL_checktype(L, idx, LUA_TTABLE);
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1))
        if (lua_type(L, -2) != LUA_TSTRING || strcmp(lua_tostring(L, -2), "order") != 0)
            luaL_error(L, "%s: unknown option '%s' (allowed: order; ranks per node is the "
                          "sweep's ranks_per_node)", what,
                       lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
    lua_getfield(L, idx, "order");
    alloc_order order = ALLOC_ORDER_BLOCK;
    cs_error err;
    if (!lua_isnil(L, -1) && alloc_order_parse(luaL_checkstring(L, -1), &order, &err) < 0)
        luaL_error(L, "%s: %s", what, err.msg);
    lua_pop(L, 1);
    return order == ALLOC_ORDER_CYCLIC ? " order=cyclic" : "";
}

/* collsim.placement.alloc("lrdn[0001-0004]" | "nodes.txt" | "env" [, {order = "cyclic"}])
 * -> "alloc:... [order=cyclic]" (--alloc / --order); a file is looked up like
 * collsim.machine's, and the allocation is read now, so that its errors stop the scenario. */
static int l_placement_alloc(lua_State *L)
{
    const char *what = "collsim.placement.alloc";
    const char *spec = luaL_checkstring(L, 1);
    char path[1024], text[1200];
    scenario_portable_path(scenario_plan(L), spec, path, sizeof path);
    if (strcmp(spec, "env") != 0 && access(spec, R_OK) != 0) {
        scenario_resolve_path(scenario_plan(L), spec, path, sizeof path);
        if (access(path, R_OK) != 0) /* no such file: a hostlist expression */
            snprintf(path, sizeof path, "%s", spec);
    }
    snprintf(text, sizeof text, "alloc:%s%s", path, order_suffix(L, 2, what));
    placement_spec ps;
    allocation a;
    cs_error err;
    if (placement_parse(text, &ps, &err) < 0 || alloc_read(ps.path, &a, &err) < 0)
        return luaL_error(L, "%s: %s", what, err.msg);
    alloc_free(&a);
    lua_pushstring(L, text);
    return 1;
}

/* collsim.workload("uniform", {S = "1KiB", seed = 7}) -> "uniform:S=1KiB:seed=7" */
static int l_workload(lua_State *L)
{
    char text[512];
    snprintf(text, sizeof text, "%s", luaL_checkstring(L, 1));
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        char kv[400] = "";
        scenario_append_sorted_kv(L, 2, "collsim.workload", kv, sizeof kv, ":");
        if (kv[0])
            snprintf(text + strlen(text), sizeof text - strlen(text), ":%s", kv);
    }
    workload_params wp;
    cs_error err;
    if (workload_parse(text, &wp, &err) < 0)
        return luaL_error(L, "collsim.workload: %s", err.msg);
    lua_pushstring(L, text);
    return 1;
}

/* ---- scenario settings ---------------------------------------------------------------------- */

/* collsim.seed(n) sets the scenario seed; collsim.seed() returns it. */
static int l_seed(lua_State *L)
{
    sweep_plan *p = scenario_plan(L);
    if (!lua_isnoneornil(L, 1)) {
        lua_Integer s = luaL_checkinteger(L, 1);
        if (s < 0)
            return luaL_error(L, "collsim.seed: the seed must be >= 0");
        if (p->seed_used && !p->seed_from_cli && (uint64_t)s != p->facts.seed)
            return luaL_error(L, "collsim.seed: call it before the first collsim.sweep");
        if (!p->seed_from_cli)
            p->facts.seed = (uint64_t)s;
    }
    lua_pushinteger(L, (lua_Integer)p->facts.seed);
    return 1;
}

/* collsim.plot{baseline = "name" or {names}} */
static int l_plot(lua_State *L)
{
    sweep_plan *p = scenario_plan(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1))
        if (lua_type(L, -2) != LUA_TSTRING || strcmp(lua_tostring(L, -2), "baseline") != 0)
            return luaL_error(L, "collsim.plot: unknown key '%s' (allowed: baseline)",
                              lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?");
    lua_getfield(L, 1, "baseline");
    if (!scenario_join_strings(L, -1, ",", p->facts.plot_baseline,
                               sizeof p->facts.plot_baseline) && !lua_isnil(L, -1)) {
        return luaL_error(L, "collsim.plot: baseline must be an algorithm name or a list of "
                             "names");
    }
    return 0;
}

/* collsim.sweep / collsim.draw when the file is loaded for its algorithms only. */
static int l_skipped(lua_State *L)
{
    (void)L;
    return 0;
}

/* ---- the module table ------------------------------------------------------------------------ */

static void set_fn(lua_State *L, sweep_plan *p, const char *name, lua_CFunction fn)
{
    lua_pushlightuserdata(L, p);
    lua_pushcclosure(L, fn, 1);
    lua_setfield(L, -2, name);
}

static void push_string_list(lua_State *L, const char *const *names, int n)
{
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushstring(L, names[i]);
        lua_rawseti(L, -2, i + 1);
    }
}

/* collsim.topology: a family constructor per family, callable with a spec string. */
static void open_topologies(lua_State *L, sweep_plan *p)
{
    lua_newtable(L);
    for (size_t i = 0; i < topo_family_count(); i++) {
        lua_pushlightuserdata(L, p);
        lua_pushstring(L, topo_family_at(i)->name);
        lua_pushcclosure(L, l_topology_family, 2);
        lua_setfield(L, -2, topo_family_at(i)->name);
    }
    lua_createtable(L, (int)topo_family_count(), 0); /* collsim.topology.families */
    for (size_t i = 0; i < topo_family_count(); i++) {
        lua_pushstring(L, topo_family_at(i)->name);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    lua_setfield(L, -2, "families");
    lua_newtable(L);
    set_fn(L, p, "__call", l_topology_call);
    lua_setmetatable(L, -2);
    lua_setfield(L, -2, "topology");
}

static void open_lists(lua_State *L, sweep_plan *p)
{
    lua_newtable(L);
    set_fn(L, p, "geometric", l_sizes_geometric);
    set_fn(L, p, "linear", l_sizes_linear);
    lua_setfield(L, -2, "sizes");
    lua_newtable(L);
    set_fn(L, p, "pow2", l_ranks_pow2);
    set_fn(L, p, "range", l_ranks_range);
    lua_setfield(L, -2, "ranks");
    lua_newtable(L);
    lua_pushliteral(L, "linear");
    lua_setfield(L, -2, "linear");
    lua_pushliteral(L, "roundrobin");
    lua_setfield(L, -2, "roundrobin");
    set_fn(L, p, "random", l_placement_random);
    set_fn(L, p, "fragmented", l_placement_fragmented);
    set_fn(L, p, "file", l_placement_file);
    set_fn(L, p, "alloc", l_placement_alloc);
    lua_setfield(L, -2, "placement");
    const char *colls[COLL__COUNT];
    for (int c = 0; c < COLL__COUNT; c++)
        colls[c] = coll_name((coll_kind)c);
    push_string_list(L, colls, COLL__COUNT);
    lua_setfield(L, -2, "collectives");
    static const char *const models[] = {"cm02", "lv08", "smpi", "traffic", "packet",
                                         "analytic"};
    push_string_list(L, models, 6);
    lua_setfield(L, -2, "models");
}

static void open_info(lua_State *L, sweep_plan *p)
{
    lua_pushliteral(L, COLLSIM_VERSION);
    lua_setfield(L, -2, "version");
    lua_createtable(L, 0, 4);
    lua_pushstring(L, p->facts.path);
    lua_setfield(L, -2, "scenario");
    lua_pushstring(L, p->facts.name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, p->dir);
    lua_setfield(L, -2, "dir");
    lua_pushstring(L, p->outdir);
    lua_setfield(L, -2, "outdir");
    lua_setfield(L, -2, "info");
}

void scenario_open_collsim(lua_State *L, sweep_plan *p)
{
    luaL_newmetatable(L, "collsim.topology");
    lua_pushcfunction(L, l_topology_tostring);
    lua_setfield(L, -2, "__tostring");
    lua_pop(L, 1);
    luaL_newmetatable(L, "collsim.algorithm");
    lua_pop(L, 1);
    lua_newtable(L);
    open_topologies(L, p);
    open_lists(L, p);
    open_info(L, p);
    set_fn(L, p, "machine", l_machine);
    set_fn(L, p, "size", l_size);
    set_fn(L, p, "bandwidth", l_bandwidth);
    set_fn(L, p, "time", l_time);
    set_fn(L, p, "algorithm", l_algorithm);
    set_fn(L, p, "algorithms", l_algorithms);
    set_fn(L, p, "workload", l_workload);
    set_fn(L, p, "seed", l_seed);
    set_fn(L, p, "plot", l_plot);
    set_fn(L, p, "define_algorithm", scenario_l_define_algorithm);
    /* --lua FILE (algorithms only): the file's sweeps and pictures are not made */
    set_fn(L, p, "draw", p->algorithms_only ? l_skipped : scenario_l_draw);
    set_fn(L, p, "sweep", p->algorithms_only ? l_skipped : scenario_l_sweep);
    lua_pushvalue(L, -1);
    lua_setglobal(L, "collsim");
}
