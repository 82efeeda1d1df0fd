/* analytic.c - the analytic model: per-step costs with links shared equally, streamed one
 * pass per step over the traffic model's route walk (the rule is in analytic.h). */
#include "sim/analytic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

typedef struct analytic_ctx {
    const topology *t;
    const analytic_opts *o;
    int64_t cost_step;    /* the step this pass costs, -1 in the first (counting) pass */
    double *ready;        /* per rank: end of its previous step */
    double *comm_end;     /* per rank: latest end of its messages of cost_step */
    double *local;        /* per rank: its local seconds in cost_step */
    uint32_t *count_cur;  /* per resource: messages of cost_step crossing it */
    uint32_t *count_next; /* per resource: messages of cost_step + 1 crossing it */
    traffic_tally total;  /* the traffic columns, every send tallied once */
    uint64_t sent_hash, recv_hash; /* cost_step's sends and receives (step alignment) */
    int64_t sent_n, recv_n;
} analytic_ctx;

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

/* A message as the receiver and the sender both describe it: (src, dst, bytes). */
static uint64_t message_hash(int32_t src, int32_t dst, int64_t bytes)
{
    uint64_t key = ((uint64_t)(uint32_t)src << 32) | (uint32_t)dst;
    return hash_combine(mix64(key), (uint64_t)bytes);
}

/* Every step of the window: the local seconds and the alignment sums of cost_step. */
static void visit_step(void *ctx, const rank_sched *chunk, uint32_t s, uint32_t step)
{
    analytic_ctx *a = ctx;
    if ((int64_t)step != a->cost_step)
        return;
    double local = 0;
    for (uint32_t i = rs_step_begin(chunk, s); i < rs_step_end(chunk, s); i++) {
        const sched_op *op = &chunk->ops[i];
        switch (op->kind) {
        case OP_SEND:
            a->sent_hash += message_hash(chunk->rank, op->peer, op->bytes);
            a->sent_n++;
            break;
        case OP_RECV:
            a->recv_hash += message_hash(op->peer, chunk->rank, op->bytes);
            a->recv_n++;
            break;
        case OP_REDUCE: local += (double)op->bytes * a->o->reduce_s_per_byte; break;
        case OP_COPY: local += (double)op->bytes * a->o->copy_s_per_byte; break;
        }
    }
    a->local[chunk->rank] = local;
}

/* Every send of the window: costed in cost_step, counted (and tallied) in the next. */
static void visit_send(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                       int32_t src_host, int32_t dst_host, const topo_hop *hops, int nhops)
{
    analytic_ctx *a = ctx;
    if ((int64_t)step == a->cost_step) {
        double start = fmax(a->ready[rank], a->ready[op->peer]);
        double end = start + analytic_message_cost(a->t, hops, nhops, op->bytes, a->count_cur) +
                     endpoint_cost(a, rank, op->peer, op->bytes);
        a->comm_end[rank] = fmax(a->comm_end[rank], end);
        a->comm_end[op->peer] = fmax(a->comm_end[op->peer], end);
        return;
    }
    traffic_tally_message(&a->total, src_host, dst_host, op->bytes);
    for (int i = 0; i < nhops; i++) {
        int64_t res = traffic_resource(a->t, hops[i]);
        a->count_next[res]++;
        traffic_tally_hop(&a->total, res, op->bytes);
    }
}

/* One pass: cost step a->cost_step (unless -1) and count step cost_step + 1. */
static int run_pass(analytic_ctx *a, const alg_run *run, topology *t,
                    const int32_t *host_of_rank, int32_t *steps, cs_error *err)
{
    traffic_walk_opts w;
    traffic_walk_opts_init(&w);
    w.step = a->cost_step < 0 ? 0 : a->cost_step;
    w.nsteps = a->cost_step < 0 ? 1 : 2;
    w.visit = visit_send;
    w.visit_step = visit_step;
    w.visit_ctx = a;
    a->sent_hash = a->recv_hash = 0;
    a->sent_n = a->recv_n = 0;
    traffic_counts scratch;
    if (traffic_count_ex(run, t, host_of_rank, &w, &scratch, NULL, err) < 0)
        return -1;
    *steps = scratch.steps;
    if (a->sent_hash != a->recv_hash || a->sent_n != a->recv_n)
        return cs_fail(err, "the analytic model needs a step-aligned schedule (every send and "
                            "its receive in the same step index); step %lld has %lld send(s) "
                            "and %lld receive(s) that do not pair up: use a flow model "
                            "(--model cm02)", (long long)a->cost_step, (long long)a->sent_n,
                       (long long)a->recv_n);
    return 0;
}

/* After costing a step: every rank's new ready time; the next step's counts move in. */
static void close_step(analytic_ctx *a, int32_t P, size_t nres)
{
    for (int32_t r = 0; r < P; r++) {
        a->ready[r] = fmax(a->ready[r], a->comm_end[r]) + a->local[r];
        a->comm_end[r] = a->ready[r];
        a->local[r] = 0;
    }
    uint32_t *swap = a->count_cur;
    a->count_cur = a->count_next;
    a->count_next = swap;
    memset(a->count_next, 0, nres * sizeof *a->count_next);
}

int analytic_run(const alg_run *run, topology *t, const int32_t *host_of_rank,
                 const analytic_opts *o, traffic_counts *tc, double *time_s,
                 double *rank_finish, cs_error *err)
{
    int32_t P = run->spec.P, steps = 0;
    size_t nres = (size_t)(2 * t->nlinks + 1);
    analytic_ctx a = {.t = t, .o = o, .cost_step = -1};
    a.ready = xcalloc((size_t)P, sizeof *a.ready);
    a.comm_end = xcalloc((size_t)P, sizeof *a.comm_end);
    a.local = xcalloc((size_t)P, sizeof *a.local);
    a.count_cur = xcalloc(nres, sizeof *a.count_cur);
    a.count_next = xcalloc(nres, sizeof *a.count_next);
    traffic_tally_init(&a.total, t);
    int rc = run_pass(&a, run, t, host_of_rank, &steps, err);
    for (int32_t k = 0; rc == 0 && k < steps; k++) {
        close_step(&a, P, nres); /* step k's counts become current */
        a.cost_step = k;
        rc = run_pass(&a, run, t, host_of_rank, &steps, err);
    }
    if (rc == 0) {
        close_step(&a, P, nres);
        traffic_tally_steps(&a.total, steps);
        traffic_tally_result(&a.total, tc);
        *time_s = 0;
        for (int32_t r = 0; r < P; r++) {
            *time_s = fmax(*time_s, a.ready[r]);
            if (rank_finish)
                rank_finish[r] = a.ready[r];
        }
    }
    traffic_tally_free(&a.total);
    free(a.ready);
    free(a.comm_end);
    free(a.local);
    free(a.count_cur);
    free(a.count_next);
    return rc;
}
