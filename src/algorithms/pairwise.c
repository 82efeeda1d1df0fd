/* pairwise.c - pairwise exchanges: P-1 steps, one partner per step.
 *
 *   alltoall pairwise        step i: send to r+i, receive from r-i (Open MPI pairwise)
 *   alltoall xor             step i: exchange with r xor i (power-of-two P)
 *   reduce_scatter pairwise  step i: send r+i its block of my partial vector, receive
 *                            r-i's contribution to my block and combine (MPICH)
 *
 * alltoallv pairwise and xor (the Open MPI pairwise and exclusive-or MPI_Alltoallv) copy
 * the own block first and post no message for a block of 0 bytes.
 */
#include <stdlib.h>

#include "algorithms/alltoallv.h"
#include "algorithms/families.h"
#include "common/util.h"

static int prepare_any(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)s;
    (void)l;
    (void)err;
    *ctx = NULL;
    return 0;
}

static int prepare_pow2(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    *ctx = NULL;
    return require_pow2(s, err);
}

static void gen_alltoall_pairwise(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P;
    for (int64_t i = 1; i < P; i++) {
        int64_t dst = (r + i) % P, src = mod_i64(r - i, P);
        sb_step(b);
        if (!a2av_block_empty(b->layout, r * P + dst))
            sb_send_blocks(b, (int32_t)dst, r * P + dst, r * P + dst + 1);
        if (!a2av_block_empty(b->layout, src * P + r))
            sb_recv_blocks(b, (int32_t)src, src * P + r, src * P + r + 1, 0);
    }
}

static void gen_alltoall_xor(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P;
    for (int64_t i = 1; i < P; i++) {
        int64_t q = r ^ i;
        sb_step(b);
        if (!a2av_block_empty(b->layout, r * P + q))
            sb_send_blocks(b, (int32_t)q, r * P + q, r * P + q + 1);
        if (!a2av_block_empty(b->layout, q * P + r))
            sb_recv_blocks(b, (int32_t)q, q * P + r, q * P + r + 1, 0);
    }
}

static void gen_alltoallv_pairwise(const coll_spec *s, const void *ctx, int32_t r,
                                   sched_builder *b)
{
    a2av_self_copy(b, r);
    gen_alltoall_pairwise(s, ctx, r, b);
}

static void gen_alltoallv_xor(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    a2av_self_copy(b, r);
    gen_alltoall_xor(s, ctx, r, b);
}

static void gen_rs_pairwise(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P, u = b->layout->blocks_per_rank;
    for (int64_t i = 1; i < P; i++) {
        int64_t dst = (r + i) % P, src = mod_i64(r - i, P);
        sb_step(b);
        sb_send_blocks(b, (int32_t)dst, dst * u, (dst + 1) * u);
        sb_recv_blocks(b, (int32_t)src, r * u, (r + 1) * u, OPF_COMBINE);
        sb_reduce(b, layout_range_bytes(b->layout, r * u, (r + 1) * u));
    }
}

const alg_desc alg_family_pairwise[] = {
    {COLL_ALLTOALL, "pairwise", "P-1 steps: send to r+i, receive from r-i", "any P >= 2", NULL,
     prepare_any, gen_alltoall_pairwise, NULL, 0},
    {COLL_ALLTOALL, "xor", "P-1 steps: exchange with r xor i", "P power of two", NULL,
     prepare_pow2, gen_alltoall_xor, NULL, 0},
    {COLL_ALLTOALLV, "pairwise", "P-1 steps: send to r+i, receive from r-i (Open MPI pairwise)",
     "any P >= 2", NULL, prepare_any, gen_alltoallv_pairwise, NULL, 0},
    {COLL_ALLTOALLV, "xor", "P-1 steps: exchange with r xor i (exclusive-or)", "P power of two",
     NULL, prepare_pow2, gen_alltoallv_xor, NULL, 0},
    {COLL_REDUCE_SCATTER, "pairwise", "P-1 steps: send to r+i, receive from r-i and combine",
     "any P >= 2", NULL, prepare_any, gen_rs_pairwise, NULL, 0},
    {0},
};
