/* ring.h - ring phases, shared by the ring algorithms and the compositions using them.
 *
 * Over relative ranks v = r - root (chunk_map m, no folding): at step k rank v sends to
 * v+1 and receives from v-1.
 *   reduce-scatter: send chunk v-k-1, receive and combine chunk v-k-2; v ends with chunk v
 *   allgather:      send chunk v-k, receive chunk v-k-1; starts from chunk v
 * Each phase is P-1 steps.
 */
#ifndef COLLSIM_RING_H
#define COLLSIM_RING_H

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"

void ring_reduce_scatter_phase(sched_builder *b, const chunk_map *m, int32_t r);
void ring_allgather_phase(sched_builder *b, const chunk_map *m, int32_t r);

#endif
