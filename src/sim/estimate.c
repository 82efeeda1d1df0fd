/* estimate.c - memory and event estimates of simulation and verification runs (see
 * estimate.h). The constants below come from peak RSS measured with /usr/bin/time -v and
 * the sim_peak_rss_kb column (docs/robustness.md "Calibration" lists the points). */
#include "sim/estimate.h"

#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "common/util.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

/* SimGrid flow models (cm02, lv08, smpi). */
#define SIM_BASE_BYTES (12 * MIB)     /* SimGrid, libraries, the process */
#define SIM_RANK_BYTES (19 * KIB)     /* actor, touched part of its 512 KiB stack, tables */
#define SIM_HOST_BYTES (4 * KIB)      /* SimGrid host, netpoint, loopback, our tables */
#define SIM_LINK_BYTES (2.5 * KIB)    /* SimGrid link(s) and routing entries, our link */
#define SIM_INFLIGHT_BYTES (1.3 * KIB) /* one communication of the current step */
/* Traffic model: no SimGrid, routes counted by src/traffic. */
#define TRAFFIC_BASE_BYTES (4 * MIB)
#define TRAFFIC_RANK_BYTES 64.0
#define TRAFFIC_LINK_BYTES 96.0
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

void estimate_sim_ranks(int32_t P, int32_t Q, sim_model model, run_estimate *e)
{
    double ranks = P > 0 ? P : 0, hosts = ceil(ranks / (Q > 0 ? Q : 1));
    char per[32];
    if (model == SIM_MODEL_TRAFFIC) {
        set(e, TRAFFIC_BASE_BYTES + ranks * TRAFFIC_RANK_BYTES + hosts * TRAFFIC_LINK_BYTES, 0);
        estimate_format_bytes(TRAFFIC_RANK_BYTES, per, sizeof per);
        snprintf(e->basis, sizeof e->basis, "%d ranks x %s, at least %.0f hosts", P, per, hosts);
        return;
    }
    /* every host has at least its host link (or, in direct networks, a network link) */
    set(e, SIM_BASE_BYTES + ranks * SIM_RANK_BYTES + hosts * (SIM_HOST_BYTES + SIM_LINK_BYTES),
        0);
    estimate_format_bytes(SIM_RANK_BYTES, per, sizeof per);
    snprintf(e->basis, sizeof e->basis, "%d ranks x %s per SimGrid actor, at least %.0f hosts",
             P, per, hosts);
}

/* Messages per rank and the largest step (in messages) over ranks 0, P/2, P-1. */
static void sample_ranks(const alg_run *run, double *msgs_per_rank, double *max_step)
{
    int32_t P = run->spec.P;
    int32_t sample[3] = {0, P / 2, P - 1};
    sched_builder b;
    sb_init(&b, &run->layout);
    double sum = 0;
    *max_step = 0;
    for (int i = 0; i < 3; i++) {
        alg_run_gen(run, sample[i], &b);
        const rank_sched *rs = &b.rs;
        for (uint32_t s = 0; s < rs->nsteps; s++) {
            double in_step = 0;
            for (uint32_t k = rs_step_begin(rs, s); k < rs_step_end(rs, s); k++)
                if (rs->ops[k].kind == OP_SEND || rs->ops[k].kind == OP_RECV) {
                    in_step++;
                    sum += rs->ops[k].kind == OP_SEND;
                }
            if (in_step > *max_step)
                *max_step = in_step;
        }
    }
    sb_free(&b);
    *msgs_per_rank = sum / 3;
}

void estimate_sim_point(const topology *t, const alg_run *run, sim_model model,
                        run_estimate *e)
{
    double P = run->spec.P, hosts = t->nhosts, nodes = topo_nnodes(t), links = (double)t->nlinks;
    double per_rank, max_step;
    sample_ranks(run, &per_rank, &max_step);
    double messages = per_rank * P;
    char a[32], b[32];
    if (model == SIM_MODEL_TRAFFIC) {
        set(e, TRAFFIC_BASE_BYTES + P * TRAFFIC_RANK_BYTES + (nodes + links) * TRAFFIC_LINK_BYTES,
            messages);
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
