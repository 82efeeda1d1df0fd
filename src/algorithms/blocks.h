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
#include "common/util.h"

typedef struct range_list {
    blk_range *r;
    size_t n, cap;
} range_list;

static inline void rl_clear(range_list *l) { l->n = 0; }
void rl_free(range_list *l);
/* Makes room for one more range (the slow path of rl_push). */
void rl_grow(range_list *l);
/* Appends [lo, hi) (ignored when empty), merging with the last range when adjacent.
 * Inline: generators call it for every op they build. */
CS_HOT_INLINE void rl_push(range_list *l, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return;
    if (l->n > 0 && l->r[l->n - 1].hi == lo) {
        l->r[l->n - 1].hi = hi;
        return;
    }
    if (l->n == l->cap)
        rl_grow(l);
    l->r[l->n].lo = lo;
    l->r[l->n].hi = hi;
    l->n++;
}
/* Appends `len` consecutive indices starting at `start`, modulo `mod` (1 or 2 ranges),
 * each index scaled to [i*unit, (i+1)*unit). Inline, like chunk_map_push below. */
CS_HOT_INLINE void rl_push_circular(range_list *l, int64_t start, int64_t len, int64_t mod,
                                    int64_t unit)
{
    if (len <= 0)
        return;
    if (len > mod)
        len = mod;
    start = mod_i64(start, mod);
    int64_t first = start + len <= mod ? len : mod - start;
    rl_push(l, start * unit, (start + first) * unit);
    if (first < len)
        rl_push(l, 0, (len - first) * unit);
}
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
static inline int32_t chunk_map_first(const chunk_map *m, int32_t v)
{
    return v < m->rem ? 2 * v : v + m->rem;
}
/* Appends the blocks of participants [a, b) (b - a <= n; wraps modulo n). Inline: the
 * ring generators call it twice per step, 8.6 * 10^9 times for a ring allgather at
 * P = 65,536. */
CS_HOT_INLINE void chunk_map_push_span(const chunk_map *m, range_list *out, int32_t a,
                                       int32_t b) /* 0 <= a < b <= n */
{
    int32_t lo = chunk_map_first(m, a), hi = chunk_map_first(m, b);
    rl_push_circular(out, (int64_t)lo + m->rot, hi - lo, m->P, m->unit);
}

/* The blocks of one participant v (0 <= v < n) as sorted ranges in out[0..1]: one range,
 * or two when they wrap past the last block. Returns how many. chunk_map_push without a
 * range list, for generators naming one chunk per message (the rings). */
CS_HOT_INLINE uint32_t chunk_map_ranges(const chunk_map *m, int32_t v, blk_range out[2])
{
    if (m->rem == 0) { /* no folding: participant v is relative rank v, one rank's blocks */
        int64_t start = mod_i64((int64_t)v + m->rot, m->P);
        out[0] = (blk_range){start * m->unit, (start + 1) * m->unit};
        return 1;
    }
    int32_t first = chunk_map_first(m, v);
    int64_t len = chunk_map_first(m, v + 1) - first;
    int64_t start = mod_i64((int64_t)first + m->rot, m->P);
    if (start + len <= m->P) {
        out[0] = (blk_range){start * m->unit, (start + len) * m->unit};
        return 1;
    }
    out[0] = (blk_range){0, (start + len - m->P) * m->unit};
    out[1] = (blk_range){start * m->unit, (int64_t)m->P * m->unit};
    return 2;
}

CS_HOT_INLINE void chunk_map_push(const chunk_map *m, range_list *out, int32_t a, int32_t b)
{
    int32_t n = chunk_map_participants(m);
    if (b <= a)
        return;
    if (b <= n) {
        chunk_map_push_span(m, out, a, b);
    } else { /* wraps around the participant ring */
        chunk_map_push_span(m, out, a, n);
        chunk_map_push_span(m, out, 0, b - n);
    }
}

#endif
