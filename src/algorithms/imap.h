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

/* Returns -1 when m covers every block of the sorted ranges, else the first missing block.
 * (Inline fast path below.) */
static inline int64_t imap_first_missing(const imap *m, const blk_range *r, size_t n);
int64_t imap_first_missing_general(const imap *m, const blk_range *r, size_t n);

/* Applies sorted, disjoint pieces to m. Replace: the pieces overwrite. Combine: where m
 * already holds a value the counts and hashes add up; where it holds nothing the piece is
 * taken as is. `scratch` is reused between calls. With combine, returns the first block
 * whose count would exceed `limit` (a contribution reduced twice), or -1. */
int64_t imap_apply(imap *m, const ival *pieces, size_t n, int combine, uint64_t limit,
                   ival_buf *scratch);

/* Presence only (value count 1, hash 0): adds the sorted ranges. */
void imap_add_ranges(imap *m, const blk_range *r, size_t n, ival_buf *scratch);

/* ---- fast paths ----------------------------------------------------------------------
 * The stream verifier asks "does the rank hold these blocks?" for every send of every
 * rank (4.3 * 10^9 times for a ring allgather at P = 65,536). Most messages name one
 * range that lies inside one interval of the map: that case is answered inline. */

/* A position in the map: page p, entry i (p == npg: the end). */
typedef struct imap_pos {
    size_t p;
    uint32_t i;
} imap_pos;

/* The position of the first interval whose hi > block (the end if none): binary search
 * over the pages, then inside the page. */
static inline imap_pos imap_locate(const imap *m, int64_t block)
{
    size_t lo = 0, hi = m->npg;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const imap_page *pg = &m->pg[mid];
        if (pg->v[pg->n - 1].hi <= block)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == m->npg)
        return (imap_pos){m->npg, 0};
    const imap_page *pg = &m->pg[lo];
    uint32_t a = 0, b = pg->n;
    while (a < b) {
        uint32_t mid = (a + b) / 2;
        if (pg->v[mid].hi <= block)
            a = mid + 1;
        else
            b = mid;
    }
    return (imap_pos){lo, a};
}

/* The interval at a position, NULL at the end. */
static inline const ival *imap_at(const imap *m, imap_pos q)
{
    return q.p < m->npg ? &m->pg[q.p].v[q.i] : NULL;
}

/* Neighbouring positions (q must not be the first for imap_prev, nor the end for
 * imap_next). */
static inline imap_pos imap_next(const imap *m, imap_pos q)
{
    if (++q.i >= m->pg[q.p].n) {
        q.p++;
        q.i = 0;
    }
    return q;
}

static inline imap_pos imap_prev(const imap *m, imap_pos q)
{
    if (q.i > 0)
        return (imap_pos){q.p, q.i - 1};
    return (imap_pos){q.p - 1, m->pg[q.p - 1].n - 1};
}

static inline int64_t imap_first_missing(const imap *m, const blk_range *r, size_t n)
{
    if (n == 1) {
        const ival *e = imap_at(m, imap_locate(m, r->lo));
        if (e && e->lo <= r->lo && e->hi >= r->hi)
            return -1;
    }
    return imap_first_missing_general(m, r, n);
}

#endif
