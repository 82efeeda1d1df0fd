/* butterfly_parts.c - several butterflies in lockstep on parts of the vector
 * (see butterfly_parts.h). */
#include "algorithms/butterfly_parts.h"

static int32_t participant_of(const bfly_parts *ps, int32_t rank)
{
    return ps->members ? ps->members->participant(ps->members->ctx, rank) : rank;
}

static int32_t rank_of(const bfly_parts *ps, int32_t v)
{
    return ps->members ? ps->members->rank(ps->members->ctx, v) : v;
}

/* The blocks of the positions the pattern's rule gives for (who, step). */
static void rule_blocks(const bfly_part *pt, int32_t who, int step, range_list *pos,
                        range_list *out)
{
    rl_clear(pos);
    rl_clear(out);
    pt->pat->rs_send(pt->pat->ctx, who, step, pos);
    for (size_t k = 0; k < pos->n; k++)
        rl_push(out, pt->block_base + pos->r[k].lo * pt->unit,
                pt->block_base + pos->r[k].hi * pt->unit);
    rl_normalize(out);
}

/* One exchange with q: send `out`, receive `in` (combined or not). */
static void exchange(sched_builder *b, int32_t q, const range_list *out, const range_list *in,
                     int combine)
{
    sb_send(b, q, out->r, (uint32_t)out->n);
    sb_recv(b, q, in->r, (uint32_t)in->n, combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, in->r, (uint32_t)in->n));
}

void bfly_parts_whole_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int i)
{
    int32_t v = participant_of(ps, r);
    if (v < 0)
        return;
    range_list whole = {0};
    for (int k = 0; k < ps->nparts; k++) {
        const bfly_part *pt = &ps->part[k];
        rl_clear(&whole);
        rl_push(&whole, pt->block_base, pt->block_base + pt->npos * pt->unit);
        int32_t q = rank_of(ps, pt->pat->peer(pt->pat->ctx, v, i));
        exchange(b, q, &whole, &whole, 1);
    }
    rl_free(&whole);
}

/* Reduce-scatter step i: send rule(v), receive and combine rule(peer). The allgather
 * step undoing it swaps the two sets and does not combine. */
static void halving_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int step, int ag)
{
    int32_t v = participant_of(ps, r);
    if (v < 0)
        return;
    range_list pos = {0}, mine = {0}, theirs = {0};
    for (int k = 0; k < ps->nparts; k++) {
        const bfly_part *pt = &ps->part[k];
        int i = ag ? pt->pat->nsteps - 1 - step : step;
        int32_t pv = pt->pat->peer(pt->pat->ctx, v, i);
        rule_blocks(pt, v, i, &pos, &mine);    /* what v hands over at step i */
        rule_blocks(pt, pv, i, &pos, &theirs); /* what v keeps at step i */
        if (ag)
            exchange(b, rank_of(ps, pv), &theirs, &mine, 0);
        else
            exchange(b, rank_of(ps, pv), &mine, &theirs, 1);
    }
    rl_free(&pos);
    rl_free(&mine);
    rl_free(&theirs);
}

void bfly_parts_rs_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int i)
{
    halving_ops(b, ps, r, i, 0);
}

void bfly_parts_ag_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int j)
{
    halving_ops(b, ps, r, j, 1);
}
