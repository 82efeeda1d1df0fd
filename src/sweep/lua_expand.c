/* lua_expand.c - multiplying a collsim.sweep call's axes out into points (sweep_internal.h).
 *
 * The axes are nested in the order of the AX_* enum, the last (size) varying fastest, so
 * a sweep's points come out grouped by topology, then collective, ... then algorithm,
 * with the sizes of one algorithm together. For every combination the point's seed is
 * resolved (a hash of the scenario seed and the repetition), a "random" or
 * "fragmented:K" placement and a workload without "seed=" take it, and placement and
 * workload are rewritten in their canonical text so that equal points get equal ids.
 * A `dims` function and the `filter` callback are called with the point as a table.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "sim/estimate.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

/* The endpoint keys the sweep gave: times in seconds, sizes in bytes. */
static void push_endpoint(lua_State *L, const endpoint_config *ec)
{
    const char *const names[] = {"send_overhead", "recv_overhead", "msg_gap"};
    const double times[] = {ec->send_overhead_s, ec->recv_overhead_s, ec->msg_gap_s};
    for (int k = 0; k < 3; k++)
        if (ec->given & (EP_SEND_OVERHEAD << k)) {
            lua_pushnumber(L, times[k]);
            lua_setfield(L, -2, names[k]);
        }
    if (ec->given & EP_ENVELOPE) {
        lua_pushinteger(L, ec->envelope_B);
        lua_setfield(L, -2, "envelope");
    }
    if (ec->given & EP_EAGER_LIMIT) {
        lua_pushinteger(L, ec->eager_limit_B);
        lua_setfield(L, -2, "eager_limit");
    }
}

/* The point as a Lua table (for filter and dims functions; docs/scenarios.md). */
static void push_point(lua_State *L, const sweep_plan *p, const sweep_point *pt,
                       const plan_topology *t)
{
    lua_createtable(L, 0, 16);
    lua_pushstring(L, sweep_plan_str(p, pt->topology));
    lua_setfield(L, -2, "topology");
    lua_pushstring(L, t->family);
    lua_setfield(L, -2, "family");
    if (*sweep_plan_str(p, pt->groups)) {
        lua_pushstring(L, sweep_plan_str(p, pt->groups));
        lua_setfield(L, -2, "groups");
    }
    lua_pushinteger(L, t->hosts);
    lua_setfield(L, -2, "hosts");
    lua_pushstring(L, coll_name(pt->coll));
    lua_setfield(L, -2, "collective");
    lua_pushstring(L, sweep_plan_str(p, pt->algorithm));
    lua_setfield(L, -2, "algorithm");
    lua_pushstring(L, sweep_plan_str(p, pt->params));
    lua_setfield(L, -2, "params");
    lua_pushinteger(L, pt->ranks);
    lua_setfield(L, -2, "ranks");
    lua_pushinteger(L, pt->ranks_per_node);
    lua_setfield(L, -2, "ranks_per_node");
    lua_pushinteger(L, pt->bytes);
    lua_setfield(L, -2, "size");
    lua_pushstring(L, sweep_plan_str(p, pt->placement));
    lua_setfield(L, -2, "placement");
    lua_pushstring(L, pt->auto_pass ? "auto" : sim_model_name(pt->model));
    lua_setfield(L, -2, "model");
    if (pt->model == SIM_MODEL_PACKET) {
        lua_pushstring(L, pk_routing_name(pt->routing));
        lua_setfield(L, -2, "routing");
        lua_pushinteger(L, pt->mtu);
        lua_setfield(L, -2, "mtu");
        lua_pushinteger(L, pt->buffer);
        lua_setfield(L, -2, "buffer");
        lua_pushstring(L, pk_engine_name(pt->engine));
        lua_setfield(L, -2, "packet_engine");
    }
    if (pt->model == SIM_MODEL_CM02) {
        lua_pushstring(L, flow_engine_name(pt->flow_engine));
        lua_setfield(L, -2, "flow_engine");
    }
    lua_pushboolean(L, pt->barrier);
    lua_setfield(L, -2, "barrier");
    push_endpoint(L, &pt->endpoint);
    lua_pushinteger(L, pt->root);
    lua_setfield(L, -2, "root");
    lua_pushinteger(L, pt->dst);
    lua_setfield(L, -2, "dst");
    lua_pushinteger(L, pt->rep);
    lua_setfield(L, -2, "rep");
    lua_pushinteger(L, (lua_Integer)pt->seed);
    lua_setfield(L, -2, "seed");
    if (sweep_point_has_jobs(p, pt)) { /* jobs: the list of the jobs' --job specs */
        lua_newtable(L);
        const char *jobs = sweep_plan_str(p, pt->jobs);
        for (lua_Integer k = 1; *jobs; k++) {
            size_t len = strcspn(jobs, "\n");
            lua_pushlstring(L, jobs, len);
            lua_rawseti(L, -2, k);
            jobs += len + (jobs[len] == '\n');
        }
        lua_setfield(L, -2, "jobs");
    }
}

/* The canonical placement text with the point's seed where the kind takes one. */
static int32_t resolve_placement(lua_State *L, sweep_plan *p, const char *text, uint64_t seed)
{
    char buf[1200];
    int colons = 0;
    for (const char *c = text; *c; c++)
        colons += *c == ':';
    if (strcmp(text, "random") == 0 || (strncmp(text, "fragmented:", 11) == 0 && colons == 1))
        snprintf(buf, sizeof buf, "%s:%" PRIu64, text, seed);
    else
        snprintf(buf, sizeof buf, "%s", text);
    placement_spec ps;
    cs_error err;
    if (placement_parse(buf, &ps, &err) < 0)
        luaL_error(L, "collsim.sweep: placement: %s", err.msg);
    placement_format(&ps, buf, sizeof buf);
    return plan_intern(p, buf);
}

static int32_t resolve_workload(lua_State *L, sweep_plan *p, int32_t text, uint64_t seed)
{
    if (text < 0)
        return plan_intern(p, "");
    char buf[400];
    const char *t = sweep_plan_str(p, text);
    workload_params wp;
    cs_error err;
    if (workload_parse(t, &wp, &err) < 0)
        luaL_error(L, "collsim.sweep: workload: %s", err.msg);
    /* only the random kinds take a seed: constant and FFT patterns are formulas */
    bool random = wp.kind == WL_UNIFORM || wp.kind == WL_NORMAL || wp.kind == WL_POWERLAW;
    if (!random || strstr(t, "seed="))
        snprintf(buf, sizeof buf, "%s", t);
    else
        snprintf(buf, sizeof buf, "%s:seed=%" PRIu64, t, seed);
    if (workload_parse(buf, &wp, &err) < 0)
        luaL_error(L, "collsim.sweep: workload: %s", err.msg);
    workload_format(&wp, buf, sizeof buf);
    return plan_intern(p, buf);
}

/* dims = function(point) returning "AxB" or nil. */
static int32_t call_dims(lua_State *L, sweep_plan *p, const sweep_axes *ax,
                         const sweep_point *pt, const plan_topology *t)
{
    lua_rawgeti(L, LUA_REGISTRYINDEX, ax->dims_fn);
    push_point(L, p, pt, t);
    lua_call(L, 1, 1);
    int32_t s = -1;
    if (lua_type(L, -1) == LUA_TSTRING)
        s = plan_intern(p, lua_tostring(L, -1));
    else if (!lua_isnil(L, -1))
        luaL_error(L, "collsim.sweep: dims function: expected \"AxB\" or nil, got %s",
                   luaL_typename(L, -1));
    lua_pop(L, 1);
    return s;
}

static int keep_point(lua_State *L, sweep_plan *p, const sweep_axes *ax, const sweep_point *pt,
                      const plan_topology *t)
{
    if (ax->filter == LUA_NOREF)
        return 1;
    lua_rawgeti(L, LUA_REGISTRYINDEX, ax->filter);
    push_point(L, p, pt, t);
    lua_call(L, 1, 1);
    int keep = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return keep;
}

/* Does the combination exist? Algorithms are per collective, and routing, mtu and buffer
 * (lua_sweep.c) apply to the packet model: other models take their first values only. */
static int combination_exists(const sweep_plan *p, const sweep_axes *ax, const size_t *pos)
{
    if (ax->v[AX_MODEL][pos[AX_MODEL]].i != SIM_MODEL_PACKET &&
        (pos[AX_ROUTING] || pos[AX_MTU] || pos[AX_BUFFER] || pos[AX_ENGINE]))
        return 0;
    if (ax->v[AX_MODEL][pos[AX_MODEL]].i != SIM_MODEL_CM02 && pos[AX_FLOW_ENGINE])
        return 0; /* flow_engine applies to cm02 */
    if (ax->v[AX_JOBS][pos[AX_JOBS]].i >= 0) /* jobs: each job's algorithm is checked */
        return 1;
    const char *name = sweep_plan_str(p, ax->variant_name[ax->v[AX_ALGORITHM][pos[AX_ALGORITHM]].i]);
    return registry_find(p->algorithms.n ? &p->algorithms : NULL,
                         (coll_kind)ax->v[AX_COLLECTIVE][pos[AX_COLLECTIVE]].i, name, NULL) != NULL;
}

/* The endpoint keys a combination gives (axis value .i = -1: not given). */
static void point_endpoint(const sweep_axes *ax, const size_t *pos, endpoint_config *ec)
{
    static const unsigned bits[] = {EP_SEND_OVERHEAD, EP_RECV_OVERHEAD, EP_MSG_GAP, EP_ENVELOPE,
                                    EP_EAGER_LIMIT};
    double *times[] = {&ec->send_overhead_s, &ec->recv_overhead_s, &ec->msg_gap_s};
    int64_t *sizes[] = {&ec->envelope_B, &ec->eager_limit_B};
    endpoint_config_init(ec);
    for (int a = AX_SEND_OVERHEAD; a <= AX_EAGER_LIMIT; a++) {
        const axis_value *v = &ax->v[a][pos[a]];
        if (v->i < 0)
            continue;
        if (a <= AX_MSG_GAP)
            *times[a - AX_SEND_OVERHEAD] = v->d;
        else
            *sizes[a - AX_ENVELOPE] = v->i;
        ec->given |= bits[a - AX_SEND_OVERHEAD];
    }
    ec->eager_set = (ec->given & EP_EAGER_LIMIT) != 0;
}

/* The point of one combination (pos[a]: the index into axis a). */
static void make_point(const sweep_plan *p, const sweep_axes *ax, const size_t *pos,
                       sweep_point *pt)
{
#define V(a) (ax->v[a][pos[a]])
    memset(pt, 0, sizeof *pt);
    pt->topology = p->topos[V(AX_TOPOLOGY).i].spec;
    pt->groups = (int32_t)V(AX_GROUPS).i;
    pt->coll = (coll_kind)V(AX_COLLECTIVE).i;
    pt->model = (sim_model)V(AX_MODEL).i;
    pt->routing = (pk_routing)V(AX_ROUTING).i;
    pt->mtu = V(AX_MTU).i;
    pt->buffer = V(AX_BUFFER).i;
    pt->engine = (pk_engine)V(AX_ENGINE).i;
    pt->flow_engine = pt->model == SIM_MODEL_CM02 ? (flow_engine)V(AX_FLOW_ENGINE).i
                                                  : FLOW_ENGINE_SIMGRID;
    pt->barrier = (int32_t)V(AX_BARRIER).i;
    point_endpoint(ax, pos, &pt->endpoint);
    pt->ranks_per_node = (int32_t)V(AX_RANKS_PER_NODE).i;
    pt->ranks = (int32_t)V(AX_RANKS).i;
    pt->root = (int32_t)V(AX_ROOT).i;
    pt->dst = (int32_t)V(AX_DST).i;
    pt->dims = (int32_t)V(AX_DIMS).i;
    pt->reduce_Bps = V(AX_REDUCE).d;
    pt->copy_Bps = V(AX_COPY).d;
    pt->rep = (int32_t)V(AX_REP).i;
    pt->algorithm = ax->variant_name[V(AX_ALGORITHM).i];
    pt->params = ax->variant_params[V(AX_ALGORITHM).i];
    pt->bytes = V(AX_SIZE).i;
    pt->jobs = (int32_t)V(AX_JOBS).i;
    pt->seed = plan_rep_seed(p->facts.seed, pt->rep);
    if (pt->model == (sim_model)SWEEP_MODEL_AUTO) { /* pass 1; add_point makes pass 2 */
        pt->model = SIM_MODEL_ANALYTIC;
        pt->auto_pass = 1;
        pt->auto_factor = ax->auto_factor;
    }
#undef V
}

/* A jobs point (pt->jobs set): its jobs fit on its topology (the model, and no two jobs
 * on one host without shared=yes), checked as the run would, so that a bad jobs table
 * stops the scenario at its line. */
static void check_jobs(lua_State *L, sweep_plan *p, sweep_point *pt)
{
    if (pt->jobs < 0) {
        pt->jobs = plan_intern(p, "");
        return;
    }
    job_set *js = xcalloc(1, sizeof *js);
    cs_error err;
    int rc = sweep_point_jobs(p, pt, js, &err);
    if (rc == 0)
        rc = jobs_check(js, &err);
    free(js);
    if (rc < 0)
        luaL_error(L, "collsim.sweep: jobs on \"%s\": %s", sweep_plan_str(p, pt->topology),
                   err.msg);
}

/* model = "auto": the key of the group a point is compared within: every field but the
 * algorithm, its params and dims (and the model). */
static uint64_t auto_group(const sweep_point *pt)
{
    const int64_t f[] = {pt->topology, pt->groups, pt->coll, pt->ranks, pt->ranks_per_node,
                         pt->root, pt->dst, pt->bytes, pt->placement, pt->barrier,
                         pt->workload, pt->rep, pt->sweep, (int64_t)(pt->reduce_Bps * 1e3),
                         (int64_t)(pt->copy_Bps * 1e3)};
    uint64_t h = 0x6175746fULL;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        h = hash_combine(h, (uint64_t)f[i]);
    return h;
}

/* Adds a point; a first-pass auto point also queues its second pass in *later (added after
 * the sweep's points, so that the runner meets it once every first pass has started). */
static size_t add_point(sweep_plan *p, const sweep_axes *ax, sweep_point *pt,
                        sweep_point **later, size_t *nlater, size_t *cap)
{
    if (pt->auto_pass)
        pt->auto_group = auto_group(pt);
    size_t added = (size_t)plan_add_point(p, pt);
    if (pt->auto_pass != 1)
        return added;
    sweep_point second = *pt;
    second.auto_pass = 2;
    second.model = (sim_model)ax->auto_model;
    second.auto_first = sweep_plan_find(p, pt->id);
    VEC_RESERVE(*later, *cap, *nlater + 1);
    (*later)[(*nlater)++] = second;
    return added;
}

/* A plan's memory per point: the point, its id slot (the table is kept at most half
 * full), doubled for the growth of both arrays. */
#define PLAN_POINT_BYTES (2.0 * (sizeof(sweep_point) + 2 * sizeof(int64_t)))

/* Refusal before work (sim/estimate.h): a product of axes too large to hold, before
 * anything is expanded (a sweep of 10^12 combinations fails at once, not after hours). */
static void check_product(lua_State *L, const sweep_plan *p, const sweep_axes *ax)
{
    double combinations = 1;
    for (int a = 0; a < AX__COUNT; a++)
        combinations *= (double)ax->n[a];
    run_estimate e = {.bytes = (p->npoints + combinations) * PLAN_POINT_BYTES};
    snprintf(e.basis, sizeof e.basis, "%zu points so far and up to %.3g combinations of this "
                                      "sweep's values", p->npoints, combinations);
    cs_error err;
    if (estimate_check(&e, p->max_memory, &err) < 0)
        luaL_error(L, "collsim.sweep: %s", err.msg);
}

size_t sweep_expand(lua_State *L, sweep_plan *p, const sweep_axes *ax, int32_t sweep_no)
{
    check_product(L, p, ax);
    size_t pos[AX__COUNT] = {0}, added = 0, nlater = 0, later_cap = 0;
    sweep_point *later = NULL;
    p->seed_used = 1;
    for (;;) {
        const plan_topology *t = &p->topos[ax->v[AX_TOPOLOGY][pos[AX_TOPOLOGY]].i];
        if (combination_exists(p, ax, pos)) {
            sweep_point pt;
            make_point(p, ax, pos, &pt);
            pt.sweep = sweep_no;
            pt.placement = resolve_placement(
                L, p, sweep_plan_str(p, (int32_t)ax->v[AX_PLACEMENT][pos[AX_PLACEMENT]].i),
                pt.seed);
            pt.workload = pt.coll == COLL_ALLTOALLV
                              ? resolve_workload(L, p, (int32_t)ax->v[AX_WORKLOAD][pos[AX_WORKLOAD]].i,
                                                 pt.seed)
                              : plan_intern(p, "");
            if (pt.dims == DIMS_FROM_FUNCTION)
                pt.dims = call_dims(L, p, ax, &pt, t);
            if (pt.dims < 0)
                pt.dims = plan_intern(p, "");
            if (pt.groups < 0)
                pt.groups = plan_intern(p, "");
            check_jobs(L, p, &pt);
            if (keep_point(L, p, ax, &pt, t) &&
                (!ax->variant_all[ax->v[AX_ALGORITHM][pos[AX_ALGORITHM]].i] ||
                 plan_meets_constraints(p, &pt)))
                added += add_point(p, ax, &pt, &later, &nlater, &later_cap);
        }
        int a = AX__COUNT - 1; /* odometer: the last axis turns fastest */
        while (a >= 0 && ++pos[a] == ax->n[a])
            pos[a--] = 0;
        if (a < 0)
            break;
    }
    for (size_t i = 0; i < nlater; i++)
        added += (size_t)plan_add_point(p, &later[i]);
    free(later);
    return added;
}

