/* bine_torus.c - torus-optimized Bine collectives (Bine paper, Sec. 5.4.1, App. D).
 *
 * The logical torus is the spec's dims (d_0 x d_1 x ..., dimension 0 varying fastest, as
 * the torus topology numbers its nodes; no dims: one ring of P; torus_shape.h). Bine is
 * applied dimension by dimension (torus_product.h): every
 * step moves along one dimension by that dimension's Bine offset, so no step crosses the
 * torus diagonally. Every dimension must be even (or 1): a power of two uses the plain
 * Bine construction (nu-positions for butterflies), other even sizes the App. C pruning.
 *
 *   allreduce bine_torus          reduce-scatter + allgather on the product butterfly
 *   allreduce bine_torus_latency  whole vector every step (power-of-two dimensions)
 *   reduce_scatter / allgather bine_torus   the product butterfly, plus one exchange that
 *                                 puts each block at its owner when the product names
 *                                 positions (after / before the butterfly)
 *   bcast / reduce / gather / scatter bine_torus   the product of distance-halving trees
 *
 * ports=multi (App. D.4): the data is cut into 2D slices (D = dimensions of size > 1) and
 * 2D products run at once (concurrent.h), slice c on port c (torus_shape.h): starting
 * along dimension c mod D, in the positive direction for c < D and mirrored otherwise
 * (E-N-W-S, N-W-S-E, W-S-E-N, S-E-N-W on a 2D torus), so that every port is busy; on a
 * rectangular torus some ports idle once the shorter dimensions run out of steps.
 */
#include <stdlib.h>

#include "algorithms/bine_patterns.h"
#include "algorithms/concurrent.h"
#include "algorithms/families.h"
#include "algorithms/torus_product.h"
#include "common/util.h"

static const alg_param_desc torus_params[] = {
    {"ports", PARAM_CHOICE, "1", "1|multi",
     "1: one product; multi: 2D concurrent products on n/2D each, one per direction"},
    {NULL, 0, NULL, NULL, NULL},
};

/* the butterflies: ports, and the dimension of each step on a rectangular torus */
static const alg_param_desc bfly_params[] = {
    {"ports", PARAM_CHOICE, "1", "1|multi",
     "1: one product; multi: 2D concurrent products on n/2D each, one per direction"},
    {"dim_order", PARAM_CHOICE, "round_robin", "round_robin|rotation",
     "round_robin: the allgather goes round the dimensions, the reduce-scatter is that order "
     "backwards (on a rectangular torus the long dimensions' extra steps come first, with "
     "the largest messages); rotation: libswing's order for both (those steps last)"},
    {NULL, 0, NULL, NULL, NULL},
};

typedef struct torus_ctx {
    coll_kind coll;
    int latency; /* allreduce: whole vector every step */
    torus_shape shape;
    conc_plan plan;
    chunk_map map; /* participant = rank, one block per participant of a slice */
    int remaps;    /* the butterfly names positions: add the fix-up exchange */
    /* the factors, one per dimension */
    bine_bfly dim_bf[SPEC_MAX_DIMS];
    bfly_pattern dim_pat[SPEC_MAX_DIMS];
    bfly_remap dim_rm[SPEC_MAX_DIMS];
    bine_tree dim_tree[SPEC_MAX_DIMS];
    tree_pattern dim_tp[SPEC_MAX_DIMS];
    /* the products, one per slice */
    tp_bfly bf[CONC_MAX_SLICES];
    bfly_pattern pat[CONC_MAX_SLICES];
    bfly_remap rm[CONC_MAX_SLICES];
    tp_tree tr[CONC_MAX_SLICES];
    tree_pattern tp[CONC_MAX_SLICES];
} torus_ctx;

static void release(void *ctx)
{
    torus_ctx *c = ctx;
    for (int k = 0; k < c->shape.ndims; k++) {
        bine_bfly_free(&c->dim_bf[k]);
        bine_tree_free(&c->dim_tree[k]);
    }
    free(c);
}

/* The torus shape: the spec's dims (one ring of P without them), every size even or 1. */
static int shape_from_spec(const coll_spec *s, torus_ctx *c, int need_pow2, cs_error *err)
{
    if (torus_shape_from_spec(&c->shape, s, err) < 0)
        return -1;
    int nd = s->ndims ? s->ndims : 1;
    const int32_t *dims = s->ndims ? s->dims : &s->P;
    for (int k = 0; k < nd; k++) { /* the spec's dimensions, for the messages */
        int32_t d = dims[k];
        if (d > 1 && d % 2)
            return cs_fail(err, "requires every torus dimension to be even or 1 (dimension %d "
                           "has size %d)", k, d);
        if (need_pow2 && !is_pow2_i64(d))
            return cs_fail(err, "requires every torus dimension to be a power of two "
                           "(dimension %d has size %d)", k, d);
    }
    return 0;
}

/* Slices (1, or one per port) and the layout. */
static int slices(const coll_spec *s, torus_ctx *c, int64_t width, sched_layout *l,
                  cs_error *err)
{
    int multi;
    if (alg_param_choice(torus_params, s, "ports", &multi, err) < 0)
        return -1;
    int n = torus_ports(&c->shape, multi);
    conc_plan_init(&c->plan, l, s->coll, s->P, s->root, s->bytes, n, width);
    chunk_map_plain(&c->map, s->P, 0, 0, 1);
    return n;
}

static torus_ctx *new_ctx(const coll_spec *s)
{
    torus_ctx *c = xcalloc(1, sizeof *c);
    c->coll = s->coll;
    return c;
}

/* `latency`: the whole-vector allreduce, which needs power-of-two dimensions (a pruned
 * butterfly would combine some contributions twice). */
static int prepare_bfly(const coll_spec *s, sched_layout *l, void **ctx, int64_t width,
                        int latency, cs_error *err)
{
    int order;
    if (alg_param_choice(bfly_params, s, "dim_order", &order, err) < 0)
        return -1;
    torus_ctx *c = new_ctx(s);
    int n;
    if (shape_from_spec(s, c, latency, err) < 0 || (n = slices(s, c, width, l, err)) < 0) {
        free(c);
        return -1;
    }
    const torus_shape *t = &c->shape;
    const bfly_pattern *pats[SPEC_MAX_DIMS];
    const bfly_remap *rms[SPEC_MAX_DIMS];
    for (int k = 0; k < t->ndims; k++) {
        int32_t d = t->dims[k];
        pats[k] = &c->dim_pat[k];
        rms[k] = NULL;
        if (is_pow2_i64(d)) {
            bine_remap_bfly(&c->dim_pat[k], &c->dim_rm[k], &c->dim_bf[k], d);
            rms[k] = &c->dim_rm[k];
        } else {
            bine_natural_bfly(&c->dim_pat[k], &c->dim_bf[k], d);
        }
    }
    for (int i = 0; i < n; i++) {
        /* the allgather goes in the product order, the reduce-scatter backwards */
        tp_bfly_init(&c->bf[i], t, pats, rms, torus_port_start(t, i),
                     order == 0 ? TORUS_ROUND_ROBIN_REVERSED : TORUS_ROTATION,
                     torus_port_mirrored(t, i));
        tp_bfly_pattern(&c->pat[i], &c->bf[i]);
        tp_bfly_remap(&c->rm[i], &c->bf[i]);
        c->remaps = c->remaps || tp_bfly_remaps(&c->bf[i]);
    }
    c->latency = latency;
    *ctx = c;
    return 0;
}

static int prepare_tree(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    torus_ctx *c = new_ctx(s);
    int n;
    if (shape_from_spec(s, c, 0, err) < 0 || (n = slices(s, c, 1, l, err)) < 0) {
        free(c);
        return -1;
    }
    const torus_shape *t = &c->shape;
    const tree_pattern *pats[SPEC_MAX_DIMS];
    for (int k = 0; k < t->ndims; k++) {
        pats[k] = &c->dim_tp[k];
        bine_dh_tree_init(&c->dim_tree[k], t->dims[k]);
        bine_dh_tree_pattern(&c->dim_tp[k], &c->dim_tree[k]);
    }
    for (int i = 0; i < n; i++) {
        tp_tree_init(&c->tr[i], t, pats, s->root, torus_port_start(t, i),
                     torus_port_mirrored(t, i));
        tp_tree_pattern(&c->tp[i], &c->tr[i]);
    }
    *ctx = c;
    return 0;
}

static int prepare_allreduce(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_bfly(s, l, ctx, s->P, 0, err); /* a slice = P pieces */
}

static int prepare_latency(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_bfly(s, l, ctx, 1, 1, err);
}

static int prepare_partitioned(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_bfly(s, l, ctx, 1, 0, err);
}

/* ---- one slice, and the whole ----------------------------------------------------------- */

static void slice(const void *ctx, int i, int32_t r, sched_builder *b)
{
    const torus_ctx *c = ctx;
    const bfly_pattern *p = &c->pat[i];
    const tree_pattern *t = &c->tp[i];
    switch (c->coll) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_GATHER:
    case COLL_SCATTER: tree_collective(c->coll, b, t, &c->map, r); break;
    case COLL_REDUCE_SCATTER:
        bfly_rs_core_opts(b, p, &c->map, r, NULL);
        if (c->remaps)
            bfly_remap_after_rs(b, &c->rm[i], &c->map, r);
        break;
    case COLL_ALLGATHER:
        if (c->remaps)
            bfly_remap_before_ag(b, &c->rm[i], &c->map, r);
        bfly_ag_core_opts(b, p, &c->map, r, NULL);
        break;
    default: /* allreduce */
        if (c->latency) {
            bfly_whole_core(b, p, &c->map, r);
        } else {
            bfly_rs_core_opts(b, p, &c->map, r, NULL);
            bfly_ag_core_opts(b, p, &c->map, r, NULL);
        }
        break;
    }
}

/* Every slice, merged step by step (concurrent.h). */
static void gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    conc_gen(b, &((const torus_ctx *)ctx)->plan, r, slice, ctx);
}

#define EVEN_DIMS "dims (default: one ring of P) with every size even or 1"
#define POW2_DIMS "dims (default: one ring of P) with every size a power of two"

const alg_desc alg_family_bine_torus[] = {
    {COLL_ALLREDUCE, "bine_torus", "Bine reduce-scatter + allgather, dimension by dimension",
     EVEN_DIMS, bfly_params, prepare_allreduce, gen, release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "bine_torus_latency", "Bine butterfly, whole vector, dimension by dimension",
     POW2_DIMS, bfly_params, prepare_latency, gen, release, ALG_READS_DIMS},
    {COLL_REDUCE_SCATTER, "bine_torus", "Bine butterfly dimension by dimension (+ fix-up)",
     EVEN_DIMS, bfly_params, prepare_partitioned, gen, release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "bine_torus", "Bine butterfly dimension by dimension (+ fix-up)", EVEN_DIMS,
     bfly_params, prepare_partitioned, gen, release, ALG_READS_DIMS},
    {COLL_BCAST, "bine_torus", "product of distance-halving Bine trees, one per dimension",
     EVEN_DIMS, torus_params, prepare_tree, gen, release, ALG_READS_DIMS},
    {COLL_REDUCE, "bine_torus", "product of distance-halving Bine trees, one per dimension",
     EVEN_DIMS, torus_params, prepare_tree, gen, release, ALG_READS_DIMS},
    {COLL_GATHER, "bine_torus", "product of distance-halving Bine trees, one per dimension",
     EVEN_DIMS, torus_params, prepare_tree, gen, release, ALG_READS_DIMS},
    {COLL_SCATTER, "bine_torus", "product of distance-halving Bine trees, one per dimension",
     EVEN_DIMS, torus_params, prepare_tree, gen, release, ALG_READS_DIMS},
    {0},
};
