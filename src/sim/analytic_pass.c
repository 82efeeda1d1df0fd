/* analytic_pass.c - the analytic model's passes over the ranks (analytic_internal.h):
 * traffic_count_ex generates every rank and walks its sends' routes, these visitors keep
 * what the mode needs. */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/analytic_internal.h"

/* A message as the receiver and the sender both describe it: (src, dst, bytes). */
static uint64_t message_hash(int32_t src, int32_t dst, int64_t bytes)
{
    uint64_t key = ((uint64_t)(uint32_t)src << 32) | (uint32_t)dst;
    return hash_combine(mix64(key), (uint64_t)bytes);
}

/* Every step of the window: its local seconds and alignment sums. */
static void visit_step(void *ctx, const rank_sched *chunk, uint32_t s, uint32_t step)
{
    analytic_ctx *a = ctx;
    if (a->mode == AN_SURVEY || a->mode == AN_COUNT)
        return;
    an_step *st = &a->steps[(int64_t)step - a->first];
    double local = 0;
    for (uint32_t i = rs_step_begin(chunk, s); i < rs_step_end(chunk, s); i++) {
        const sched_op *op = &chunk->ops[i];
        switch (op->kind) {
        case OP_SEND:
            st->sent_hash += message_hash(chunk->rank, op->peer, op->bytes);
            st->sent_n++;
            break;
        case OP_RECV:
            st->recv_hash += message_hash(op->peer, chunk->rank, op->bytes);
            st->recv_n++;
            break;
        case OP_REDUCE: local += (double)op->bytes * a->o->reduce_s_per_byte; break;
        case OP_COPY: local += (double)op->bytes * a->o->copy_s_per_byte; break;
        }
    }
    st->local[chunk->rank] = local;
}

static void survey_send(analytic_ctx *a, uint32_t step)
{
    if ((int64_t)step >= a->sends_cap) {
        int64_t cap = a->sends_cap ? 2 * a->sends_cap : 64;
        while (cap <= (int64_t)step)
            cap *= 2;
        a->sends = xrealloc(a->sends, (size_t)cap * sizeof *a->sends);
        memset(a->sends + a->sends_cap, 0, (size_t)(cap - a->sends_cap) * sizeof *a->sends);
        a->sends_cap = cap;
    }
    a->sends[step]++;
}

static void record(an_step *st, int32_t src, int32_t dst, int64_t bytes)
{
    if (st->nmsgs == st->cap) { /* sized by the survey: only grows if the schedule changed */
        st->cap = st->cap ? 2 * st->cap : 64;
        st->msgs = xrealloc(st->msgs, (size_t)st->cap * sizeof *st->msgs);
    }
    st->msgs[st->nmsgs++] = (an_msg){src, dst, bytes};
}

static void visit_send(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                       int32_t src_host, int32_t dst_host, const topo_hop *hops, int nhops)
{
    (void)src_host;
    (void)dst_host;
    analytic_ctx *a = ctx;
    if (a->mode == AN_SURVEY) {
        survey_send(a, step);
        return;
    }
    an_step *st = &a->steps[(int64_t)step - a->first];
    if (a->mode == AN_COST) {
        an_cost_send(a, st, rank, op->peer, op->bytes, hops, nhops);
        return;
    }
    for (int i = 0; i < nhops; i++)
        st->counts[traffic_resource(a->t, hops[i])]++;
    if (a->mode == AN_WINDOW)
        record(st, rank, op->peer, op->bytes);
}

int an_pass(analytic_ctx *a, an_mode mode, traffic_counts *out, cs_error *err)
{
    a->mode = mode;
    traffic_walk_opts w;
    traffic_walk_opts_init(&w);
    if (mode != AN_SURVEY) {
        w.step = a->first;
        w.nsteps = a->n;
    }
    w.visit = visit_send;
    w.visit_step = visit_step;
    w.visit_ctx = a;
    traffic_counts scratch;
    return traffic_count_ex(a->run, a->t, a->host_of_rank, &w, out ? out : &scratch, NULL, err);
}
