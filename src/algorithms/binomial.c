/* binomial.c - binomial trees: bcast (both orders), reduce, gather, scatter. Any P.
 *
 * MPICH's binomial trees are distance-halving (the root first sends to P/2 and subtrees
 * are contiguous: that is what gather and scatter use); Open MPI's binomial bcast is
 * distance-doubling (the root first sends to 1). The reduce runs the distance-halving
 * tree backwards (MPICH). reduce and scatter `binomial_doubling` use the distance-doubling
 * tree (PICO's tracer's binomial_doubling): the reduce's last step is rank 1 -> root, the
 * scatter's first sends rank 1 the strided half of the blocks (1, 3, 5, ...). All are the
 * tree engine (tree.h) with a binomial pattern.
 */
#include <stdlib.h>

#include "algorithms/families.h"
#include "algorithms/tree.h"
#include "common/util.h"

typedef struct binomial_ctx {
    binomial_tree bt;
    tree_pattern tp;
    chunk_map map;
} binomial_ctx;

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, int doubling)
{
    binomial_ctx *c = xcalloc(1, sizeof *c);
    binomial_tree_init(&c->bt, s->P);
    if (doubling)
        binomial_doubling_pattern(&c->tp, &c->bt);
    else
        binomial_halving_pattern(&c->tp, &c->bt);
    /* gather/scatter blocks belong to actual ranks: rotate chunks by the root */
    int32_t rot = (s->coll == COLL_GATHER || s->coll == COLL_SCATTER) ? s->root : 0;
    chunk_map_plain(&c->map, s->P, s->root, rot, l->blocks_per_rank);
    *ctx = c;
    return 0;
}

static int prepare_halving(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    return prepare(s, l, ctx, 0);
}

static int prepare_doubling(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    return prepare(s, l, ctx, 1);
}

/* The tree's bcast, reduce, gather or scatter, as the spec's collective says. */
static void gen_tree(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    const binomial_ctx *c = ctx;
    tree_collective(s->coll, b, &c->tp, &c->map, r);
}

const alg_desc alg_family_binomial[] = {
    {COLL_BCAST, "binomial_halving",
     "binomial tree, distance-halving (MPICH): root sends to P/2 first", "any P >= 2", NULL,
     prepare_halving, gen_tree, free, 0},
    {COLL_BCAST, "binomial_doubling",
     "binomial tree, distance-doubling (Open MPI): root sends to 1 first", "any P >= 2", NULL,
     prepare_doubling, gen_tree, free, 0},
    {COLL_REDUCE, "binomial", "binomial tree (MPICH), leaves to root, distance-doubling in time",
     "any P >= 2", NULL, prepare_halving, gen_tree, free, 0},
    {COLL_REDUCE, "binomial_doubling",
     "distance-doubling binomial tree, leaves to root (rank 1 sends to the root last)",
     "any P >= 2", NULL, prepare_doubling, gen_tree, free, 0},
    {COLL_GATHER, "binomial", "binomial tree (MPICH), contiguous subtrees", "any P >= 2", NULL,
     prepare_halving, gen_tree, free, 0},
    {COLL_SCATTER, "binomial", "binomial tree (MPICH), contiguous subtrees", "any P >= 2", NULL,
     prepare_halving, gen_tree, free, 0},
    {COLL_SCATTER, "binomial_doubling",
     "distance-doubling binomial tree (root sends to 1 first), strided subtrees", "any P >= 2",
     NULL, prepare_doubling, gen_tree, free, 0},
    {0},
};
