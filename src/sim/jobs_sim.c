/* jobs_sim.c - one simulation of several jobs on one topology (jobs_internal.h).
 *
 * Every job is placed (so a job keeps its hosts whether it runs with the others or alone);
 * the jobs of the mask are prepared, and then
 *   - the traffic model counts each job's schedule on its hosts (traffic_count);
 *   - a SimGrid model (cm02, lv08, smpi, packet) loads the platform once and starts, for
 *     every job, the rank actors of sim_actors.c on a sim_state of the job's own (its run,
 *     hosts, finish times and traffic tally; st.job = k + 1 prefixes its mailboxes), all
 *     in one SimGrid run, so the jobs share the links under the model's bandwidth sharing
 *     (the packet model: one network for all jobs, jobs_packet.c).
 * A job's time_s is (latest finish of its ranks - its start) / reps.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "common/util.h"
#include "sim/estimate.h"
#include "sim/jobs_internal.h"
#include "sim/sim_external.h"
#include "sim/sim_internal.h"

/* "alloc:h[0-3,8]": the hosts of a job (ascending host ids), as a hostlist of ids. */
static void hosts_text(const topology *t, const int32_t *hor, int32_t P, char *buf, size_t n)
{
    char *used = xcalloc((size_t)t->nhosts + 1, 1);
    for (int32_t r = 0; r < P; r++)
        used[hor[r]] = 1;
    size_t len = (size_t)snprintf(buf, n, "alloc:h[");
    const char *sep = "";
    for (int32_t h = 0; h < t->nhosts && len < n; h++) {
        if (!used[h])
            continue;
        int32_t hi = h;
        while (used[hi + 1])
            hi++;
        len += (size_t)snprintf(buf + len, n - len, hi == h ? "%s%d" : "%s%d-%d", sep, h, hi);
        sep = ",";
        h = hi;
    }
    if (len < n)
        snprintf(buf + len, n - len, "]");
    free(used);
}

/* The point columns of job k's row (t NULL: hosts= as given, without the hosts a job
 * without hosts= gets). */
static void describe_job(const job_set *js, int k, const topology *t, const int32_t *hor,
                         job_result *out)
{
    const job_spec *j = &js->jobs[k];
    sim_config c = js->base;
    c.spec = j->spec;
    c.placement = j->hosts;
    snprintf(c.algorithm, sizeof c.algorithm, "%s",
             j->pattern ? job_pattern_name(j->pattern) : j->algorithm);
    memset(out, 0, sizeof *out);
    sim_row_describe(&c, &out->row);
    if (j->hosts_auto && t) {
        hosts_text(t, hor, j->spec.P, out->row.placement, sizeof out->row.placement);
        if (j->hosts.order == ALLOC_ORDER_CYCLIC)
            strncat(out->row.placement, " order=cyclic",
                    sizeof out->row.placement - strlen(out->row.placement) - 1);
    }
    if (j->pattern)
        snprintf(out->row.collective, sizeof out->row.collective, "pattern");
    snprintf(out->job, sizeof out->job, "%s", j->name);
    out->start_s = j->start_s;
    out->reps = j->reps;
    out->alone_s = out->slowdown = NAN;
}

/* The endpoint costs of every job (the topology's and the options', as sim_run) and the
 * eager limit of the model itself (smpi: detached below 64 KiB). */
static int jobs_endpoint(const job_set *js, endpoint_config *ec, int64_t *eager, cs_error *err)
{
    if (endpoint_resolve(js->base.topology, &js->base.endpoint, ec, err) < 0)
        return -1;
    int64_t e = js->base.eager_limit;
    *eager = e != SIM_EAGER_MODEL ? e
             : js->base.model == SIM_MODEL_SMPI ? SIM_SMPI_DETACHED_BELOW - 1 : -1;
    return 0;
}

/* Job k's SimGrid side: its hosts, finish times, steps and tally. */
static int state_init(sim_state *st, const job_run *jr, topology *t, const int32_t *hor,
                      int k, int64_t eager, endpoint_sim *ep, const sim_config *base,
                      cs_error *err)
{
    int32_t P = jr->outer.spec.P;
    *st = (sim_state){.run = &jr->outer, .t = t, .host_of_rank = hor, .job = k + 1,
                      .eager_limit = eager, .ep = ep};
    st->reduce_s_per_byte = base->reduce_Bps > 0 ? 1.0 / base->reduce_Bps : 0;
    st->copy_s_per_byte = base->copy_Bps > 0 ? 1.0 / base->copy_Bps : 0;
    st->rank_host = xmalloc((size_t)P * sizeof *st->rank_host);
    st->finish = xmalloc((size_t)P * sizeof *st->finish);
    st->step = xcalloc((size_t)P, sizeof *st->step);
    traffic_tally_init(&st->tally, t);
    for (int32_t r = 0; r < P; r++) {
        char name[256];
        topo_sg_host_name(t, hor[r], name, sizeof name);
        st->rank_host[r] = sg_host_by_name(name);
        if (!st->rank_host[r])
            return cs_fail(err, "internal: the SimGrid platform has no host '%s'", name);
    }
    return 0;
}

static void state_free(sim_state *st)
{
    sim_pair_bytes_free(&st->pairs);
    sim_mailboxes_free(&st->mailboxes);
    free(st->rank_host);
    free(st->finish);
    free(st->step);
    if (st->t)
        traffic_tally_free(&st->tally);
}

/* After the run: job k's traffic and time into out. */
static int state_result(sim_state *st, const job_spec *j, job_result *out, cs_error *err)
{
    sim_pair_bytes_flush(&st->pairs, &st->tally); /* the flow models' bytes on their routes */
    int rc = sim_actors_check_finished(st, err);
    if (rc == 0)
        rc = traffic_tally_check(&st->tally, err);
    if (rc < 0) {
        cs_error_prefix(err, "job %s", j->name);
        return -1;
    }
    traffic_counts tc;
    traffic_tally_result(&st->tally, &tc);
    double end = 0;
    for (int32_t r = 0; r < j->spec.P; r++)
        if (st->finish[r] > end)
            end = st->finish[r];
    double time_s = (end - j->start_s) / j->reps;
    sim_row_set_metrics(&out->row, j->spec.coll, &tc, time_s,
                        j->pattern ? NAN : (double)j->spec.bytes);
    return 0;
}

/* The flow models: every job of the mask in one SimGrid run. */
static int simulate(const job_set *js, unsigned mask, const job_run *jr, topology *t,
                    int32_t *const *hor, job_result *out, cs_error *err)
{
    int64_t eager;
    endpoint_config ec;
    if (jobs_endpoint(js, &ec, &eager, err) < 0 ||
        sim_platform_start(js->base.model, js->base.flow_engine, t, err) < 0)
        return -1;
    sim_state st[JOBS_MAX];
    memset(st, 0, sizeof st);
    /* endpoint costs: one set of NIC ports for all the jobs, so that jobs sharing a host
     * (shared=yes) inject through its ports one after the other (msg_gap), as the ranks
     * of one job on one host do */
    endpoint_sim ep = {.cfg = ec};
    int with_ep = endpoint_active(&ec);
    if (with_ep)
        endpoint_ports_init(&ep.ports, t);
    jobs_net jn = {0};
    int rc = 0;
    for (int k = 0; k < js->njobs && rc == 0; k++)
        if (mask & (1u << k))
            rc = state_init(&st[k], &jr[k], t, hor[k], k, eager, with_ep ? &ep : NULL,
                            &js->base, err);
    if (rc == 0 && (js->base.model == SIM_MODEL_PACKET ||
                    js->base.flow_engine == FLOW_ENGINE_LOOP))
        rc = jobs_net_start(js, mask, st, t, &jn, err);
    if (rc == 0) {
        for (int k = 0; k < js->njobs; k++)
            if (mask & (1u << k))
                sim_actors_start(&st[k]);
        simgrid_run();
    }
    if (jobs_net_finish(&jn, rc == 0 ? err : NULL) < 0)
        rc = -1;
    for (int k = 0; k < js->njobs; k++) {
        if (rc == 0 && (mask & (1u << k)))
            rc = state_result(&st[k], &js->jobs[k], &out[k], err);
        state_free(&st[k]);
    }
    if (with_ep)
        endpoint_ports_free(&ep.ports);
    return rc;
}

/* The traffic model: each job's bytes, no time. */
static int count_traffic(const job_set *js, unsigned mask, const job_run *jr, topology *t,
                         int32_t *const *hor, job_result *out, cs_error *err)
{
    for (int k = 0; k < js->njobs; k++) {
        if (!(mask & (1u << k)))
            continue;
        traffic_counts tc;
        if (traffic_count(&jr[k].outer, t, hor[k], &tc, NULL, err) < 0) {
            cs_error_prefix(err, "job %s", js->jobs[k].name);
            return -1;
        }
        sim_row_set_metrics(&out[k].row, js->jobs[k].spec.coll, &tc, NAN, NAN);
    }
    return 0;
}

/* Before anything is built (estimate.h): the topology, and every rank of the mask's jobs
 * as one point's ranks. */
static int check_memory(const job_set *js, unsigned mask, cs_error *err)
{
    topo_size size;
    if (topo_size_spec(js->base.topology, &size, err) < 0)
        return -1;
    int32_t P = 0;
    for (int k = 0; k < js->njobs; k++)
        if (mask & (1u << k))
            P += js->jobs[k].spec.P;
    run_estimate est;
    estimate_sim_plan(P, 1, js->base.model, &size, &est);
    return estimate_check(&est, js->base.max_memory, err);
}

static int check_model(const job_set *js, cs_error *err)
{
    sim_model m = js->base.model;
    if (m == SIM_MODEL_ANALYTIC)
        return cs_fail(err, "several jobs run on the flow models (cm02, lv08, smpi), the "
                            "packet model and the traffic model, not yet on the %s model",
                       sim_model_name(m));
    if (sim_is_external_platform(js->base.topology))
        return cs_fail(err, "several jobs need a generated topology or a preset, not an "
                            "external platform (%s)", js->base.topology);
    if (js->njobs < 1 || js->njobs > JOBS_MAX)
        return cs_fail(err, "%d jobs: allowed 1 to %d", js->njobs, JOBS_MAX);
    return sim_flow_engine_check(&js->base, err);
}

void job_result_describe(const job_set *js, int k, job_result *out)
{
    describe_job(js, k, NULL, NULL, out);
}

int jobs_check(const job_set *js, cs_error *err)
{
    topology *t = NULL;
    int32_t *hor[JOBS_MAX] = {0};
    int rc = check_model(js, err);
    if (rc == 0)
        rc = topo_build_spec(js->base.topology, &t, err);
    if (rc == 0)
        rc = jobs_place(js, t, hor, err);
    for (int k = 0; k < js->njobs; k++)
        free(hor[k]);
    topo_free(t);
    return rc;
}

int jobs_simulate(const job_set *js, unsigned mask, job_result *out, cs_error *err)
{
    topology *t = NULL;
    int32_t *hor[JOBS_MAX] = {0};
    job_run *jr = xcalloc(JOBS_MAX, sizeof *jr); /* fixed addresses: outer.ctx points in */
    int rc = check_model(js, err);
    if (rc == 0)
        rc = check_memory(js, mask, err);
    if (rc == 0)
        rc = topo_build_spec(js->base.topology, &t, err);
    if (rc == 0)
        rc = jobs_place(js, t, hor, err);
    for (int k = 0; k < js->njobs && rc == 0; k++)
        if (mask & (1u << k)) {
            describe_job(js, k, t, hor[k], &out[k]);
            rc = job_run_prepare(js, k, t, hor[k], &jr[k], err);
            if (rc == 0 && js->jobs[k].pattern) /* the rounds duration= gives */
                snprintf(out[k].row.params, sizeof out[k].row.params,
                         "load=%g rounds=%lld seed=%llu", js->jobs[k].load,
                         (long long)job_pattern_rounds(&jr[k].inner),
                         (unsigned long long)js->jobs[k].seed);
        }
    if (rc == 0)
        rc = js->base.model == SIM_MODEL_TRAFFIC ? count_traffic(js, mask, jr, t, hor, out, err)
                                                 : simulate(js, mask, jr, t, hor, out, err);
    for (int k = 0; k < js->njobs; k++) {
        job_run_release(&jr[k]);
        free(hor[k]);
    }
    free(jr);
    topo_free(t);
    return rc;
}
