/* butterfly_patterns.c - patterns of the butterfly engine that serve any family:
 * contiguous positions of a true butterfly, recursive doubling and halving (see
 * butterfly.h). */
#include <stdlib.h>

#include "algorithms/butterfly.h"
#include "common/util.h"

/* ---- contiguous positions -------------------------------------------------------------- */

/* A butterfly's positions are a permutation and step s flips bit L-1-s (and only lower
 * ones): then the participants a participant reaches from step s+1 on are exactly the
 * aligned range of its position at that level. */
static int positions_valid(const bfly_pattern *p, int32_t n, const int32_t *pos)
{
    int L = p->nsteps;
    uint8_t *seen = xcalloc((size_t)n, 1);
    int ok = 1;
    for (int32_t x = 0; x < n && ok; x++) {
        if (pos[x] < 0 || pos[x] >= n || seen[pos[x]]++)
            ok = 0;
        for (int s = 0; s < L && ok; s++) {
            uint32_t diff = (uint32_t)(pos[x] ^ pos[p->peer(p->ctx, x, s)]);
            if (diff == 0 || ilog2_floor(diff) != L - 1 - s)
                ok = 0;
        }
    }
    free(seen);
    return ok;
}

/* C_s(x) = C_{s+1}(x) u C_{s+1}(peer(x, s)), C_L(x) = {x}: min C_s is computed level by
 * level, from the last step back. */
int32_t *bfly_positions(const bfly_pattern *p, int32_t n)
{
    int L = p->nsteps;
    if (L < 0 || L > 30 || ((int64_t)1 << L) != n)
        return NULL;
    int32_t *pos = xcalloc((size_t)n, sizeof *pos);
    int32_t *minc = xmalloc((size_t)n * sizeof *minc), *next = xmalloc((size_t)n * sizeof *next);
    for (int32_t x = 0; x < n; x++)
        minc[x] = x;
    for (int s = L - 1; s >= 0; s--) {
        for (int32_t x = 0; x < n; x++) {
            int32_t y = p->peer(p->ctx, x, s);
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
    if (!positions_valid(p, n, pos)) {
        free(pos);
        return NULL;
    }
    return pos;
}

static int32_t contiguous_peer(const void *ctx, int32_t v, int step)
{
    const bfly_contiguous *c = ctx;
    return c->base->peer(c->base->ctx, v, step);
}

static void contiguous_rs_send(const void *ctx, int32_t v, int step, range_list *out)
{
    const bfly_contiguous *c = ctx;
    int32_t size = (int32_t)(1u << (c->base->nsteps - 1 - step));
    int32_t lo = c->pos[c->base->peer(c->base->ctx, v, step)] & ~(size - 1);
    rl_push(out, lo, lo + size);
}

void bfly_contiguous_pattern(bfly_pattern *out, bfly_contiguous *c, const bfly_pattern *base,
                             const int32_t *pos)
{
    *c = (bfly_contiguous){base, pos};
    *out = (bfly_pattern){.nsteps = base->nsteps, .peer = contiguous_peer,
                          .rs_send = contiguous_rs_send, .ctx = c};
}

/* ---- recursive doubling / halving ------------------------------------------------------ */

static int32_t doubling_peer(const void *ctx, int32_t v, int i)
{
    (void)ctx;
    return v ^ (int32_t)(1u << i);
}

static void doubling_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const rd_pattern_ctx *c = ctx;
    int32_t low = (v & (int32_t)((1u << i) - 1)) | ((v ^ (int32_t)(1u << i)) & (int32_t)(1u << i));
    int32_t stride = (int32_t)(2u << i);
    for (int32_t x = low; x < c->n; x += stride)
        rl_push(out, x, x + 1);
}

static int32_t halving_peer(const void *ctx, int32_t v, int i)
{
    const rd_pattern_ctx *c = ctx;
    return v ^ (int32_t)(1u << (c->s - 1 - i));
}

static void halving_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const rd_pattern_ctx *c = ctx;
    int32_t half = (int32_t)(1u << (c->s - 1 - i));
    int32_t start = (v ^ half) & ~(half - 1);
    rl_push(out, start, start + half);
}

void rd_doubling_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n)
{
    ctx->n = n;
    ctx->s = ilog2_floor((uint64_t)n);
    *p = (bfly_pattern){.nsteps = ctx->s, .peer = doubling_peer, .rs_send = doubling_rs_send,
                        .ctx = ctx};
}

void rd_halving_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n)
{
    ctx->n = n;
    ctx->s = ilog2_floor((uint64_t)n);
    *p = (bfly_pattern){.nsteps = ctx->s, .peer = halving_peer, .rs_send = halving_rs_send,
                        .ctx = ctx};
}

/* The s low bits of v in reverse order. */
static int32_t bit_reverse(int32_t v, int s)
{
    int32_t x = 0;
    for (int k = 0; k < s; k++)
        x |= ((v >> k) & 1) << (s - 1 - k);
    return x;
}

static void nearest_rs_send(const void *ctx, int32_t v, int i, range_list *out)
{
    const rd_pattern_ctx *c = ctx;
    int32_t size = (int32_t)(1u << (c->s - 1 - i));
    int32_t lo = bit_reverse(v ^ (int32_t)(1u << i), c->s) & ~(size - 1);
    rl_push(out, lo, lo + size);
}

void rd_nearest_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n)
{
    ctx->n = n;
    ctx->s = ilog2_floor((uint64_t)n);
    *p = (bfly_pattern){.nsteps = ctx->s, .peer = doubling_peer, .rs_send = nearest_rs_send,
                        .ctx = ctx};
}
