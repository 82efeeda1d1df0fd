/* kautz.c - collectives on Kautz K(d,2), P = d(d+1) (thesis Ch. 3; schedules and errata
 * in shared/reference/kautz-2dfc.md). d is derived from P; ranks are numbered as in
 * lgraph.h. Every message goes to an out-neighbour (a link); data for vertices two hops
 * away is forwarded by the intermediate rank, in the schedule, so the verifier checks
 * every hop. For r = xy: out(r) = {yz}, in(r) = {zx} (d each, by rank), partner yx; every
 * other vertex h is reached over the unique path r -> g -> h.
 *
 *   kautz_c (message combine)
 *     allgather       step 0: r's chunk to every g in out(r). Step 1: to every g in out(r)
 *                     one message with the chunks of every p in in(r) except g's own: d
 *                     chunks, d-1 to the partner. Then a local copy of the n-1 received
 *                     chunks (the thesis' final memcpy that reorders the segments).
 *     reduce_scatter  the allgather mirrored on the in-trees: step 0: to every g in
 *                     out(r), r's partials of the chunks of out(g) except r's own (d, d-1
 *                     to the partner), combined at g; step 1: to every t in out(r) the
 *                     partial of chunk t, combined at t.
 *     alltoall        step 0: to every g in out(r) the blocks r->g and r->h for h in
 *                     out(g), h != r (d+1 blocks, d to the partner). Step 1: to every g the
 *                     blocks p->g that came from every p in in(r), p != g (d, d-1 to the
 *                     partner). Then a copy of the n-1 blocks received for r.
 *     allreduce       reduce_scatter + allgather over P chunks: 4 steps.
 *     bcast, scatter  BFS out-tree of the root: root -> out(root) -> the rest (2 steps;
 *                     scatter sends each depth-1 vertex its branch: d+1 chunks, d for the
 *                     root's partner). reduce, gather: BFS in-tree (links are one-way).
 *   kautz_m (the thesis' Kautz-M: MULTITREE-style serialization)
 *                     the combined step split into d sub-steps of one message per link:
 *                     sub-step i forwards what came from r's i-th in-neighbour (allgather,
 *                     alltoall) or collects the partials of r's i-th out-neighbour
 *                     (reduce_scatter), neighbours taken partner first. d+1 steps;
 *                     allreduce 2(d+1). No copy.
 *   kautz_congestion  the combined step as separate single-block messages posted at once
 *                     (the thesis artifact's "conges" variant): 2 steps, no copy.
 *   kautz_multitree   the generic MULTITREE builder (multitree.h) on K(d,2).
 *   p2p kautz_shortest   the unique shortest path, store and forward (1 or 2 steps).
 *   p2p kautz_multipath  the message split evenly over disjoint paths of length <= 3
 *                     (thesis Sec. 3.3), one block per path, store and forward. For
 *                     src = xy: type 1, dst = zt with z != y: <xyzt> and <xykzt> for every
 *                     k != y, z (d paths); type 2, dst = yx: <xyx> and <xykyx>, k != x, y (d
 *                     paths); type 3, dst = yt, t != x: <xyt> and <xykyt>, k != x, y, t (d-1
 *                     paths; on K(2,2) only the direct one). 3 steps (1 for a single path).
 */
#include <stdlib.h>

#include "algorithms/blocks.h"
#include "algorithms/families.h"
#include "algorithms/lgraph.h"
#include "algorithms/multitree.h"
#include "algorithms/tree.h"
#include "common/util.h"

/* How a forwarding step is sent: combined per link (kautz_c), serialized into d one-block
 * sub-steps (kautz_m), or as single-block messages at once (kautz_congestion). */
typedef enum { KZ_COMBINE, KZ_SERIAL, KZ_CONGESTION } kz_mode;

/* BFS tree of a root, outward (bcast, scatter) or inward (reduce, gather); participants
 * are ranks relative to the root (the tree engine's numbering, see blocks.h). */
typedef struct bfs_tree {
    int32_t d, n, root;
    int inward;
} bfs_tree;

typedef struct kz_ctx {
    int32_t d, n;
    kz_mode mode;
    int64_t unit;           /* blocks per chunk (allgather, reduce_scatter, allreduce) */
    bfs_tree bfs;           /* rooted collectives */
    tree_pattern tp;
    chunk_map map;
    mt_plan mt;             /* kautz_multitree */
    int npaths, maxhops;    /* p2p: path j is nodes[4j .. 4j+hops[j]] */
    int32_t *nodes;
    int *hops;
} kz_ctx;

static void kz_release(void *p)
{
    kz_ctx *k = p;
    if (!k)
        return;
    mt_plan_free(&k->mt);
    free(k->nodes);
    free(k->hops);
    free(k);
}

static kz_ctx *kz_new(const coll_spec *s, sched_layout *l, kz_mode mode, cs_error *err)
{
    int32_t d;
    if (kautz_degree_of(s->P, &d, err) < 0)
        return NULL;
    kz_ctx *k = xcalloc(1, sizeof *k);
    k->d = d;
    k->n = s->P;
    k->mode = mode;
    if (s->coll == COLL_ALLREDUCE) /* reduce-scatter + allgather over P chunks */
        layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    k->unit = s->coll == COLL_ALLREDUCE ? 1 : l->blocks_per_rank;
    return k;
}

/* ---- one step of neighbour messages ------------------------------------------------- *
 * A rule says which blocks rank `from` sends to its out-neighbour `to` in a step (i: the
 * sub-step of a serialized step). Every rank sends rule(r, g) to each g in out(r) and
 * receives rule(p, r) from each p in in(r), so both ends of a message agree by
 * construction. An empty rule means no message. */

typedef void (*kz_rule)(const kz_ctx *k, const sched_layout *l, int32_t from, int32_t to,
                        int32_t i, range_list *out);

static void push_chunk(range_list *l, const kz_ctx *k, int32_t t)
{
    rl_push(l, (int64_t)t * k->unit, (int64_t)(t + 1) * k->unit);
}

static void push_pair(range_list *l, const sched_layout *lay, int32_t src, int32_t dst)
{
    int64_t u = lay->pair_blocks, pair = (int64_t)src * lay->P + dst;
    rl_push(l, pair * u, (pair + 1) * u);
}

static void kz_op(sched_builder *b, int32_t peer, const blk_range *rg, uint32_t n, int recv,
                  int combine)
{
    if (!recv) {
        sb_send(b, peer, rg, n);
        return;
    }
    sb_recv(b, peer, rg, n, combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, rg, n));
}

/* Sends (or receives) the rule's blocks as one message, or as one message per item of
 * `item` blocks, in block order (`singles`); received partials are combined and reduced
 * (`combine`). */
static void kz_message(sched_builder *b, int32_t peer, range_list *l, int recv, int64_t item,
                       int singles, int combine)
{
    rl_normalize(l);
    if (!singles) {
        kz_op(b, peer, l->r, (uint32_t)l->n, recv, combine);
        return;
    }
    for (size_t i = 0; i < l->n; i++)
        for (int64_t lo = l->r[i].lo; lo < l->r[i].hi; lo += item) {
            blk_range one = {lo, lo + item};
            kz_op(b, peer, &one, 1, recv, combine);
        }
}

static void kz_step(sched_builder *b, const kz_ctx *k, int32_t r, kz_rule rule, int32_t i,
                    int singles, int combine)
{
    int64_t item = b->layout->coll == COLL_ALLTOALL ? b->layout->pair_blocks : k->unit;
    range_list l = {0};
    sb_step(b);
    for (int32_t j = 0; j < k->d; j++) {
        int32_t g = kautz_out(k->d, r, j);
        rl_clear(&l);
        rule(k, b->layout, r, g, i, &l);
        if (l.n > 0)
            kz_message(b, g, &l, 0, item, singles, combine);
    }
    for (int32_t j = 0; j < k->d; j++) {
        int32_t p = kautz_in(k->d, r, j);
        rl_clear(&l);
        rule(k, b->layout, p, r, i, &l);
        if (l.n > 0)
            kz_message(b, p, &l, 1, item, singles, combine);
    }
    rl_free(&l);
}

/* ---- rules ------------------------------------------------------------------------------ */

#define RULE(name)                                                                          \
    static void name(const kz_ctx *k, const sched_layout *l, int32_t from, int32_t to,      \
                     int32_t i, range_list *out)

RULE(own_chunk) /* allgather, first step */
{
    (void)l, (void)to, (void)i;
    push_chunk(out, k, from);
}

RULE(parent_chunks) /* allgather forward: what came from every in-neighbour but `to` */
{
    (void)l, (void)i;
    for (int32_t j = 0; j < k->d; j++)
        if (kautz_in(k->d, from, j) != to)
            push_chunk(out, k, kautz_in(k->d, from, j));
}

RULE(parent_chunk_i) /* Kautz-M allgather: what came from the i-th in-neighbour */
{
    (void)l;
    int32_t q = kautz_in_partner_first(k->d, from, i);
    if (q != to)
        push_chunk(out, k, q);
}

RULE(grandchild_chunks) /* reduce-scatter: partials for the out-neighbours of `to` */
{
    (void)l, (void)i;
    for (int32_t j = 0; j < k->d; j++)
        if (kautz_out(k->d, to, j) != from)
            push_chunk(out, k, kautz_out(k->d, to, j));
}

RULE(grandchild_chunk_i) /* Kautz-M reduce-scatter: the i-th out-neighbour of `to` */
{
    (void)l;
    int32_t t = kautz_out_partner_first(k->d, to, i);
    if (t != from)
        push_chunk(out, k, t);
}

RULE(dest_chunk) /* reduce-scatter, last step */
{
    (void)l, (void)from, (void)i;
    push_chunk(out, k, to);
}

RULE(first_pairs) /* alltoall, first step: for `to` and every vertex behind it */
{
    (void)i;
    push_pair(out, l, from, to);
    for (int32_t j = 0; j < k->d; j++)
        if (kautz_out(k->d, to, j) != from)
            push_pair(out, l, from, kautz_out(k->d, to, j));
}

RULE(parent_pairs) /* alltoall forward: from every in-neighbour but `to`, for `to` */
{
    (void)i;
    for (int32_t j = 0; j < k->d; j++)
        if (kautz_in(k->d, from, j) != to)
            push_pair(out, l, kautz_in(k->d, from, j), to);
}

RULE(parent_pair_i) /* Kautz-M alltoall: from the i-th in-neighbour, for `to` */
{
    int32_t q = kautz_in_partner_first(k->d, from, i);
    if (q != to)
        push_pair(out, l, q, to);
}

/* ---- collectives ---------------------------------------------------------------------------- */

/* The combined or single-block step, or its d serialized sub-steps (Kautz-M). */
static void kz_forward(sched_builder *b, const kz_ctx *k, int32_t r, kz_rule all, kz_rule one,
                       int combine)
{
    if (k->mode == KZ_SERIAL)
        for (int32_t i = 0; i < k->d; i++)
            kz_step(b, k, r, one, i, 0, combine);
    else
        kz_step(b, k, r, all, 0, k->mode == KZ_CONGESTION, combine);
}

static void kz_allgather(sched_builder *b, const kz_ctx *k, int32_t r)
{
    kz_step(b, k, r, own_chunk, 0, 0, 0);
    kz_forward(b, k, r, parent_chunks, parent_chunk_i, 0);
    if (k->mode == KZ_COMBINE) { /* reorder the n-1 received chunks */
        int64_t own = layout_range_bytes(b->layout, r * k->unit, (r + 1) * k->unit);
        sb_copy(b, layout_range_bytes(b->layout, 0, b->layout->nblocks) - own);
    }
}

static void kz_reduce_scatter(sched_builder *b, const kz_ctx *k, int32_t r)
{
    kz_forward(b, k, r, grandchild_chunks, grandchild_chunk_i, 1);
    kz_step(b, k, r, dest_chunk, 0, 0, 1);
}

static void kz_alltoall(sched_builder *b, const kz_ctx *k, int32_t r)
{
    kz_step(b, k, r, first_pairs, 0, 0, 0);
    kz_forward(b, k, r, parent_pairs, parent_pair_i, 0);
    if (k->mode == KZ_COMBINE) { /* place the n-1 blocks received for r */
        int64_t bytes = 0, u = b->layout->pair_blocks;
        for (int32_t s = 0; s < k->n; s++)
            if (s != r)
                bytes += layout_range_bytes(b->layout, ((int64_t)s * k->n + r) * u,
                                            ((int64_t)s * k->n + r + 1) * u);
        sb_copy(b, bytes);
    }
}

static void gen_allgather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    kz_allgather(b, ctx, r);
}

static void gen_reduce_scatter(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    kz_reduce_scatter(b, ctx, r);
}

static void gen_allreduce(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    kz_reduce_scatter(b, ctx, r);
    kz_allgather(b, ctx, r);
}

static void gen_alltoall(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    kz_alltoall(b, ctx, r);
}

static int prepare_mode(const coll_spec *s, sched_layout *l, void **ctx, kz_mode mode,
                        cs_error *err)
{
    kz_ctx *k = kz_new(s, l, mode, err);
    *ctx = k;
    return k ? 0 : -1;
}

static int prepare_combine(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_mode(s, l, ctx, KZ_COMBINE, err);
}

static int prepare_serial(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_mode(s, l, ctx, KZ_SERIAL, err);
}

static int prepare_congestion(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_mode(s, l, ctx, KZ_CONGESTION, err);
}

/* ---- BFS trees (tree engine) ----------------------------------------------------------- */

static int32_t bfs_rank(const bfs_tree *t, int32_t v) { return (v + t->root) % t->n; }
static int32_t bfs_part(const bfs_tree *t, int32_t r) { return (r - t->root + t->n) % t->n; }

static int bfs_depth(const bfs_tree *t, int32_t r)
{
    if (r == t->root)
        return 0;
    int near = t->inward ? kautz_is_link(t->d, r, t->root) : kautz_is_link(t->d, t->root, r);
    return near ? 1 : 2;
}

static int bfs_recv_step(const void *ctx, int32_t v)
{
    const bfs_tree *t = ctx;
    return bfs_depth(t, bfs_rank(t, v)) - 1;
}

/* Depth 2: outward, c = kj hangs off yk (root xy); inward, c = wz sends to zx. */
static int32_t bfs_parent(const void *ctx, int32_t v)
{
    const bfs_tree *t = ctx;
    int32_t c = bfs_rank(t, v), x, y, cx, cy;
    if (bfs_depth(t, c) == 1)
        return 0;
    kautz_word(t->d, t->root, &x, &y);
    kautz_word(t->d, c, &cx, &cy);
    return bfs_part(t, t->inward ? kautz_rank(t->d, cy, x) : kautz_rank(t->d, y, cx));
}

static int bfs_children(const void *ctx, int32_t v, int step, int32_t *out, int max)
{
    const bfs_tree *t = ctx;
    int32_t r = bfs_rank(t, v);
    if (bfs_depth(t, r) != step || step > 1)
        return 0;
    int nc = 0;
    for (int32_t i = 0; i < t->d && nc < max; i++) {
        int32_t c = t->inward ? kautz_in(t->d, r, i) : kautz_out(t->d, r, i);
        if (c != t->root)
            out[nc++] = bfs_part(t, c);
    }
    return nc;
}

static void bfs_subtree(const void *ctx, int32_t v, range_list *out)
{
    const bfs_tree *t = ctx;
    int32_t r = bfs_rank(t, v);
    int depth = bfs_depth(t, r);
    if (depth == 0) {
        rl_push(out, 0, t->n);
        return;
    }
    rl_push(out, v, v + 1);
    for (int32_t i = 0; depth == 1 && i < t->d; i++) {
        int32_t c = t->inward ? kautz_in(t->d, r, i) : kautz_out(t->d, r, i);
        if (c != t->root)
            rl_push(out, bfs_part(t, c), bfs_part(t, c) + 1);
    }
}

static int prepare_tree(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    kz_ctx *k = kz_new(s, l, KZ_COMBINE, err);
    if (!k)
        return -1;
    int inward = s->coll == COLL_REDUCE || s->coll == COLL_GATHER;
    k->bfs = (bfs_tree){k->d, k->n, s->root, inward};
    k->tp = (tree_pattern){.n = k->n, .nsteps = 2, .recv_step = bfs_recv_step,
                           .parent = bfs_parent, .subtree = bfs_subtree, .ctx = &k->bfs,
                           .children = bfs_children};
    int32_t rot = (s->coll == COLL_GATHER || s->coll == COLL_SCATTER) ? s->root : 0;
    chunk_map_plain(&k->map, s->P, s->root, rot, l->blocks_per_rank);
    *ctx = k;
    return 0;
}

/* The BFS tree's bcast, reduce, scatter or gather, as the spec's collective says. */
static void gen_tree(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    const kz_ctx *k = ctx;
    tree_collective(s->coll, b, &k->tp, &k->map, r);
}

/* ---- MULTITREE ------------------------------------------------------------------------- */

static int prepare_multitree(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    kz_ctx *k = kz_new(s, l, KZ_COMBINE, err);
    if (!k)
        return -1;
    lgraph g;
    lgraph_kautz(k->d, &g);
    int rc = mt_plan_prepare(&k->mt, &g, s, l, err);
    lgraph_free(&g);
    if (rc < 0) {
        kz_release(k);
        return -1;
    }
    *ctx = k;
    return 0;
}

static void gen_multitree(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    const kz_ctx *k = ctx;
    mt_plan_gen(&k->mt, s->coll, r, b);
}

/* ---- point to point ---------------------------------------------------------------------- */

/* Appends the path src, mid.., dst (hops = number of links). */
static void add_path(kz_ctx *k, int hops, int32_t a, int32_t b, int32_t c, int32_t e)
{
    int32_t *p = k->nodes + 4 * k->npaths;
    p[0] = a;
    p[1] = b;
    p[2] = c;
    p[3] = e;
    k->hops[k->npaths++] = hops;
    if (hops > k->maxhops)
        k->maxhops = hops;
}

static void build_paths(kz_ctx *k, int32_t src, int32_t dst, int multipath)
{
    int32_t d = k->d, x, y, z, t;
    kautz_word(d, src, &x, &y);
    kautz_word(d, dst, &z, &t);
    k->nodes = xcalloc((size_t)4 * (d + 1), sizeof *k->nodes);
    k->hops = xcalloc((size_t)d + 1, sizeof *k->hops);
    if (y == z) { /* a link: type 2 (dst = yx, the partner) or type 3 */
        add_path(k, 1, src, dst, -1, -1);
        for (int32_t c = 0; multipath && c <= d; c++)
            if (c != x && c != y && c != t)
                add_path(k, 3, src, kautz_rank(d, y, c), kautz_rank(d, c, y), dst);
    } else { /* type 1: distance 2 */
        add_path(k, 2, src, kautz_rank(d, y, z), dst, -1);
        for (int32_t c = 0; multipath && c <= d; c++)
            if (c != y && c != z)
                add_path(k, 3, src, kautz_rank(d, y, c), kautz_rank(d, c, z), dst);
    }
}

static int prepare_p2p(const coll_spec *s, sched_layout *l, void **ctx, int multipath,
                       cs_error *err)
{
    kz_ctx *k = kz_new(s, l, KZ_COMBINE, err);
    if (!k)
        return -1;
    build_paths(k, s->root, s->dst, multipath);
    layout_init(l, s->coll, s->P, s->root, s->bytes, k->npaths); /* one block per path */
    *ctx = k;
    return 0;
}

static int prepare_shortest(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_p2p(s, l, ctx, 0, err);
}

static int prepare_multipath(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_p2p(s, l, ctx, 1, err);
}

static void gen_p2p(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const kz_ctx *k = ctx;
    for (int h = 0; h < k->maxhops; h++) {
        sb_step(b);
        for (int j = 0; j < k->npaths; j++) {
            const int32_t *p = k->nodes + 4 * j;
            if (h >= k->hops[j])
                continue;
            if (p[h] == r)
                sb_send_blocks(b, p[h + 1], j, j + 1);
            if (p[h + 1] == r)
                sb_recv_blocks(b, p[h], j, j + 1, 0);
        }
    }
}

/* ---- registry ------------------------------------------------------------------------------ */

#define KAUTZ "P = d(d+1), d >= 2 (Kautz K(d,2))"
#define KAUTZ_MT "P = d(d+1), d >= 2 (Kautz K(d,2)), P <= 2048"

const alg_desc alg_family_kautz[] = {
    {COLL_ALLGATHER, "kautz_c", "Kautz message-combine: 2 steps (d or d-1 blocks), final copy",
     KAUTZ, NULL, prepare_combine, gen_allgather, kz_release, 0},
    {COLL_REDUCE_SCATTER, "kautz_c", "Kautz message-combine: 2 steps over the in-trees", KAUTZ,
     NULL, prepare_combine, gen_reduce_scatter, kz_release, 0},
    {COLL_ALLREDUCE, "kautz_c", "Kautz message-combine reduce-scatter + allgather: 4 steps",
     KAUTZ, NULL, prepare_combine, gen_allreduce, kz_release, 0},
    {COLL_ALLTOALL, "kautz_c", "Kautz message-combine: 2 steps (d+1, then d blocks), final copy",
     KAUTZ, NULL, prepare_combine, gen_alltoall, kz_release, 0},
    {COLL_BCAST, "kautz_c", "Kautz BFS out-tree: 2 steps", KAUTZ, NULL, prepare_tree, gen_tree,
     kz_release, 0},
    {COLL_SCATTER, "kautz_c", "Kautz BFS out-tree: 2 steps (branch, then 1 chunk)", KAUTZ, NULL,
     prepare_tree, gen_tree, kz_release, 0},
    {COLL_REDUCE, "kautz_c", "Kautz BFS in-tree: 2 steps", KAUTZ, NULL, prepare_tree, gen_tree,
     kz_release, 0},
    {COLL_GATHER, "kautz_c", "Kautz BFS in-tree: 2 steps", KAUTZ, NULL, prepare_tree, gen_tree,
     kz_release, 0},
    {COLL_ALLGATHER, "kautz_m", "Kautz-M: forwards serialized, one block per link: d+1 steps",
     KAUTZ, NULL, prepare_serial, gen_allgather, kz_release, 0},
    {COLL_REDUCE_SCATTER, "kautz_m", "Kautz-M: one block per link per step: d+1 steps", KAUTZ,
     NULL, prepare_serial, gen_reduce_scatter, kz_release, 0},
    {COLL_ALLREDUCE, "kautz_m", "Kautz-M reduce-scatter + allgather: 2(d+1) steps", KAUTZ, NULL,
     prepare_serial, gen_allreduce, kz_release, 0},
    {COLL_ALLTOALL, "kautz_m", "Kautz-M: combined first step, then d one-block sub-steps", KAUTZ,
     NULL, prepare_serial, gen_alltoall, kz_release, 0},
    {COLL_ALLGATHER, "kautz_congestion", "Kautz: forwards as single blocks all at once: 2 steps",
     KAUTZ, NULL, prepare_congestion, gen_allgather, kz_release, 0},
    {COLL_REDUCE_SCATTER, "kautz_congestion", "Kautz: single-block partials all at once: 2 steps",
     KAUTZ, NULL, prepare_congestion, gen_reduce_scatter, kz_release, 0},
    {COLL_ALLREDUCE, "kautz_congestion", "Kautz congestion reduce-scatter + allgather: 4 steps",
     KAUTZ, NULL, prepare_congestion, gen_allreduce, kz_release, 0},
    {COLL_ALLTOALL, "kautz_congestion", "Kautz: second step as single blocks all at once", KAUTZ,
     NULL, prepare_congestion, gen_alltoall, kz_release, 0},
    {COLL_ALLGATHER, "kautz_multitree", "MULTITREE out-trees on K(d,2) (d+1 steps for most d)",
     KAUTZ_MT, NULL, prepare_multitree, gen_multitree, kz_release, 0},
    {COLL_REDUCE_SCATTER, "kautz_multitree", "MULTITREE in-trees on K(d,2), run backwards",
     KAUTZ_MT, NULL, prepare_multitree, gen_multitree, kz_release, 0},
    {COLL_ALLREDUCE, "kautz_multitree", "MULTITREE reduce-scatter + allgather on K(d,2)",
     KAUTZ_MT, NULL, prepare_multitree, gen_multitree, kz_release, 0},
    {COLL_ALLTOALL, "kautz_multitree", "MULTITREE out-trees on K(d,2), subtree blocks per edge",
     KAUTZ_MT, NULL, prepare_multitree, gen_multitree, kz_release, 0},
    {COLL_P2P, "kautz_shortest", "the unique shortest path on K(d,2), store and forward", KAUTZ,
     NULL, prepare_shortest, gen_p2p, kz_release, 0},
    {COLL_P2P, "kautz_multipath", "split over d (type 3: d-1) disjoint paths of <= 3 hops",
     KAUTZ, NULL, prepare_multipath, gen_p2p, kz_release, 0},
    {0},
};
