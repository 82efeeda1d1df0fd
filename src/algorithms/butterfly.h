/* butterfly.h - one engine for butterfly collectives: recursive doubling and halving,
 * Bine butterflies, Swing, torus products ... differ only in their peer function and
 * block rule.
 *
 * A butterfly over n = 2^s participants (see chunk_map in blocks.h) is a peer function:
 * at step i participant v exchanges with peer(v, i), and peer(peer(v, i), i) = v. For the
 * bandwidth-optimal phases it also gives the block rule rs_send(v, i): the participants
 * whose chunks v hands to its peer at step i of a reduce-scatter (the chunks whose final
 * owner the peer's side of the butterfly reaches in the remaining steps). Then:
 *
 *   whole vector   step i: exchange the whole vector with peer(v, i) and combine it
 *                  (latency-optimal allreduce)
 *   reduce-scatter step i: send rs_send(v, i), receive and combine rs_send(peer, i); v
 *                  ends with its own chunk fully reduced
 *   allgather      the reduce-scatter backwards: at step j (i = s-1-j) v sends what it
 *                  kept at step i, rs_send(peer, i), and receives rs_send(v, i)
 *
 * When P is not a power of two the chunk map folds (MPICH): before the core, each odd
 * relative rank 2v+1 < 2*rem hands its data to 2v; after it, 2v hands back the result.
 * Folded-out ranks emit empty steps during the core so that the schedule stays aligned.
 * (A pattern may also cover an even n that is no power of two, e.g. Bine's App. C pruning
 * or Swing's "last step" rule; its rs_send sets may then be empty: nothing is sent.)
 *
 * Data movement (bfly_opts; Bine paper Sec. 4.3.1 and App. B). A butterfly whose rs_send
 * sets are not contiguous (recursive doubling, Bine's distance-doubling reduce-scatter,
 * Swing on shapes that are not powers of two, ...) can move its data in several ways:
 *
 *   one message    each step sends one message naming every block it carries (the
 *                  default: a derived datatype or a packed buffer)
 *   split runs     one message per contiguous run of blocks ("block-by-block"; also
 *                  "two transmissions", whose circular ranges are at most two runs)
 *   permute        permute the buffer before the reduce-scatter (after the allgather) so
 *                  that the sets become contiguous: a `copy` step of the whole vector,
 *                  then one message per step (bfly_copy_step)
 *   positions      use a pattern whose rs_send names *positions* instead of chunks and
 *                  send contiguous position ranges as if the buffer were permuted: Bine's
 *                  nu-positions, or the contiguous positions of any true butterfly
 *                  (bfly_positions below, Swing's "contiguous remapping"). Participant v
 *                  then ends a reduce-scatter holding chunk pos(v), and one exchange
 *                  fixes it (bfly_remap_after_rs); an allgather starts with the inverse
 *                  exchange (bfly_remap_before_ag); reduce-scatter + allgather needs
 *                  neither
 *
 * The cores can also cut each exchange into sub-steps (segmentation), and take their
 * participants from a bfly_members instead of the chunk map (a butterfly on a subset of
 * the ranks, e.g. the power-of-two sub-torus of a torus whose other ranks fold in).
 * Every participant emits the same number of steps (non-participants emit empty ones).
 */
#ifndef COLLSIM_BUTTERFLY_H
#define COLLSIM_BUTTERFLY_H

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"

typedef struct bfly_pattern {
    int nsteps; /* log2 of the participants (ceil for the patterns of other even n) */
    int32_t (*peer)(const void *ctx, int32_t v, int step);
    /* appends the participant ranges [a, b) whose chunks v sends at reduce-scatter step */
    void (*rs_send)(const void *ctx, int32_t v, int step, range_list *out);
    const void *ctx;
    /* optional (NULL: the complement of v's rs_send sets of those steps): appends, sorted,
     * the participant ranges whose chunks v still holds after `steps` reduce-scatter
     * steps. The torus product asks it of its factors; a pattern that can say it directly
     * saves that work. */
    void (*rs_kept)(const void *ctx, int32_t v, int steps, range_list *out);
} bfly_pattern;

/* ---- folds --------------------------------------------------------------------------- */

/* What crosses a fold before the core (odd rank to its even neighbour). */
typedef enum {
    FOLD_IN_REDUCE, /* the whole vector, combined (reductions) */
    FOLD_IN_OWN,    /* the odd rank's own chunk (allgather) */
} fold_in_kind;

/* What crosses a fold after the core (even rank back to its odd neighbour). */
typedef enum {
    FOLD_OUT_WHOLE,     /* the whole vector (allreduce) */
    FOLD_OUT_OWN,       /* the odd rank's own chunk (reduce-scatter) */
    FOLD_OUT_ALL_CHUNKS /* every chunk but the odd rank's own (allgather) */
} fold_out_kind;

/* Each emits one step for every rank when the map folds, nothing otherwise. */
void bfly_fold_in(sched_builder *b, const chunk_map *m, int32_t r, fold_in_kind kind);
void bfly_fold_out(sched_builder *b, const chunk_map *m, int32_t r, fold_out_kind kind);

/* ---- cores ------------------------------------------------------------------------------ */

/* The participants of a butterfly on a subset of the ranks: participant v <-> rank. */
typedef struct bfly_members {
    int32_t (*participant)(const void *ctx, int32_t rank); /* -1: not a participant */
    int32_t (*rank)(const void *ctx, int32_t v);
    const void *ctx;
} bfly_members;

typedef struct bfly_opts {
    int split_runs;      /* one message per contiguous run of blocks */
    const int *segments; /* per core step: sub-steps to cut the exchange into (NULL: 1);
                            both sides cut their blocks into that many equal-count parts */
    /* NULL: the chunk map's participants. Otherwise these replace the chunk map's
     * participant <-> rank mapping (the chunk map still maps chunks to blocks; the folds
     * above do not use members). */
    const bfly_members *members;
} bfly_opts;

/* nsteps steps for every rank (empty for non-participants); o may be NULL (one message
 * per step, the chunk map's participants). Empty block sets send nothing. */
/* The blocks of the chunks (or positions) p->rs_send(who, i) names, sorted (out; parts
 * is scratch). */
void bfly_rule_blocks(const bfly_pattern *p, const chunk_map *m, int32_t who, int i,
                      range_list *parts, range_list *out);
void bfly_whole_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);
void bfly_rs_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);
void bfly_ag_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);
void bfly_whole_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                          const bfly_opts *o);
void bfly_rs_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o);
void bfly_ag_core_opts(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                       const bfly_opts *o);

/* One step of a core, written into the builder's current step (they do not open it), so
 * that a caller can add other operations to the same step: whole-vector step i,
 * reduce-scatter step i, allgather step j (undoing reduce-scatter step nsteps-1-j). Nothing
 * for non-participants; o->segments is ignored. */
void bfly_whole_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r,
                    int i, const bfly_opts *o);
void bfly_rs_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r, int i,
                 const bfly_opts *o);
void bfly_ag_ops(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r, int j,
                 const bfly_opts *o);

/* ---- positions --------------------------------------------------------------------------- */

/* Where a butterfly naming positions leaves the chunks: after its reduce-scatter
 * participant v holds chunk pos(v); pos_inv is the inverse permutation. */
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

/* Contiguous positions of a true butterfly: n = 2^nsteps participants and every step
 * splits each group of participants that still talk to each other in two halves. Let
 * C_s(x) be the participants x talks to from step s on; bit nsteps-1-s of position(x)
 * says which half of C_s(x) is x's (0: the half holding the smaller participant). Then
 * every reduce-scatter set is one aligned range of 2^(nsteps-1-i) positions, found in
 * O(1). Computed in O(n nsteps) time and O(n) memory from the peer function alone, and
 * checked (each step must flip exactly bit nsteps-1-s); returns the table (free() it),
 * or NULL when p is no true butterfly over n. */
int32_t *bfly_positions(const bfly_pattern *p, int32_t n);

/* The pattern `base` with that block rule: rs_send(v, i) = the aligned range of
 * 2^(nsteps-1-i) positions around pos[peer(v, i)]. c must outlive *out. */
typedef struct bfly_contiguous {
    const bfly_pattern *base;
    const int32_t *pos;
} bfly_contiguous;
void bfly_contiguous_pattern(bfly_pattern *out, bfly_contiguous *c, const bfly_pattern *base,
                             const int32_t *pos);

/* ---- recursive doubling / halving -------------------------------------------------------- */

/* Recursive doubling / halving patterns over n = 2^s participants:
 *   doubling: peer(v, i) = v xor 2^i; rs_send = the chunks agreeing with v on bits < i and
 *             with the peer on bit i (strided: many small ranges)
 *   halving:  peer(v, i) = v xor 2^(s-1-i); rs_send = the peer's aligned half of v's current
 *             window (one contiguous range); its allgather is the classic recursive
 *             doubling allgather */
typedef struct rd_pattern_ctx {
    int32_t n;
    int s;
} rd_pattern_ctx;
void rd_doubling_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n);
void rd_halving_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n);
/* Recursive doubling with vector halving (Rabenseifner nearest-first, as Open MPI's
 * redscat_allgather, libbine and MPICH's reduce_scatter_allgather allreduce): peer(v, i) =
 * v xor 2^i; v keeps the lower half of its current window when v < peer, the upper half
 * otherwise, so rs_send is one contiguous range: the aligned 2^(s-1-i) positions around
 * bitrev_s(peer). v ends the reduce-scatter with position bitrev_s(v) (allreduce only). */
void rd_nearest_pattern(bfly_pattern *p, rd_pattern_ctx *ctx, int32_t n);

#endif
