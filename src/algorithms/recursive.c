/* recursive.c - recursive doubling and halving butterflies (MPICH / Open MPI), any P.
 *
 *   allgather recursive_doubling      distance-doubling, the vector doubles each step
 *   reduce_scatter recursive_halving  distance-halving, the vector halves each step
 *   reduce_scatter recursive_doubling distance-doubling, strided (non-contiguous) halves
 *   allreduce recursive_doubling      the whole vector every step (latency-optimal)
 *   allreduce rabenseifner            recursive halving reduce-scatter + recursive
 *                                     doubling allgather (bandwidth-optimal)
 *
 * All are the butterfly engine (butterfly.h) with the recursive doubling or halving
 * pattern; a P that is not a power of two folds onto the largest power of two below it.
 */
#include <stdlib.h>

#include "algorithms/butterfly.h"
#include "algorithms/families.h"
#include "common/util.h"

typedef struct rd_ctx {
    rd_pattern_ctx pc;
    bfly_pattern pat;
    chunk_map map;
} rd_ctx;

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

static int prepare_rabenseifner(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    *ctx = new_ctx(s, l, 1, 1);
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

static void gen_rabenseifner(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const rd_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_rs_core(b, &c->pat, &c->map, r);
    bfly_ag_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

const alg_desc alg_family_butterfly[] = {
    {COLL_ALLGATHER, "recursive_doubling", "distance-doubling butterfly, vector doubles per step",
     "any P >= 2 (folds to a power of two)", NULL, prepare_halving, gen_allgather, free, 0},
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
     "recursive-halving reduce-scatter + recursive-doubling allgather (bandwidth-optimal)",
     "any P >= 2 (folds to a power of two)", NULL, prepare_rabenseifner, gen_rabenseifner, free, 0},
    {0},
};
