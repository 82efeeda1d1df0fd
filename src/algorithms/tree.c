/* tree.c - the tree collective engine and binomial trees (see tree.h). */
#include "algorithms/tree.h"

#include <stdlib.h>

#include "common/util.h"

static void whole_vector(const sched_builder *b, range_list *out)
{
    rl_clear(out);
    rl_push(out, 0, b->layout->nblocks);
}

static void subtree_blocks(const tree_pattern *t, const chunk_map *m, int32_t v, range_list *parts,
                           range_list *out)
{
    rl_clear(parts);
    rl_clear(out);
    t->subtree(t->ctx, v, parts);
    for (size_t i = 0; i < parts->n; i++)
        chunk_map_push(m, out, (int32_t)parts->r[i].lo, (int32_t)parts->r[i].hi);
}

/* What v's message carries: its subtree's chunks (scatter, gather), or the whole vector
 * (bcast, reduce). */
static void blocks_of(const sched_builder *b, const tree_pattern *t, const chunk_map *m,
                      int32_t v, int subtrees, range_list *parts, range_list *out)
{
    if (subtrees)
        subtree_blocks(t, m, v, parts, out);
    else
        whole_vector(b, out);
}

/* The participant of rank r, or -1 for a rank folded out of the tree, which then only
 * stays in step (t->nsteps empty steps). */
static int32_t participant_or_steps(sched_builder *b, const tree_pattern *t, const chunk_map *m,
                                    int32_t r)
{
    int32_t v = chunk_map_participant(m, r);
    if (v < 0)
        for (int s = 0; s < t->nsteps; s++)
            sb_step(b);
    return v;
}

/* The children v sends to at broadcast step t (at most TREE_MAX_FANOUT). */
enum { TREE_MAX_FANOUT = 4096 };
static int children_at(const tree_pattern *t, int32_t v, int s, int32_t *out)
{
    if (t->children)
        return t->children(t->ctx, v, s, out, TREE_MAX_FANOUT);
    out[0] = t->child(t->ctx, v, s);
    return out[0] < 0 ? 0 : 1;
}

/* Broadcast order, with `subtrees` choosing scatter (chunks) over bcast (whole vector). */
static void down(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r,
                 int subtrees)
{
    int32_t v = participant_or_steps(b, t, m, r);
    if (v < 0)
        return;
    int rs = t->recv_step(t->ctx, v);
    range_list parts = {0}, blocks = {0};
    int32_t *kids = xmalloc(TREE_MAX_FANOUT * sizeof *kids);
    for (int s = 0; s < t->nsteps; s++) {
        sb_step(b);
        if (s == rs) {
            blocks_of(b, t, m, v, subtrees, &parts, &blocks);
            sb_recv(b, chunk_map_rank(m, t->parent(t->ctx, v)), blocks.r, (uint32_t)blocks.n, 0);
        } else if (s > rs) {
            int nc = children_at(t, v, s, kids);
            for (int k = 0; k < nc; k++) {
                blocks_of(b, t, m, kids[k], subtrees, &parts, &blocks);
                sb_send(b, chunk_map_rank(m, kids[k]), blocks.r, (uint32_t)blocks.n);
            }
        }
    }
    free(kids);
    rl_free(&parts);
    rl_free(&blocks);
}

/* Broadcast order reversed, with `subtrees` choosing gather over reduce. */
static void up(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r,
               int subtrees)
{
    int32_t v = participant_or_steps(b, t, m, r);
    if (v < 0)
        return;
    int rs = t->recv_step(t->ctx, v);
    range_list parts = {0}, blocks = {0};
    int32_t *kids = xmalloc(TREE_MAX_FANOUT * sizeof *kids);
    for (int s = 0; s < t->nsteps; s++) {
        int bs = t->nsteps - 1 - s; /* the broadcast step this step mirrors */
        sb_step(b);
        if (bs == rs) {
            blocks_of(b, t, m, v, subtrees, &parts, &blocks);
            sb_send(b, chunk_map_rank(m, t->parent(t->ctx, v)), blocks.r, (uint32_t)blocks.n);
        } else if (bs > rs) {
            int nc = children_at(t, v, bs, kids);
            for (int k = 0; k < nc; k++) {
                int32_t c = kids[k];
                if (subtrees) {
                    subtree_blocks(t, m, c, &parts, &blocks);
                    sb_recv(b, chunk_map_rank(m, c), blocks.r, (uint32_t)blocks.n, 0);
                } else {
                    whole_vector(b, &blocks);
                    sb_recv(b, chunk_map_rank(m, c), blocks.r, (uint32_t)blocks.n, OPF_COMBINE);
                    sb_reduce(b, ranges_bytes(b->layout, blocks.r, (uint32_t)blocks.n));
                }
            }
        }
    }
    free(kids);
    rl_free(&parts);
    rl_free(&blocks);
}

void tree_bcast(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r)
{
    down(b, t, m, r, 0);
}

void tree_scatter(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r)
{
    down(b, t, m, r, 1);
}

void tree_reduce(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r)
{
    up(b, t, m, r, 0);
}

void tree_gather(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r)
{
    up(b, t, m, r, 1);
}

void tree_collective(coll_kind coll, sched_builder *b, const tree_pattern *t, const chunk_map *m,
                     int32_t r)
{
    switch (coll) {
    case COLL_REDUCE: tree_reduce(b, t, m, r); break;
    case COLL_GATHER: tree_gather(b, t, m, r); break;
    case COLL_SCATTER: tree_scatter(b, t, m, r); break;
    default: tree_bcast(b, t, m, r); break;
    }
}

/* ---- binomial trees ------------------------------------------------------------------ */

void binomial_tree_init(binomial_tree *bt, int32_t n)
{
    bt->n = n;
    bt->L = n > 1 ? ilog2_ceil((uint64_t)n) : 0;
}

static int32_t lowbit(int32_t v) { return v & -v; }

/* Distance-halving: v != 0 receives from v - lowbit(v) at step L-1-log2(lowbit(v)); at a
 * later step s it sends to v + 2^(L-1-s) if that is a rank. Subtree: [v, v + lowbit(v)). */
static int halving_recv_step(const void *ctx, int32_t v)
{
    const binomial_tree *bt = ctx;
    return v == 0 ? -1 : bt->L - 1 - ilog2_floor((uint64_t)lowbit(v));
}

static int32_t halving_parent(const void *ctx, int32_t v)
{
    (void)ctx;
    return v - lowbit(v);
}

static int32_t halving_child(const void *ctx, int32_t v, int s)
{
    const binomial_tree *bt = ctx;
    int32_t c = v + (int32_t)(1u << (bt->L - 1 - s));
    return c < bt->n ? c : -1;
}

static void halving_subtree(const void *ctx, int32_t v, range_list *out)
{
    const binomial_tree *bt = ctx;
    int64_t end = v == 0 ? bt->n : (int64_t)v + lowbit(v);
    rl_push(out, v, end < bt->n ? end : bt->n);
}

void binomial_halving_pattern(tree_pattern *t, const binomial_tree *bt)
{
    *t = (tree_pattern){.n = bt->n, .nsteps = bt->L, .recv_step = halving_recv_step,
                        .parent = halving_parent, .child = halving_child,
                        .subtree = halving_subtree, .ctx = bt};
}

/* Distance-doubling: v != 0 receives at step floor(log2 v) from v - 2^floor(log2 v); at a
 * later step s it sends to v + 2^s. Subtree: v plus every v + sum of distinct 2^s with
 * s > floor(log2 v) (strided, not contiguous). */
static int doubling_recv_step(const void *ctx, int32_t v)
{
    (void)ctx;
    return v == 0 ? -1 : ilog2_floor((uint64_t)v);
}

static int32_t doubling_parent(const void *ctx, int32_t v)
{
    (void)ctx;
    return v - (int32_t)(1u << ilog2_floor((uint64_t)v));
}

static int32_t doubling_child(const void *ctx, int32_t v, int s)
{
    const binomial_tree *bt = ctx;
    int64_t c = (int64_t)v + ((int64_t)1 << s);
    return c < bt->n ? (int32_t)c : -1;
}

static void doubling_subtree(const void *ctx, int32_t v, range_list *out)
{
    const binomial_tree *bt = ctx;
    int h = v == 0 ? 0 : ilog2_floor((uint64_t)v) + 1; /* children use strides 2^h, 2^(h+1).. */
    int64_t stride = (int64_t)1 << h;
    for (int64_t x = v; x < bt->n; x += stride)
        rl_push(out, x, x + 1);
}

void binomial_doubling_pattern(tree_pattern *t, const binomial_tree *bt)
{
    *t = (tree_pattern){.n = bt->n, .nsteps = bt->L, .recv_step = doubling_recv_step,
                        .parent = doubling_parent, .child = doubling_child,
                        .subtree = doubling_subtree, .ctx = bt};
}
