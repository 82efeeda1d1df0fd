/* blocks.h - helpers for generators: growable lists of block ranges.
 *
 * Generators think in "chunks" (the part of the vector a rank ends with, or the part a
 * virtual rank owns) and in circular ranges relative to a root; these helpers turn
 * those into the block ranges a schedule op carries.
 */
#ifndef COLLSIM_BLOCKS_H
#define COLLSIM_BLOCKS_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/schedule.h"

typedef struct range_list {
    blk_range *r;
    size_t n, cap;
} range_list;

static inline void rl_clear(range_list *l) { l->n = 0; }
void rl_free(range_list *l);
/* Appends [lo, hi) (ignored when empty), merging with the last range when adjacent. */
void rl_push(range_list *l, int64_t lo, int64_t hi);
/* Appends `len` consecutive indices starting at `start`, modulo `mod` (1 or 2 ranges),
 * each index scaled to [i*unit, (i+1)*unit). */
void rl_push_circular(range_list *l, int64_t start, int64_t len, int64_t mod, int64_t unit);
/* Sorts by lo and merges adjacent ranges. */
void rl_normalize(range_list *l);

/* Chunk maps: how the participants of a tree or butterfly map to ranks and blocks.
 *
 * Participants are numbered 0..n-1 relative to a root (rotation `rot`). Folding (for
 * butterflies on a P that is not a power of two, as MPICH does) pairs the first 2*rem
 * relative ranks: relative rank 2v takes part as participant v and relative rank 2v+1
 * only hands its data to 2v before and gets the result after; participant v >= rem is
 * relative rank v + rem. Participant v's chunk is the data of the relative ranks
 * [first(v), first(v+1)), first(v) = v < rem ? 2v : v + rem; the data of relative rank i
 * is blocks ((i + rot) mod P) * unit .. + unit - 1 (rot = root for gather/scatter, whose
 * blocks belong to actual ranks; rot = 0 for the vector pieces of bcast/reduce phases). */
typedef struct chunk_map {
    int32_t P;    /* ranks */
    int32_t rem;  /* folded pairs (0: no folding) */
    int32_t root; /* relative rank 0 is actual rank `root` */
    int32_t rot;  /* block rotation (see above) */
    int64_t unit; /* blocks per rank */
} chunk_map;

/* No folding; participants are ranks relative to root. */
void chunk_map_plain(chunk_map *m, int32_t P, int32_t root, int32_t rot, int64_t unit);
/* Folding onto the largest power of two <= P. */
void chunk_map_folded(chunk_map *m, int32_t P, int32_t root, int32_t rot, int64_t unit);

static inline int32_t chunk_map_participants(const chunk_map *m) { return m->P - m->rem; }
/* Actual rank of participant v. */
int32_t chunk_map_rank(const chunk_map *m, int32_t v);
/* Participant of an actual rank, or -1 for a rank folded into its even neighbour. */
int32_t chunk_map_participant(const chunk_map *m, int32_t rank);
/* First relative rank whose data belongs to participant v (v == n gives P). */
int32_t chunk_map_first(const chunk_map *m, int32_t v);
/* Appends the blocks of participants [a, b) (b - a <= n; wraps modulo n). */
void chunk_map_push(const chunk_map *m, range_list *out, int32_t a, int32_t b);

#endif
