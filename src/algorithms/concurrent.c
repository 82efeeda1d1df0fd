/* concurrent.c - sub-collectives on slices of the data, merged step by step (see concurrent.h). */
#include "algorithms/concurrent.h"

#include <string.h>

#include "algorithms/blocks.h"

static int sliced_per_rank(coll_kind c)
{
    return c == COLL_GATHER || c == COLL_SCATTER || c == COLL_ALLGATHER ||
           c == COLL_REDUCE_SCATTER;
}

/* Whole-layout block range of slice c's blocks [lo, hi), appended to out. */
static void to_whole(const conc_plan *cp, int c, int64_t lo, int64_t hi, range_list *out)
{
    int64_t w = cp->width;
    if (!cp->per_rank) {
        rl_push(out, lo + c * w, hi + c * w);
        return;
    }
    for (int64_t owner = lo / w; owner * w < hi; owner++) { /* one piece per owning rank */
        int64_t a = lo > owner * w ? lo : owner * w;
        int64_t z = hi < (owner + 1) * w ? hi : (owner + 1) * w;
        int64_t base = owner * cp->unit + c * w - owner * w;
        rl_push(out, base + a, base + z);
    }
}

void conc_plan_init(conc_plan *cp, sched_layout *whole, coll_kind coll, int32_t P, int32_t root,
                    int64_t bytes, int nslices, int64_t width)
{
    memset(cp, 0, sizeof *cp);
    cp->nslices = nslices;
    cp->per_rank = sliced_per_rank(coll);
    cp->width = width;
    cp->unit = (int64_t)nslices * width;
    layout_init(whole, coll, P, root, bytes, cp->unit);
    int64_t sub_blocks = cp->per_rank ? (int64_t)P * width : width;
    range_list r = {0};
    for (int c = 0; c < nslices; c++) {
        /* the slice's blocks keep their bytes: the whole layout gives the first blocks one
         * byte more, and slice order follows whole order, so the slice's extra bytes also
         * go to its first blocks, as a layout of the slice's total bytes does */
        rl_clear(&r);
        to_whole(cp, c, 0, sub_blocks, &r);
        int64_t sub_bytes = ranges_bytes(whole, r.r, (uint32_t)r.n);
        layout_init(&cp->sub[c], coll, P, root, sub_bytes, width);
    }
    rl_free(&r);
}

static void replay_op(sched_builder *b, const conc_plan *cp, int c, const rank_sched *rs,
                      const sched_op *o, range_list *tmp)
{
    rl_clear(tmp);
    const blk_range *r = rs_op_ranges(rs, o);
    for (uint32_t k = 0; k < o->nranges; k++)
        to_whole(cp, c, r[k].lo, r[k].hi, tmp);
    switch ((op_kind)o->kind) {
    case OP_SEND: sb_send_bytes(b, o->peer, o->bytes, tmp->r, (uint32_t)tmp->n); break;
    case OP_RECV: sb_recv_bytes(b, o->peer, o->bytes, tmp->r, (uint32_t)tmp->n, o->flags); break;
    case OP_REDUCE: sb_reduce(b, o->bytes); break;
    case OP_COPY: sb_copy(b, o->bytes); break;
    }
}

/* The (slice, lane) pairs are generated one after the other into one scratch builder (its
 * layout switched to each slice's), then merged step by step. Each pair starts with a
 * step opened here: it receives the ops a generator adds before its first sb_step (a
 * fresh builder's implicit step 0) and is skipped when it stays empty. */
void conc_gen_lanes(sched_builder *b, const conc_plan *cp, int32_t r, int nlanes,
                    conc_lane_fn gen, const void *ctx)
{
    sched_builder sub;
    sb_init(&sub, &cp->sub[0]);
    sb_begin_rank(&sub, r);
    uint32_t first[CONC_MAX_LANES][CONC_MAX_SLICES], end[CONC_MAX_LANES][CONC_MAX_SLICES];
    uint32_t steps = 0;
    if (nlanes > CONC_MAX_LANES)
        nlanes = CONC_MAX_LANES;
    for (int lane = 0; lane < nlanes; lane++)
        for (int c = 0; c < cp->nslices; c++) {
            sub.layout = &cp->sub[c];
            uint32_t s0 = sb_step(&sub);
            gen(ctx, c, lane, r, &sub);
            int empty = rs_step_begin(&sub.rs, s0) == rs_step_end(&sub.rs, s0);
            first[lane][c] = empty ? s0 + 1 : s0;
            end[lane][c] = sub.rs.nsteps;
            if (end[lane][c] - first[lane][c] > steps)
                steps = end[lane][c] - first[lane][c];
        }
    range_list tmp = {0};
    for (uint32_t t = 0; t < steps; t++) {
        sb_step(b);
        for (int lane = 0; lane < nlanes; lane++)
            for (int c = 0; c < cp->nslices; c++) {
                uint32_t s = first[lane][c] + t;
                if (s >= end[lane][c])
                    continue;
                for (uint32_t i = rs_step_begin(&sub.rs, s); i < rs_step_end(&sub.rs, s); i++)
                    replay_op(b, cp, c, &sub.rs, &sub.rs.ops[i], &tmp);
            }
    }
    rl_free(&tmp);
    sb_free(&sub);
}

/* The one lane of conc_gen. */
typedef struct one_lane {
    conc_slice_fn gen;
    const void *ctx;
} one_lane;

static void lane_of(const void *ctx, int slice, int lane, int32_t r, sched_builder *b)
{
    (void)lane;
    const one_lane *o = ctx;
    o->gen(o->ctx, slice, r, b);
}

void conc_gen(sched_builder *b, const conc_plan *cp, int32_t r, conc_slice_fn gen,
              const void *ctx)
{
    if (cp->nslices == 1) {
        gen(ctx, 0, r, b);
        return;
    }
    one_lane o = {gen, ctx};
    conc_gen_lanes(b, cp, r, 1, lane_of, &o);
}
