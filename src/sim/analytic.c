/* analytic.c - the analytic model: per-step costs with links shared equally, ready times,
 * and the plan of windows over the steps (the rule is in analytic.h; the passes over the
 * ranks in analytic_pass.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/analytic_internal.h"
#include "sim/sim.h"

void analytic_opts_init(analytic_opts *o)
{
    o->reduce_s_per_byte = 1.0 / SIM_DEFAULT_REDUCE_BPS;
    o->copy_s_per_byte = 1.0 / SIM_DEFAULT_COPY_BPS;
    o->window_bytes = ANALYTIC_WINDOW_BYTES;
}

/* Endpoint costs (issue 24: per-message send / receive overheads, the NIC gap, the
 * envelope, eager vs rendezvous) come from src/sim/endpoint.{h,c}, written on the
 * `endpoint` branch. HOOK for the integrator: return the seconds they add to this
 * message's end (e.g. o_send + o_recv + envelope / bandwidth), and charge the per-rank
 * busy time of several messages of one step here too (ranks are known). Until then the
 * analytic model, like the flow models, has none. */
static double endpoint_cost(const analytic_ctx *a, int32_t src_rank, int32_t dst_rank,
                            int64_t bytes)
{
    (void)a;
    (void)src_rank;
    (void)dst_rank;
    (void)bytes;
    return 0;
}

double analytic_message_cost(const topology *t, const topo_hop *hops, int nhops, int64_t bytes,
                             const uint32_t *counts)
{
    if (nhops == 0) /* two ranks of one host: the loopback (FATPIPE, never shared) */
        return t->intra_lat + (double)bytes / t->intra_bw;
    double lat = 0, bw = INFINITY;
    for (int i = 0; i < nhops; i++) {
        const topo_link *l = &t->links[hops[i].link];
        uint32_t n = counts ? counts[traffic_resource(t, hops[i])] : 1;
        double share = l->bw / (n > 1 ? n : 1);
        lat += l->lat;
        if (share < bw)
            bw = share;
    }
    return lat + (double)bytes / bw;
}

void an_cost_send(analytic_ctx *a, const an_step *st, int32_t src, int32_t dst, int64_t bytes,
                  const topo_hop *hops, int nhops)
{
    double start = fmax(a->ready[src], a->ready[dst]);
    double end = start + analytic_message_cost(a->t, hops, nhops, bytes, st->counts) +
                 endpoint_cost(a, src, dst, bytes);
    a->comm_end[src] = fmax(a->comm_end[src], end);
    a->comm_end[dst] = fmax(a->comm_end[dst], end);
}

/* Working memory of one step in a window (analytic.h). */
static double step_bytes(const analytic_ctx *a, int64_t k)
{
    return 4.0 * (double)a->nres + 8.0 * a->P + (double)sizeof(an_msg) * (double)a->sends[k];
}

static void window_open(analytic_ctx *a, int64_t first, int64_t n, int buffered)
{
    a->first = first;
    a->n = n;
    a->steps = xcalloc((size_t)n, sizeof *a->steps);
    for (int64_t i = 0; i < n; i++) {
        an_step *st = &a->steps[i];
        st->counts = xcalloc(a->nres, sizeof *st->counts);
        st->local = xcalloc((size_t)a->P, sizeof *st->local);
        if (buffered && a->sends[first + i] > 0) {
            st->cap = a->sends[first + i];
            st->msgs = xmalloc((size_t)st->cap * sizeof *st->msgs);
        }
    }
}

static void window_close(analytic_ctx *a)
{
    for (int64_t i = 0; i < a->n; i++) {
        free(a->steps[i].counts);
        free(a->steps[i].local);
        free(a->steps[i].msgs);
    }
    free(a->steps);
    a->steps = NULL;
}

/* After the step's sends are costed: the alignment check, then every rank's new ready time. */
static int close_step(analytic_ctx *a, const an_step *st, int64_t k, cs_error *err)
{
    if (st->sent_hash != st->recv_hash || st->sent_n != st->recv_n)
        return cs_fail(err, "the analytic model needs a step-aligned schedule (every send and "
                            "its receive in the same step index); step %lld has %lld send(s) "
                            "and %lld receive(s) that do not pair up: use a flow model "
                            "(--model cm02)", (long long)k, (long long)st->sent_n,
                       (long long)st->recv_n);
    for (int32_t r = 0; r < a->P; r++) {
        a->ready[r] = fmax(a->ready[r], a->comm_end[r]) + st->local[r];
        a->comm_end[r] = a->ready[r];
    }
    return 0;
}

/* Costs the buffered window's steps in order from their records. */
static int cost_window(analytic_ctx *a, cs_error *err)
{
    for (int64_t i = 0; i < a->n; i++) {
        const an_step *st = &a->steps[i];
        for (int64_t m = 0; m < st->nmsgs; m++) {
            const an_msg *msg = &st->msgs[m];
            int32_t hs = a->host_of_rank[msg->src], hd = a->host_of_rank[msg->dst];
            int nh = hs == hd ? 0 : topo_route(a->t, hs, hd, a->hops, a->t->max_route_hops);
            if (nh < 0)
                return cs_fail(err, "internal: no route from host h%d to h%d", hs, hd);
            an_cost_send(a, st, msg->src, msg->dst, msg->bytes, a->hops, nh);
        }
        if (close_step(a, st, a->first + i, err) < 0)
            return -1;
    }
    return 0;
}

/* Steps first.. as one window (as many as fit window_bytes, at least one); returns the
 * number of steps done or -1. */
static int64_t run_window(analytic_ctx *a, int64_t first, cs_error *err)
{
    int64_t n = 0;
    double used = 0;
    while (first + n < a->nsteps && used + step_bytes(a, first + n) <= a->o->window_bytes)
        used += step_bytes(a, first + n++);
    int rc;
    if (n > 0) {
        window_open(a, first, n, 1);
        rc = an_pass(a, AN_WINDOW, NULL, err);
        if (rc == 0)
            rc = cost_window(a, err);
    } else { /* one step bigger than a window: count it, then cost it as it streams by */
        window_open(a, first, n = 1, 0);
        rc = an_pass(a, AN_COUNT, NULL, err);
        if (rc == 0)
            rc = an_pass(a, AN_COST, NULL, err);
        if (rc == 0)
            rc = close_step(a, &a->steps[0], first, err);
    }
    window_close(a);
    return rc < 0 ? -1 : n;
}

int analytic_run(const alg_run *run, topology *t, const int32_t *host_of_rank,
                 const analytic_opts *o, traffic_counts *tc, double *time_s,
                 double *rank_finish, cs_error *err)
{
    analytic_ctx a = {.t = t, .run = run, .host_of_rank = host_of_rank, .o = o,
                      .P = run->spec.P, .nres = (size_t)(2 * t->nlinks + 1)};
    a.ready = xcalloc((size_t)a.P, sizeof *a.ready);
    a.comm_end = xcalloc((size_t)a.P, sizeof *a.comm_end);
    a.hops = xmalloc((size_t)t->max_route_hops * sizeof *a.hops);
    int rc = an_pass(&a, AN_SURVEY, tc, err);
    a.nsteps = rc == 0 ? tc->steps : 0;
    if (a.nsteps > a.sends_cap) { /* trailing steps without sends */
        a.sends = xrealloc(a.sends, (size_t)a.nsteps * sizeof *a.sends);
        memset(a.sends + a.sends_cap, 0, (size_t)(a.nsteps - a.sends_cap) * sizeof *a.sends);
    }
    for (int64_t k = 0; rc == 0 && k < a.nsteps;) {
        int64_t done = run_window(&a, k, err);
        rc = done < 0 ? -1 : 0;
        k += done;
    }
    if (rc == 0) {
        *time_s = 0;
        for (int32_t r = 0; r < a.P; r++) {
            *time_s = fmax(*time_s, a.ready[r]);
            if (rank_finish)
                rank_finish[r] = a.ready[r];
        }
    }
    free(a.ready);
    free(a.comm_end);
    free(a.hops);
    free(a.sends);
    return rc;
}
