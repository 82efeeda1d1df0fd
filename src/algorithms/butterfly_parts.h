/* butterfly_parts.h - the butterfly engine (butterfly.h) running several butterflies at
 * once, one per part of the vector: multiport collectives.
 *
 * A multiport algorithm (Swing, mirrored recursive doubling on a torus) cuts the vector
 * into parts and runs one butterfly per part, all in lockstep: step i of the schedule
 * holds step i of every part, so each rank sends and receives one message per part per
 * step, each part on its own port. Each part has its own bfly_pattern (peer function and
 * block rule) with the same number of steps.
 *
 * Positions. A part's pattern numbers the chunks of the part 0..npos-1 ("positions";
 * rs_send returns position ranges); position x is the blocks
 * [block_base + x*unit, block_base + (x+1)*unit). Positions need not be the participants'
 * own indices: a pattern may remap them (Swing's contiguous remapping) so that every block
 * set it sends is one contiguous range. For an allreduce that is only a renaming of the
 * vector's pieces; a reduce-scatter would end with participant v holding the position the
 * pattern assigns to v.
 *
 * Members. The participants 0..n-1 of the butterflies are ranks given by a bfly_members
 * (NULL: participant v is rank v, every rank takes part). A rank that is not a member
 * emits nothing; its caller folds its data in before and out after the butterflies.
 *
 * The functions below write the operations of one step into the builder's current step
 * (they do not open it), so that a caller can add other operations to the same step.
 */
#ifndef COLLSIM_BUTTERFLY_PARTS_H
#define COLLSIM_BUTTERFLY_PARTS_H

#include "algorithms/butterfly.h"

typedef struct bfly_part {
    const bfly_pattern *pat;
    int64_t block_base; /* first block of the part */
    int64_t unit;       /* blocks per position */
    int64_t npos;       /* positions: the part is npos * unit blocks */
} bfly_part;

typedef struct bfly_parts {
    const bfly_part *part;
    int nparts;
    const bfly_members *members; /* NULL: every rank, participant = rank */
} bfly_parts;

/* Latency-optimal step i: each part's whole blocks to and from its peer, combined. */
void bfly_parts_whole_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int i);
/* Reduce-scatter step i: each part sends rs_send(v, i), receives and combines
 * rs_send(peer, i). */
void bfly_parts_rs_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int i);
/* Allgather step j (it undoes reduce-scatter step i = nsteps-1-j): each part sends what v
 * kept at step i, rs_send(peer, i), and receives rs_send(v, i). */
void bfly_parts_ag_ops(sched_builder *b, const bfly_parts *ps, int32_t r, int j);

#endif
