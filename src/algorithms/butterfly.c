/* butterfly.c - the butterfly engine and the recursive doubling/halving patterns. */
#include "algorithms/butterfly.h"

#include "common/util.h"

static void whole(const sched_builder *b, range_list *out)
{
    rl_clear(out);
    rl_push(out, 0, b->layout->nblocks);
}

/* The blocks of relative rank `rel` alone. */
static void own_blocks(const chunk_map *m, int32_t rel, range_list *out)
{
    rl_clear(out);
    rl_push_circular(out, (int64_t)rel + m->rot, 1, m->P, m->unit);
}

void bfly_fold_in(sched_builder *b, const chunk_map *m, int32_t r, fold_in_kind kind)
{
    if (m->rem == 0)
        return;
    sb_step(b);
    int32_t rel = (int32_t)mod_i64((int64_t)r - m->root, m->P);
    if (rel >= 2 * m->rem)
        return;
    range_list blocks = {0};
    int odd = rel % 2;
    if (kind == FOLD_IN_REDUCE)
        whole(b, &blocks);
    else
        own_blocks(m, odd ? rel : rel + 1, &blocks);
    int32_t partner = (int32_t)mod_i64((int64_t)r + (odd ? -1 : 1), m->P);
    if (odd) {
        sb_send(b, partner, blocks.r, (uint32_t)blocks.n);
    } else {
        int combine = kind == FOLD_IN_REDUCE ? OPF_COMBINE : 0;
        sb_recv(b, partner, blocks.r, (uint32_t)blocks.n, combine);
        if (combine)
            sb_reduce(b, ranges_bytes(b->layout, blocks.r, (uint32_t)blocks.n));
    }
    rl_free(&blocks);
}

void bfly_fold_out(sched_builder *b, const chunk_map *m, int32_t r, fold_out_kind kind)
{
    if (m->rem == 0)
        return;
    sb_step(b);
    int32_t rel = (int32_t)mod_i64((int64_t)r - m->root, m->P);
    if (rel >= 2 * m->rem)
        return;
    int odd = rel % 2;
    int32_t odd_rel = odd ? rel : rel + 1;
    range_list blocks = {0};
    if (kind == FOLD_OUT_WHOLE) {
        whole(b, &blocks);
    } else if (kind == FOLD_OUT_OWN) {
        own_blocks(m, odd_rel, &blocks);
    } else { /* every relative rank's chunk except the odd rank's */
        rl_push_circular(&blocks, (int64_t)odd_rel + 1 + m->rot, m->P - 1, m->P, m->unit);
    }
    int32_t partner = (int32_t)mod_i64((int64_t)r + (odd ? -1 : 1), m->P);
    if (odd)
        sb_recv(b, partner, blocks.r, (uint32_t)blocks.n, 0);
    else
        sb_send(b, partner, blocks.r, (uint32_t)blocks.n);
    rl_free(&blocks);
}

void bfly_whole_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    int32_t v = chunk_map_participant(m, r);
    range_list blocks = {0};
    whole(b, &blocks);
    int64_t bytes = ranges_bytes(b->layout, blocks.r, (uint32_t)blocks.n);
    for (int i = 0; i < p->nsteps; i++) {
        sb_step(b);
        if (v < 0)
            continue;
        int32_t q = chunk_map_rank(m, p->peer(p->ctx, v, i));
        sb_send(b, q, blocks.r, (uint32_t)blocks.n);
        sb_recv(b, q, blocks.r, (uint32_t)blocks.n, OPF_COMBINE);
        sb_reduce(b, bytes);
    }
    rl_free(&blocks);
}

/* Blocks of the chunks of the participant ranges p->rs_send(who, i). */
static void rule_blocks(const bfly_pattern *p, const chunk_map *m, int32_t who, int i,
                        range_list *parts, range_list *out)
{
    rl_clear(parts);
    rl_clear(out);
    p->rs_send(p->ctx, who, i, parts);
    for (size_t k = 0; k < parts->n; k++)
        chunk_map_push(m, out, (int32_t)parts->r[k].lo, (int32_t)parts->r[k].hi);
}

void bfly_rs_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    int32_t v = chunk_map_participant(m, r);
    range_list parts = {0}, out = {0}, in = {0};
    for (int i = 0; i < p->nsteps; i++) {
        sb_step(b);
        if (v < 0)
            continue;
        int32_t pv = p->peer(p->ctx, v, i);
        int32_t q = chunk_map_rank(m, pv);
        rule_blocks(p, m, v, i, &parts, &out);
        rule_blocks(p, m, pv, i, &parts, &in);
        sb_send(b, q, out.r, (uint32_t)out.n);
        sb_recv(b, q, in.r, (uint32_t)in.n, OPF_COMBINE);
        sb_reduce(b, ranges_bytes(b->layout, in.r, (uint32_t)in.n));
    }
    rl_free(&parts);
    rl_free(&out);
    rl_free(&in);
}

void bfly_ag_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    int32_t v = chunk_map_participant(m, r);
    range_list parts = {0}, out = {0}, in = {0};
    for (int j = 0; j < p->nsteps; j++) {
        sb_step(b);
        if (v < 0)
            continue;
        int i = p->nsteps - 1 - j;
        int32_t pv = p->peer(p->ctx, v, i);
        int32_t q = chunk_map_rank(m, pv);
        rule_blocks(p, m, pv, i, &parts, &out); /* what v kept at RS step i */
        rule_blocks(p, m, v, i, &parts, &in);
        sb_send(b, q, out.r, (uint32_t)out.n);
        sb_recv(b, q, in.r, (uint32_t)in.n, 0);
    }
    rl_free(&parts);
    rl_free(&out);
    rl_free(&in);
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
    *p = (bfly_pattern){ctx->s, doubling_peer, doubling_rs_send, ctx};
}

void rd_halving_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n)
{
    ctx->n = n;
    ctx->s = ilog2_floor((uint64_t)n);
    *p = (bfly_pattern){ctx->s, halving_peer, halving_rs_send, ctx};
}
