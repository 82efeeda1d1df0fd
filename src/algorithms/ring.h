/* ring.h - ring phases, shared by the ring algorithms and the compositions using them.
 *
 * Over relative ranks v = r - root (chunk_map m, no folding): at step k rank v sends to
 * v+1 and receives from v-1.
 *   reduce-scatter: send chunk v-k-1, receive and combine chunk v-k-2; v ends with chunk v
 *   allgather:      send chunk v-k, receive chunk v-k-1; starts from chunk v
 * Each phase is P-1 steps.
 *
 * Rings of any order and direction (ring_path), for algorithms that run several rings at
 * once (bucket, Hamiltonian rings): the same phases over the n positions of a ring, where
 * position x is rank rank_at(x); dir = +1 sends to the next position, -1 to the previous
 * one (then the chunk indices above run the other way: v+k+1, v+k+2, ...). Chunk x is
 * chunk x of `map` (chunk_map_push), moved up by block_base. The *_ops functions write
 * the operations of step k into the builder's current step without opening it, so that
 * the steps of several rings can share one schedule step.
 */
#ifndef COLLSIM_RING_H
#define COLLSIM_RING_H

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"

void ring_reduce_scatter_phase(sched_builder *b, const chunk_map *m, int32_t r);
void ring_allgather_phase(sched_builder *b, const chunk_map *m, int32_t r);

typedef struct ring_path {
    int32_t n;    /* positions */
    int32_t self; /* position of the rank whose schedule is being written */
    int dir;      /* +1 or -1 */
    int32_t (*rank_at)(const void *ctx, int32_t x);
    const void *ctx;
    const chunk_map *map; /* chunks 0..n-1 */
    int64_t block_base;
} ring_path;

/* Operations of step k (0 <= k < n-1) of a reduce-scatter / allgather on the ring. */
void ring_rs_ops(sched_builder *b, const ring_path *p, int64_t k);
void ring_ag_ops(sched_builder *b, const ring_path *p, int64_t k);

#endif
