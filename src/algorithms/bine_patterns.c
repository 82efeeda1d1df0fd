/* bine_patterns.c - Bine trees and butterflies as engine patterns (see bine_patterns.h). */
#include "algorithms/bine_patterns.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* ---- distance-halving tree (first arrivals) ---------------------------------------- */

void bine_dh_tree_init(bine_tree *t, int32_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->s = bine_steps(n);
    bine_arrivals_init(&t->arr, n);
}

void bine_dd_tree_init(bine_tree *t, int32_t n)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->s = bine_steps(n);
}

void bine_tree_free(bine_tree *t)
{
    if (t->arr.step)
        bine_arrivals_free(&t->arr);
}

static int dh_recv_step(const void *ctx, int32_t v)
{
    const bine_tree *t = ctx;
    return t->arr.step[v];
}

static int32_t dh_parent(const void *ctx, int32_t v)
{
    const bine_tree *t = ctx;
    return bine_pi(v, t->s - 1 - t->arr.step[v], t->n);
}

/* pi pairs participants at each step, so the peer reached first at step `step` is a child. */
static int32_t dh_child(const void *ctx, int32_t v, int step)
{
    const bine_tree *t = ctx;
    int32_t c = bine_pi(v, t->s - 1 - step, t->n);
    return t->arr.step[c] == step ? c : -1;
}

static void dh_collect(const bine_tree *t, int32_t v, range_list *out)
{
    rl_push(out, v, v + 1);
    for (int step = t->arr.step[v] + 1; step < t->s; step++) {
        int32_t c = dh_child(t, v, step);
        if (c >= 0)
            dh_collect(t, c, out);
    }
}

static void dh_subtree(const void *ctx, int32_t v, range_list *out)
{
    dh_collect(ctx, v, out);
    rl_normalize(out);
}

void bine_dh_tree_pattern(tree_pattern *tp, const bine_tree *t)
{
    *tp = (tree_pattern){.n = t->n, .nsteps = t->s,
                          .recv_step = dh_recv_step, .parent = dh_parent, .child = dh_child,
                          .subtree = dh_subtree, .ctx = t};
}

/* ---- distance-doubling tree (nu positions) ------------------------------------------ */

static int dd_recv_step(const void *ctx, int32_t v)
{
    const bine_tree *t = ctx;
    return bine_dd_recv_step(v, t->n);
}

static int32_t dd_parent(const void *ctx, int32_t v)
{
    const bine_tree *t = ctx;
    return bine_pi(v, bine_dd_recv_step(v, t->n), t->n);
}

static int32_t dd_child(const void *ctx, int32_t v, int step)
{
    const bine_tree *t = ctx;
    return bine_pi(v, step, t->n);
}

/* The positions sharing the top (step+1) bits of nu(v), v received at `step`. */
static void dd_subtree(const void *ctx, int32_t v, range_list *out)
{
    const bine_tree *t = ctx;
    int step = bine_dd_recv_step(v, t->n);
    int64_t len = (int64_t)1 << (t->s - 1 - step); /* step -1 (root): all n */
    int64_t start = (int64_t)bine_nu(v, t->n) & ~(len - 1);
    rl_push(out, start, start + len);
}

void bine_dd_tree_pattern(tree_pattern *tp, const bine_tree *t)
{
    *tp = (tree_pattern){.n = t->n, .nsteps = t->s,
                          .recv_step = dd_recv_step, .parent = dd_parent, .child = dd_child,
                          .subtree = dd_subtree, .ctx = t};
}

/* ---- butterflies ------------------------------------------------------------------ */

static int32_t dd_peer(const void *ctx, int32_t v, int i)
{
    const bine_bfly *c = ctx;
    return bine_pi(v, i, c->n);
}

/* Chunk x reaches v at DH step k of x's tree when d = v - x (x even) or x - v (x odd) is
 * first reached at step k of the tree rooted at 0 (even ranks behave like 0 shifted,
 * odd ones mirrored); d has v's parity exactly when x is even. Large sets are sorted
 * through a bitmap, small ones by a sort. */
static void natural_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const bine_bfly *c = ctx;
    int k = c->s - 1 - i;
    int32_t from = c->arr.first[k], to = c->arr.first[k + 1];
    int64_t words = ((int64_t)c->n + 63) / 64;
    uint64_t *bitmap = (int64_t)(to - from) * 8 >= words ? xcalloc((size_t)words, 8) : NULL;
    size_t base = out->n;
    for (int32_t j = from; j < to; j++) {
        int32_t d = c->arr.by_step[j];
        int64_t x = mod_i64((d % 2 == v % 2) ? (int64_t)v - d : (int64_t)v + d, c->n);
        if (bitmap)
            bitmap[x / 64] |= 1ULL << (x % 64);
        else
            rl_push(out, x, x + 1);
    }
    if (!bitmap) {
        if (out->n - base > 1)
            rl_normalize(out);
        return;
    }
    for (int64_t x = 0; x < c->n; x++) /* runs of set bits, in order */
        if (bitmap[x / 64] >> (x % 64) & 1)
            rl_push(out, x, x + 1);
    free(bitmap);
}

static void remap_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const bine_bfly *c = ctx;
    int64_t len = (int64_t)1 << (c->s - 1 - i);
    int64_t start = (int64_t)bine_nu(bine_pi(v, i, c->n), c->n) & ~(len - 1);
    rl_push(out, start, start + len);
}

static int32_t remap_pos(const void *ctx, int32_t v)
{
    const bine_bfly *c = ctx;
    return (int32_t)bine_nu(v, c->n);
}

static int32_t remap_pos_inv(const void *ctx, int32_t x)
{
    const bine_bfly *c = ctx;
    return c->nu_inv[x];
}

static int32_t dh_peer(const void *ctx, int32_t v, int i)
{
    const bine_bfly *c = ctx;
    return bine_pi(v, c->s - 1 - i, c->n);
}

/* What q = pi(v, s-1-i) reaches in the DH steps after i: for q = 0 the values whose top
 * nb bits are 0, i.e. [smallest(k), largest(k)] with k = s-1-i; shifted for even q,
 * mirrored for odd q. */
static void halving_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const bine_bfly *c = ctx;
    int k = c->s - 1 - i;
    int32_t q = dh_peer(ctx, v, i);
    int64_t start = q % 2 == 0 ? q + bine_nb_smallest(k) : q - bine_nb_largest(k);
    rl_push_circular(out, start, (int64_t)1 << k, c->n, 1);
}

static void bfly_init(bine_bfly *c, int32_t n)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->s = bine_steps(n);
}

void bine_natural_bfly(bfly_pattern *p, bine_bfly *c, int32_t n)
{
    bfly_init(c, n);
    bine_arrivals_init(&c->arr, n);
    *p = (bfly_pattern){.nsteps = c->s, .peer = dd_peer, .rs_send = natural_rs_send, .ctx = c};
}

void bine_remap_bfly(bfly_pattern *p, bfly_remap *rm, bine_bfly *c, int32_t n)
{
    bfly_init(c, n);
    c->nu_inv = xmalloc(sizeof *c->nu_inv * (size_t)n);
    for (int32_t v = 0; v < n; v++)
        c->nu_inv[bine_nu(v, n)] = v;
    *p = (bfly_pattern){.nsteps = c->s, .peer = dd_peer, .rs_send = remap_rs_send, .ctx = c};
    *rm = (bfly_remap){remap_pos, remap_pos_inv, c};
}

void bine_halving_bfly(bfly_pattern *p, bine_bfly *c, int32_t n)
{
    bfly_init(c, n);
    *p = (bfly_pattern){.nsteps = c->s, .peer = dh_peer, .rs_send = halving_rs_send, .ctx = c};
}

void bine_bfly_free(bine_bfly *c)
{
    if (c->arr.step)
        bine_arrivals_free(&c->arr);
    free(c->nu_inv);
    c->nu_inv = NULL;
}
