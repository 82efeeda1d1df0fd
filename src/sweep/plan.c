/* plan.c - a scenario's plan: interned strings, validated topologies, the ordered point
 * list with stable ids, seeds, and each point's simulation configuration (sweep.h).
 *
 * A point's id is the first 16 hex digits of the SHA-256 of its canonical text: one
 * "name=value" line per parameter in a fixed order, numbers in a fixed format, strings
 * as the plan holds them (canonical placement and workload with their seeds resolved,
 * algorithm parameters sorted by name). Two points with the same id are the same
 * simulation, so the second is dropped.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "common/kv.h"
#include "common/units.h"
#include "common/util.h"
#include "sweep/lua_alg.h"
#include "sim/estimate.h"
#include "sim/jobs.h"
#include "sim/sim_external.h"
#include "sweep/sweep_internal.h"
#include "topologies/endpoint_keys.h"

sweep_plan *plan_new(void)
{
    sweep_plan *p = xcalloc(1, sizeof *p);
    alg_registry_init(&p->algorithms);
    return p;
}

void sweep_plan_free(sweep_plan *p)
{
    if (!p)
        return;
    if (p->L)
        lua_close(p->L);
    for (size_t i = 0; i < p->nstrs; i++)
        free(p->strs[i]);
    free(p->strs);
    free(p->str_slots);
    free(p->points);
    free(p->id_slots);
    free(p->topos);
    free(p->on_result);
    free(p->skipped);
    alg_registry_free(&p->algorithms);
    free(p);
}

/* ---- strings ------------------------------------------------------------------------- */

static uint64_t str_hash(const char *s)
{
    uint64_t h = 0x1234567;
    for (; *s; s++)
        h = hash_combine(h, (unsigned char)*s);
    return h;
}

/* Open addressing with linear probing; slots hold index + 1 (0 = empty). */
static void str_slots_grow(sweep_plan *p)
{
    size_t cap = p->str_slots_cap ? p->str_slots_cap * 2 : 256;
    int32_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < p->nstrs; i++) {
        size_t h = str_hash(p->strs[i]) & (cap - 1);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        slots[h] = (int32_t)i + 1;
    }
    free(p->str_slots);
    p->str_slots = slots;
    p->str_slots_cap = cap;
}

int32_t plan_intern(sweep_plan *p, const char *s)
{
    if (2 * (p->nstrs + 1) > p->str_slots_cap)
        str_slots_grow(p);
    size_t mask = p->str_slots_cap - 1, h = str_hash(s) & mask;
    for (; p->str_slots[h]; h = (h + 1) & mask)
        if (strcmp(p->strs[p->str_slots[h] - 1], s) == 0)
            return p->str_slots[h] - 1;
    VEC_RESERVE(p->strs, p->strs_cap, p->nstrs + 1);
    p->strs[p->nstrs] = xstrdup(s);
    p->str_slots[h] = (int32_t)p->nstrs + 1;
    return (int32_t)p->nstrs++;
}

const char *sweep_plan_str(const sweep_plan *p, int32_t s)
{
    return s >= 0 && (size_t)s < p->nstrs ? p->strs[s] : "";
}

/* ---- topologies ---------------------------------------------------------------------- */

int plan_topology_find(sweep_plan *p, const char *spec, int32_t *index, cs_error *err)
{
    char path[4096];
    if (sim_is_external_platform(spec)) { /* as given (made portable), else next to the scenario */
        if (access(spec, R_OK) == 0)
            scenario_portable_path(p, spec, path, sizeof path);
        else
            scenario_resolve_path(p, spec, path, sizeof path);
        if (access(path, R_OK) == 0)
            spec = path;
    }
    int32_t s = plan_intern(p, spec);
    for (size_t i = 0; i < p->ntopos; i++)
        if (p->topos[i].spec == s) {
            *index = (int32_t)i;
            return 0;
        }
    topology *t;
    char id_spec[4096], id_endpoint[1024] = "";
    int external = sim_is_external_platform(spec);
    if (external
            ? sim_external_describe(spec, NULL, &t, err) < 0
            : estimate_topology_check(spec, p->max_memory, err) < 0 ||
              topo_spec_preset_endpoint_text(spec, id_endpoint, sizeof id_endpoint, err) < 0 ||
              topo_build_spec(spec, &t, err) < 0)
        return -1;
    if (external)
        snprintf(id_spec, sizeof id_spec, "%s", spec);
    else
        topo_spec_without_endpoint_off(spec, id_spec, sizeof id_spec);
    VEC_RESERVE(p->topos, p->topos_cap, p->ntopos + 1);
    plan_topology *pt = &p->topos[p->ntopos];
    memset(pt, 0, sizeof *pt);
    pt->spec = s;
    pt->id_spec = plan_intern(p, id_spec);
    pt->id_endpoint = plan_intern(p, id_endpoint);
    snprintf(pt->family, sizeof pt->family, "%s", t->family);
    pt->hosts = t->nhosts;
    pt->switches = t->nswitches;
    pt->groups = t->ngroups;
    size_t len = 0;
    for (int d = 0; d < t->ndims && len < sizeof pt->dims; d++)
        len += (size_t)snprintf(pt->dims + len, sizeof pt->dims - len, "%s%d", d ? "x" : "",
                                t->dims[d]);
    topo_free(t);
    *index = (int32_t)p->ntopos++;
    return 0;
}

/* ---- points ------------------------------------------------------------------------------ */

uint64_t plan_rep_seed(uint64_t scenario_seed, int32_t rep)
{
    return hash_combine(mix64(scenario_seed), (uint64_t)rep) >> 33;
}

/* The algorithm as the id sees it: the name, and for an algorithm defined in Lua its
 * definition hash ("name@hash"), so that --resume never keeps rows that another
 * definition under the same name computed (docs/scenarios.md). Built-ins: the name. */
static void id_algorithm(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n)
{
    const char *name = sweep_plan_str(p, pt->algorithm);
    const char *hash = NULL;
    cs_error err;
    if (p->algorithms.n) {
        const alg_desc *d = registry_find(&p->algorithms, pt->coll, name, &err);
        hash = d ? lua_alg_def_hash(d) : NULL;
    }
    snprintf(buf, n, "%s%s%s", name, hash ? "@" : "", hash ? hash : "");
}

/* The point's topology as its id sees it (plan_topology.id_spec, .id_endpoint). */
static const plan_topology *id_topology(const sweep_plan *p, const sweep_point *pt)
{
    for (size_t i = 0; i < p->ntopos; i++)
        if (p->topos[i].spec == pt->topology)
            return &p->topos[i];
    return NULL;
}

/* The lines of a point's id that every point has after its own (packet, groups, barrier,
 * endpoint costs, a preset's costs, model = "auto"), each only when it applies, so that
 * points without them keep their ids. */
static void canonical_tail(const sweep_plan *p, const sweep_point *pt,
                           const plan_topology *topo, char *buf, size_t n);

/* A jobs point's canonical text: the sweep's own values and every job's spec; the
 * placeholders of a single collective (collective, algorithm, ranks ...) are left out. */
static void canonical_jobs(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n)
{
    const plan_topology *topo = id_topology(p, pt);
    snprintf(buf, n,
             "collsim-point-jobs-1\ntopology=%s\nmodel=%s\nreduce_Bps=%.17g\ncopy_Bps=%.17g\n"
             "rep=%" PRId32 "\nseed=%" PRIu64 "\n",
             sweep_plan_str(p, topo ? topo->id_spec : pt->topology), sim_model_name(pt->model),
             pt->reduce_Bps, pt->copy_Bps, pt->rep, pt->seed);
    const char *jobs = sweep_plan_str(p, pt->jobs);
    while (*jobs) {
        size_t len = strlen(buf), k = strcspn(jobs, "\n");
        snprintf(buf + len, n - len, "job=%.*s\n", (int)k, jobs);
        jobs += k + (jobs[k] == '\n');
    }
    size_t len = strlen(buf);
    canonical_tail(p, pt, topo, buf + len, n - len);
}

/* The canonical text of a point (the id is its hash; docs/scenarios.md). */
static void canonical_text(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n)
{
    if (sweep_point_has_jobs(p, pt)) {
        canonical_jobs(p, pt, buf, n);
        return;
    }
    char algorithm[160];
    id_algorithm(p, pt, algorithm, sizeof algorithm);
    const plan_topology *topo = id_topology(p, pt);
    snprintf(buf, n,
             "collsim-point-1\ntopology=%s\ncollective=%s\nalgorithm=%s\nparams=%s\n"
             "ranks=%" PRId32 "\nranks_per_node=%" PRId32 "\nsize=%" PRId64 "\nroot=%" PRId32
             "\ndst=%" PRId32 "\ndims=%s\nplacement=%s\nmodel=%s\nworkload=%s\n"
             "reduce_Bps=%.17g\ncopy_Bps=%.17g\nrep=%" PRId32 "\nseed=%" PRIu64 "\n",
             sweep_plan_str(p, topo ? topo->id_spec : pt->topology), coll_name(pt->coll),
             algorithm,
             sweep_plan_str(p, pt->params), pt->ranks,
             pt->ranks_per_node, pt->bytes, pt->root, pt->dst, sweep_plan_str(p, pt->dims),
             sweep_plan_str(p, pt->placement), sim_model_name(pt->model),
             sweep_plan_str(p, pt->workload), pt->reduce_Bps, pt->copy_Bps, pt->rep, pt->seed);
    size_t len = strlen(buf);
    canonical_tail(p, pt, topo, buf + len, n - len);
}

static void canonical_tail(const sweep_plan *p, const sweep_point *pt,
                           const plan_topology *topo, char *buf, size_t n)
{
    /* only packet points, points with a group map and points with a barrier have these
     * lines, so that the other points keep their ids */
    buf[0] = '\0';
    size_t len = 0;
    if (pt->model == SIM_MODEL_PACKET)
        snprintf(buf + len, n - len, "routing=%s\nmtu=%" PRId64 "\nbuffer=%" PRId64 "\n",
                 pk_routing_name(pt->routing), pt->mtu, pt->buffer);
    len = strlen(buf);
    if (pt->model == SIM_MODEL_PACKET && pt->engine != PK_ENGINE_LOOP) /* ids kept */
        snprintf(buf + len, n - len, "packet_engine=%s\n", pk_engine_name(pt->engine));
    len = strlen(buf);
    if (pt->flow_engine != FLOW_ENGINE_SIMGRID) /* ids kept */
        snprintf(buf + len, n - len, "flow_engine=%s\n", flow_engine_name(pt->flow_engine));
    len = strlen(buf);
    if (*sweep_plan_str(p, pt->groups))
        snprintf(buf + len, n - len, "groups=%s\n", sweep_plan_str(p, pt->groups));
    len = strlen(buf);
    if (pt->barrier)
        snprintf(buf + len, n - len, "barrier=1\n");
    len = strlen(buf);
    if (pt->endpoint.given) /* points without endpoint keys keep their ids */
        endpoint_canonical_text(&pt->endpoint, buf + len, n - len);
    len = strlen(buf);
    if (topo && pt->model != SIM_MODEL_TRAFFIC) /* a preset's costs: "" when none (ids kept) */
        snprintf(buf + len, n - len, "%s", sweep_plan_str(p, topo->id_endpoint));
    len = strlen(buf);
    if (pt->auto_pass) /* model = "auto": not the plain point of the same model */
        snprintf(buf + len, n - len, "auto_pass=%" PRId32 "\nauto_factor=%.17g\n", pt->auto_pass,
                 pt->auto_factor);
}

const char *sweep_model_name(int model)
{
    return model == SWEEP_MODEL_AUTO ? "auto" : sim_model_name((sim_model)model);
}

static uint64_t id_value(const char *id)
{
    return strtoull(id, NULL, 16);
}

static void id_slots_grow(sweep_plan *p)
{
    size_t cap = p->id_slots_cap ? p->id_slots_cap * 2 : 1024;
    int64_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < p->npoints; i++) {
        size_t h = mix64(id_value(p->points[i].id)) & (cap - 1);
        while (slots[h])
            h = (h + 1) & (cap - 1);
        slots[h] = (int64_t)i + 1;
    }
    free(p->id_slots);
    p->id_slots = slots;
    p->id_slots_cap = cap;
}

/* The slot of id: holding its point, or the empty slot where it would go. */
static size_t id_slot(const sweep_plan *p, const char *id)
{
    size_t mask = p->id_slots_cap - 1, h = mix64(id_value(id)) & mask;
    while (p->id_slots[h] && strcmp(p->points[p->id_slots[h] - 1].id, id) != 0)
        h = (h + 1) & mask;
    return h;
}

int64_t sweep_plan_find(const sweep_plan *p, const char *id)
{
    if (!p->id_slots_cap)
        return -1;
    int64_t v = p->id_slots[id_slot(p, id)];
    return v - 1;
}

int plan_add_point(sweep_plan *p, sweep_point *pt)
{
    static _Thread_local char text[32768]; /* jobs: up to 16 specs of ~1 KiB */
    char hex[SHA256_HEX_LEN + 1];
    canonical_text(p, pt, text, sizeof text);
    sha256_hex(text, strlen(text), hex);
    memcpy(pt->id, hex, SWEEP_ID_LEN);
    pt->id[SWEEP_ID_LEN] = '\0';
    if (2 * (p->npoints + 1) > p->id_slots_cap)
        id_slots_grow(p);
    size_t h = id_slot(p, pt->id);
    if (p->id_slots[h]) {
        p->facts.duplicates++;
        return 0;
    }
    pt->index = (int64_t)p->npoints;
    VEC_RESERVE(p->points, p->points_cap, p->npoints + 1);
    p->points[p->npoints++] = *pt;
    p->id_slots[h] = (int64_t)p->npoints;
    return 1;
}

int32_t plan_add_sweep(sweep_plan *p, int on_result_ref)
{
    VEC_RESERVE(p->on_result, p->sweeps_cap, p->nsweeps + 1);
    p->on_result[p->nsweeps] = on_result_ref;
    return (int32_t)p->nsweeps++;
}

size_t sweep_plan_count(const sweep_plan *p) { return p->npoints; }

const sweep_point *sweep_plan_point(const sweep_plan *p, size_t i) { return &p->points[i]; }

const scenario_facts *sweep_plan_facts(const sweep_plan *p) { return &p->facts; }

const alg_registry *sweep_plan_algorithms(const sweep_plan *p)
{
    return p->algorithms.n ? &p->algorithms : NULL;
}

/* ---- a point's simulation ------------------------------------------------------------ */

int sweep_point_config(const sweep_plan *p, const sweep_point *pt, sim_config *c, workload **w,
                       cs_error *err)
{
    *w = NULL;
    sim_config_init(c);
    snprintf(c->topology, sizeof c->topology, "%s", sweep_plan_str(p, pt->topology));
    snprintf(c->algorithm, sizeof c->algorithm, "%s", sweep_plan_str(p, pt->algorithm));
    snprintf(c->groups, sizeof c->groups, "%s", sweep_plan_str(p, pt->groups));
    coll_spec_init(&c->spec, pt->coll, pt->ranks, pt->bytes);
    c->spec.ranks_per_node = pt->ranks_per_node;
    c->spec.root = pt->root;
    c->spec.dst = pt->dst;
    c->algorithms = p->algorithms.n ? &p->algorithms : NULL;
    c->model = pt->model;
    c->max_memory = p->max_memory;
    if (pt->model == SIM_MODEL_PACKET) {
        c->packet.routing = pt->routing;
        c->packet.mtu = pt->mtu;
        c->packet.buffer = pt->buffer;
        c->packet.engine = pt->engine;
    }
    c->flow_engine = pt->flow_engine;
    c->reduce_Bps = pt->reduce_Bps;
    c->copy_Bps = pt->copy_Bps;
    c->barrier = pt->barrier;
    c->endpoint = pt->endpoint;
    /* "a=1 b=2" (values hold no spaces: lua_sweep.c checks) */
    if (coll_spec_set_params(&c->spec, sweep_plan_str(p, pt->params), err) < 0)
        return -1;
    if (placement_parse(sweep_plan_str(p, pt->placement), &c->placement, err) < 0)
        return -1;
    if (pt->dims >= 0 && *sweep_plan_str(p, pt->dims)) {
        kv_list kv;
        kv_init(&kv);
        if (kv_set(&kv, "dims", sweep_plan_str(p, pt->dims), 0, err) < 0 ||
            kv_dims(&kv, "dims", NULL, c->spec.dims, SPEC_MAX_DIMS, &c->spec.ndims, err) < 0)
            return -1;
    }
    if (pt->workload >= 0 && *sweep_plan_str(p, pt->workload)) {
        workload_params wp;
        if (workload_parse(sweep_plan_str(p, pt->workload), &wp, err) < 0 ||
            workload_create(&wp, pt->ranks, w, err) < 0)
            return -1;
        workload_materialize(*w, (int64_t)256 << 20);
        c->spec.workload = *w;
    }
    return 0;
}

void sweep_point_fields(const sweep_plan *p, const sweep_point *pt, sweep_fields *f)
{
    memset(f, 0, sizeof *f);
    f->point = pt->index;
    memcpy(f->id, pt->id, sizeof f->id);
    snprintf(f->status, sizeof f->status, "ok");
    f->rep = pt->rep;
    f->seed = pt->seed;
    f->root = pt->root;
    f->dst = pt->dst;
    snprintf(f->dims, sizeof f->dims, "%s", sweep_plan_str(p, pt->dims));
    snprintf(f->workload, sizeof f->workload, "%s", sweep_plan_str(p, pt->workload));
    f->reduce_Bps = pt->reduce_Bps;
    f->copy_Bps = pt->copy_Bps;
}

/* "jobs victim:allreduce/ring P=32 n=1MiB + bully:alltoall P=32 n=16KiB" */
static void jobs_label(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "jobs");
    const char *jobs = sweep_plan_str(p, pt->jobs);
    for (int k = 0; *jobs && at < n; k++) {
        size_t len = strcspn(jobs, "\n");
        char text[1500], size[32];
        snprintf(text, sizeof text, "%.*s", (int)len, jobs);
        jobs += len + (jobs[len] == '\n');
        job_spec j;
        cs_error err;
        if (job_spec_parse_bare(text, k, &j, &err) < 0)
            continue;
        format_size(j.spec.bytes, size, sizeof size);
        at += (size_t)snprintf(buf + at, n - at, "%s %s:%s%s%s P=%" PRId32 " n=%s",
                               k ? " +" : "", j.name,
                               j.pattern ? job_pattern_name(j.pattern) : coll_name(j.spec.coll),
                               j.pattern ? "" : "/", j.pattern ? "" : j.algorithm, j.spec.P,
                               size);
    }
}

void sweep_point_label(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n)
{
    if (sweep_point_has_jobs(p, pt)) {
        jobs_label(p, pt, buf, n);
        return;
    }
    char size[32];
    format_size(pt->bytes, size, sizeof size);
    const char *params = sweep_plan_str(p, pt->params);
    snprintf(buf, n, "%s %s%s%s P=%" PRId32 " n=%s%s", coll_name(pt->coll),
             sweep_plan_str(p, pt->algorithm), *params ? " " : "", params, pt->ranks, size,
             pt->barrier ? " barrier" : "");
}

/* ---- several jobs ------------------------------------------------------------------- */

int sweep_point_has_jobs(const sweep_plan *p, const sweep_point *pt)
{
    return *sweep_plan_str(p, pt->jobs) != '\0';
}

int sweep_plan_has_jobs(const sweep_plan *p)
{
    for (size_t i = 0; i < p->npoints; i++)
        if (sweep_point_has_jobs(p, &p->points[i]))
            return 1;
    return 0;
}

int sweep_point_jobs(const sweep_plan *p, const sweep_point *pt, job_set *js, cs_error *err)
{
    memset(js, 0, sizeof *js);
    workload *w = NULL;
    if (sweep_point_config(p, pt, &js->base, &w, err) < 0)
        return -1;
    workload_free(w); /* none: a jobs point has no workload */
    js->algorithms = js->base.algorithms;
    const char *jobs = sweep_plan_str(p, pt->jobs);
    while (*jobs) {
        size_t len = strcspn(jobs, "\n");
        char text[1500];
        snprintf(text, sizeof text, "%.*s", (int)len, jobs);
        jobs += len + (jobs[len] == '\n');
        if (js->njobs == JOBS_MAX)
            return cs_fail(err, "more than %d jobs", JOBS_MAX);
        if (job_spec_parse(text, js->njobs, &js->jobs[js->njobs], err) < 0)
            return -1;
        js->njobs++;
    }
    return 0;
}
