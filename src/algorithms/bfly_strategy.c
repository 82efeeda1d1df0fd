/* bfly_strategy.c - butterfly cores with data-movement options, remap exchanges and
 * permutation copies (see bfly_strategy.h). */
#include "algorithms/bfly_strategy.h"

/* Blocks of the chunks named by p->rs_send(who, i), sorted and merged. */
static void rule_blocks(const bfly_pattern *p, const chunk_map *m, int32_t who, int i,
                        range_list *parts, range_list *out)
{
    rl_clear(parts);
    rl_clear(out);
    p->rs_send(p->ctx, who, i, parts);
    for (size_t k = 0; k < parts->n; k++)
        chunk_map_push(m, out, (int32_t)parts->r[k].lo, (int32_t)parts->r[k].hi);
    for (size_t k = 1; k < out->n; k++) /* sort only when needed (a rotation wraps) */
        if (out->r[k].lo < out->r[k - 1].hi) {
            rl_normalize(out);
            break;
        }
}

static int64_t count_blocks(const range_list *l)
{
    int64_t n = 0;
    for (size_t k = 0; k < l->n; k++)
        n += l->r[k].hi - l->r[k].lo;
    return n;
}

/* Part g of `parts` equal-count parts of the blocks of `in` (in their listed order). */
static void slice_blocks(const range_list *in, int g, int parts, range_list *out)
{
    int64_t total = count_blocks(in), from = total * g / parts, to = total * (g + 1) / parts;
    int64_t at = 0;
    rl_clear(out);
    for (size_t k = 0; k < in->n && at < to; k++) {
        int64_t len = in->r[k].hi - in->r[k].lo;
        int64_t a = from > at ? from : at, z = to < at + len ? to : at + len;
        if (a < z)
            rl_push(out, in->r[k].lo + (a - at), in->r[k].lo + (z - at));
        at += len;
    }
}

/* Sends `out` to q and receives `in` from q (combined when `combine`), as one message each
 * or one per contiguous run; empty sets send nothing. */
static void exchange(sched_builder *b, int32_t q, const range_list *out, const range_list *in,
                     int combine, int split)
{
    int flags = combine ? OPF_COMBINE : 0;
    if (split) {
        for (size_t k = 0; k < out->n; k++)
            sb_send(b, q, &out->r[k], 1);
        for (size_t k = 0; k < in->n; k++)
            sb_recv(b, q, &in->r[k], 1, flags);
    } else {
        if (out->n)
            sb_send(b, q, out->r, (uint32_t)out->n);
        if (in->n)
            sb_recv(b, q, in->r, (uint32_t)in->n, flags);
    }
    if (combine && in->n)
        sb_reduce(b, ranges_bytes(b->layout, in->r, (uint32_t)in->n));
}

/* The reduce-scatter (ag = 0) or the allgather (ag = 1: the steps backwards, sending
 * what the reduce-scatter kept). */
static void core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                 const bfly_opts *o, int ag)
{
    int32_t v = chunk_map_participant(m, r);
    int split = o && o->split_runs;
    range_list parts = {0}, out = {0}, in = {0}, out_g = {0}, in_g = {0};
    for (int j = 0; j < p->nsteps; j++) {
        int nseg = o && o->segments ? o->segments[j] : 1;
        if (v < 0) { /* folded out: stay in step */
            for (int g = 0; g < nseg; g++)
                sb_step(b);
            continue;
        }
        int i = ag ? p->nsteps - 1 - j : j;
        int32_t pv = p->peer(p->ctx, v, i);
        int32_t q = chunk_map_rank(m, pv);
        rule_blocks(p, m, ag ? pv : v, i, &parts, &out);
        rule_blocks(p, m, ag ? v : pv, i, &parts, &in);
        for (int g = 0; g < nseg; g++) {
            sb_step(b);
            if (nseg == 1) {
                exchange(b, q, &out, &in, !ag, split);
                continue;
            }
            slice_blocks(&out, g, nseg, &out_g);
            slice_blocks(&in, g, nseg, &in_g);
            exchange(b, q, &out_g, &in_g, !ag, split);
        }
    }
    rl_free(&parts);
    rl_free(&out);
    rl_free(&in);
    rl_free(&out_g);
    rl_free(&in_g);
}

void bfly_rs_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o)
{
    core(b, p, m, r, o, 0);
}

void bfly_ag_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o)
{
    core(b, p, m, r, o, 1);
}

/* The one-step exchange of bfly_remap_after_rs / bfly_remap_before_ag. */
static void remap_step(sched_builder *b, const bfly_remap *rm, const chunk_map *m, int32_t r,
                       int before_ag)
{
    sb_step(b);
    int32_t v = chunk_map_participant(m, r);
    if (v < 0)
        return;
    int32_t x = rm->pos(rm->ctx, v), y = rm->pos_inv(rm->ctx, v);
    if (x == v)
        return; /* pos(v) = v implies pos_inv(v) = v */
    range_list blocks = {0};
    /* after a reduce-scatter v holds chunk x and owns chunk v; before an allgather it
     * needs chunk x (from its owner x) and gives its own chunk to y */
    chunk_map_push(m, &blocks, before_ag ? v : x, (before_ag ? v : x) + 1);
    sb_send(b, chunk_map_rank(m, before_ag ? y : x), blocks.r, (uint32_t)blocks.n);
    rl_clear(&blocks);
    chunk_map_push(m, &blocks, before_ag ? x : v, (before_ag ? x : v) + 1);
    sb_recv(b, chunk_map_rank(m, before_ag ? x : y), blocks.r, (uint32_t)blocks.n, 0);
    rl_free(&blocks);
}

void bfly_remap_after_rs(sched_builder *b, const bfly_remap *rm, const chunk_map *m, int32_t r)
{
    remap_step(b, rm, m, r, 0);
}

void bfly_remap_before_ag(sched_builder *b, const bfly_remap *rm, const chunk_map *m, int32_t r)
{
    remap_step(b, rm, m, r, 1);
}

void bfly_copy_step(sched_builder *b, const chunk_map *m, int32_t r, int64_t bytes)
{
    sb_step(b);
    if (chunk_map_participant(m, r) >= 0 && bytes > 0)
        sb_copy(b, bytes);
}
