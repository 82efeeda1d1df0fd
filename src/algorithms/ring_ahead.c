/* ring_ahead.c - the ring allreduce as libbine (and Open MPI's base ring) write it: the
 * receive of the next block is posted before the rank waits for the current one, which
 * a step schedule cannot say (it uses dependencies, schedule.h).
 *
 * The vector is cut into P blocks. Rank r, with next = r + 1 and prev = r - 1 (mod P),
 * in program order (R_k: the k-th receive, S_k: the k-th send, all blocking sends):
 *
 *   reduce-scatter  post R_1 (block r-1); S_1 = send block r;
 *                   for k = 2 .. P-1: post R_k (block r-k) once S_{k-1} returned; wait
 *                   for R_{k-1}, reduce block r-k+1, S_k = send it;
 *                   wait for R_{P-1} (after S_{P-1} returned), reduce block r+1;
 *   allgather       P-1 send-receives: send block r+1-k, receive block r-k, each after
 *                   the previous one (and the first after the last reduce).
 *
 * Step labels (for dump, draw and the verifier's per-step reduce check): step j holds
 * the receive R_{j+1}, its reduce and the send that follows it (step 0 starts with S_1);
 * the allgather's exchange k is step P-1+k. The communication pattern is derived from
 * libbine_allreduce.c's allreduce_ring (github.com/HLC-Lab/pico), not copied.
 */
#include <stdlib.h>

#include "algorithms/families.h"
#include "common/util.h"

typedef struct ring_ctx {
    int32_t P;
} ring_ctx;

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    layout_init(l, s->coll, s->P, 0, s->bytes, s->P); /* P blocks */
    ring_ctx *c = xmalloc(sizeof *c);
    c->P = s->P;
    *ctx = c;
    return 0;
}

static int64_t blk(int64_t b, int32_t P)
{
    return mod_i64(b, P);
}

/* Op indices of the reduce-scatter phase in the rank (see the step layout above):
 * step 0 = S_1, R_1, red_1, S_2; step j >= 1 = R_{j+1}, red_{j+1}, S_{j+2}. */
static uint32_t idx_recv(int32_t k) { return k == 1 ? 1u : 4u + 3u * (uint32_t)(k - 2); }
static uint32_t idx_red(int32_t k) { return idx_recv(k) + 1; }
static uint32_t idx_send(int32_t k) { return k == 1 ? 0u : k == 2 ? 3u : idx_recv(k - 1) + 2; }

/* The reduce-scatter phase (P-1 steps). */
static void reduce_scatter(sched_builder *b, int32_t P, int32_t r)
{
    int32_t next = (int32_t)blk(r + 1, P), prev = (int32_t)blk(r - 1, P);
    for (int32_t k = 1; k < P; k++) {
        sb_step(b);
        if (k == 1) {
            sb_send_blocks(b, next, r, r + 1); /* S_1, right after R_1 is posted */
            sb_dep(b, idx_recv(1), 1);
        }
        int64_t in = blk(r - k, P);
        sb_recv_blocks(b, prev, in, in + 1, OPF_COMBINE); /* R_k */
        sb_dep(b, UINT32_MAX, 0);
        if (k > 1)
            sb_dep(b, idx_send(k - 1), 0); /* posted once the previous send returned */
        sb_reduce(b, layout_range_bytes(b->layout, in, in + 1)); /* after waiting for R_k */
        sb_dep(b, idx_recv(k), 0);
        if (k + 1 < P)
            sb_dep(b, idx_recv(k + 1), 1); /* R_{k+1} is posted before the wait */
        else
            sb_dep(b, idx_send(k), 0); /* the last wait follows the last send */
        if (k + 1 < P) {
            sb_send_blocks(b, next, in, in + 1); /* S_{k+1}: the block just reduced */
            sb_dep(b, idx_red(k), 0);
        }
    }
}

/* The allgather phase: P-1 send-receives, each after the previous one. */
static void allgather(sched_builder *b, int32_t P, int32_t r)
{
    int32_t next = (int32_t)blk(r + 1, P), prev = (int32_t)blk(r - 1, P);
    uint32_t before[2] = {idx_red(P - 1), idx_red(P - 1)};
    for (int32_t k = 0; k < P - 1; k++) {
        int64_t out = blk(r + 1 - k, P), in = blk(r - k, P);
        sb_step(b);
        sb_send_blocks(b, next, out, out + 1);
        sb_dep(b, before[0], 0);
        sb_dep(b, before[1], 0);
        sb_recv_blocks(b, prev, in, in + 1, 0);
        sb_dep(b, before[0], 0);
        sb_dep(b, before[1], 0);
        before[0] = sb_last_op(b) - 1;
        before[1] = sb_last_op(b);
    }
}

static void gen_allreduce(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const ring_ctx *c = ctx;
    sb_hold_rank(b);
    reduce_scatter(b, c->P, r);
    allgather(b, c->P, r);
}

const alg_desc alg_family_ring_ahead[] = {
    {COLL_ALLREDUCE, "ring_recv_ahead",
     "ring reduce-scatter + allgather as libbine / Open MPI write it: the next receive is "
     "posted before waiting for the current one (dependencies, not steps)",
     "any P >= 2", NULL, prepare, gen_allreduce, free, ALG_DEPS},
    {0},
};
