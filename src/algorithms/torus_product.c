/* torus_product.c - products of 1D butterflies and trees over a torus (see torus_product.h). */
#include "algorithms/torus_product.h"

#include <string.h>

#include "common/util.h"

/* ---- shape and step order ---------------------------------------------------------- */

static int32_t mirrored(const torus_shape *t, int mirror, int32_t c, int k)
{
    return mirror ? (t->dims[k] - c) % t->dims[k] : c;
}

/* Appends the product of per-dimension index sets (sorted, non-wrapping) as ranges of
 * sum idx_k * stride_k, in increasing order: dimensions from the slowest (level 0) to the
 * fastest; where every faster dimension's set is whole, a range of this one's indices is
 * one range of ranks. */
static void product_rec(const torus_shape *t, const range_list *sets, const int *inner_whole,
                        int level, int64_t base, range_list *out)
{
    int k = torus_dim_by_stride(t, level);
    for (size_t r = 0; r < sets[k].n; r++) {
        int64_t a = sets[k].r[r].lo, b = sets[k].r[r].hi;
        if (level == t->ndims - 1 || inner_whole[level]) {
            rl_push(out, base + a * t->stride[k], base + b * t->stride[k]);
            continue;
        }
        for (int64_t y = a; y < b; y++)
            product_rec(t, sets, inner_whole, level + 1, base + y * t->stride[k], out);
    }
}

static void product(const torus_shape *t, const range_list *sets, range_list *out)
{
    int inner_whole[SPEC_MAX_DIMS];
    int whole = 1; /* every dimension faster than `level` is whole */
    for (int level = t->ndims - 1; level >= 0; level--) {
        int k = torus_dim_by_stride(t, level);
        inner_whole[level] = whole;
        whole = whole && sets[k].n == 1 && sets[k].r[0].lo == 0 && sets[k].r[0].hi == t->dims[k];
    }
    product_rec(t, sets, inner_whole, 0, 0, out);
}

/* Sorts, merges and unwraps (a range may end past d: it continues at 0); a list already
 * sorted, disjoint and within [0, d) is left as it is. */
static void normalize_circular(range_list *l, int32_t d)
{
    size_t n = l->n;
    int sorted = 1;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && l->r[i].lo < l->r[i - 1].hi)
            sorted = 0;
        if (l->r[i].hi > d) {
            int64_t over = l->r[i].hi - d;
            l->r[i].hi = d;
            rl_push(l, 0, over);
            sorted = 0;
        }
    }
    if (!sorted)
        rl_normalize(l);
}

static void free_sets(range_list *sets, int n)
{
    for (int k = 0; k < n; k++)
        rl_free(&sets[k]);
}

/* ---- butterfly product -------------------------------------------------------------- */

void tp_bfly_init(tp_bfly *t, const torus_shape *shape, const bfly_pattern *const *dim,
                  const bfly_remap *const *remap, int start, torus_seq seq, int mirror)
{
    int steps[SPEC_MAX_DIMS];
    memset(t, 0, sizeof *t);
    t->shape = *shape;
    t->mirror = mirror;
    for (int k = 0; k < shape->ndims; k++) {
        t->dim[k] = dim[k];
        t->remap[k] = remap ? remap[k] : NULL;
        steps[k] = dim[k]->nsteps;
    }
    torus_order_init(&t->order, shape->ndims, steps, start, seq);
}

static int32_t bf_peer(const void *ctx, int32_t v, int i)
{
    const tp_bfly *t = ctx;
    torus_step st = t->order.step[i];
    int k = st.dim;
    const bfly_pattern *f = t->dim[k];
    int32_t c = torus_coord(&t->shape, v, k);
    int32_t x = mirrored(&t->shape, t->mirror, c, k);
    int32_t y = mirrored(&t->shape, t->mirror, f->peer(f->ctx, x, st.rel), k);
    return (int32_t)(v + (int64_t)(y - c) * t->shape.stride[k]);
}

/* The factor's indices x still holds after `upto` local reduce-scatter steps. */
static void kept(const bfly_pattern *f, int32_t x, int upto, int32_t d, range_list *tmp,
                 range_list *out)
{
    if (f->rs_kept) {
        f->rs_kept(f->ctx, x, upto, out);
        return;
    }
    rl_clear(tmp);
    for (int j = 0; j < upto; j++)
        f->rs_send(f->ctx, x, j, tmp);
    normalize_circular(tmp, d);
    int64_t at = 0;
    for (size_t r = 0; r < tmp->n; r++) {
        rl_push(out, at, tmp->r[r].lo);
        at = tmp->r[r].hi;
    }
    rl_push(out, at, d);
}

static void bf_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const tp_bfly *t = ctx;
    const torus_shape *sh = &t->shape;
    torus_step st = t->order.step[i];
    range_list sets[SPEC_MAX_DIMS] = {{0}}, tmp = {0};
    for (int k = 0; k < sh->ndims; k++) {
        const bfly_pattern *f = t->dim[k];
        int32_t x = mirrored(sh, t->mirror, torus_coord(sh, v, k), k);
        if (k == st.dim) {
            f->rs_send(f->ctx, x, st.rel, &sets[k]);
            normalize_circular(&sets[k], sh->dims[k]);
        } else {
            kept(f, x, t->order.done[i][k], sh->dims[k], &tmp, &sets[k]);
        }
    }
    product(sh, sets, out);
    free_sets(sets, sh->ndims);
    rl_free(&tmp);
}

void tp_bfly_pattern(bfly_pattern *p, const tp_bfly *t)
{
    *p = (bfly_pattern){.nsteps = t->order.nsteps, .peer = bf_peer, .rs_send = bf_rs_send,
                        .ctx = t};
}

int tp_bfly_remaps(const tp_bfly *t)
{
    int any = t->mirror;
    for (int k = 0; k < t->shape.ndims; k++)
        any = any || t->remap[k] != NULL;
    return any;
}

static int32_t bf_pos(const void *ctx, int32_t v)
{
    const tp_bfly *t = ctx;
    const torus_shape *sh = &t->shape;
    int64_t x = 0;
    for (int k = 0; k < sh->ndims; k++) {
        int32_t c = mirrored(sh, t->mirror, torus_coord(sh, v, k), k);
        const bfly_remap *rm = t->remap[k];
        x += (int64_t)(rm ? rm->pos(rm->ctx, c) : c) * sh->stride[k];
    }
    return (int32_t)x;
}

static int32_t bf_pos_inv(const void *ctx, int32_t x)
{
    const tp_bfly *t = ctx;
    const torus_shape *sh = &t->shape;
    int64_t v = 0;
    for (int k = 0; k < sh->ndims; k++) {
        int32_t idx = torus_coord(sh, x, k);
        const bfly_remap *rm = t->remap[k];
        v += (int64_t)mirrored(sh, t->mirror, rm ? rm->pos_inv(rm->ctx, idx) : idx, k) *
             sh->stride[k];
    }
    return (int32_t)v;
}

void tp_bfly_remap(bfly_remap *rm, const tp_bfly *t)
{
    *rm = (bfly_remap){bf_pos, bf_pos_inv, t};
}

/* ---- tree product ----------------------------------------------------------------- */

void tp_tree_init(tp_tree *t, const torus_shape *shape, const tree_pattern *const *dim,
                  int32_t root, int start, int mirror)
{
    int steps[SPEC_MAX_DIMS];
    memset(t, 0, sizeof *t);
    t->shape = *shape;
    t->mirror = mirror;
    for (int k = 0; k < shape->ndims; k++) {
        t->dim[k] = dim[k];
        steps[k] = dim[k]->nsteps;
        t->root[k] = torus_coord(shape, root, k);
    }
    torus_order_init(&t->order, shape->ndims, steps, start, TORUS_ROUND_ROBIN);
}

/* Coordinate relative to the root (then mirrored) and back. */
static int32_t rel(const tp_tree *t, int32_t c, int k)
{
    int32_t d = t->shape.dims[k];
    return (int32_t)mod_i64(t->mirror ? t->root[k] - c : c - t->root[k], d);
}

static int32_t act(const tp_tree *t, int32_t x, int k)
{
    int32_t d = t->shape.dims[k];
    return (int32_t)mod_i64(t->mirror ? t->root[k] - x : t->root[k] + x, d);
}

/* The global step at which v receives, and along which dimension (-1, -1 for the root). */
static int tr_arrival(const tp_tree *t, int32_t v, int *dim)
{
    int g = -1;
    *dim = -1;
    for (int k = 0; k < t->shape.ndims; k++) {
        int32_t x = rel(t, torus_coord(&t->shape, v, k), k);
        if (x == 0)
            continue;
        int gk = t->order.global[k][t->dim[k]->recv_step(t->dim[k]->ctx, x)];
        if (gk > g) {
            g = gk;
            *dim = k;
        }
    }
    return g;
}

static int tr_recv_step(const void *ctx, int32_t v)
{
    int k;
    return tr_arrival(ctx, v, &k);
}

/* v with its coordinate along k replaced by relative coordinate x. */
static int32_t moved(const tp_tree *t, int32_t v, int k, int32_t x)
{
    return torus_with_coord(&t->shape, v, k, act(t, x, k));
}

static int32_t tr_parent(const void *ctx, int32_t v)
{
    const tp_tree *t = ctx;
    int k;
    tr_arrival(t, v, &k);
    const tree_pattern *f = t->dim[k];
    return moved(t, v, k, f->parent(f->ctx, rel(t, torus_coord(&t->shape, v, k), k)));
}

static int32_t tr_child(const void *ctx, int32_t v, int step)
{
    const tp_tree *t = ctx;
    torus_step st = t->order.step[step];
    const tree_pattern *f = t->dim[st.dim];
    int32_t c = f->child(f->ctx, rel(t, torus_coord(&t->shape, v, st.dim), st.dim), st.rel);
    return c < 0 ? -1 : moved(t, v, st.dim, c);
}

/* x and its descendants in factor f through local steps >= from, as actual coordinates. */
static void descendants(const tp_tree *t, int k, int32_t x, int from, range_list *out)
{
    const tree_pattern *f = t->dim[k];
    int32_t c = act(t, x, k);
    rl_push(out, c, c + 1);
    int first = f->recv_step(f->ctx, x) + 1;
    for (int j = from > first ? from : first; j < f->nsteps; j++) {
        int32_t y = f->child(f->ctx, x, j);
        if (y >= 0)
            descendants(t, k, y, j + 1, out);
    }
}

static void tr_subtree(const void *ctx, int32_t v, range_list *out)
{
    const tp_tree *t = ctx;
    const torus_shape *sh = &t->shape;
    int kdim;
    int g = tr_arrival(t, v, &kdim);
    range_list sets[SPEC_MAX_DIMS] = {{0}};
    for (int k = 0; k < sh->ndims; k++) {
        descendants(t, k, rel(t, torus_coord(sh, v, k), k), t->order.done[g + 1][k], &sets[k]);
        rl_normalize(&sets[k]);
    }
    product(sh, sets, out);
    free_sets(sets, sh->ndims);
}

void tp_tree_pattern(tree_pattern *tp, const tp_tree *t)
{
    *tp = (tree_pattern){.n = t->shape.P, .nsteps = t->order.nsteps,
                          .recv_step = tr_recv_step, .parent = tr_parent, .child = tr_child,
                          .subtree = tr_subtree, .ctx = t};
}
