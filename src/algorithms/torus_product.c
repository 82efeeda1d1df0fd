/* torus_product.c - products of 1D butterflies and trees over a torus (see torus_product.h). */
#include "algorithms/torus_product.h"

#include <string.h>

#include "common/util.h"

/* ---- shape and step schedule ------------------------------------------------------ */

/* Round-robin over the dimensions that still have steps, starting at `start`; with
 * `reverse`, the same sequence backwards (each dimension's steps counted backwards too). */
static void order_init(tp_order *o, int ndims, const int32_t *dims, const int *steps, int start,
                       int mirror, int reverse)
{
    memset(o, 0, sizeof *o);
    o->ndims = ndims;
    o->mirror = mirror;
    int64_t stride = 1;
    int rounds = 0;
    for (int k = 0; k < ndims; k++) {
        o->dims[k] = dims[k];
        o->stride[k] = stride;
        stride *= dims[k];
        if (steps[k] > rounds)
            rounds = steps[k];
    }
    o->P = (int32_t)stride;
    int n = 0;
    for (int round = 0; round < rounds; round++) {
        for (int kk = 0; kk < ndims; kk++) {
            int k = (start + kk) % ndims;
            if (round >= steps[k] || n >= TP_MAX_STEPS)
                continue;
            o->dim[n] = (int8_t)k;
            o->local[n] = (int8_t)round;
            n++;
        }
    }
    o->nsteps = n;
    for (int i = 0; reverse && i < n / 2; i++) {
        int8_t d = o->dim[i], l = o->local[i];
        o->dim[i] = o->dim[n - 1 - i];
        o->local[i] = o->local[n - 1 - i];
        o->dim[n - 1 - i] = d;
        o->local[n - 1 - i] = l;
    }
    for (int i = 0; i < n; i++) {
        if (reverse)
            o->local[i] = (int8_t)(steps[o->dim[i]] - 1 - o->local[i]);
        o->global[o->dim[i]][o->local[i]] = (int8_t)i;
        memcpy(o->done[i + 1], o->done[i], sizeof o->done[i]);
        o->done[i + 1][o->dim[i]]++;
    }
}

static int32_t coord(const tp_order *o, int32_t v, int k)
{
    return (int32_t)((v / o->stride[k]) % o->dims[k]);
}

static int32_t mirrored(const tp_order *o, int32_t c, int k)
{
    return o->mirror ? (o->dims[k] - c) % o->dims[k] : c;
}

/* Appends the product of per-dimension index sets (sorted, non-wrapping) as ranges of
 * sum idx_k * stride_k, in increasing order. */
static void product_rec(const tp_order *o, const range_list *sets, const int *full_below, int k,
                        int64_t base, range_list *out)
{
    for (size_t r = 0; r < sets[k].n; r++) {
        int64_t a = sets[k].r[r].lo, b = sets[k].r[r].hi;
        if (k == 0 || full_below[k]) {
            rl_push(out, base + a * o->stride[k], base + b * o->stride[k]);
            continue;
        }
        for (int64_t y = a; y < b; y++)
            product_rec(o, sets, full_below, k - 1, base + y * o->stride[k], out);
    }
}

static void product(const tp_order *o, const range_list *sets, range_list *out)
{
    int full_below[SPEC_MAX_DIMS];
    int full = 1; /* every dimension below k is whole */
    for (int k = 0; k < o->ndims; k++) {
        full_below[k] = full;
        full = full && sets[k].n == 1 && sets[k].r[0].lo == 0 && sets[k].r[0].hi == o->dims[k];
    }
    product_rec(o, sets, full_below, o->ndims - 1, 0, out);
}

/* Sorts, merges and unwraps (a range may end past d: it continues at 0). */
static void normalize_circular(range_list *l, int32_t d)
{
    size_t n = l->n;
    for (size_t i = 0; i < n; i++) {
        if (l->r[i].hi > d) {
            int64_t over = l->r[i].hi - d;
            l->r[i].hi = d;
            rl_push(l, 0, over);
        }
    }
    rl_normalize(l);
}

static void free_sets(range_list *sets, int n)
{
    for (int k = 0; k < n; k++)
        rl_free(&sets[k]);
}

/* ---- butterfly product -------------------------------------------------------------- */

void tp_bfly_init(tp_bfly *t, int ndims, const int32_t *dims, const bfly_pattern *const *dim,
                  const bfly_remap *const *remap, int start, int mirror)
{
    int steps[SPEC_MAX_DIMS];
    memset(t, 0, sizeof *t);
    for (int k = 0; k < ndims; k++) {
        t->dim[k] = dims[k] > 1 ? dim[k] : NULL;
        t->remap[k] = dims[k] > 1 ? remap[k] : NULL;
        steps[k] = t->dim[k] ? t->dim[k]->nsteps : 0;
    }
    order_init(&t->o, ndims, dims, steps, start, mirror, 1);
}

static int32_t bf_peer(const void *ctx, int32_t v, int i)
{
    const tp_bfly *t = ctx;
    const tp_order *o = &t->o;
    int k = o->dim[i];
    const bfly_pattern *f = t->dim[k];
    int32_t c = coord(o, v, k);
    int32_t y = mirrored(o, f->peer(f->ctx, mirrored(o, c, k), o->local[i]), k);
    return (int32_t)(v + (y - c) * o->stride[k]);
}

/* The factor's indices x still holds after `upto` local reduce-scatter steps. */
static void kept(const bfly_pattern *f, int32_t x, int upto, int32_t d, range_list *tmp,
                 range_list *out)
{
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
    const tp_order *o = &t->o;
    range_list sets[SPEC_MAX_DIMS] = {{0}}, tmp = {0};
    for (int k = 0; k < o->ndims; k++) {
        const bfly_pattern *f = t->dim[k];
        if (!f) {
            rl_push(&sets[k], 0, 1);
            continue;
        }
        int32_t x = mirrored(o, coord(o, v, k), k);
        if (k == o->dim[i]) {
            f->rs_send(f->ctx, x, o->local[i], &sets[k]);
            normalize_circular(&sets[k], o->dims[k]);
        } else {
            kept(f, x, o->done[i][k], o->dims[k], &tmp, &sets[k]);
        }
    }
    product(o, sets, out);
    free_sets(sets, o->ndims);
    rl_free(&tmp);
}

void tp_bfly_pattern(bfly_pattern *p, const tp_bfly *t)
{
    *p = (bfly_pattern){.nsteps = t->o.nsteps, .peer = bf_peer, .rs_send = bf_rs_send, .ctx = t};
}

int tp_bfly_remaps(const tp_bfly *t)
{
    int any = t->o.mirror;
    for (int k = 0; k < t->o.ndims; k++)
        any = any || t->remap[k] != NULL;
    return any;
}

static int32_t bf_pos(const void *ctx, int32_t v)
{
    const tp_bfly *t = ctx;
    const tp_order *o = &t->o;
    int64_t x = 0;
    for (int k = 0; k < o->ndims; k++) {
        int32_t c = mirrored(o, coord(o, v, k), k);
        const bfly_remap *rm = t->remap[k];
        x += (rm ? rm->pos(rm->ctx, c) : c) * o->stride[k];
    }
    return (int32_t)x;
}

static int32_t bf_pos_inv(const void *ctx, int32_t x)
{
    const tp_bfly *t = ctx;
    const tp_order *o = &t->o;
    int64_t v = 0;
    for (int k = 0; k < o->ndims; k++) {
        int32_t idx = coord(o, x, k);
        const bfly_remap *rm = t->remap[k];
        v += mirrored(o, rm ? rm->pos_inv(rm->ctx, idx) : idx, k) * o->stride[k];
    }
    return (int32_t)v;
}

void tp_bfly_remap(bfly_remap *rm, const tp_bfly *t)
{
    *rm = (bfly_remap){bf_pos, bf_pos_inv, t};
}

/* ---- tree product ----------------------------------------------------------------- */

void tp_tree_init(tp_tree *t, int ndims, const int32_t *dims, const tree_pattern *const *dim,
                  int32_t root, int start, int mirror)
{
    int steps[SPEC_MAX_DIMS];
    memset(t, 0, sizeof *t);
    for (int k = 0; k < ndims; k++) {
        t->dim[k] = dims[k] > 1 ? dim[k] : NULL;
        steps[k] = t->dim[k] ? t->dim[k]->nsteps : 0;
    }
    order_init(&t->o, ndims, dims, steps, start, mirror, 0);
    for (int k = 0; k < ndims; k++)
        t->root[k] = coord(&t->o, root, k);
}

/* Coordinate relative to the root (then mirrored) and back. */
static int32_t rel(const tp_tree *t, int32_t c, int k)
{
    int32_t d = t->o.dims[k];
    return (int32_t)mod_i64(t->o.mirror ? t->root[k] - c : c - t->root[k], d);
}

static int32_t act(const tp_tree *t, int32_t x, int k)
{
    int32_t d = t->o.dims[k];
    return (int32_t)mod_i64(t->o.mirror ? t->root[k] - x : t->root[k] + x, d);
}

/* The global step at which v receives, and along which dimension (-1, -1 for the root). */
static int tr_arrival(const tp_tree *t, int32_t v, int *dim)
{
    int g = -1;
    *dim = -1;
    for (int k = 0; k < t->o.ndims; k++) {
        int32_t x = t->dim[k] ? rel(t, coord(&t->o, v, k), k) : 0;
        if (x == 0)
            continue;
        int gk = t->o.global[k][t->dim[k]->recv_step(t->dim[k]->ctx, x)];
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
    return (int32_t)(v + (act(t, x, k) - coord(&t->o, v, k)) * t->o.stride[k]);
}

static int32_t tr_parent(const void *ctx, int32_t v)
{
    const tp_tree *t = ctx;
    int k;
    tr_arrival(t, v, &k);
    const tree_pattern *f = t->dim[k];
    return moved(t, v, k, f->parent(f->ctx, rel(t, coord(&t->o, v, k), k)));
}

static int32_t tr_child(const void *ctx, int32_t v, int step)
{
    const tp_tree *t = ctx;
    int k = t->o.dim[step];
    const tree_pattern *f = t->dim[k];
    int32_t c = f->child(f->ctx, rel(t, coord(&t->o, v, k), k), t->o.local[step]);
    return c < 0 ? -1 : moved(t, v, k, c);
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
    const tp_order *o = &t->o;
    int kdim;
    int g = tr_arrival(t, v, &kdim);
    range_list sets[SPEC_MAX_DIMS] = {{0}};
    for (int k = 0; k < o->ndims; k++) {
        if (!t->dim[k]) {
            rl_push(&sets[k], 0, 1);
            continue;
        }
        descendants(t, k, rel(t, coord(o, v, k), k), o->done[g + 1][k], &sets[k]);
        rl_normalize(&sets[k]);
    }
    product(o, sets, out);
    free_sets(sets, o->ndims);
}

void tp_tree_pattern(tree_pattern *tp, const tp_tree *t)
{
    *tp = (tree_pattern){.n = t->o.P, .nsteps = t->o.nsteps,
                          .recv_step = tr_recv_step, .parent = tr_parent, .child = tr_child,
                          .subtree = tr_subtree, .ctx = t};
}
