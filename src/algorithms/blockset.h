/* blockset.h - a set of blocks as a bitmap: what a rank holds, for the stream verifier.
 *
 * The stream verifier tracks, for non-reductions, which blocks the rank it is generating
 * holds: "does it hold the blocks it sends?" for every send, "it now holds these" for
 * every receive. An interval map (imap.h) answers in O(log intervals) with a binary
 * search; a bitmap answers a one-block message with one load, which matters when those
 * questions are asked 4.3 * 10^9 times (ring allgather, P = 65,536). A bitmap costs
 * nblocks / 8 bytes (plus half that for the list of words in use, so that emptying it for
 * the next rank touches only those words: an alltoall rank uses one word per column
 * block, P of the P^2 / 64). The verifier uses it for layouts of at most
 * BLOCKSET_MAX_BLOCKS blocks, the imap above that.
 */
#ifndef COLLSIM_BLOCKSET_H
#define COLLSIM_BLOCKSET_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/schedule.h"
#include "common/util.h"

/* 2^26 blocks (alltoall up to P = 8192): 12 MiB per verifier thread. */
#define BLOCKSET_MAX_BLOCKS ((int64_t)1 << 26)

typedef struct blockset {
    uint64_t *bits; /* block b is bit b % 64 of word b / 64 */
    size_t nwords;
    uint32_t *used; /* the indices of the non-zero words */
    size_t nused;
} blockset;

/* An empty set for blocks 0..nblocks-1 (nblocks <= BLOCKSET_MAX_BLOCKS). */
void blockset_init(blockset *s, int64_t nblocks);
void blockset_free(blockset *s);
/* Empties the set. */
void blockset_clear(blockset *s);

/* Sets the bits of mask m in word w, noting the word as used when it was empty. */
static inline void blockset_or(blockset *s, size_t w, uint64_t m)
{
    uint64_t old = s->bits[w];
    if (old == 0)
        s->used[s->nused++] = (uint32_t)w;
    s->bits[w] = old | m;
}

/* Mask of bits first..last of one word, 0 <= first <= last <= 63. */
static inline uint64_t blockset_mask(unsigned first, unsigned last)
{
    return (~(uint64_t)0 << first) & (~(uint64_t)0 >> (63 - last));
}

/* Adds blocks [lo, hi) (inside 0..nblocks-1); inline when they lie in one word. */
void blockset_add_slow(blockset *s, int64_t lo, int64_t hi);
CS_HOT_INLINE void blockset_add(blockset *s, int64_t lo, int64_t hi)
{
    size_t w0 = (size_t)lo >> 6;
    if (hi > lo && w0 == (size_t)(hi - 1) >> 6)
        blockset_or(s, w0, blockset_mask((unsigned)lo & 63, (unsigned)(hi - 1) & 63));
    else
        blockset_add_slow(s, lo, hi);
}

/* The first block of [lo, hi) not in the set, or -1 when the set holds them all. */
int64_t blockset_first_missing_slow(const blockset *s, int64_t lo, int64_t hi);
CS_HOT_INLINE int64_t blockset_first_missing(const blockset *s, int64_t lo, int64_t hi)
{
    size_t w0 = (size_t)lo >> 6;
    if (hi > lo && w0 == (size_t)(hi - 1) >> 6) { /* one word: the usual case */
        uint64_t m = blockset_mask((unsigned)lo & 63, (unsigned)(hi - 1) & 63);
        if ((s->bits[w0] & m) == m)
            return -1;
    }
    return blockset_first_missing_slow(s, lo, hi);
}

#endif
