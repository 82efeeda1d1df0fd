/* butterfly.c - the butterfly engine: folds, cores (data-movement options, members), one
 * step's operations, remap exchanges and permutation copies (see butterfly.h). */
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

/* ---- cores ------------------------------------------------------------------------------ */

static int32_t participant_of(const chunk_map *m, const bfly_opts *o, int32_t r)
{
    return o && o->members ? o->members->participant(o->members->ctx, r)
                           : chunk_map_participant(m, r);
}

static int32_t rank_of(const chunk_map *m, const bfly_opts *o, int32_t v)
{
    return o && o->members ? o->members->rank(o->members->ctx, v) : chunk_map_rank(m, v);
}

/* The whole vector to and from q, combined. */
static void whole_exchange(sched_builder *b, int32_t q)
{
    blk_range all = {0, b->layout->nblocks};
    sb_send(b, q, &all, 1);
    sb_recv(b, q, &all, 1, OPF_COMBINE);
    sb_reduce(b, ranges_bytes(b->layout, &all, 1));
}

void bfly_whole_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                    int i, const bfly_opts *o)
{
    int32_t v = participant_of(m, o, r);
    if (v >= 0)
        whole_exchange(b, rank_of(m, o, p->peer(p->ctx, v, i)));
}

void bfly_whole_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                          const bfly_opts *o)
{
    for (int i = 0; i < p->nsteps; i++) {
        sb_step(b);
        bfly_whole_ops(b, p, m, r, i, o);
    }
}

void bfly_whole_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    bfly_whole_core_opts(b, p, m, r, NULL);
}

void bfly_rule_blocks(const bfly_pattern *p, const chunk_map *m, int32_t who, int i,
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

/* Scratch lists of one exchange: rs_send output, blocks out and in, one segment of each. */
typedef struct bfly_sets {
    range_list parts, out, in, out_g, in_g;
} bfly_sets;

static void sets_free(bfly_sets *s)
{
    rl_free(&s->parts);
    rl_free(&s->out);
    rl_free(&s->in);
    rl_free(&s->out_g);
    rl_free(&s->in_g);
}

/* The blocks participant v sends (out) and receives (in) at step j of the reduce-scatter
 * (ag = 0) or of the allgather (ag = 1: reduce-scatter step nsteps-1-j backwards, sending
 * what the reduce-scatter kept); returns the peer's rank. */
static int32_t step_sets(const bfly_pattern *p, const chunk_map *m, const bfly_opts *o,
                         int32_t v, int j, int ag, bfly_sets *s)
{
    int i = ag ? p->nsteps - 1 - j : j;
    int32_t pv = p->peer(p->ctx, v, i);
    bfly_rule_blocks(p, m, ag ? pv : v, i, &s->parts, &s->out);
    bfly_rule_blocks(p, m, ag ? v : pv, i, &s->parts, &s->in);
    return rank_of(m, o, pv);
}

/* The reduce-scatter (ag = 0) or the allgather (ag = 1), segmented when o asks. */
static void halving_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                         const bfly_opts *o, int ag)
{
    int32_t v = participant_of(m, o, r);
    int split = o && o->split_runs;
    bfly_sets s = {0};
    for (int j = 0; j < p->nsteps; j++) {
        int nseg = o && o->segments ? o->segments[j] : 1;
        if (v < 0) { /* not a participant: stay in step */
            for (int g = 0; g < nseg; g++)
                sb_step(b);
            continue;
        }
        int32_t q = step_sets(p, m, o, v, j, ag, &s);
        for (int g = 0; g < nseg; g++) {
            sb_step(b);
            if (nseg == 1) {
                exchange(b, q, &s.out, &s.in, !ag, split);
                continue;
            }
            slice_blocks(&s.out, g, nseg, &s.out_g);
            slice_blocks(&s.in, g, nseg, &s.in_g);
            exchange(b, q, &s.out_g, &s.in_g, !ag, split);
        }
    }
    sets_free(&s);
}

/* One unsegmented step of halving_core, into the current step. */
static void halving_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                        int j, const bfly_opts *o, int ag)
{
    int32_t v = participant_of(m, o, r);
    if (v < 0)
        return;
    bfly_sets s = {0};
    int32_t q = step_sets(p, m, o, v, j, ag, &s);
    exchange(b, q, &s.out, &s.in, !ag, o && o->split_runs);
    sets_free(&s);
}

void bfly_rs_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o)
{
    halving_core(b, p, m, r, o, 0);
}

void bfly_ag_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o)
{
    halving_core(b, p, m, r, o, 1);
}

void bfly_rs_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    halving_core(b, p, m, r, NULL, 0);
}

void bfly_ag_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r)
{
    halving_core(b, p, m, r, NULL, 1);
}

void bfly_rs_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r, int i,
                 const bfly_opts *o)
{
    halving_ops(b, p, m, r, i, o, 0);
}

void bfly_ag_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r, int j,
                 const bfly_opts *o)
{
    halving_ops(b, p, m, r, j, o, 1);
}

/* ---- remap exchanges and permutation copies ------------------------------------------- */

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
