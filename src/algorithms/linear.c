/* linear.c - everything in one step: the root talks to every rank at once (bcast,
 * gather, scatter) or every rank posts all its messages at once (alltoall), and the
 * throttled variant that posts them in batches (MPICH "scattered", spread-out).
 *
 * alltoallv (the MPI_Alltoallv baselines of the ParLogNa paper) first copies the own
 * block, and posts no message for a block of 0 bytes:
 *   linear      every receive then every send at once, in ascending rank order
 *               (Open MPI basic linear);
 *   spread_out  every message at once, round robin: to r+i, from r-i;
 *   scattered   round robin in batches of batch_size slots with a wait-all per batch,
 *               slot 0 being the self message as in MPICH (MPICH scattered).
 */
#include <stdlib.h>

#include "algorithms/alltoallv.h"
#include "algorithms/families.h"
#include "common/util.h"

static int prepare_none(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)s;
    (void)l;
    (void)err;
    *ctx = NULL;
    return 0;
}

/* bcast: the root sends the vector to each rank; gather/scatter: each rank's blocks. */
static void gen_rooted(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    const sched_layout *l = b->layout;
    int64_t u = l->blocks_per_rank;
    sb_step(b);
    for (int32_t i = 1; i < s->P; i++) {
        int32_t q = (int32_t)mod_i64((int64_t)s->root + i, s->P);
        int64_t lo = s->coll == COLL_BCAST ? 0 : q * u;
        int64_t hi = s->coll == COLL_BCAST ? l->nblocks : (q + 1) * u;
        if (r == s->root && s->coll != COLL_GATHER)
            sb_send_blocks(b, q, lo, hi);
        else if (r == s->root)
            sb_recv_blocks(b, q, lo, hi, 0);
        else if (r == q && s->coll == COLL_GATHER)
            sb_send_blocks(b, s->root, lo, hi);
        else if (r == q)
            sb_recv_blocks(b, s->root, lo, hi, 0);
    }
}

/* alltoall(v): slots i = 1..P-1 (from 0 when self_slot: slot 0 is the own block, which
 * only takes room in the first batch) in batches of `batch`, one step per batch; slot i
 * sends to r+i and receives from r-i. */
static void alltoall_batched(const coll_spec *s, int64_t batch, int self_slot, int32_t r,
                             sched_builder *b)
{
    const sched_layout *l = b->layout;
    int32_t P = s->P, first = self_slot ? 0 : 1;
    for (int32_t i = first; i < P; i++) {
        if ((i - first) % batch == 0)
            sb_step(b);
        if (i == 0)
            continue;
        int64_t dst = (r + i) % P, src = mod_i64((int64_t)r - i, P);
        int64_t in = src * P + r, out = (int64_t)r * P + dst;
        if (!a2av_block_empty(l, in))
            sb_recv_blocks(b, (int32_t)src, in, in + 1, 0);
        if (!a2av_block_empty(l, out))
            sb_send_blocks(b, (int32_t)dst, out, out + 1);
    }
}

static void gen_alltoall_linear(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    alltoall_batched(s, s->P, 0, r, b);
}

static const alg_param_desc spread_params[] = {
    {"batch", PARAM_INT, "32", "1..2147483647",
     "messages posted at once (MPICH MPIR_CVAR_ALLTOALL_THROTTLE)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare_spread(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    int64_t batch;
    if (alg_param_int(spread_params, s, "batch", &batch, err) < 0)
        return -1;
    int64_t *c = xmalloc(sizeof *c);
    *c = batch;
    *ctx = c;
    return 0;
}

static void gen_alltoall_spread(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    alltoall_batched(s, *(const int64_t *)ctx, 0, r, b);
}

static void gen_alltoallv_linear(const coll_spec *s, const void *ctx, int32_t r,
                                 sched_builder *b)
{
    (void)ctx;
    const sched_layout *l = b->layout;
    int64_t P = s->P;
    a2av_self_copy(b, r);
    sb_step(b);
    for (int64_t q = 0; q < P; q++)
        if (q != r && !a2av_block_empty(l, q * P + r))
            sb_recv_blocks(b, (int32_t)q, q * P + r, q * P + r + 1, 0);
    for (int64_t q = 0; q < P; q++)
        if (q != r && !a2av_block_empty(l, r * P + q))
            sb_send_blocks(b, (int32_t)q, r * P + q, r * P + q + 1);
}

static void gen_alltoallv_spread(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    a2av_self_copy(b, r);
    alltoall_batched(s, s->P, 0, r, b);
}

static const alg_param_desc scattered_params[] = {
    {"batch_size", PARAM_INT, "32", "0..2147483647",
     "slots (peers, the own block included) per wait-all batch; 0 = all at once"},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare_scattered(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    int64_t batch;
    if (alg_param_int(scattered_params, s, "batch_size", &batch, err) < 0)
        return -1;
    int64_t *c = xmalloc(sizeof *c);
    *c = batch == 0 || batch > s->P ? s->P : batch; /* MPICH: bblock <= 0 or > P means P */
    *ctx = c;
    return 0;
}

static void gen_alltoallv_scattered(const coll_spec *s, const void *ctx, int32_t r,
                                    sched_builder *b)
{
    a2av_self_copy(b, r);
    alltoall_batched(s, *(const int64_t *)ctx, 1, r, b);
}

const alg_desc alg_family_linear[] = {
    {COLL_BCAST, "linear", "root sends the vector to every rank at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL, 0},
    {COLL_GATHER, "linear", "every rank sends its block to the root at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL, 0},
    {COLL_SCATTER, "linear", "root sends every rank its block at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL, 0},
    {COLL_ALLTOALL, "linear", "post every send and receive at once (Open MPI basic linear)",
     "any P >= 2", NULL, prepare_none, gen_alltoall_linear, NULL, 0},
    {COLL_ALLTOALL, "spread_out",
     "sends to r+i and receives from r-i, in batches of `batch` (MPICH scattered)", "any P >= 2",
     spread_params, prepare_spread, gen_alltoall_spread, free, 0},
    {COLL_ALLTOALLV, "linear",
     "every receive, then every send at once, ascending ranks (Open MPI basic linear)",
     "any P >= 2", NULL, prepare_none, gen_alltoallv_linear, NULL, 0},
    {COLL_ALLTOALLV, "spread_out", "every message at once, round robin: to r+i, from r-i",
     "any P >= 2", NULL, prepare_none, gen_alltoallv_spread, NULL, 0},
    {COLL_ALLTOALLV, "scattered",
     "round robin in batches of batch_size with a wait-all each (MPICH scattered)", "any P >= 2",
     scattered_params, prepare_scattered, gen_alltoallv_scattered, free, 0},
    {0},
};
