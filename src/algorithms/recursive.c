/* recursive.c - recursive doubling and halving butterflies (MPICH / Open MPI), any P.
 *
 *   allgather recursive_doubling      order=doubling: distance-doubling (peer r xor 2^s),
 *                                     the vector doubles each step, contiguous blocks;
 *                                     order=halving: distance-halving (peer r xor
 *                                     2^(k-1-s), PICO's tracer), strided blocks
 *   reduce_scatter recursive_halving  distance-halving, the vector halves each step
 *   reduce_scatter recursive_doubling distance-doubling, strided (non-contiguous) halves
 *   allreduce recursive_doubling      the whole vector every step (latency-optimal)
 *   allreduce rabenseifner            reduce-scatter + allgather (bandwidth-optimal):
 *                                     order=farthest: distance-halving reduce-scatter
 *                                     first; order=nearest: Open MPI's redscat_allgather
 *                                     (libbine's allreduce_rabenseifner), distance 1 first
 *
 * All are the butterfly engine (butterfly.h) with a recursive doubling or halving
 * pattern; a P that is not a power of two folds onto the largest power of two P' below
 * it (MPICH: the odd rank of each of the first P - P' pairs hands its data to the even
 * one). order=nearest folds as Open MPI does instead: the pair swaps vector halves and
 * reduces them (even keeps the lower half), then the odd rank sends its reduced upper
 * half to the even one (2 steps); its vector is cut into P' equal blocks, as Open MPI
 * halves the element count (byte counts agree when P' divides the vector size).
 */
#include <stdlib.h>

#include "algorithms/butterfly.h"
#include "algorithms/families.h"
#include "common/util.h"

typedef struct rd_ctx {
    rd_pattern_ctx pc;
    bfly_pattern pat;
    chunk_map map;
    /* order=nearest: the participants come from members (Open MPI's vrank), the chunk
     * map numbers the P' blocks */
    int32_t rem; /* folded pairs */
    bfly_members members;
    bfly_opts opts;
} rd_ctx;

static const alg_param_desc allgather_params[] = {
    {"order", PARAM_CHOICE, "doubling", "doubling|halving",
     "doubling: peer r xor 2^s, contiguous blocks; halving: peer r xor 2^(k-1-s), strided "
     "blocks"},
    {NULL, 0, NULL, NULL, NULL},
};

static const alg_param_desc rabenseifner_params[] = {
    {"order", PARAM_CHOICE, "farthest", "farthest|nearest",
     "farthest: reduce-scatter peers r xor 2^(k-1-s); nearest: r xor 2^s, Open MPI's "
     "halves fold"},
    {NULL, 0, NULL, NULL, NULL},
};

/* `per_rank`: cut the vector of bcast/reduce/allreduce into P blocks (one chunk each). */
static rd_ctx *new_ctx(const coll_spec *s, sched_layout *l, int halving, int per_rank)
{
    rd_ctx *c = xcalloc(1, sizeof *c);
    if (per_rank)
        layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    int64_t unit = s->coll == COLL_ALLREDUCE ? l->nblocks / s->P : l->blocks_per_rank;
    chunk_map_folded(&c->map, s->P, 0, 0, unit > 0 ? unit : 1);
    int32_t n = chunk_map_participants(&c->map);
    if (halving)
        rd_halving_pattern(&c->pat, &c->pc, n);
    else
        rd_doubling_pattern(&c->pat, &c->pc, n);
    return c;
}

/* Open MPI's vrank: the even rank of a folded pair is v = rank / 2, others rank - rem. */
static int32_t nearest_participant(const void *ctx, int32_t rank)
{
    const rd_ctx *c = ctx;
    if (rank < 2 * c->rem)
        return rank % 2 ? -1 : rank / 2;
    return rank - c->rem;
}

static int32_t nearest_rank(const void *ctx, int32_t v)
{
    const rd_ctx *c = ctx;
    return v < c->rem ? 2 * v : v + c->rem;
}

static rd_ctx *new_nearest_ctx(const coll_spec *s, sched_layout *l)
{
    rd_ctx *c = xcalloc(1, sizeof *c);
    int32_t n = (int32_t)1 << ilog2_floor((uint64_t)s->P);
    layout_init(l, s->coll, s->P, s->root, s->bytes, n);
    c->rem = s->P - n;
    chunk_map_plain(&c->map, n, 0, 0, 1);
    rd_nearest_pattern(&c->pat, &c->pc, n);
    c->members = (bfly_members){nearest_participant, nearest_rank, c};
    c->opts = (bfly_opts){.members = &c->members};
    return c;
}

static int prepare_doubling(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    *ctx = new_ctx(s, l, 0, 0);
    return 0;
}

static int prepare_halving(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    *ctx = new_ctx(s, l, 1, 0);
    return 0;
}

static int prepare_allgather(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int order;
    if (alg_param_choice(allgather_params, s, "order", &order, err) < 0)
        return -1;
    /* the allgather runs the pattern's reduce-scatter backwards: the halving pattern's
     * goes distance-doubling, the doubling pattern's distance-halving */
    *ctx = new_ctx(s, l, order == 0, 0);
    return 0;
}

static int prepare_rabenseifner(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int order;
    if (alg_param_choice(rabenseifner_params, s, "order", &order, err) < 0)
        return -1;
    *ctx = order == 0 ? new_ctx(s, l, 1, 1) : new_nearest_ctx(s, l);
    return 0;
}

static void gen_allgather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const rd_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_OWN);
    bfly_ag_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_ALL_CHUNKS);
}

static void gen_reduce_scatter(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const rd_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_rs_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_OWN);
}

static void gen_allreduce_whole(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const rd_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_whole_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

/* Open MPI's fold, 2 steps: the pair (2i, 2i+1), i < rem, swaps halves (even sends the
 * upper, odd the lower) and reduces what it receives; then the odd rank sends its reduced
 * upper half to the even one, which now holds the pair's sum. */
static void halves_fold_in(sched_builder *b, const rd_ctx *c, int32_t r)
{
    if (c->rem == 0)
        return;
    int64_t nb = b->layout->nblocks;
    blk_range lower = {0, nb / 2}, upper = {nb / 2, nb};
    int paired = r < 2 * c->rem, odd = r % 2;
    int32_t q = odd ? r - 1 : r + 1;
    sb_step(b);
    if (paired) {
        const blk_range *out = odd ? &lower : &upper, *in = odd ? &upper : &lower;
        sb_send(b, q, out, 1);
        sb_recv(b, q, in, 1, OPF_COMBINE);
        sb_reduce(b, ranges_bytes(b->layout, in, 1));
    }
    sb_step(b);
    if (paired && odd)
        sb_send(b, q, &upper, 1);
    else if (paired)
        sb_recv(b, q, &upper, 1, 0);
}

/* The even rank of each folded pair sends the result to the odd one. */
static void whole_fold_out(sched_builder *b, const rd_ctx *c, int32_t r)
{
    if (c->rem == 0)
        return;
    blk_range all = {0, b->layout->nblocks};
    sb_step(b);
    if (r < 2 * c->rem && r % 2)
        sb_recv(b, r - 1, &all, 1, 0);
    else if (r < 2 * c->rem)
        sb_send(b, r + 1, &all, 1);
}

static void gen_rabenseifner(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const rd_ctx *c = ctx;
    if (c->opts.members) { /* order=nearest */
        halves_fold_in(b, c, r);
        bfly_rs_core_opts(b, &c->pat, &c->map, r, &c->opts);
        bfly_ag_core_opts(b, &c->pat, &c->map, r, &c->opts);
        whole_fold_out(b, c, r);
        return;
    }
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_rs_core(b, &c->pat, &c->map, r);
    bfly_ag_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

const alg_desc alg_family_butterfly[] = {
    {COLL_ALLGATHER, "recursive_doubling",
     "distance-doubling (order=halving: distance-halving) butterfly, vector doubles per step",
     "any P >= 2 (folds to a power of two)", allgather_params, prepare_allgather, gen_allgather,
     free, 0},
    {COLL_REDUCE_SCATTER, "recursive_halving",
     "distance-halving butterfly, contiguous halves (MPICH)",
     "any P >= 2 (folds to a power of two)", NULL, prepare_halving, gen_reduce_scatter, free, 0},
    {COLL_REDUCE_SCATTER, "recursive_doubling",
     "distance-doubling butterfly, strided halves", "any P >= 2 (folds to a power of two)", NULL,
     prepare_doubling, gen_reduce_scatter, free, 0},
    {COLL_ALLREDUCE, "recursive_doubling",
     "distance-doubling butterfly, whole vector per step (latency-optimal)",
     "any P >= 2 (folds to a power of two)", NULL, prepare_doubling, gen_allreduce_whole, free, 0},
    {COLL_ALLREDUCE, "rabenseifner",
     "vector-halving reduce-scatter + vector-doubling allgather (bandwidth-optimal); "
     "order=nearest: distance 1 first (Open MPI)",
     "any P >= 2 (folds to a power of two)", rabenseifner_params, prepare_rabenseifner,
     gen_rabenseifner, free, 0},
    {0},
};
