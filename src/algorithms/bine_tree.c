/* bine_tree.c - Bine trees: bcast, reduce, gather, scatter (Bine paper, Sec. 4.1, 4.2, 4.5).
 *
 *   bcast bine                    distance-halving Bine tree, whole vector (small vectors)
 *   reduce bine                   the same tree, leaves to root
 *   gather bine, scatter bine     the same tree; every transfer is one contiguous circular
 *                                 range of blocks (a subtree), extended alternately after
 *                                 and before the holder's range
 *   bcast bine_doubling           distance-doubling Bine tree, whole vector (libbine's
 *                                 bcast_bine_lat; the root sends to rank 1 first)
 *   reduce bine_doubling          the same tree, leaves to root
 *   reduce bine_rs_gather         distance-doubling reduce-scatter + distance-doubling
 *                                 gather (large vectors); order=halving: distance-halving
 *                                 reduce-scatter (circular ranges, as reduce_scatter bine
 *                                 strategy=two) + gather over the distance-halving tree
 *                                 (PICO's tracer's reduce bine_bdw_doubling_halving)
 *   scatter bine_doubling         the distance-doubling tree; each child gets the blocks
 *                                 of its subtree (PICO's tracer's scatter bine_doubling)
 *
 * (bcast bine_scatter_allgather is in bcast_sag.c.) The large variant cuts the vector into
 * P pieces and uses nu-positions (bine_patterns.h): before the gather participant v holds
 * piece position nu(v), so every transfer is one contiguous range and no permutation is
 * needed.
 *
 * P: the DH tree runs on any even P directly (App. C: a rank reached twice keeps the
 * earlier arrival). An odd P, and any P that is not a power of two for the large
 * variant and the DD tree, folds (butterfly.h): the first 2(P - P') relative ranks pair
 * up, and the tree runs on the even one of each pair and the rest; any root by rotation.
 */
#include <stdlib.h>

#include "algorithms/bine_patterns.h"
#include "algorithms/families.h"
#include "common/util.h"

typedef struct bine_tree_ctx {
    bine_tree tree;
    tree_pattern tp;
    chunk_map map;
    bine_bfly bf; /* large variants: the remapped (order=halving: halving) butterfly */
    bfly_pattern pat;
    bfly_remap rm;
    bfly_opts opts; /* order=halving: one message per contiguous run */
    /* scatter bine_doubling: the DD tree with subtrees in participant numbers (the DD
     * tree's own subtree() gives nu-positions); nu_inv[nu(v)] = v */
    tree_pattern dd;
    int32_t *nu_inv;
} bine_tree_ctx;

static const alg_param_desc rs_gather_params[] = {
    {"order", PARAM_CHOICE, "doubling", "doubling|halving",
     "doubling: distance-doubling reduce-scatter + DD tree gather; halving: "
     "distance-halving reduce-scatter + DH tree gather"},
    {NULL, 0, NULL, NULL, NULL},
};

/* The DD tree, forwarded, with subtree() turned from nu-positions into participants. */
static int fwd_recv_step(const void *ctx, int32_t v)
{
    const bine_tree_ctx *c = ctx;
    return c->dd.recv_step(c->dd.ctx, v);
}

static int32_t fwd_parent(const void *ctx, int32_t v)
{
    const bine_tree_ctx *c = ctx;
    return c->dd.parent(c->dd.ctx, v);
}

static int32_t fwd_child(const void *ctx, int32_t v, int t)
{
    const bine_tree_ctx *c = ctx;
    return c->dd.child(c->dd.ctx, v, t);
}

static void participant_subtree(const void *ctx, int32_t v, range_list *out)
{
    const bine_tree_ctx *c = ctx;
    range_list pos = {0};
    c->dd.subtree(c->dd.ctx, v, &pos);
    for (size_t i = 0; i < pos.n; i++)
        for (int64_t x = pos.r[i].lo; x < pos.r[i].hi; x++)
            rl_push(out, c->nu_inv[x], c->nu_inv[x] + 1);
    rl_free(&pos);
}

static void participant_dd_pattern(bine_tree_ctx *c)
{
    int32_t n = c->tree.n;
    c->nu_inv = xmalloc((size_t)n * sizeof *c->nu_inv);
    for (int32_t v = 0; v < n; v++)
        c->nu_inv[bine_nu(v, n)] = v;
    c->dd = c->tp;
    c->tp = (tree_pattern){.n = n, .nsteps = c->dd.nsteps, .recv_step = fwd_recv_step,
                           .parent = fwd_parent, .child = fwd_child,
                           .subtree = participant_subtree, .ctx = c};
}

static void release(void *ctx)
{
    bine_tree_ctx *c = ctx;
    free(c->nu_inv);
    bine_tree_free(&c->tree);
    bine_bfly_free(&c->bf);
    free(c);
}

/* DH tree over every rank (even P) or over the folded participants (odd P). */
static int prepare_small(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    bine_tree_ctx *c = xcalloc(1, sizeof *c);
    int32_t rot = (s->coll == COLL_GATHER || s->coll == COLL_SCATTER) ? s->root : 0;
    if (s->P % 2 == 0)
        chunk_map_plain(&c->map, s->P, s->root, rot, l->blocks_per_rank);
    else
        chunk_map_folded(&c->map, s->P, s->root, rot, l->blocks_per_rank);
    bine_dh_tree_init(&c->tree, chunk_map_participants(&c->map));
    bine_dh_tree_pattern(&c->tp, &c->tree);
    *ctx = c;
    return 0;
}

/* P pieces; DD tree and remapped butterfly over the folded (power-of-two) participants. */
static int prepare_large(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int order;
    if (alg_param_choice(rs_gather_params, s, "order", &order, err) < 0)
        return -1;
    bine_tree_ctx *c = xcalloc(1, sizeof *c);
    layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    chunk_map_folded(&c->map, s->P, s->root, 0, 1);
    int32_t n = chunk_map_participants(&c->map);
    if (order == 1 && n >= 2) {
        bine_dh_tree_init(&c->tree, n);
        bine_dh_tree_pattern(&c->tp, &c->tree);
        bine_halving_bfly(&c->pat, &c->bf, n);
        c->opts.split_runs = 1;
    } else {
        bine_dd_tree_init(&c->tree, n);
        bine_dd_tree_pattern(&c->tp, &c->tree);
        bine_remap_bfly(&c->pat, &c->rm, &c->bf, n);
    }
    *ctx = c;
    return 0;
}

/* DD tree (whole vector) over the folded (power-of-two) participants. */
static int prepare_dd(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    bine_tree_ctx *c = xcalloc(1, sizeof *c);
    int32_t rot = s->coll == COLL_SCATTER ? s->root : 0;
    chunk_map_folded(&c->map, s->P, s->root, rot, l->blocks_per_rank);
    bine_dd_tree_init(&c->tree, chunk_map_participants(&c->map));
    bine_dd_tree_pattern(&c->tp, &c->tree);
    if (s->coll == COLL_SCATTER)
        participant_dd_pattern(c);
    *ctx = c;
    return 0;
}

static void gen_bcast(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_tree_ctx *c = ctx;
    tree_bcast(b, &c->tp, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

static void gen_reduce(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_tree_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    tree_reduce(b, &c->tp, &c->map, r);
}

static void gen_gather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_tree_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_OWN);
    tree_gather(b, &c->tp, &c->map, r);
}

static void gen_scatter(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_tree_ctx *c = ctx;
    tree_scatter(b, &c->tp, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_OWN);
}

static void gen_reduce_large(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_tree_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_rs_core_opts(b, &c->pat, &c->map, r, c->opts.split_runs ? &c->opts : NULL);
    tree_gather(b, &c->tp, &c->map, r);
}

#define ANY_P "any P >= 2 (even P: App. C pruning; odd P folds)"
#define ANY_P_FOLDS "any P >= 2 (folds to a power of two)"

const alg_desc alg_family_bine_tree[] = {
    {COLL_BCAST, "bine", "distance-halving Bine tree, whole vector per step (small vectors)", ANY_P,
     NULL, prepare_small, gen_bcast, release, 0},
    {COLL_BCAST, "bine_doubling",
     "distance-doubling Bine tree, whole vector per step (root sends to 1 first)", ANY_P_FOLDS,
     NULL, prepare_dd, gen_bcast, release, 0},
    {COLL_REDUCE, "bine", "distance-halving Bine tree, leaves to root (small vectors)", ANY_P, NULL,
     prepare_small, gen_reduce, release, 0},
    {COLL_REDUCE, "bine_rs_gather",
     "Bine distance-doubling reduce-scatter + gather (large vectors); order=halving: "
     "distance-halving reduce-scatter + DH tree gather", ANY_P_FOLDS, rs_gather_params,
     prepare_large, gen_reduce_large, release, 0},
    {COLL_REDUCE, "bine_doubling", "distance-doubling Bine tree, leaves to root", ANY_P_FOLDS,
     NULL, prepare_dd, gen_reduce, release, 0},
    {COLL_GATHER, "bine", "distance-halving Bine tree, contiguous circular ranges", ANY_P, NULL,
     prepare_small, gen_gather, release, 0},
    {COLL_SCATTER, "bine", "distance-halving Bine tree, contiguous circular ranges", ANY_P, NULL,
     prepare_small, gen_scatter, release, 0},
    {COLL_SCATTER, "bine_doubling", "distance-doubling Bine tree (root sends to 1 first)",
     ANY_P_FOLDS, NULL, prepare_dd, gen_scatter, release, 0},
    {0},
};
