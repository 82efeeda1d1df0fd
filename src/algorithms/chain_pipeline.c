/* chain_pipeline.c - the pipelined chain broadcast as MPI libraries write it (Open MPI's
 * generic segmented bcast over a chain): the vector is cut into segments of `segment`
 * bytes that flow down the chain root -> root+1 -> ... -> root+P-1, and every rank posts
 * the receive of the next segment before waiting for the current one. The overlap of
 * receiving segment i+1 while forwarding segment i is written with dependencies
 * (schedule.h), not steps.
 *
 * Relative rank v = r - root (mod P); S_i, R_i: the send / receive of segment i.
 *   root (v = 0)    S_i after S_{i-1} (one blocking send per segment)
 *   inner ranks     post R_0; for i = 1 .. n-1: post R_i (after S_{i-2} returned), wait
 *                   for R_{i-1}, send it (S_{i-1}, blocking); then wait for R_{n-1}, S_{n-1}
 *   last (v = P-1)  post R_0; for i = 1 .. n-1: post R_i (after waiting for R_{i-2}), wait
 *                   for R_{i-1}; then wait for R_{n-1}
 * Step i holds the rank's ops on segment i (labels only). The pattern is derived from the
 * libraries' description, not copied.
 */
#include <stdlib.h>

#include "algorithms/families.h"
#include "common/util.h"

static const alg_param_desc params[] = {
    {"segment", PARAM_SIZE, "64KiB", NULL, "bytes per segment (the last one may be shorter)"},
    {NULL, 0, NULL, NULL, NULL}};

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int64_t seg;
    if (alg_param_size(params, s, "segment", &seg, err) < 0)
        return -1;
    if (seg < 1)
        return cs_fail(err, "segment must be at least 1 byte (got %lld)", (long long)seg);
    int64_t n = s->bytes > 0 ? (s->bytes + seg - 1) / seg : 1;
    layout_init(l, s->coll, s->P, s->root, s->bytes, n); /* block i = segment i */
    *ctx = NULL;
    return 0;
}

/* Op indices: an inner rank writes R_i, S_i in step i; the root only S_i, the last rank
 * only R_i. */
static uint32_t inner_recv(int64_t i) { return (uint32_t)(2 * i); }
static uint32_t inner_send(int64_t i) { return (uint32_t)(2 * i + 1); }

static void gen_root(sched_builder *b, int32_t child, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        sb_step(b);
        sb_send_blocks(b, child, i, i + 1);
        sb_dep(b, UINT32_MAX, 0);
        if (i > 0)
            sb_dep(b, (uint32_t)(i - 1), 0);
    }
}

static void gen_last(sched_builder *b, int32_t parent, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        sb_step(b);
        sb_recv_blocks(b, parent, i, i + 1, 0);
        sb_dep(b, UINT32_MAX, 0);
        if (i > 0)
            sb_dep(b, (uint32_t)(i - 1), 1); /* posted after R_{i-1} was */
        if (i > 1)
            sb_dep(b, (uint32_t)(i - 2), 0); /* ... and after waiting for R_{i-2} */
    }
}

static void gen_inner(sched_builder *b, int32_t parent, int32_t child, int64_t n)
{
    for (int64_t i = 0; i < n; i++) {
        sb_step(b);
        sb_recv_blocks(b, parent, i, i + 1, 0); /* R_i */
        sb_dep(b, UINT32_MAX, 0);
        if (i > 0)
            sb_dep(b, inner_recv(i - 1), 1);
        if (i > 1)
            sb_dep(b, inner_send(i - 2), 0);
        sb_send_blocks(b, child, i, i + 1); /* S_i */
        sb_dep(b, inner_recv(i), 0);
        if (i + 1 < n)
            sb_dep(b, inner_recv(i + 1), 1); /* R_{i+1} is posted before the wait */
        if (i > 0)
            sb_dep(b, inner_send(i - 1), 0);
    }
}

static void gen_bcast(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int32_t P = s->P;
    int64_t v = mod_i64((int64_t)r - s->root, P), n = b->layout->nblocks;
    int32_t parent = (int32_t)mod_i64((int64_t)r - 1, P), child = (int32_t)mod_i64((int64_t)r + 1, P);
    sb_hold_rank(b);
    if (v == 0)
        gen_root(b, child, n);
    else if (v == P - 1)
        gen_last(b, parent, n);
    else
        gen_inner(b, parent, child, n);
}

const alg_desc alg_family_chain_pipeline[] = {
    {COLL_BCAST, "chain_pipelined",
     "segments flow down a chain, each rank receiving the next segment while it forwards "
     "the current one (Open MPI's pipelined chain; dependencies, not steps)",
     "any P >= 2", params, prepare, gen_bcast, NULL, ALG_DEPS},
    {0},
};
