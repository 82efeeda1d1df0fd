/* estimate.c - memory and event estimates of simulation and verification runs (see
 * estimate.h). The constants below come from peak RSS measured with /usr/bin/time -v and
 * the sim_peak_rss_kb column (docs/robustness.md "Calibration" lists the points). */
#include "sim/estimate.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "sim/sim_external.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

/* SimGrid flow models (cm02, lv08, smpi). */
#define SIM_BASE_BYTES (12 * MIB)     /* SimGrid, libraries, the process */
#define SIM_RANK_BYTES (19 * KIB)     /* actor, touched part of its 512 KiB stack, tables */
#define SIM_HOST_BYTES (4 * KIB)      /* SimGrid host, netpoint, loopback, our tables */
#define SIM_LINK_BYTES (2.5 * KIB)    /* SimGrid link(s) and routing entries, our link */
#define SIM_INFLIGHT_BYTES (1.3 * KIB) /* one communication of the current step */
/* Building a topology (collsim topo --stats on tori, HyperX, Kautz, Dragonflies: 48..72 B
 * per link and about 48 B per node measured above a 33 MiB process; rounded up). */
#define TOPO_BASE_BYTES (32 * MIB)
#define TOPO_NODE_BYTES 64.0
#define TOPO_LINK_BYTES 80.0
/* collsim dump: one line per operation, 74..79 B in JSON lines and 64..78 B in GOAL
 * (ring allreduce, linear alltoall at P=64). */
#define DUMP_OP_BYTES 80.0
/* Traffic model: no SimGrid, routes counted by src/traffic. */
#define TRAFFIC_BASE_BYTES (4 * MIB)
#define TRAFFIC_RANK_BYTES 64.0
#define TRAFFIC_LINK_BYTES 96.0
/* Analytic model (analytic.h): the traffic model's walk, plus per rank three doubles (ready,
 * message end, local time) and per link two resources x (two message counts of 4 B and the
 * running tally's 8 B) and the walk's own tally. */
#define ANALYTIC_RANK_BYTES (TRAFFIC_RANK_BYTES + 24.0)
#define ANALYTIC_LINK_BYTES (TRAFFIC_LINK_BYTES + 48.0)
/* Streaming verifier (src/algorithms/verify_stream.c): a 32-byte peer record per rank in
 * every thread, two per-rank hash sums shared; the full engine is only chosen when its
 * own estimate (verify_full_estimate) fits, so the stream engine is the lower bound. */
#define VERIFY_BASE_BYTES (4 * MIB)
#define VERIFY_RANK_THREAD_BYTES 32.0
#define VERIFY_RANK_BYTES 48.0

int64_t estimate_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 0;
    return (int64_t)pages * page;
}

int64_t estimate_default_max_memory(void)
{
    int64_t phys = estimate_physical_memory();
    return phys > 0 ? phys / 2 : (int64_t)8 << 30;
}

void estimate_format_bytes(double bytes, char *buf, size_t n)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int k = 0;
    while (k < 6 && bytes >= 1024.0) {
        bytes /= 1024.0;
        k++;
    }
    snprintf(buf, n, k ? "%.1f%s" : "%.0f%s", bytes, units[k]);
}

static void set(run_estimate *e, double bytes, double messages)
{
    e->bytes = bytes;
    e->messages = messages;
}

void estimate_topology(const topo_size *s, run_estimate *e)
{
    double nodes = s->hosts + s->switches;
    set(e, TOPO_BASE_BYTES + nodes * TOPO_NODE_BYTES + s->links * TOPO_LINK_BYTES + s->extra_bytes,
        0);
    snprintf(e->basis, sizeof e->basis, "building the topology: %.0f nodes, %.0f links", nodes,
             s->links);
    if (s->extra_bytes > 0) {
        char extra[32];
        estimate_format_bytes(s->extra_bytes, extra, sizeof extra);
        size_t len = strlen(e->basis);
        snprintf(e->basis + len, sizeof e->basis - len, ", %s of group-pair tables", extra);
    }
}

int estimate_topology_check(const char *spec, int64_t max_memory, cs_error *err)
{
    if (sim_is_external_platform(spec))
        return 0;
    topo_size s;
    run_estimate e;
    if (topo_size_spec(spec, &s, err) < 0)
        return -1;
    estimate_topology(&s, &e);
    return estimate_check(&e, max_memory, err);
}

void estimate_sim_plan(int32_t P, int32_t Q, sim_model model, const topo_size *s,
                       run_estimate *e)
{
    double ranks = P > 0 ? P : 0, hosts = ceil(ranks / (Q > 0 ? Q : 1)), nodes = hosts;
    double links = hosts, extra = 0; /* at least a host link (or a network link) per host */
    if (s) {
        nodes = s->hosts + s->switches;
        links = s->links;
        extra = s->extra_bytes;
    }
    char per[32], topo[96];
    snprintf(topo, sizeof topo, s ? "%.0f nodes, %.0f links" : "at least %.0f hosts",
             s ? nodes : hosts, links);
    if (model == SIM_MODEL_TRAFFIC || model == SIM_MODEL_ANALYTIC) {
        double rank_b = model == SIM_MODEL_TRAFFIC ? TRAFFIC_RANK_BYTES : ANALYTIC_RANK_BYTES;
        double link_b = model == SIM_MODEL_TRAFFIC ? TRAFFIC_LINK_BYTES : ANALYTIC_LINK_BYTES;
        set(e, TRAFFIC_BASE_BYTES + ranks * rank_b + (nodes + links) * link_b + extra, 0);
        estimate_format_bytes(rank_b, per, sizeof per);
        snprintf(e->basis, sizeof e->basis, "%d ranks x %s; %s", P, per, topo);
        return;
    }
    set(e, SIM_BASE_BYTES + ranks * SIM_RANK_BYTES + nodes * SIM_HOST_BYTES +
               links * SIM_LINK_BYTES + extra, 0);
    estimate_format_bytes(SIM_RANK_BYTES, per, sizeof per);
    snprintf(e->basis, sizeof e->basis, "%d ranks x %s per SimGrid actor; %s", P, per, topo);
}

/* Per rank, averaged over ranks 0, P/2, P-1: operations and sends; the largest step (in
 * messages) of the three. */
typedef struct schedule_sample {
    double ops_per_rank, msgs_per_rank, max_step;
} schedule_sample;

static void sample_ranks(const alg_run *run, schedule_sample *out)
{
    int32_t P = run->spec.P;
    int32_t sample[3] = {0, P / 2, P - 1};
    sched_builder b;
    sb_init(&b, &run->layout);
    double sends = 0, ops = 0;
    out->max_step = 0;
    for (int i = 0; i < 3; i++) {
        alg_run_gen(run, sample[i], &b);
        const rank_sched *rs = &b.rs;
        ops += rs->nops;
        for (uint32_t s = 0; s < rs->nsteps; s++) {
            double in_step = 0;
            for (uint32_t k = rs_step_begin(rs, s); k < rs_step_end(rs, s); k++)
                if (rs->ops[k].kind == OP_SEND || rs->ops[k].kind == OP_RECV) {
                    in_step++;
                    sends += rs->ops[k].kind == OP_SEND;
                }
            if (in_step > out->max_step)
                out->max_step = in_step;
        }
    }
    sb_free(&b);
    out->ops_per_rank = ops / 3;
    out->msgs_per_rank = sends / 3;
}

void estimate_dump(const alg_run *run, run_estimate *e)
{
    schedule_sample smp;
    sample_ranks(run, &smp);
    double P = run->spec.P;
    set(e, P * smp.ops_per_rank * DUMP_OP_BYTES, P * smp.msgs_per_rank);
    snprintf(e->basis, sizeof e->basis, "%.0f ranks x %.0f operations per rank x %.0f B per line",
             P, smp.ops_per_rank, DUMP_OP_BYTES);
}

void estimate_sim_point(const topology *t, const alg_run *run, sim_model model,
                        run_estimate *e)
{
    double P = run->spec.P, hosts = t->nhosts, nodes = topo_nnodes(t), links = (double)t->nlinks;
    schedule_sample smp;
    sample_ranks(run, &smp);
    double max_step = smp.max_step, messages = smp.msgs_per_rank * P;
    char a[32], b[32];
    if (model == SIM_MODEL_TRAFFIC || model == SIM_MODEL_ANALYTIC) {
        double rank_b = model == SIM_MODEL_TRAFFIC ? TRAFFIC_RANK_BYTES : ANALYTIC_RANK_BYTES;
        double link_b = model == SIM_MODEL_TRAFFIC ? TRAFFIC_LINK_BYTES : ANALYTIC_LINK_BYTES;
        set(e, TRAFFIC_BASE_BYTES + P * rank_b + (nodes + links) * link_b, messages);
        snprintf(e->basis, sizeof e->basis, "%.0f ranks, %.0f nodes, %.0f links", P, nodes,
                 links);
        return;
    }
    double inflight = P * max_step * SIM_INFLIGHT_BYTES;
    set(e, SIM_BASE_BYTES + P * SIM_RANK_BYTES + hosts * SIM_HOST_BYTES +
               (nodes - hosts) * SIM_HOST_BYTES + links * SIM_LINK_BYTES + inflight,
        messages);
    estimate_format_bytes(P * SIM_RANK_BYTES, a, sizeof a);
    estimate_format_bytes(inflight, b, sizeof b);
    snprintf(e->basis, sizeof e->basis,
             "%.0f ranks: %s of SimGrid actors; %.0f nodes, %.0f links; up to %.0f messages "
             "per rank in one step: %s in flight",
             P, a, nodes, links, max_step, b);
}

static int default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 16 ? 16 : (int)n; /* as verify_run chooses */
}

void estimate_verify_ranks(int32_t P, int threads, run_estimate *e)
{
    if (threads <= 0)
        threads = default_threads();
    double ranks = P > 0 ? P : 0;
    set(e, VERIFY_BASE_BYTES + ranks * (threads * VERIFY_RANK_THREAD_BYTES + VERIFY_RANK_BYTES),
        0);
    snprintf(e->basis, sizeof e->basis,
             "streaming verifier: %d ranks x (%d thread(s) x %.0f B + %.0f B)", P, threads,
             VERIFY_RANK_THREAD_BYTES, VERIFY_RANK_BYTES);
}

int estimate_check(const run_estimate *e, int64_t max_memory, cs_error *err)
{
    if (max_memory <= 0 || e->bytes <= (double)max_memory)
        return 0;
    char need[32], limit[32], msgs[64] = "";
    estimate_format_bytes(e->bytes, need, sizeof need);
    estimate_format_bytes((double)max_memory, limit, sizeof limit);
    if (e->messages > 0)
        snprintf(msgs, sizeof msgs, "; about %.3g messages", e->messages);
    return cs_fail(err,
                   "refused before starting: the run needs about %s of memory (%s%s), more than "
                   "the limit of %s (--max-memory; default: half of the physical memory)",
                   need, e->basis, msgs, limit);
}
