/* lua_sweep.c - collsim.sweep{...}: reading and validating the sweep table into axes
 * (sweep_internal.h), then lua_expand.c multiplies them out.
 *
 * Every key is one axis; its value is one value or a list of values. Anything wrong is
 * raised as a Lua error, so it carries the "file:line:" of the collsim.sweep call:
 * unknown keys, unknown collectives, algorithms, algorithm parameters or topology keys,
 * malformed sizes, placements, models, workloads, dims or rates. Constraints that depend
 * on the point (P a power of two, P <= hosts) are left to the run, where they make rows
 * with status "error".
 *
 * The axes live in a userdata with a __gc metamethod, so that an error raised half-way
 * frees them with the Lua state.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/kv.h"
#include "common/units.h"
#include "common/util.h"
#include "sim/sim_external.h"
#include "sweep/sweep_internal.h"
#include "topologies/groupmap.h"

#define KEYS                                                                                  \
    "topology, groups, collective, algorithm (or topologies, collectives, algorithms), "     \
    "ranks, "                                                                                \
    "ranks_per_node, size (sizes), placement (placements), model (models), routing "         \
    "(routings), mtu (mtus), buffer (buffers), packet_engine, flow_engine, barrier, "         \
    "workload (workloads), "                                                                 \
    "root, dst, send_overhead, recv_overhead, msg_gap, envelope, eager_limit, "               \
    "dims, fail_links, degrade_links, fault_seed, "                                          \
    "reduce_rate, copy_rate, repetitions, auto_factor, auto_model, filter, on_result, jobs"

/* Keys and the axis they fill (-1: not an axis). */
static const struct {
    const char *key, *alias;
    int axis;
} sweep_keys[] = {
    {"topology", "topologies", AX_TOPOLOGY},  {"groups", NULL, AX_GROUPS},
    {"collective", "collectives", AX_COLLECTIVE},
    {"algorithm", "algorithms", AX_ALGORITHM}, {"ranks", NULL, AX_RANKS},
    {"ranks_per_node", NULL, AX_RANKS_PER_NODE}, {"size", "sizes", AX_SIZE},
    {"placement", "placements", AX_PLACEMENT}, {"model", "models", AX_MODEL},
    {"routing", "routings", AX_ROUTING},      {"mtu", "mtus", AX_MTU},
    {"buffer", "buffers", AX_BUFFER},         {"barrier", NULL, AX_BARRIER},
    {"packet_engine", NULL, AX_ENGINE},      {"flow_engine", NULL, AX_FLOW_ENGINE},
    {"workload", "workloads", AX_WORKLOAD},   {"root", NULL, AX_ROOT},
    {"dst", NULL, AX_DST},                    {"dims", NULL, AX_DIMS},
    {"reduce_rate", NULL, AX_REDUCE},         {"copy_rate", NULL, AX_COPY},
    {"send_overhead", NULL, AX_SEND_OVERHEAD}, {"recv_overhead", NULL, AX_RECV_OVERHEAD},
    {"msg_gap", NULL, AX_MSG_GAP},             {"envelope", NULL, AX_ENVELOPE},
    {"eager_limit", NULL, AX_EAGER_LIMIT},
    {"repetitions", "repeat", AX_REP},        {"auto_factor", NULL, -1},
    {"auto_model", NULL, -1},                 {"filter", NULL, -1},
    {"on_result", NULL, -1},
};
#define NKEYS (sizeof sweep_keys / sizeof sweep_keys[0])

static int axes_gc(lua_State *L)
{
    sweep_axes *ax = lua_touserdata(L, 1);
    for (int a = 0; a < AX__COUNT; a++)
        free(ax->v[a]);
    free(ax->variant_name);
    free(ax->variant_params);
    free(ax->variant_all);
    memset(ax, 0, sizeof *ax);
    return 0;
}

static sweep_axes *new_axes(lua_State *L)
{
    sweep_axes *ax = lua_newuserdatauv(L, sizeof *ax, 0);
    memset(ax, 0, sizeof *ax);
    ax->dims_fn = ax->filter = ax->on_result = LUA_NOREF;
    if (luaL_newmetatable(L, "collsim.sweep_axes")) {
        lua_pushcfunction(L, axes_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    return ax;
}

void sweep_axes_add(sweep_axes *ax, int a, int64_t i, double d)
{
    VEC_RESERVE(ax->v[a], ax->cap[a], ax->n[a] + 1);
    ax->v[a][ax->n[a]++] = (axis_value){i, d};
}

/* ---- the table's keys ----------------------------------------------------------------------- */

/* Pushes the value of key (or its alias) from the sweep table at index 1; fails when
 * both are given. Returns 0 when neither is. */
static int get_key(lua_State *L, size_t k)
{
    int t1 = lua_getfield(L, 1, sweep_keys[k].key);
    if (!sweep_keys[k].alias)
        return t1 != LUA_TNIL;
    int t2 = lua_getfield(L, 1, sweep_keys[k].alias);
    if (t1 != LUA_TNIL && t2 != LUA_TNIL)
        luaL_error(L, "collsim.sweep: give '%s' or '%s', not both", sweep_keys[k].key,
                   sweep_keys[k].alias);
    if (t2 == LUA_TNIL)
        lua_pop(L, 1);
    else
        lua_remove(L, -2);
    return t1 != LUA_TNIL || t2 != LUA_TNIL;
}

static void check_keys(lua_State *L)
{
    for (lua_pushnil(L); lua_next(L, 1); lua_pop(L, 1)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        int known = 0;
        for (size_t k = 0; key && k < NKEYS && !known; k++)
            known = strcmp(key, sweep_keys[k].key) == 0 ||
                    (sweep_keys[k].alias && strcmp(key, sweep_keys[k].alias) == 0);
        known |= key && strcmp(key, "jobs") == 0; /* lua_jobs.c */
        if (!known)
            luaL_error(L, "collsim.sweep: unknown key '%s' (allowed: " KEYS ")",
                       key ? key : luaL_typename(L, -2));
    }
}

/* Is the value at idx a list of values (a plain table), rather than one value? */
static int is_list(lua_State *L, int idx)
{
    return lua_type(L, idx) == LUA_TTABLE && !scenario_is_object(L, idx, "collsim.topology") &&
           !scenario_is_object(L, idx, "collsim.algorithm");
}

typedef void (*value_fn)(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key);

/* Calls fn for the value on top of the stack, or for each element if it is a list; pops
 * it. fn finds its value on top of the stack and leaves the stack as it found it. */
static void each_value(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key,
                       value_fn fn)
{
    if (!is_list(L, -1)) {
        fn(L, p, ax, a, key);
    } else {
        lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
        if (n == 0)
            luaL_error(L, "collsim.sweep: '%s' is an empty list", key);
        for (lua_Integer i = 1; i <= n; i++) {
            lua_rawgeti(L, -1, i);
            fn(L, p, ax, a, key);
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
}

/* ---- values of each axis ------------------------------------------------------------------ */

static void fail_cs(lua_State *L, const char *key, const cs_error *err)
{
    luaL_error(L, "collsim.sweep: %s: %s", key, err->msg);
}

static void v_topology(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    const char *spec;
    if (scenario_is_object(L, -1, "collsim.topology")) {
        lua_getfield(L, -1, "spec");
        spec = lua_tostring(L, -1);
        lua_pop(L, 1); /* the object on the stack keeps the string alive */
    } else if (lua_type(L, -1) == LUA_TSTRING) {
        spec = lua_tostring(L, -1);
    } else {
        luaL_error(L, "collsim.sweep: %s: expected a topology (collsim.topology..., "
                      "collsim.machine(...) or a spec string), got %s", key,
                   luaL_typename(L, -1));
        return;
    }
    int32_t ti;
    cs_error err;
    if (plan_topology_find(p, spec, &ti, &err) < 0)
        luaL_error(L, "collsim.sweep: topology \"%s\": %s", spec, err.msg);
    sweep_axes_add(ax, a, ti, 0);
}

/* A group map (file or preset) for the external platforms, found like collsim.machine's
 * file and read now, so that its errors stop the scenario (file:line). */
static void v_groups(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    char path[4096];
    scenario_find_file(L, luaL_checkstring(L, -1), path, sizeof path);
    group_map *map;
    cs_error err;
    if (group_map_load(path, &map, &err) < 0)
        fail_cs(L, key, &err);
    group_map_free(map);
    sweep_axes_add(ax, a, plan_intern(p, path), 0);
}

static void v_collective(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    coll_kind c;
    cs_error err;
    if (coll_from_name(luaL_checkstring(L, -1), &c, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, c, 0);
}

static void v_model(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    sim_model m;
    cs_error err;
    if (strcmp(luaL_checkstring(L, -1), "auto") == 0)
        m = (sim_model)SWEEP_MODEL_AUTO;
    else if (sim_model_parse(lua_tostring(L, -1), &m, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, m, 0);
}

/* model = "auto": auto_factor (a number >= 1, default SWEEP_AUTO_FACTOR) and auto_model
 * (the second pass: cm02, the default, lv08, smpi or packet); refused without "auto". */
static void read_auto_keys(lua_State *L, sweep_axes *ax)
{
    int is_auto = 0;
    for (size_t m = 0; m < ax->n[AX_MODEL]; m++)
        is_auto |= ax->v[AX_MODEL][m].i == SWEEP_MODEL_AUTO;
    ax->auto_factor = SWEEP_AUTO_FACTOR;
    ax->auto_model = SIM_MODEL_CM02;
    static const char *const keys[] = {"auto_factor", "auto_model"};
    for (int k = 0; k < 2; k++) {
        if (lua_getfield(L, 1, keys[k]) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (!is_auto)
            luaL_error(L, "collsim.sweep: %s applies to model = \"auto\" only", keys[k]);
        if (k == 0) {
            if (!lua_isnumber(L, -1) || !(lua_tonumber(L, -1) >= 1) || isinf(lua_tonumber(L, -1)))
                luaL_error(L, "collsim.sweep: auto_factor: a number >= 1 (the second pass runs "
                              "the points within this factor of the best first-pass time)");
            ax->auto_factor = lua_tonumber(L, -1);
        } else {
            sim_model m;
            cs_error err;
            if (sim_model_parse(luaL_checkstring(L, -1), &m, &err) < 0 ||
                m == SIM_MODEL_TRAFFIC || m == SIM_MODEL_ANALYTIC)
                luaL_error(L, "collsim.sweep: auto_model: unknown or untimed second-pass model "
                              "'%s' (allowed: cm02, lv08, smpi, packet)", lua_tostring(L, -1));
            ax->auto_model = (int)m;
        }
        lua_pop(L, 1);
    }
}

/* barrier: true or false (or a list of both). */
static void v_barrier(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    if (lua_type(L, -1) != LUA_TBOOLEAN)
        luaL_error(L, "collsim.sweep: %s: expected true or false (or a list of them), got %s",
                   key, luaL_tolstring(L, -1, NULL));
    sweep_axes_add(ax, a, lua_toboolean(L, -1), 0);
}

/* "random" and "fragmented:K" take the point's seed; anything else must parse as is. */
static void v_placement(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    const char *text = luaL_checkstring(L, -1);
    char probe[1200];
    int colons = 0;
    for (const char *c = text; *c; c++)
        colons += *c == ':';
    if (strcmp(text, "random") == 0 || (strncmp(text, "fragmented:", 11) == 0 && colons == 1))
        snprintf(probe, sizeof probe, "%s:0", text);
    else
        snprintf(probe, sizeof probe, "%s", text);
    placement_spec ps;
    cs_error err;
    if (placement_parse(probe, &ps, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, plan_intern(p, text), 0);
}

static void v_workload(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    const char *text = luaL_checkstring(L, -1);
    workload_params wp;
    cs_error err;
    if (workload_parse(text, &wp, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, plan_intern(p, text), 0);
}

static void v_int(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    int64_t min = a == AX_RANKS ? 2 : a == AX_RANKS_PER_NODE || a == AX_REP ? 1 : 0;
    if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < min || lua_tointeger(L, -1) > INT32_MAX)
        luaL_error(L, "collsim.sweep: %s: expected whole numbers in %d..2147483647, got %s", key,
                   (int)min, luaL_tolstring(L, -1, NULL));
    sweep_axes_add(ax, a, lua_tointeger(L, -1), 0);
}

/* A size: a whole number of bytes or a string with units. */
static int64_t read_size(lua_State *L, const char *key)
{
    int64_t b = 0;
    cs_error err;
    if (lua_type(L, -1) == LUA_TNUMBER) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
            luaL_error(L, "collsim.sweep: %s: a size must be a whole number of bytes >= 0", key);
        b = lua_tointeger(L, -1);
    } else if (parse_size(luaL_checkstring(L, -1), &b, &err) < 0) {
        fail_cs(L, key, &err);
    }
    return b;
}

static void v_size(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    sweep_axes_add(ax, a, read_size(L, key), 0);
}

/* The packet model's mtu and buffer: 1 B .. PK_MAX_BUFFER (buffer >= mtu: checked per
 * point when it runs, since a sweep may list several of each). */
static void v_packet_size(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    int64_t b = read_size(L, key);
    if (b < 1 || b > PK_MAX_BUFFER)
        luaL_error(L, "collsim.sweep: %s: %lld bytes is outside 1B .. 1GiB", key, (long long)b);
    sweep_axes_add(ax, a, b, 0);
}

static void v_routing(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    pk_routing r;
    cs_error err;
    if (pk_routing_parse(luaL_checkstring(L, -1), &r, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, r, 0);
}

static void v_engine(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    pk_engine e;
    cs_error err;
    if (pk_engine_parse(luaL_checkstring(L, -1), &e, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, e, 0);
}

static void v_flow_engine(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    flow_engine e;
    cs_error err;
    if (flow_engine_parse(luaL_checkstring(L, -1), &e, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, e, 0);
}

/* "AxB": checked now; a function is called for each point (lua_expand.c). */
static void v_dims(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    if (lua_type(L, -1) == LUA_TFUNCTION) {
        if (ax->dims_fn != LUA_NOREF)
            luaL_error(L, "collsim.sweep: %s: at most one function", key);
        lua_pushvalue(L, -1);
        ax->dims_fn = luaL_ref(L, LUA_REGISTRYINDEX);
        sweep_axes_add(ax, a, DIMS_FROM_FUNCTION, 0);
        return;
    }
    kv_list kv;
    int32_t dims[SPEC_MAX_DIMS];
    int nd;
    cs_error err;
    kv_init(&kv);
    const char *text = luaL_checkstring(L, -1);
    if (kv_set(&kv, "dims", text, 0, &err) < 0 ||
        kv_dims(&kv, "dims", NULL, dims, SPEC_MAX_DIMS, &nd, &err) < 0)
        fail_cs(L, key, &err);
    sweep_axes_add(ax, a, plan_intern(p, text), 0);
}

/* A rate: "free" or 0 (no cost), a bandwidth string, or bytes per second. */
static void v_rate(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    double r = 0;
    cs_error err;
    if (lua_type(L, -1) == LUA_TNUMBER) {
        r = lua_tonumber(L, -1);
        if (!(r >= 0) || isinf(r))
            luaL_error(L, "collsim.sweep: %s: a rate must be >= 0 bytes per second", key);
    } else if (strcmp(luaL_checkstring(L, -1), "free") != 0 &&
               parse_bandwidth(lua_tostring(L, -1), &r, &err) < 0) {
        fail_cs(L, key, &err);
    }
    sweep_axes_add(ax, a, 0, r);
}

/* An endpoint key (sim/endpoint.h): a time ("1.2us", or seconds as a number) or a size
 * ("64B", or bytes as a whole number), checked as the CLI checks it. */
static void v_endpoint(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)p;
    char text[64];
    if (lua_type(L, -1) == LUA_TNUMBER && a <= AX_MSG_GAP)
        snprintf(text, sizeof text, "%.17gs", lua_tonumber(L, -1));
    else if (lua_type(L, -1) == LUA_TNUMBER)
        snprintf(text, sizeof text, "%lld", (long long)read_size(L, key));
    else
        snprintf(text, sizeof text, "%s", luaL_checkstring(L, -1));
    endpoint_config ec;
    cs_error err;
    endpoint_config_init(&ec);
    static const char *const names[] = {"send_overhead", "recv_overhead", "msg_gap", "envelope",
                                        "eager_limit"};
    if (endpoint_set(&ec, names[a - AX_SEND_OVERHEAD], text, &err) < 0)
        fail_cs(L, key, &err);
    if (a <= AX_MSG_GAP)
        sweep_axes_add(ax, a, 0, a == AX_SEND_OVERHEAD  ? ec.send_overhead_s
                            : a == AX_RECV_OVERHEAD ? ec.recv_overhead_s
                                                    : ec.msg_gap_s);
    else
        sweep_axes_add(ax, a, a == AX_ENVELOPE ? ec.envelope_B : ec.eager_limit_B, 0);
}

static value_fn axis_reader(int a)
{
    switch (a) {
    case AX_TOPOLOGY: return v_topology;
    case AX_COLLECTIVE: return v_collective;
    case AX_GROUPS: return v_groups;
    case AX_MODEL: return v_model;
    case AX_ROUTING: return v_routing;
    case AX_ENGINE: return v_engine;
    case AX_FLOW_ENGINE: return v_flow_engine;
    case AX_BARRIER: return v_barrier;
    case AX_SEND_OVERHEAD:
    case AX_RECV_OVERHEAD:
    case AX_MSG_GAP:
    case AX_ENVELOPE:
    case AX_EAGER_LIMIT: return v_endpoint;
    case AX_MTU:
    case AX_BUFFER: return v_packet_size;
    case AX_PLACEMENT: return v_placement;
    case AX_WORKLOAD: return v_workload;
    case AX_SIZE: return v_size;
    case AX_DIMS: return v_dims;
    case AX_REDUCE:
    case AX_COPY: return v_rate;
    default: return v_int;
    }
}

/* ---- algorithms ------------------------------------------------------------------------- */

/* The descriptor of `name` for the first of the sweep's collectives that has it. */
static const alg_desc *find_alg(lua_State *L, sweep_plan *p, const sweep_axes *ax,
                                const char *name)
{
    cs_error err, first;
    cs_error_clear(&first);
    const alg_registry *user = p->algorithms.n ? &p->algorithms : NULL;
    for (size_t c = 0; c < ax->n[AX_COLLECTIVE]; c++) {
        const alg_desc *d = registry_find(user, (coll_kind)ax->v[AX_COLLECTIVE][c].i, name, &err);
        if (d)
            return d;
        if (c == 0)
            first = err;
    }
    luaL_error(L, "collsim.sweep: algorithm: %s", first.msg);
    return NULL;
}

static void add_variant(sweep_plan *p, sweep_axes *ax, const char *name, const char *params)
{
    VEC_RESERVE(ax->variant_name, ax->variants_cap, ax->nvariants + 1);
    ax->variant_params = xrealloc(ax->variant_params, ax->variants_cap * sizeof(int32_t));
    ax->variant_all = xrealloc(ax->variant_all, ax->variants_cap);
    ax->variant_all[ax->nvariants] = 0;
    ax->variant_name[ax->nvariants] = plan_intern(p, name);
    ax->variant_params[ax->nvariants] = plan_intern(p, params);
    sweep_axes_add(ax, AX_ALGORITHM, (int64_t)ax->nvariants, 0);
    ax->nvariants++;
}

/* The variants of an algorithm object: every combination of its parameter values. The
 * table at idx maps names (sorted here) to a value or a list of values. */
static void object_variants(lua_State *L, sweep_plan *p, sweep_axes *ax, const alg_desc *d,
                            int params_idx, char *prefix, size_t n, int depth, int nkeys)
{
    if (depth > nkeys) {
        coll_spec s;
        cs_error err;
        coll_spec_init(&s, d->coll, 2, 0);
        if (coll_spec_set_params(&s, prefix, &err) < 0 || alg_check_params(d, &s, &err) < 0)
            luaL_error(L, "collsim.sweep: algorithm %s: %s", d->name, err.msg);
        add_variant(p, ax, d->name, prefix);
        return;
    }
    lua_rawgeti(L, -1, depth); /* key (the sorted key list is on top) */
    const char *key = lua_tostring(L, -1);
    lua_getfield(L, params_idx, key);
    int list = lua_type(L, -1) == LUA_TTABLE;
    lua_Integer nv = list ? (lua_Integer)lua_rawlen(L, -1) : 1;
    if (nv == 0)
        luaL_error(L, "collsim.sweep: algorithm %s: parameter %s: empty list", d->name, key);
    size_t len = strlen(prefix);
    for (lua_Integer i = 1; i <= nv; i++) {
        char value[128], what[160];
        if (list)
            lua_rawgeti(L, -1, i);
        else
            lua_pushvalue(L, -1);
        snprintf(what, sizeof what, "algorithm %s: parameter %s", d->name, key);
        scenario_value_text(L, -1, what, value, sizeof value);
        lua_pop(L, 1);
        snprintf(prefix + len, n - len, "%s%s=%s", len ? " " : "", key, value);
        lua_pushvalue(L, -3); /* the key list back on top for the next level */
        object_variants(L, p, ax, d, params_idx, prefix, n, depth + 1, nkeys);
        lua_pop(L, 1);
    }
    prefix[len] = '\0';
    lua_pop(L, 2);
}

static void v_algorithm(lua_State *L, sweep_plan *p, sweep_axes *ax, int a, const char *key)
{
    (void)a;
    (void)key;
    if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), "all") == 0) {
        const alg_registry *user = p->algorithms.n ? &p->algorithms : NULL;
        for (size_t c = 0; c < ax->n[AX_COLLECTIVE]; c++)
            for (size_t k = 0; k < registry_builtin_count() + (user ? user->n : 0); k++) {
                const alg_desc *d = k < registry_builtin_count()
                                        ? registry_builtin_at(k)
                                        : user->algs[k - registry_builtin_count()];
                if (d->coll == (coll_kind)ax->v[AX_COLLECTIVE][c].i) {
                    add_variant(p, ax, d->name, "");
                    ax->variant_all[ax->nvariants - 1] = 1;
                }
            }
        return;
    }
    if (lua_type(L, -1) == LUA_TSTRING) {
        add_variant(p, ax, find_alg(L, p, ax, lua_tostring(L, -1))->name, "");
        return;
    }
    if (!scenario_is_object(L, -1, "collsim.algorithm"))
        luaL_error(L, "collsim.sweep: algorithm: expected a name, \"all\" or "
                      "collsim.algorithm(...), got %s", luaL_typename(L, -1));
    lua_getfield(L, -1, "name");
    const alg_desc *d = find_alg(L, p, ax, lua_tostring(L, -1));
    lua_getfield(L, -2, "params");
    int params_idx = lua_gettop(L);
    lua_newtable(L); /* sorted parameter names */
    int nkeys = 0;
    for (lua_pushnil(L); lua_next(L, params_idx); lua_pop(L, 1)) {
        if (lua_type(L, -2) != LUA_TSTRING)
            luaL_error(L, "collsim.sweep: algorithm %s: parameters are name = value", d->name);
        lua_pushvalue(L, -2);
        lua_rawseti(L, -4, ++nkeys);
    }
    lua_getglobal(L, "table");
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    char prefix[512] = "";
    if (nkeys == 0)
        add_variant(p, ax, d->name, "");
    else
        object_variants(L, p, ax, d, params_idx, prefix, sizeof prefix, 1, nkeys);
    lua_settop(L, params_idx - 2);
}

/* ---- the sweep ------------------------------------------------------------------------------ */

/* Defaults of the optional axes. */
static void add_defaults(sweep_plan *p, sweep_axes *ax)
{
    if (!ax->n[AX_GROUPS])
        sweep_axes_add(ax, AX_GROUPS, -1, 0);
    if (!ax->n[AX_MODEL])
        sweep_axes_add(ax, AX_MODEL, SIM_MODEL_CM02, 0);
    if (!ax->n[AX_ROUTING])
        sweep_axes_add(ax, AX_ROUTING, PK_ROUTE_MINIMAL, 0);
    if (!ax->n[AX_MTU])
        sweep_axes_add(ax, AX_MTU, PK_DEFAULT_MTU, 0);
    if (!ax->n[AX_BUFFER])
        sweep_axes_add(ax, AX_BUFFER, PK_DEFAULT_BUFFER, 0);
    if (!ax->n[AX_ENGINE])
        sweep_axes_add(ax, AX_ENGINE, PK_ENGINE_LOOP, 0);
    if (!ax->n[AX_FLOW_ENGINE])
        sweep_axes_add(ax, AX_FLOW_ENGINE, FLOW_ENGINE_SIMGRID, 0);
    if (!ax->n[AX_BARRIER])
        sweep_axes_add(ax, AX_BARRIER, 0, 0);
    for (int a = AX_SEND_OVERHEAD; a <= AX_EAGER_LIMIT; a++)
        if (!ax->n[a])
            sweep_axes_add(ax, a, -1, 0); /* not given */
    if (!ax->n[AX_PLACEMENT])
        sweep_axes_add(ax, AX_PLACEMENT, plan_intern(p, "linear"), 0);
    if (!ax->n[AX_RANKS_PER_NODE])
        sweep_axes_add(ax, AX_RANKS_PER_NODE, 1, 0);
    if (!ax->n[AX_WORKLOAD])
        sweep_axes_add(ax, AX_WORKLOAD, -1, 0);
    if (!ax->n[AX_ROOT])
        sweep_axes_add(ax, AX_ROOT, 0, 0);
    if (!ax->n[AX_DST])
        sweep_axes_add(ax, AX_DST, 1, 0);
    if (!ax->n[AX_DIMS])
        sweep_axes_add(ax, AX_DIMS, -1, 0);
    if (!ax->n[AX_REDUCE])
        sweep_axes_add(ax, AX_REDUCE, 0, SIM_DEFAULT_REDUCE_BPS);
    if (!ax->n[AX_COPY])
        sweep_axes_add(ax, AX_COPY, 0, SIM_DEFAULT_COPY_BPS);
    if (!ax->n[AX_SIZE])
        sweep_axes_add(ax, AX_SIZE, (int64_t)1 << 20, 0);
    if (!ax->n[AX_JOBS])
        sweep_axes_add(ax, AX_JOBS, -1, 0);
}

/* collsim run --model M: every model value but traffic becomes M (once: a sweep of cm02
 * and smpi under --model packet has one model, not two identical ones). */
static void override_model(const sweep_plan *p, sweep_axes *ax)
{
    if (!p->have_model)
        return;
    size_t kept = 0;
    int have_override = 0;
    for (size_t m = 0; m < ax->n[AX_MODEL]; m++) {
        sim_model v = (sim_model)ax->v[AX_MODEL][m].i;
        if (v != SIM_MODEL_TRAFFIC) {
            if (have_override)
                continue;
            have_override = 1;
            v = p->model;
        }
        ax->v[AX_MODEL][kept++].i = v;
    }
    ax->n[AX_MODEL] = kept;
}

/* repetitions = N is the axis 0 .. N-1 ("repeat" is a Lua keyword: only t["repeat"]) */
static void read_repeat(lua_State *L, sweep_axes *ax, size_t k)
{
    lua_Integer n = 1;
    if (get_key(L, k)) {
        if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 || lua_tointeger(L, -1) > 1000000)
            luaL_error(L, "collsim.sweep: repetitions: expected a whole number in 1..1000000");
        n = lua_tointeger(L, -1);
        lua_pop(L, 1);
    }
    for (lua_Integer r = 0; r < n; r++)
        sweep_axes_add(ax, AX_REP, r, 0);
}

static int read_function(lua_State *L, size_t k)
{
    if (!get_key(L, k))
        return LUA_NOREF;
    if (lua_type(L, -1) != LUA_TFUNCTION)
        luaL_error(L, "collsim.sweep: %s: expected a function, got %s", sweep_keys[k].key,
                   luaL_typename(L, -1));
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* routing, mtu, buffer and packet_engine configure the packet model: refused when no model
 * is packet (lua_expand.c gives the other models' points one combination only). */
static void check_packet_keys(lua_State *L, const sweep_axes *ax)
{
    static const int packet_axes[] = {AX_ROUTING, AX_MTU, AX_BUFFER, AX_ENGINE};
    int packet = 0;
    char models[128] = "";
    for (size_t m = 0; m < ax->n[AX_MODEL]; m++) {
        packet |= ax->v[AX_MODEL][m].i == SIM_MODEL_PACKET;
        size_t len = strlen(models);
        snprintf(models + len, sizeof models - len, "%s%s", len ? ", " : "",
                 sweep_model_name((int)ax->v[AX_MODEL][m].i));
    }
    for (size_t i = 0; i < sizeof packet_axes / sizeof packet_axes[0] && !packet; i++)
        for (size_t k = 0; k < NKEYS; k++)
            if (sweep_keys[k].axis == packet_axes[i] && ax->n[packet_axes[i]])
                luaL_error(L, "collsim.sweep: %s applies to model = \"packet\" only (the "
                              "sweep's models: %s)", sweep_keys[k].key,
                           models[0] ? models : "cm02, the default");
}

/* A group map applies to external platforms: generated topologies have their groups. */
static void check_groups_key(lua_State *L, const sweep_plan *p, const sweep_axes *ax)
{
    for (size_t i = 0; i < ax->n[AX_TOPOLOGY] && ax->n[AX_GROUPS]; i++) {
        const char *spec = sweep_plan_str(p, p->topos[ax->v[AX_TOPOLOGY][i].i].spec);
        if (!sim_is_external_platform(spec))
            luaL_error(L, "collsim.sweep: groups applies to external platforms (.xml) only, "
                          "not \"%s\" (a generated topology has its own groups)", spec);
    }
}

/* jobs = {...} (lua_jobs.c): every job gives its own collective, algorithm, ranks, size,
 * hosts, root, dst, dims, q and parameters; the sweep gives the topology, the model and
 * what applies to every job (endpoint costs, rates, repetitions). The point keys of a
 * single collective are refused; the axes they fill get one placeholder value each (a
 * jobs point's id and row take nothing from them). */
static void read_jobs(lua_State *L, sweep_plan *p, sweep_axes *ax)
{
    static const int point_axes[] = {AX_COLLECTIVE, AX_ALGORITHM, AX_RANKS, AX_RANKS_PER_NODE,
                                     AX_SIZE, AX_PLACEMENT, AX_WORKLOAD, AX_ROOT, AX_DST,
                                     AX_DIMS, AX_BARRIER, AX_GROUPS};
    lua_settop(L, 2); /* the sweep table and the axes (get_key leaves a nil per absent key) */
    for (size_t i = 0; i < sizeof point_axes / sizeof point_axes[0]; i++)
        for (size_t k = 0; k < NKEYS; k++) {
            if (sweep_keys[k].axis != point_axes[i])
                continue;
            if (get_key(L, k))
                luaL_error(L, "collsim.sweep: %s: with jobs = {...} every job gives its own "
                              "(the keys of a job table: coll, alg, pattern, ranks, size, "
                              "hosts, root, dst, q, dims, params, ...); drop '%s' from the "
                              "sweep", sweep_keys[k].key, sweep_keys[k].key);
            lua_pop(L, 1);
        }
    for (size_t m = 0; m < ax->n[AX_MODEL]; m++)
        if (ax->v[AX_MODEL][m].i == SWEEP_MODEL_AUTO)
            luaL_error(L, "collsim.sweep: model = \"auto\" does not apply to jobs (several jobs "
                          "run on cm02, lv08, smpi, packet or traffic)");
    sweep_read_jobs(L, p, ax);
    sweep_axes_add(ax, AX_COLLECTIVE, COLL_ALLREDUCE, 0);
    sweep_axes_add(ax, AX_RANKS, 2, 0);
    VEC_RESERVE(ax->variant_name, ax->variants_cap, ax->nvariants + 1);
    ax->variant_params = xrealloc(ax->variant_params, ax->variants_cap * sizeof(int32_t));
    ax->variant_all = xrealloc(ax->variant_all, ax->variants_cap);
    ax->variant_all[ax->nvariants] = 0;
    ax->variant_name[ax->nvariants] = plan_intern(p, "jobs");
    ax->variant_params[ax->nvariants] = plan_intern(p, "");
    sweep_axes_add(ax, AX_ALGORITHM, (int64_t)ax->nvariants++, 0);
}

/* Reads every axis; the collectives before the algorithms (names are per collective). */
static void read_axes(lua_State *L, sweep_plan *p, sweep_axes *ax)
{
    static const int required[] = {AX_TOPOLOGY, AX_COLLECTIVE, AX_ALGORITHM, AX_RANKS};
    int jobs = lua_getfield(L, 1, "jobs") != LUA_TNIL;
    lua_pop(L, 1);
    size_t algorithm_key = 0;
    for (size_t k = 0; k < NKEYS; k++) {
        int a = sweep_keys[k].axis;
        if (a == AX_ALGORITHM)
            algorithm_key = k;
        else if (a == AX_REP)
            read_repeat(L, ax, k);
        else if (a < 0)
            continue;
        else if (get_key(L, k))
            each_value(L, p, ax, a, sweep_keys[k].key, axis_reader(a));
    }
    if (ax->n[AX_COLLECTIVE] && get_key(L, algorithm_key))
        each_value(L, p, ax, AX_ALGORITHM, "algorithm", v_algorithm);
    if (jobs)
        read_jobs(L, p, ax);
    for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
        for (size_t k = 0; k < NKEYS; k++)
            if (sweep_keys[k].axis == required[r] && !ax->n[required[r]])
                luaL_error(L, "collsim.sweep: '%s' is required (docs/scenarios.md)",
                           sweep_keys[k].key);
    int alltoallv = 0;
    for (size_t c = 0; c < ax->n[AX_COLLECTIVE]; c++)
        alltoallv |= ax->v[AX_COLLECTIVE][c].i == COLL_ALLTOALLV;
    if (ax->n[AX_WORKLOAD] && !alltoallv)
        luaL_error(L, "collsim.sweep: workload: workloads are for the alltoallv collective");
    check_packet_keys(L, ax);
    check_groups_key(L, p, ax);
    read_auto_keys(L, ax);
    ax->filter = read_function(L, NKEYS - 2);    /* sweep_keys ends with filter, */
    ax->on_result = read_function(L, NKEYS - 1); /* on_result */
    add_defaults(p, ax);
    override_model(p, ax);
}

/* collsim.sweep{...}: returns the number of points it added. */
int scenario_l_sweep(lua_State *L)
{
    sweep_plan *p = scenario_plan(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    sweep_fold_faults(L); /* fail_links, degrade_links, fault_seed: into the topologies */
    check_keys(L);
    sweep_axes *ax = new_axes(L);
    read_axes(L, p, ax);
    int32_t sweep_no = plan_add_sweep(p, ax->on_result);
    size_t added = sweep_expand(L, p, ax, sweep_no);
    if (ax->filter != LUA_NOREF)
        luaL_unref(L, LUA_REGISTRYINDEX, ax->filter);
    if (ax->dims_fn != LUA_NOREF)
        luaL_unref(L, LUA_REGISTRYINDEX, ax->dims_fn);
    lua_pushinteger(L, (lua_Integer)added);
    return 1;
}
