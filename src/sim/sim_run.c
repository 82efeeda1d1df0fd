/* sim_run.c - one simulation point, in this process (see sim.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "common/util.h"
#include "sim/analytic.h"
#include "sim/sim_external.h"
#include "sim/estimate.h"
#include "sim/rank_shape.h"
#include "sim/sim_internal.h"
#include "schedio/user_alg.h"
#include "topologies/faults.h"
#include "traffic/workload.h"

/* ---- models --------------------------------------------------------------------------- */

static const char *const model_names[] = {"cm02", "lv08", "smpi", "traffic", "packet",
                                          "analytic"};

const char *sim_model_name(sim_model m)
{
    return (unsigned)m < sizeof model_names / sizeof model_names[0] ? model_names[m] : "?";
}

int sim_model_parse(const char *text, sim_model *out, cs_error *err)
{
    for (unsigned i = 0; i < sizeof model_names / sizeof model_names[0]; i++)
        if (strcmp(text, model_names[i]) == 0) {
            *out = (sim_model)i;
            return 0;
        }
    if (strcmp(text, "flow") == 0) { /* the name for the default flow model */
        *out = SIM_MODEL_CM02;
        return 0;
    }
    return cs_fail(err, "unknown model '%s' (allowed: cm02 (default, alias flow), lv08, smpi, "
                        "traffic, packet, analytic)", text);
}

void sim_model_describe(sim_model m, const packet_config *pc, char *buf, size_t n)
{
    if (m == SIM_MODEL_PACKET) /* the engine only when not the default */
        snprintf(buf, n, "%s routing=%s mtu=%lld buffer=%lld%s", sim_model_name(m),
                 pk_routing_name(pc->routing), (long long)pc->mtu, (long long)pc->buffer,
                 pc->engine == PK_ENGINE_ACTORS ? " engine=actors" : "");
    else
        snprintf(buf, n, "%s", sim_model_name(m));
}

const char *const *sim_model_cfg(sim_model m)
{
    static const char *const cm02[] = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0",
                                       NULL};
    static const char *const lv08[] = {"--cfg=network/model:LV08", NULL};
    static const char *const smpi[] = {"--cfg=network/model:SMPI", NULL};
    switch (m) {
    case SIM_MODEL_LV08: return lv08;
    case SIM_MODEL_SMPI: return smpi;
    default: return cm02;
    }
}

/* ---- configuration and results ------------------------------------------------------------ */

int sim_flow_engine_check(const sim_config *c, cs_error *err)
{
    if (c->flow_engine != FLOW_ENGINE_LOOP || c->model == SIM_MODEL_TRAFFIC ||
        c->model == SIM_MODEL_ANALYTIC || c->model == SIM_MODEL_PACKET)
        return 0;
    if (c->model != SIM_MODEL_CM02)
        return cs_fail(err, "flow engine loop: model %s is not reproduced yet (allowed with "
                            "--flow-engine loop: cm02; or --flow-engine simgrid)",
                       sim_model_name(c->model));
    if (sim_is_external_platform(c->topology))
        return cs_fail(err, "flow engine loop: external platforms (%s) are not supported yet "
                            "(use --flow-engine simgrid)", c->topology);
    return 0;
}

void sim_config_init(sim_config *c)
{
    memset(c, 0, sizeof *c);
    coll_spec_init(&c->spec, COLL_ALLREDUCE, 2, 1 << 20);
    c->placement.kind = PLACE_LINEAR;
    c->model = SIM_MODEL_CM02;
    c->reduce_Bps = SIM_DEFAULT_REDUCE_BPS;
    c->copy_Bps = SIM_DEFAULT_COPY_BPS;
    packet_config_init(&c->packet);
    c->max_memory = estimate_default_max_memory();
    c->eager_limit = SIM_EAGER_MODEL;
}

void sim_result_free(sim_result *r)
{
    free(r->rank_finish_s);
    r->rank_finish_s = NULL;
}

void sim_row_describe(const sim_config *c, sim_row *row)
{
    snprintf(row->topology, sizeof row->topology, "%s", c->topology);
    size_t tlen = strlen(row->topology);
    if (c->groups[0]) /* an external platform's group map changes its link classes */
        snprintf(row->topology + tlen, sizeof row->topology - tlen, " groups=%s", c->groups);
    snprintf(row->collective, sizeof row->collective, "%s", coll_name(c->spec.coll));
    snprintf(row->algorithm, sizeof row->algorithm, "%s", c->algorithm);
    size_t len = 0;
    for (int i = 0; i < c->spec.nparams && len < sizeof row->params; i++)
        len += (size_t)snprintf(row->params + len, sizeof row->params - len, "%s%s=%s",
                                i ? " " : "", c->spec.params[i].name, c->spec.params[i].value);
    row->ranks = c->spec.P;
    row->ranks_per_node = c->spec.ranks_per_node;
    row->size_bytes = c->spec.bytes;
    placement_format(&c->placement, row->placement, sizeof row->placement);
    sim_model_describe(c->model, &c->packet, row->model, sizeof row->model);
    if (c->flow_engine == FLOW_ENGINE_LOOP && c->model != SIM_MODEL_PACKET) {
        size_t mlen = strlen(row->model);
        snprintf(row->model + mlen, sizeof row->model - mlen, " flow_engine=loop");
    }
    endpoint_config ep;
    cs_error ignored; /* a bad key fails the point in sim_run; the row shows the CLI's */
    if (c->model != SIM_MODEL_TRAFFIC)
        endpoint_describe(endpoint_resolve(c->topology, &c->endpoint, &ep, &ignored) == 0
                              ? &ep : &c->endpoint, row->model, sizeof row->model);
    const char *sgcfg = getenv("COLLSIM_SIMGRID_CFG");
    if (sgcfg && *sgcfg && c->model != SIM_MODEL_TRAFFIC && c->model != SIM_MODEL_ANALYTIC) {
        size_t mlen = strlen(row->model);
        snprintf(row->model + mlen, sizeof row->model - mlen, " simgrid_cfg=%s", sgcfg);
    }
    if (c->barrier) { /* a different point: rows with and without the barrier must differ */
        size_t mlen = strlen(row->model);
        snprintf(row->model + mlen, sizeof row->model - mlen, " barrier=true");
    }
    if (c->eager_limit != SIM_EAGER_MODEL) {
        size_t mlen = strlen(row->model);
        snprintf(row->model + mlen, sizeof row->model - mlen, " eager_limit=%lld",
                 (long long)c->eager_limit);
    }
    row->time_s = row->algbw_Bps = row->busbw_Bps = NAN;
}

/* ---- the SimGrid run ---------------------------------------------------------------------- */

void sim_simgrid_start(sim_model model, const char *platform)
{
    /* 512 KiB actor stacks instead of SimGrid's 8 MiB: the generators and the step loop
     * need little, and 16K stacks of 8 MiB cost 20 % more CPU (page tables, mmap) */
    const char *argv[16] = {"collsim", "--cfg=surf/precision:1e-9", "--log=root.thres:warning",
                            "--cfg=contexts/stack-size:512"};
    int argc = 4;
    for (const char *const *cfg = sim_model_cfg(model); *cfg; cfg++)
        argv[argc++] = *cfg;
    /* COLLSIM_SIMGRID_CFG: more SimGrid options, for measuring them (docs/simulator.md);
     * the row's model column names them */
    const char *more = getenv("COLLSIM_SIMGRID_CFG");
    char *copy = more ? xstrdup(more) : NULL, *save = NULL;
    for (char *tok = copy ? strtok_r(copy, " ", &save) : NULL; tok && argc < 15;
         tok = strtok_r(NULL, " ", &save))
        argv[argc++] = tok;
    argv[argc] = NULL;
    simgrid_init(&argc, (char **)argv);
    free(copy); /* SimGrid keeps its own copies of the values */
    simgrid_load_platform(platform);
}

int sim_model_own_network(sim_model m, flow_engine fe)
{
    return m == SIM_MODEL_PACKET || (m == SIM_MODEL_CM02 && fe == FLOW_ENGINE_LOOP);
}

int sim_platform_start(sim_model m, flow_engine fe, const topology *t, cs_error *err)
{
    int own = sim_model_own_network(m, fe);
    if (!t->ext) { /* an external platform is loaded already (sim_external_prepare) */
        char platform[4096];
        if ((own ? topo_hosts_platform_path(t, platform, sizeof platform, err)
                 : topo_platform_path(t, platform, sizeof platform, err)) < 0)
            return -1;
        sim_simgrid_start(m, platform);
    }
    return own ? 0 : sim_links_map(t, err);
}

static int simulate(const sim_config *c, const alg_run *run, topology *t,
                    const int32_t *host_of_rank, const endpoint_config *ec,
                    int64_t eager_limit, traffic_counts *tc,
                    double *time_s, double *rank_finish, pk_run_stats *pks, cs_error *err)
{
    if (sim_platform_start(c->model, c->flow_engine, t, err) < 0)
        return -1;

    int32_t P = run->spec.P;
    sim_state st = {.run = run, .t = t, .host_of_rank = host_of_rank};
    st.reduce_s_per_byte = c->reduce_Bps > 0 ? 1.0 / c->reduce_Bps : 0;
    st.copy_s_per_byte = c->copy_Bps > 0 ? 1.0 / c->copy_Bps : 0;
    st.eager_limit = eager_limit != SIM_EAGER_MODEL ? eager_limit
                     : c->model == SIM_MODEL_SMPI ? SIM_SMPI_DETACHED_BELOW - 1 : -1;
    st.rank_host = xmalloc((size_t)P * sizeof *st.rank_host);
    st.finish = rank_finish;
    st.step = xcalloc((size_t)P, sizeof *st.step);
    int rc = 0;
    for (int32_t r = 0; r < P && rc == 0; r++) {
        char name[256];
        topo_sg_host_name(t, host_of_rank[r], name, sizeof name);
        st.rank_host[r] = sg_host_by_name(name);
        if (!st.rank_host[r])
            rc = cs_fail(err, "internal: the SimGrid platform has no host '%s'", name);
    }
    if (rc == 0) {
        traffic_tally_init(&st.tally, t);
        if (c->model == SIM_MODEL_PACKET)
            st.net = pk_net_new(&c->packet, t, P, host_of_rank, st.rank_host[0], &st.tally);
        else if (c->flow_engine == FLOW_ENGINE_LOOP)
            st.net = fl_net_new(&c->fluid, t, P, host_of_rank, st.rank_host[0], &st.tally);
        if (st.net && c->cpu_split)
            pk_net_measure_cpu(st.net);
        endpoint_sim ep = {.cfg = *ec};
        if (endpoint_active(ec)) {
            endpoint_ports_init(&ep.ports, t);
            st.ep = &ep;
        }
        sim_actors_start(&st);
        simgrid_run();
        if (st.ep)
            endpoint_ports_free(&ep.ports);
        sim_pair_bytes_flush(&st.pairs, &st.tally);
        sim_pair_bytes_free(&st.pairs);
        sim_mailboxes_free(&st.mailboxes);
        rc = st.net ? pk_net_check(st.net, err) : 0;
        if (st.net)
            pk_net_stats(st.net, pks);
        fl_run_stats fs;
        if (st.net && fl_net_stats(st.net, &fs))
            pks->packet_hops = fs.flows; /* --verbose: what the loop engine moved */
        if (rc == 0)
            rc = sim_actors_check_finished(&st, err);
        pk_net_free(st.net);
        if (rc == 0)
            rc = traffic_tally_check(&st.tally, err);
        traffic_tally_result(&st.tally, tc);
        traffic_tally_free(&st.tally);
        *time_s = 0;
        for (int32_t r = 0; r < P; r++)
            if (rank_finish[r] > *time_s)
                *time_s = rank_finish[r];
    }
    free(st.rank_host);
    free(st.step);
    return rc;
}

/* The topology and the placement: generated, or an external platform (sim_external.h). */
static int place_job(const sim_config *c, topology **t, int32_t *host_of_rank, cs_error *err)
{
    int32_t P = c->spec.P, Q = c->spec.ranks_per_node;
    if (sim_is_external_platform(c->topology)) {
        /* before SimGrid loads it: SimGrid aborts on a file it cannot open */
        FILE *f = fopen_input(c->topology, "rb");
        if (!f)
            return cs_fail(err, "cannot open %s: %s", c->topology, strerror(errno));
        fclose(f);
        int loaded = c->model != SIM_MODEL_TRAFFIC && c->model != SIM_MODEL_ANALYTIC;
        if (loaded)
            sim_simgrid_start(c->model, c->topology);
        return sim_external_prepare(c->topology, c->groups, &c->placement, P, Q, loaded, t,
                                    host_of_rank, err);
    }
    if (c->groups[0])
        return cs_fail(err, "a group map applies to external platforms (.xml) only; "
                            "generated topologies have their own groups");
    if (topo_build_spec(c->topology, t, err) < 0 ||
        placement_compute(&c->placement, *t, P, Q, host_of_rank, err) < 0)
        return -1;
    return topo_faults_check_ranks(*t, host_of_rank, P, err); /* failed links (faults.h) */
}

/* What algbw_Bps divides by time_s: the vector size n, which for alltoall(v) is one rank's
 * send buffer; with a workload (non-uniform alltoallv) the mean of the ranks' send buffers,
 * all P x P blocks' bytes / P, so that a uniform workload of blocks S / P gives what
 * --size S gives. O(P^2) for a workload, so only asked for when there is a time. */
static double algbw_bytes(const coll_spec *s)
{
    if (!s->workload)
        return (double)s->bytes;
    workload_stats st;
    workload_compute_stats(s->workload, &st);
    return (double)st.total / s->P;
}

/* The options the analytic model refuses (it steps; the others run both IR forms). */
static int analytic_check(const sim_config *c, const alg_desc *alg, cs_error *err)
{
    if (c->model != SIM_MODEL_ANALYTIC)
        return 0;
    if (alg->flags & ALG_DEPS)
        return cs_fail(err, "the analytic model runs step schedules only, and %s has ops with "
                            "dependencies or tags (use a timed model: cm02, lv08, smpi, packet)",
                       alg->name);
    if (c->eager_limit != SIM_EAGER_MODEL)
        return cs_fail(err, "--eager-limit applies to the timed models (cm02, lv08, smpi, "
                            "packet), not the analytic model");
    return 0;
}

/* Runs the prepared point under the configured model: traffic counts only, the analytic
 * estimate, or a timed simulation (flow or packet). */
static int run_model(const sim_config *c, alg_run *run, topology *t, const int32_t *host_of_rank,
                     const endpoint_config *ec, traffic_counts *tc, double *time_s,
                     double *finish, pk_run_stats *pks, cs_error *err)
{
    if (c->model == SIM_MODEL_TRAFFIC)
        return traffic_count(run, t, host_of_rank, tc, NULL, err);
    if (c->model == SIM_MODEL_ANALYTIC) {
        analytic_opts ao;
        analytic_opts_init(&ao);
        ao.reduce_s_per_byte = c->reduce_Bps > 0 ? 1.0 / c->reduce_Bps : 0;
        ao.copy_s_per_byte = c->copy_Bps > 0 ? 1.0 / c->copy_Bps : 0;
        ao.ep = *ec;
        return analytic_run(run, t, host_of_rank, &ao, tc, time_s, finish, err);
    }
    return simulate(c, run, t, host_of_rank, ec, c->eager_limit, tc, time_s, finish, pks, err);
}

/* The row's metrics and the run's own measurements (wall, CPU, memory, packet counts). */
static void record_run(const sim_config *c, const traffic_counts *tc, double time_s,
                       const pk_run_stats *pks, double t0, double cpu0, sim_result *res)
{
    sim_row_set_metrics(&res->row, c->spec.coll, tc, time_s,
                        isnan(time_s) ? NAN : algbw_bytes(&c->spec));
    res->row.sim_wall_s = wall_seconds() - t0;
    res->row.sim_peak_rss_kb = peak_rss_kb();
    double cpu1 = cpu_seconds();
    res->cpu_s = cpu1 - cpu0;
    res->packet_hops = pks->packet_hops;
    res->packet_events = pks->events;
    res->packet_event_digest = pks->event_digest;
    res->packet_engine_cpu_s = pks->engine_cpu_s;
    res->packet_ranks_cpu_s = pks->ranks_cpu_s;
    if (pks->first_event_cpu_s > 0) {
        res->packet_setup_cpu_s = pks->first_event_cpu_s - cpu0;
        res->packet_teardown_cpu_s = cpu1 - pks->end_cpu_s;
    }
}

int sim_run(const sim_config *c, sim_result *res, cs_error *err)
{
    double t0 = wall_seconds(), cpu0 = cpu_seconds();
    memset(res, 0, sizeof *res);
    sim_row_describe(c, &res->row);
    const alg_desc *alg = registry_find(c->algorithms, c->spec.coll, c->algorithm, err);
    if (!alg)
        return -1;
    /* Refusal before work (estimate.h): from P and the topology's size before anything is
     * built, then once everything is prepared. */
    run_estimate est;
    topo_size size;
    int sized = !sim_is_external_platform(c->topology);
    if (sized && topo_size_spec(c->topology, &size, err) < 0)
        return -1;
    estimate_sim_plan(c->spec.P, c->spec.ranks_per_node, c->model, sized ? &size : NULL, &est);
    if (estimate_check(&est, c->max_memory, err) < 0)
        return -1;
    endpoint_config ec;
    if (endpoint_resolve(c->topology, &c->endpoint, &ec, err) < 0)
        return -1;
    topology *t = NULL;
    int32_t P = c->spec.P;
    int32_t *host_of_rank = xmalloc((size_t)(P > 0 ? P : 1) * sizeof *host_of_rank);
    alg_run run;
    coll_spec spec = c->spec; /* with the job's shape as default dims (rank_shape.h) */
    int rc = place_job(c, &t, host_of_rank, err);
    if (rc == 0 && c->model == SIM_MODEL_PACKET)
        rc = packet_config_check(&c->packet, t, err);
    if (rc == 0)
        rc = sim_flow_engine_check(c, err);
    if (rc == 0)
        rc = analytic_check(c, alg, err);
    if (rc == 0)
        rc = rank_shape_resolve(alg, &spec, t, host_of_rank, err);
    if (rc == 0)
        rc = alg_run_prepare(&run, alg, &spec, err);
    if (rc == 0) {
        run.barrier = c->barrier;
        estimate_sim_point(t, &run, c->model, &est);
        if ((rc = estimate_check(&est, c->max_memory, err)) < 0)
            alg_run_release(&run);
    }
    if (rc < 0) {
        free(host_of_rank);
        topo_free(t);
        return -1;
    }
    traffic_counts tc;
    pk_run_stats pks = {0};
    double time_s = NAN;
    double *finish = xmalloc((size_t)P * sizeof *finish);
    rc = run_model(c, &run, t, host_of_rank, &ec, &tc, &time_s, finish, &pks, err);
    if (user_alg_run_error(&run, err) < 0) /* a Lua algorithm failed: that, not its effects */
        rc = -1;
    if (rc == 0)
        record_run(c, &tc, time_s, &pks, t0, cpu0, res);
    if (rc == 0 && c->per_rank && c->model != SIM_MODEL_TRAFFIC)
        res->rank_finish_s = finish;
    else
        free(finish);
    alg_run_release(&run);
    free(host_of_rank);
    topo_free(t);
    return rc;
}
