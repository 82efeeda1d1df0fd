/* torus_bfly.c - torus butterfly patterns: peers from a per-dimension rule, and the
 * reduce-scatter block rule, contiguous or explicit (see torus_bfly.h). */
#include "algorithms/torus_bfly.h"

#include <stdlib.h>

#include "common/util.h"

int32_t torus_bfly_peer(const torus_bfly *tb, int32_t v, int step)
{
    torus_step st = tb->steps[step];
    int64_t off = tb->rule(torus_coord(&tb->shape, v, st.dim), st.rel);
    return torus_move(&tb->shape, v, st.dim, tb->mirrored ? -off : off);
}

int32_t torus_bfly_position(const torus_bfly *tb, int32_t v)
{
    return tb->pos ? tb->pos[v] : v;
}

/* ---- explicit sets -------------------------------------------------------------------- */

/* A node moves in one dimension per step, and how it moves there depends only on its
 * coordinate in that dimension; so the nodes x reaches from step t on (x included) are
 * the product over the dimensions k of R_k(x_k), the coordinates that dimension's steps
 * from t on reach from x_k. v and its peer q differ only in the step's dimension a, hence
 *   SEND(v, s) = (R_a(q_a) \ R_a(v_a)) x prod_{k != a} R_k(v_k), all from step s+1 on.
 * Cost: a few 1D path enumerations (2^(steps of a dimension) <= 2d) and the answer. */

/* Marks in `in` the coordinates reached from c in dimension dim from relative step rel on
 * (c included). */
static void reach_1d(const torus_bfly *tb, int dim, int32_t c, int rel, uint8_t *in)
{
    int32_t d = tb->shape.dims[dim];
    in[c] = 1;
    for (int r = rel; r < ilog2_ceil((uint64_t)d); r++) {
        int64_t off = tb->rule(c, r);
        reach_1d(tb, dim, (int32_t)mod_i64(c + (tb->mirrored ? -off : off), d), r + 1, in);
    }
}

/* Appends the ranks of the product of the coordinate sets sets[k..D-1] (flags over d_k);
 * `base` holds the coordinates before k. The last dimension has stride 1: runs of
 * consecutive coordinates there are runs of consecutive ranks. */
static void push_product(const torus_shape *t, uint8_t *const *sets, int k, int32_t base,
                         range_list *out)
{
    int32_t d = t->dims[k];
    for (int32_t c = 0; c < d; c++) {
        if (!sets[k][c])
            continue;
        if (k + 1 < t->ndims) {
            push_product(t, sets, k + 1, base + c * t->stride[k], out);
            continue;
        }
        int32_t end = c;
        while (end < d && sets[k][end])
            end++;
        rl_push(out, base + c, base + end);
        c = end - 1;
    }
}

static void explicit_send_set(const torus_bfly *tb, int32_t v, int step, range_list *out)
{
    const torus_shape *t = &tb->shape;
    int next_rel[SPEC_MAX_DIMS] = {0}; /* each dimension's first step after `step` */
    for (int s = 0; s <= step; s++)
        next_rel[tb->steps[s].dim] = tb->steps[s].rel + 1;
    int a = tb->steps[step].dim;
    int32_t q = torus_bfly_peer(tb, v, step);
    uint8_t *sets[SPEC_MAX_DIMS];
    for (int k = 0; k < t->ndims; k++) {
        sets[k] = xcalloc((size_t)t->dims[k], 1);
        reach_1d(tb, k, torus_coord(t, k == a ? q : v, k), next_rel[k], sets[k]);
    }
    uint8_t *mine = xcalloc((size_t)t->dims[a], 1);
    reach_1d(tb, a, torus_coord(t, v, a), next_rel[a], mine);
    for (int32_t c = 0; c < t->dims[a]; c++)
        if (mine[c])
            sets[a][c] = 0;
    push_product(t, sets, 0, 0, out);
    free(mine);
    for (int k = 0; k < t->ndims; k++)
        free(sets[k]);
}

/* ---- contiguous positions -------------------------------------------------------------- */

/* Positions of a true butterfly. Let C_s(x) be the nodes x talks to from step s on
 * (C_L(x) = {x}); then C_s(x) = C_{s+1}(x) u C_{s+1}(peer(x, s)), and after step s node x
 * keeps the chunks of C_{s+1}(x). Bit L-1-s of position(x) says which half of C_s(x) is
 * x's: 0 for the half holding the smaller node (min C is computed level by level). */
static int32_t *butterfly_positions(const torus_bfly *tb)
{
    int32_t P = tb->shape.P;
    int L = tb->nsteps;
    int32_t *pos = xcalloc((size_t)P, sizeof *pos);
    int32_t *minc = xmalloc((size_t)P * sizeof *minc), *next = xmalloc((size_t)P * sizeof *next);
    for (int32_t x = 0; x < P; x++)
        minc[x] = x;
    for (int s = L - 1; s >= 0; s--) {
        for (int32_t x = 0; x < P; x++) {
            int32_t y = torus_bfly_peer(tb, x, s);
            if (minc[x] > minc[y])
                pos[x] |= (int32_t)(1u << (L - 1 - s));
            next[x] = minc[x] < minc[y] ? minc[x] : minc[y];
        }
        int32_t *t = minc;
        minc = next;
        next = t;
    }
    free(minc);
    free(next);
    return pos;
}

/* A butterfly's positions are a permutation and step s flips bit L-1-s (and only lower
 * ones): then the nodes a node reaches from step s+1 on are exactly the aligned range
 * of its position at that level. */
static int positions_valid(const torus_bfly *tb, const int32_t *pos)
{
    int32_t P = tb->shape.P;
    int L = tb->nsteps;
    uint8_t *seen = xcalloc((size_t)P, 1);
    int ok = 1;
    for (int32_t x = 0; x < P && ok; x++) {
        if (pos[x] < 0 || pos[x] >= P || seen[pos[x]]++)
            ok = 0;
        for (int s = 0; s < L && ok; s++) {
            uint32_t diff = (uint32_t)(pos[x] ^ pos[torus_bfly_peer(tb, x, s)]);
            if (diff == 0 || ilog2_floor(diff) != L - 1 - s)
                ok = 0;
        }
    }
    free(seen);
    return ok;
}

void torus_bfly_send_set(const torus_bfly *tb, int32_t v, int step, range_list *out)
{
    if (!tb->pos) {
        explicit_send_set(tb, v, step, out);
        return;
    }
    int32_t size = (int32_t)(1u << (tb->nsteps - 1 - step));
    int32_t lo = tb->pos[torus_bfly_peer(tb, v, step)] & ~(size - 1);
    rl_push(out, lo, lo + size);
}

/* ---- the pattern ------------------------------------------------------------------------ */

static int32_t pattern_peer(const void *ctx, int32_t v, int step)
{
    return torus_bfly_peer(ctx, v, step);
}

static void pattern_rs_send(const void *ctx, int32_t v, int step, range_list *out)
{
    torus_bfly_send_set(ctx, v, step, out);
}

static int peers_symmetric(const torus_bfly *tb)
{
    for (int32_t x = 0; x < tb->shape.P; x++)
        for (int s = 0; s < tb->nsteps; s++) {
            int32_t y = torus_bfly_peer(tb, x, s);
            if (y == x || torus_bfly_peer(tb, y, s) != x)
                return 0;
        }
    return 1;
}

int torus_bfly_init(torus_bfly *tb, const torus_shape *t, torus_peer_rule rule, int port,
                    int blocks, cs_error *err)
{
    *tb = (torus_bfly){0};
    tb->shape = *t;
    tb->rule = rule;
    tb->mirrored = port >= t->ndims;
    tb->nsteps = torus_port_schedule(t, port, tb->steps);
    tb->pat = (bfly_pattern){tb->nsteps, pattern_peer, pattern_rs_send, tb};
    if (!peers_symmetric(tb)) {
        char shape[128];
        torus_shape_format(t, shape, sizeof shape);
        return cs_fail(err, "the peer rule is not symmetric on the torus %s (port %d)", shape,
                       port);
    }
    if (blocks && is_pow2_i64(t->P) && (1LL << tb->nsteps) == t->P) {
        tb->pos = butterfly_positions(tb);
        if (!positions_valid(tb, tb->pos)) {
            free(tb->pos);
            tb->pos = NULL;
        }
    }
    return 0;
}

void torus_bfly_free(torus_bfly *tb)
{
    free(tb->pos);
    tb->pos = NULL;
}
