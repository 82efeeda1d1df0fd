/* bine_butterfly.c - Bine butterflies: reduce-scatter, allgather, allreduce (Bine paper,
 * Sec. 3.1, 4.3, 4.4, App. B, App. C).
 *
 *   reduce_scatter bine      distance-doubling Bine butterfly, vector halving
 *   allgather bine           distance-halving Bine butterfly, vector doubling
 *   allreduce bine_latency   whole vector every step, distance-doubling (small vectors)
 *   allreduce bine_bandwidth reduce-scatter + allgather (large vectors)
 *   allreduce bine_segmented bine_bandwidth with `send` data and every reduce-scatter
 *                            exchange cut into segments of at most `segment` bytes
 *
 * The blocks a distance-doubling step hands over are not contiguous; `strategy` says how
 * they travel (the data-movement options of butterfly.h):
 *
 *   block    one message per contiguous run of blocks; any even P directly (App. C:
 *            the butterfly is the superposition of pruned trees), odd P folds
 *   permute  one message per step after a local permutation of the whole vector (a copy
 *            step before the reduce-scatter / after the allgather)
 *   send     contiguous nu-position ranges, then one exchange putting each block at its
 *            owner (before the allgather); reduce-scatter + allgather needs none
 *   two      a distance-halving reduce-scatter (distance-doubling allgather) whose sets
 *            are circular ranges: at most two messages per step, more global traffic
 *
 * permute, send and two need a power of two: other P fold (butterfly.h), as does
 * bine_latency (Open MPI-style fold, as the reference code).
 */
#include <stdlib.h>

#include "algorithms/bine_patterns.h"
#include "algorithms/families.h"
#include "common/util.h"

enum { STRAT_BLOCK, STRAT_PERMUTE, STRAT_SEND, STRAT_TWO };

#define STRATEGY_CHOICES "block|permute|send|two"
#define STRATEGY_DOC "non-contiguous data: block-by-block, permute, send, two transmissions"

static const alg_param_desc block_default_params[] = {
    {"strategy", PARAM_CHOICE, "block", STRATEGY_CHOICES, STRATEGY_DOC},
    {NULL, 0, NULL, NULL, NULL},
};

static const alg_param_desc send_default_params[] = {
    {"strategy", PARAM_CHOICE, "send", STRATEGY_CHOICES, STRATEGY_DOC},
    {NULL, 0, NULL, NULL, NULL},
};

static const alg_param_desc segmented_params[] = {
    {"segment", PARAM_SIZE, "64KiB", NULL, "largest reduce-scatter message (bytes)"},
    {NULL, 0, NULL, NULL, NULL},
};

typedef struct bine_bfly_ctx {
    int strategy;
    chunk_map map;
    bine_bfly bf;
    bfly_pattern pat;
    bfly_remap rm;
    bfly_opts rs_opts, ag_opts; /* the same but for segments (reduce-scatter only) */
    int *segments;        /* bine_segmented: sub-steps per reduce-scatter step */
    int64_t vector_bytes; /* what a permutation copies */
} bine_bfly_ctx;

static void release(void *ctx)
{
    bine_bfly_ctx *c = ctx;
    bine_bfly_free(&c->bf);
    free(c->segments);
    free(c);
}

/* Chunk map and pattern for `strategy`; `unit` blocks per rank. */
static bine_bfly_ctx *new_ctx(const coll_spec *s, const sched_layout *l, int strategy,
                              int64_t unit)
{
    bine_bfly_ctx *c = xcalloc(1, sizeof *c);
    c->strategy = strategy;
    c->vector_bytes = layout_range_bytes(l, 0, l->nblocks);
    if (strategy == STRAT_BLOCK && s->P % 2 == 0)
        chunk_map_plain(&c->map, s->P, 0, 0, unit);
    else
        chunk_map_folded(&c->map, s->P, 0, 0, unit);
    int32_t n = chunk_map_participants(&c->map);
    switch (strategy) {
    case STRAT_SEND: bine_remap_bfly(&c->pat, &c->rm, &c->bf, n); break;
    case STRAT_TWO: bine_halving_bfly(&c->pat, &c->bf, n); break;
    default: bine_natural_bfly(&c->pat, &c->bf, n); break;
    }
    c->rs_opts.split_runs = strategy == STRAT_BLOCK || strategy == STRAT_TWO;
    c->ag_opts = c->rs_opts;
    return c;
}

static int prepare_strategy(const coll_spec *s, sched_layout *l, void **ctx,
                            const alg_param_desc *params, int per_rank_pieces, cs_error *err)
{
    int strategy;
    if (alg_param_choice(params, s, "strategy", &strategy, err) < 0)
        return -1;
    if (per_rank_pieces)
        layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    *ctx = new_ctx(s, l, strategy, per_rank_pieces ? 1 : l->blocks_per_rank);
    return 0;
}

static int prepare_partitioned(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_strategy(s, l, ctx, block_default_params, 0, err);
}

static int prepare_bandwidth(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare_strategy(s, l, ctx, send_default_params, 1, err);
}

static int prepare_latency(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    /* the folded map and the distance-doubling peers; no block rule is used */
    *ctx = new_ctx(s, l, STRAT_PERMUTE, 1);
    return 0;
}

/* Pieces of at most `segment` bytes; then, per reduce-scatter step, as many sub-steps as
 * the largest message of that step needs (the same count on every rank: step-aligned). */
static int prepare_segmented(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int64_t seg;
    if (alg_param_size(segmented_params, s, "segment", &seg, err) < 0)
        return -1;
    if (seg < 1)
        return cs_fail(err, "parameter segment must be at least 1 byte");
    int64_t chunk = (s->bytes + s->P - 1) / s->P;
    int64_t unit = chunk > seg ? (chunk + seg - 1) / seg : 1;
    if (unit > ((int64_t)1 << 24) / s->P)
        unit = ((int64_t)1 << 24) / s->P > 0 ? ((int64_t)1 << 24) / s->P : 1;
    layout_init(l, s->coll, s->P, s->root, s->bytes, s->P * unit);
    bine_bfly_ctx *c = new_ctx(s, l, STRAT_SEND, unit);
    int steps = c->pat.nsteps;
    c->segments = xcalloc((size_t)(steps > 0 ? steps : 1), sizeof *c->segments);
    int64_t max_block = l->row_q + (l->row_rem > 0);
    for (int i = 0; i < steps; i++) {
        int64_t blocks = ((int64_t)1 << (steps - 1 - i)) * unit * (c->map.rem ? 2 : 1);
        int64_t parts = (blocks * max_block + seg - 1) / seg;
        c->segments[i] = (int)(parts < 1 ? 1 : parts < blocks ? parts : blocks);
    }
    c->rs_opts.segments = c->segments;
    *ctx = c;
    return 0;
}

static void reduce_scatter_core(const bine_bfly_ctx *c, int32_t r, sched_builder *b)
{
    if (c->strategy == STRAT_PERMUTE)
        bfly_copy_step(b, &c->map, r, c->vector_bytes);
    bfly_rs_core_opts(b, &c->pat, &c->map, r, &c->rs_opts);
}

static void allgather_core(const bine_bfly_ctx *c, int32_t r, sched_builder *b)
{
    bfly_ag_core_opts(b, &c->pat, &c->map, r, &c->ag_opts);
    if (c->strategy == STRAT_PERMUTE)
        bfly_copy_step(b, &c->map, r, c->vector_bytes);
}

static void gen_reduce_scatter(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_bfly_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    reduce_scatter_core(c, r, b);
    if (c->strategy == STRAT_SEND)
        bfly_remap_after_rs(b, &c->rm, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_OWN);
}

static void gen_allgather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const bine_bfly_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_OWN);
    if (c->strategy == STRAT_SEND)
        bfly_remap_before_ag(b, &c->rm, &c->map, r);
    allgather_core(c, r, b);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_ALL_CHUNKS);
}

static void gen_allreduce_bandwidth(const coll_spec *s, const void *ctx, int32_t r,
                                    sched_builder *b)
{
    (void)s;
    const bine_bfly_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    reduce_scatter_core(c, r, b);
    allgather_core(c, r, b);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

static void gen_allreduce_latency(const coll_spec *s, const void *ctx, int32_t r,
                                  sched_builder *b)
{
    (void)s;
    const bine_bfly_ctx *c = ctx;
    bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
    bfly_whole_core(b, &c->pat, &c->map, r);
    bfly_fold_out(b, &c->map, r, FOLD_OUT_WHOLE);
}

#define FOLDS "any P >= 2 (folds to a power of two)"
#define BLOCK_ANY "any P >= 2 (block: even P directly, App. C; otherwise folds)"

const alg_desc alg_family_bine_butterfly[] = {
    {COLL_REDUCE_SCATTER, "bine", "distance-doubling Bine butterfly, vector halving", BLOCK_ANY,
     block_default_params, prepare_partitioned, gen_reduce_scatter, release, 0},
    {COLL_ALLGATHER, "bine", "distance-halving Bine butterfly, vector doubling", BLOCK_ANY,
     block_default_params, prepare_partitioned, gen_allgather, release, 0},
    {COLL_ALLREDUCE, "bine_latency",
     "distance-doubling Bine butterfly, whole vector per step (small vectors)", FOLDS, NULL,
     prepare_latency, gen_allreduce_latency, release, 0},
    {COLL_ALLREDUCE, "bine_bandwidth",
     "Bine reduce-scatter (distance-doubling) + allgather (distance-halving)", BLOCK_ANY,
     send_default_params, prepare_bandwidth, gen_allreduce_bandwidth, release, 0},
    {COLL_ALLREDUCE, "bine_segmented",
     "bine_bandwidth (send), reduce-scatter messages cut into segments", FOLDS, segmented_params,
     prepare_segmented, gen_allreduce_bandwidth, release, 0},
    {0},
};
