/* linear.c - everything in one step: the root talks to every rank at once (bcast,
 * gather, scatter) or every rank posts all its messages at once (alltoall), and the
 * throttled variant that posts them in batches (MPICH "scattered", spread-out).
 */
#include <stdlib.h>

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

/* alltoall: batches of `batch` peers, r+i and r-i for i = 1..P-1, wait-all per batch. */
static void alltoall_batched(const coll_spec *s, int64_t batch, int32_t r, sched_builder *b)
{
    int32_t P = s->P;
    for (int32_t i = 1; i < P; i++) {
        if ((i - 1) % batch == 0)
            sb_step(b);
        int32_t dst = (int32_t)((r + i) % P), src = (int32_t)mod_i64((int64_t)r - i, P);
        sb_recv_blocks(b, src, (int64_t)src * P + r, (int64_t)src * P + r + 1, 0);
        sb_send_blocks(b, dst, (int64_t)r * P + dst, (int64_t)r * P + dst + 1);
    }
}

static void gen_alltoall_linear(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    alltoall_batched(s, s->P, r, b);
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
    alltoall_batched(s, *(const int64_t *)ctx, r, b);
}

const alg_desc alg_family_linear[] = {
    {COLL_BCAST, "linear", "root sends the vector to every rank at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL},
    {COLL_GATHER, "linear", "every rank sends its block to the root at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL},
    {COLL_SCATTER, "linear", "root sends every rank its block at once", "any P >= 2", NULL,
     prepare_none, gen_rooted, NULL},
    {COLL_ALLTOALL, "linear", "post every send and receive at once (Open MPI basic linear)",
     "any P >= 2", NULL, prepare_none, gen_alltoall_linear, NULL},
    {COLL_ALLTOALL, "spread_out",
     "sends to r+i and receives from r-i, in batches of `batch` (MPICH scattered)", "any P >= 2",
     spread_params, prepare_spread, gen_alltoall_spread, free},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
