/* imap.h - interval maps: what a rank holds, block range by block range.
 *
 * The verifier's symbolic state of a rank is a sorted list of disjoint intervals of
 * blocks, each with a value: for reductions, how many contributions the partial result
 * holds and the sum of their keys (a 64-bit random key per contributing rank; equal sums
 * mean equal sets with overwhelming probability); for other collectives just "present".
 * Adjacent intervals with equal values are merged, so butterflies and rings keep a
 * handful of intervals per rank even at 10^5 ranks.
 */
#ifndef COLLSIM_IMAP_H
#define COLLSIM_IMAP_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/schedule.h"

typedef struct ival {
    int64_t lo, hi;
    uint64_t hash;  /* sum of contributor keys (reductions), 0 otherwise */
    uint64_t count; /* number of contributions (reductions), 1 otherwise */
} ival;

/* The intervals are kept in order in pages of at most IMAP_PAGE_MAX entries, so that an
 * insertion in a map of thousands of intervals (ring reduce-scatter, alltoall) moves at
 * most a page, not the whole map. */
#define IMAP_PAGE_MAX 64

typedef struct imap_page {
    ival *v;
    uint32_t n, cap;
} imap_page;

typedef struct imap {
    imap_page *pg;
    size_t npg, cap;
} imap;

typedef struct ival_buf {
    ival *v;
    size_t n, cap;
} ival_buf;

void imap_free(imap *m);
void ival_buf_free(ival_buf *b);
/* Number of intervals. */
size_t imap_count(const imap *m);

/* Sets m to the given sorted ranges, all with the same value. */
void imap_set(imap *m, const blk_range *r, size_t n, uint64_t count, uint64_t hash);

/* Appends to out the pieces of m covering the sorted ranges r[0..n). Returns -1 when
 * everything is covered, else the first block not held (out is then incomplete). */
int64_t imap_extract(const imap *m, const blk_range *r, size_t n, ival_buf *out);

/* Returns -1 when m covers every block of the sorted ranges, else the first missing block. */
int64_t imap_first_missing(const imap *m, const blk_range *r, size_t n);

/* Applies sorted, disjoint pieces to m. Replace: the pieces overwrite. Combine: where m
 * already holds a value the counts and hashes add up; where it holds nothing the piece is
 * taken as is. `scratch` is reused between calls. With combine, returns the first block
 * whose count would exceed `limit` (a contribution reduced twice), or -1. */
int64_t imap_apply(imap *m, const ival *pieces, size_t n, int combine, uint64_t limit,
                   ival_buf *scratch);

/* Presence only (value count 1, hash 0): adds the sorted ranges. */
void imap_add_ranges(imap *m, const blk_range *r, size_t n, ival_buf *scratch);

#endif
