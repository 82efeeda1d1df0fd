/* torus_allreduce.c - the allreduce driver of torus butterflies: strategy for the shape,
 * parts per port, fold steps and the extra rank (see torus_allreduce.h). */
#include "algorithms/torus_allreduce.h"

#include <stdlib.h>

#include "algorithms/concurrent.h"
#include "common/util.h"

typedef enum { TA_FULL, TA_SHRINK, TA_EXTRA } ta_strategy;

typedef struct torus_allreduce {
    ta_config cfg;
    ta_strategy strategy;
    torus_shape full; /* the ranks */
    torus_shape core; /* the butterflies' ranks: full, its power-of-two floor, or P-1 */
    int nparts;
    torus_bfly bf[TORUS_MAX_PORTS];
    conc_plan plan;   /* part k: its butterfly's positions (+ the extra rank's block) */
    chunk_map map;    /* position x of a part = its block x */
    bfly_members members;
    bfly_opts opts;   /* the members, when the butterflies leave ranks out */
    int32_t extra;                             /* TA_EXTRA: the rank outside, else -1 */
    int32_t extra_first[TORUS_MAX_STEPS + 1]; /* its group at step s: [first[s], first[s+1]) */
} torus_allreduce;

static int all_even(const torus_shape *t)
{
    for (int i = 0; i < t->ndims; i++)
        if (t->dims[i] % 2)
            return 0;
    return 1;
}

static ta_strategy choose(const ta_config *cfg, const torus_shape *full, torus_shape *core)
{
    if (torus_shape_is_pow2(full) || (cfg->bandwidth && cfg->even_dedup && all_even(full))) {
        *core = *full;
        return TA_FULL;
    }
    if (cfg->bandwidth && cfg->odd_extra && full->ndims == 1) { /* odd ring */
        int32_t n = full->P - 1;
        torus_shape_init(core, 1, &n);
        return TA_EXTRA;
    }
    int32_t dims[SPEC_MAX_DIMS];
    for (int i = 0; i < full->ndims; i++)
        dims[i] = (int32_t)(1u << ilog2_floor((uint64_t)full->dims[i]));
    torus_shape_init(core, full->ndims, dims);
    return TA_SHRINK;
}

static int32_t member_participant(const void *ctx, int32_t rank)
{
    const torus_allreduce *ta = ctx;
    return torus_project(&ta->core, &ta->full, rank);
}

static int32_t member_rank(const void *ctx, int32_t v)
{
    const torus_allreduce *ta = ctx;
    return torus_embed(&ta->core, &ta->full, v);
}

/* The extra rank's groups: half the remaining ranks per step, the rest at the last. */
static void extra_groups(torus_allreduce *ta, int L)
{
    int32_t remaining = ta->core.P;
    ta->extra_first[0] = 0;
    for (int s = 0; s < L; s++) {
        int32_t n = s == L - 1 ? remaining : (remaining + 1) / 2;
        ta->extra_first[s + 1] = ta->extra_first[s] + n;
        remaining -= n;
    }
}

int torus_allreduce_prepare(const coll_spec *s, sched_layout *l, const ta_config *cfg,
                            void **ctx, cs_error *err)
{
    torus_allreduce *ta = xcalloc(1, sizeof *ta);
    ta->cfg = *cfg;
    if (torus_shape_from_spec(&ta->full, s, err) < 0) {
        free(ta);
        return -1;
    }
    ta->strategy = choose(cfg, &ta->full, &ta->core);
    ta->extra = ta->strategy == TA_EXTRA ? ta->full.P - 1 : -1;
    ta->nparts = torus_ports(&ta->core, cfg->multiport);
    for (int k = 0; k < ta->nparts; k++)
        if (torus_bfly_init(&ta->bf[k], &ta->core, cfg->rule, k, cfg->bandwidth, err) < 0) {
            torus_allreduce_release(ta);
            return -1;
        }
    ta->members = (bfly_members){member_participant, member_rank, ta};
    ta->opts = (bfly_opts){.members = ta->strategy == TA_FULL ? NULL : &ta->members};
    chunk_map_plain(&ta->map, ta->core.P, 0, 0, 1);
    if (ta->extra >= 0)
        extra_groups(ta, ta->bf[0].nsteps);
    int64_t part_blocks = cfg->bandwidth ? ta->core.P + (ta->extra >= 0) : 1;
    conc_plan_init(&ta->plan, l, s->coll, s->P, 0, s->bytes, ta->nparts, part_blocks);
    *ctx = ta;
    return 0;
}

void torus_allreduce_release(void *ctx)
{
    torus_allreduce *ta = ctx;
    for (int k = 0; k < TORUS_MAX_PORTS; k++)
        torus_bfly_free(&ta->bf[k]);
    free(ta);
}

/* ---- shrink: fold the ranks outside the power-of-two core in and out -------------------- */

/* Coordinates in dimensions < k inside the core (the rank has not been folded yet). */
static int inside_before(const torus_allreduce *ta, int32_t r, int k)
{
    for (int j = 0; j < k; j++)
        if (torus_coord(&ta->full, r, j) >= ta->core.dims[j])
            return 0;
    return 1;
}

/* Fold step of dimension k: outside ranks (c >= d') hand their vector to c - e (in) or
 * get the result from it (out). */
static void fold_step(sched_builder *b, const torus_allreduce *ta, int32_t r, int k, int in)
{
    sb_step(b);
    if (!inside_before(ta, r, k))
        return;
    int32_t c = torus_coord(&ta->full, r, k), d = ta->core.dims[k];
    int32_t e = ta->full.dims[k] - d;
    blk_range whole = {0, b->layout->nblocks};
    if (c >= d) {
        int32_t q = torus_with_coord(&ta->full, r, k, c - e);
        if (in)
            sb_send(b, q, &whole, 1);
        else
            sb_recv(b, q, &whole, 1, 0);
    } else if (c >= d - e) {
        int32_t q = torus_with_coord(&ta->full, r, k, c + e);
        if (in) {
            sb_recv(b, q, &whole, 1, OPF_COMBINE);
            sb_reduce(b, ranges_bytes(b->layout, &whole, 1));
        } else {
            sb_send(b, q, &whole, 1);
        }
    }
}

static void fold_in(sched_builder *b, const torus_allreduce *ta, int32_t r)
{
    if (ta->strategy != TA_SHRINK)
        return;
    for (int k = 0; k < ta->full.ndims; k++)
        if (ta->full.dims[k] != ta->core.dims[k])
            fold_step(b, ta, r, k, 1);
}

static void fold_out(sched_builder *b, const torus_allreduce *ta, int32_t r)
{
    if (ta->strategy != TA_SHRINK)
        return;
    for (int k = ta->full.ndims - 1; k >= 0; k--)
        if (ta->full.dims[k] != ta->core.dims[k])
            fold_step(b, ta, r, k, 0);
}

/* ---- extra rank (odd ring) ------------------------------------------------------------- */

/* One exchange of part k (its own blocks: positions, then the extra rank's block) between
 * the extra rank X and group rank i. In the reduce-scatter X sends its contribution to
 * i's final block ("theirs") and combines i's contribution to X's own block; in the
 * allgather X sends its reduced block and gets i's. */
static void extra_exchange(sched_builder *b, const torus_allreduce *ta, int k, int32_t i,
                           int at_x, int rs)
{
    int64_t p = torus_bfly_position(&ta->bf[k], i);
    blk_range theirs = {p, p + 1}, own = {ta->core.P, ta->core.P + 1};
    const blk_range *x_out = rs ? &theirs : &own, *x_in = rs ? &own : &theirs;
    const blk_range *out = at_x ? x_out : x_in, *in = at_x ? x_in : x_out;
    int32_t peer = at_x ? i : ta->extra;
    sb_send(b, peer, out, 1);
    sb_recv(b, peer, in, 1, rs ? OPF_COMBINE : 0);
    if (rs)
        sb_reduce(b, ranges_bytes(b->layout, in, 1));
}

/* Reduce-scatter step s (rs) or the allgather step undoing it: X and its group exchange
 * part k. */
static void extra_ops(sched_builder *b, const torus_allreduce *ta, int k, int32_t r, int s,
                      int rs)
{
    int32_t lo = ta->extra_first[s], hi = ta->extra_first[s + 1];
    if (r == ta->extra)
        for (int32_t i = lo; i < hi; i++)
            extra_exchange(b, ta, k, i, 1, rs);
    else if (r >= lo && r < hi)
        extra_exchange(b, ta, k, r, 0, rs);
}

/* ---- the parts ---------------------------------------------------------------------------- */

/* Lane 0 of part k of rank r, in the part's own blocks: its butterfly. Lane 1 (an odd
 * ring only): the extra rank's exchanges, in the same steps as the butterfly's reduce-
 * scatter and allgather; they follow every part's butterfly ops in a step
 * (concurrent.h lanes). */
static void part_lane(const void *ctx, int k, int lane, int32_t r, sched_builder *b)
{
    const torus_allreduce *ta = ctx;
    const bfly_pattern *p = &ta->bf[k].pat;
    if (lane == 1) {
        for (int i = 0; i < p->nsteps; i++) {
            sb_step(b);
            extra_ops(b, ta, k, r, i, 1);
        }
        for (int j = 0; j < p->nsteps; j++) {
            sb_step(b);
            extra_ops(b, ta, k, r, p->nsteps - 1 - j, 0);
        }
    } else if (!ta->cfg.bandwidth) {
        bfly_whole_core_opts(b, p, &ta->map, r, &ta->opts);
    } else {
        bfly_rs_core_opts(b, p, &ta->map, r, &ta->opts);
        bfly_ag_core_opts(b, p, &ta->map, r, &ta->opts);
    }
}

void torus_allreduce_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const torus_allreduce *ta = ctx;
    fold_in(b, ta, r);
    conc_gen_lanes(b, &ta->plan, r, ta->extra >= 0 ? 2 : 1, part_lane, ta);
    fold_out(b, ta, r);
}
