/* butterfly.h - one engine for butterfly collectives: recursive doubling and halving,
 * Bine butterflies, Swing, ... differ only in their peer function and block rule.
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
 */
#ifndef COLLSIM_BUTTERFLY_H
#define COLLSIM_BUTTERFLY_H

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"

typedef struct bfly_pattern {
    int nsteps; /* log2 of the participants */
    int32_t (*peer)(const void *ctx, int32_t v, int step);
    /* appends the participant ranges [a, b) whose chunks v sends at reduce-scatter step */
    void (*rs_send)(const void *ctx, int32_t v, int step, range_list *out);
    const void *ctx;
} bfly_pattern;

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

/* The cores: nsteps steps for every rank (empty for folded-out ranks). */
void bfly_whole_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);
void bfly_rs_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);
void bfly_ag_core(sched_builder *b, const bfly_pattern *p, const chunk_map *m, int32_t r);

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

#endif
