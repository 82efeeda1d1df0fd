/* composite.c - collectives built from two phases of other families.
 *
 *   bcast scatter_ring_allgather  binomial scatter + ring allgather (MPICH, any P)
 *   reduce rabenseifner           recursive halving reduce-scatter + binomial gather;
 *                                 order=nearest: recursive doubling (distance 1 first)
 *                                 reduce-scatter + gather over the distance-doubling
 *                                 binomial tree, the last step from rank 1 (Open MPI's
 *                                 reduce redscat_gather, PICO's binomial_bdw_halving_doubling)
 *   allreduce reduce_bcast        binomial reduce + binomial broadcast
 *
 * (bcast scatter_allgather is in bcast_sag.c.) The vector of bcast/reduce is cut into P
 * pieces; relative rank v (= r - root) owns piece v during the phases.
 */
#include <stdlib.h>

#include "algorithms/butterfly.h"
#include "algorithms/families.h"
#include "algorithms/ring.h"
#include "algorithms/tree.h"
#include "common/util.h"

typedef struct composite_ctx {
    binomial_tree bt;  /* over every rank, or over the butterfly's participants */
    tree_pattern tp;
    chunk_map plain;   /* every rank, pieces by relative rank */
    chunk_map folded;  /* the butterfly's participants */
    rd_pattern_ctx pc;
    bfly_pattern pat;
} composite_ctx;

static const alg_param_desc rabenseifner_params[] = {
    {"order", PARAM_CHOICE, "farthest", "farthest|nearest",
     "farthest: reduce-scatter peers r xor 2^(k-1-s), gather over the distance-halving "
     "tree; nearest: r xor 2^s, gather over the distance-doubling tree"},
    {NULL, 0, NULL, NULL, NULL},
};

/* `nearest`: the distance-doubling butterfly and binomial tree instead of the halving ones */
static composite_ctx *new_ctx(const coll_spec *s, sched_layout *l, int32_t pieces,
                              int tree_over_participants, int nearest)
{
    composite_ctx *c = xcalloc(1, sizeof *c);
    layout_init(l, s->coll, s->P, s->root, s->bytes, pieces);
    int64_t unit = pieces / s->P > 0 ? pieces / s->P : 1;
    chunk_map_plain(&c->plain, s->P, s->root, 0, unit);
    chunk_map_folded(&c->folded, s->P, s->root, 0, unit);
    if (nearest)
        rd_doubling_pattern(&c->pat, &c->pc, chunk_map_participants(&c->folded));
    else
        rd_halving_pattern(&c->pat, &c->pc, chunk_map_participants(&c->folded));
    binomial_tree_init(&c->bt, tree_over_participants ? chunk_map_participants(&c->folded) : s->P);
    if (nearest)
        binomial_doubling_pattern(&c->tp, &c->bt);
    else
        binomial_halving_pattern(&c->tp, &c->bt);
    return c;
}

static int prepare_pieces(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    *ctx = new_ctx(s, l, s->P, 0, 0);
    return 0;
}

static int prepare_rabenseifner(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int order;
    if (alg_param_choice(rabenseifner_params, s, "order", &order, err) < 0)
        return -1;
    *ctx = new_ctx(s, l, s->P, 1, order == 1);
    return 0;
}

static int prepare_whole(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    *ctx = new_ctx(s, l, 1, 0, 0);
    return 0;
}

static void gen_scatter_ring(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const composite_ctx *c = ctx;
    tree_scatter(b, &c->tp, &c->plain, r);
    ring_allgather_phase(b, &c->plain, r);
}

static void gen_reduce_rabenseifner(const coll_spec *s, const void *ctx, int32_t r,
                                    sched_builder *b)
{
    (void)s;
    const composite_ctx *c = ctx;
    bfly_fold_in(b, &c->folded, r, FOLD_IN_REDUCE);
    bfly_rs_core(b, &c->pat, &c->folded, r);
    tree_gather(b, &c->tp, &c->folded, r);
}

static void gen_reduce_bcast(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const composite_ctx *c = ctx;
    tree_reduce(b, &c->tp, &c->plain, r);
    tree_bcast(b, &c->tp, &c->plain, r);
}

const alg_desc alg_family_composite[] = {
    {COLL_BCAST, "scatter_ring_allgather", "binomial scatter + ring allgather (MPICH)",
     "any P >= 2", NULL, prepare_pieces, gen_scatter_ring, free, 0},
    {COLL_REDUCE, "rabenseifner", "recursive halving reduce-scatter + binomial gather; "
     "order=nearest: recursive doubling reduce-scatter + distance-doubling tree (Open MPI)",
     "any P >= 2 (folds to a power of two)", rabenseifner_params, prepare_rabenseifner,
     gen_reduce_rabenseifner,
     free, 0},
    {COLL_ALLREDUCE, "reduce_bcast", "binomial reduce to rank 0 + binomial broadcast",
     "any P >= 2", NULL, prepare_whole, gen_reduce_bcast, free, 0},
    {0},
};
