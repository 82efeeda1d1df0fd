/* bfly_strategy.h - how a butterfly moves non-contiguous data: options for the
 * reduce-scatter and allgather cores of the butterfly engine (butterfly.h), usable by
 * any bfly_pattern.
 *
 * A butterfly whose rs_send sets are not contiguous (recursive doubling, Bine's
 * distance-doubling reduce-scatter, Swing, ...) can move its data in several ways
 * (Bine paper, Sec. 4.3.1 and App. B):
 *
 *   one message    each step sends one message naming every block it carries (what the
 *                  plain cores do: a derived datatype or a packed buffer)
 *   split runs     one message per contiguous run of blocks ("block-by-block"; also
 *                  "two transmissions", whose circular ranges are at most two runs)
 *   permute        permute the buffer before the reduce-scatter (after the allgather) so
 *                  that the sets become contiguous: a `copy` step of the whole vector,
 *                  then one message per step (bfly_copy_step)
 *   remap / send   use a pattern whose rs_send names *positions* instead of chunks and
 *                  send contiguous position ranges as if the buffer were permuted; the
 *                  participant v then ends a reduce-scatter holding chunk pos(v), and one
 *                  exchange fixes it (bfly_remap_after_rs); an allgather starts with the
 *                  inverse exchange (bfly_remap_before_ag); reduce-scatter + allgather
 *                  needs neither
 *
 * The cores here also skip empty messages (a pruned exchange of a non-power-of-two
 * butterfly sends nothing) and can cut each exchange into sub-steps (segmentation).
 * Every participant emits the same number of steps (folded-out ranks emit empty ones),
 * so the schedule stays step-aligned.
 */
#ifndef COLLSIM_BFLY_STRATEGY_H
#define COLLSIM_BFLY_STRATEGY_H

#include "algorithms/butterfly.h"

typedef struct bfly_opts {
    int split_runs;       /* one message per contiguous run of blocks */
    const int *segments;  /* per core step: sub-steps to cut the exchange into (NULL: 1);
                             both sides cut their blocks into that many equal-count parts */
} bfly_opts;

/* The cores of butterfly.h with options (o may be NULL: one message per step). */
void bfly_rs_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o);
void bfly_ag_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o);

/* Where a remapped butterfly leaves the chunks: after its reduce-scatter participant v
 * holds chunk pos(v); pos_inv is the inverse permutation. */
typedef struct bfly_remap {
    int32_t (*pos)(const void *ctx, int32_t v);
    int32_t (*pos_inv)(const void *ctx, int32_t x);
    const void *ctx;
} bfly_remap;

/* One step: v sends chunk pos(v) to participant pos(v) and receives its own chunk from
 * pos_inv(v) (participants with pos(v) = v stay idle). */
void bfly_remap_after_rs(sched_builder *b, const bfly_remap *rm, const chunk_map *m, int32_t r);
/* One step: v receives chunk pos(v) from participant pos(v) and sends its own chunk to
 * pos_inv(v), so that a remapped allgather can start. */
void bfly_remap_before_ag(sched_builder *b, const bfly_remap *rm, const chunk_map *m, int32_t r);

/* One step holding only a local copy of `bytes` (a buffer permutation), for the
 * participants of m (folded-out ranks get an empty step). */
void bfly_copy_step(sched_builder *b, const chunk_map *m, int32_t r, int64_t bytes);

#endif
