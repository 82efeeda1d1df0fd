/* imap.c - interval maps of block values, in pages (see imap.h). */
#include "algorithms/imap.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Pages are filled to this many entries when rebuilt, leaving room to grow in place. */
#define PAGE_FILL (IMAP_PAGE_MAX / 2)

typedef imap_pos pos;

void imap_free(imap *m)
{
    for (size_t p = 0; p < m->npg; p++)
        free(m->pg[p].v);
    free(m->pg);
    memset(m, 0, sizeof *m);
}

void ival_buf_free(ival_buf *b)
{
    free(b->v);
    b->v = NULL;
    b->n = b->cap = 0;
}

size_t imap_count(const imap *m)
{
    size_t n = 0;
    for (size_t p = 0; p < m->npg; p++)
        n += m->pg[p].n;
    return n;
}

/* Appends an interval to a flat buffer, merging with the last when adjacent and equal. */
static inline void emit(ival_buf *out, int64_t lo, int64_t hi, uint64_t count, uint64_t hash)
{
    if (hi <= lo)
        return;
    if (out->n > 0) {
        ival *last = &out->v[out->n - 1];
        if (last->hi == lo && last->count == count && last->hash == hash) {
            last->hi = hi;
            return;
        }
    }
    VEC_RESERVE(out->v, out->cap, out->n + 1);
    out->v[out->n++] = (ival){lo, hi, hash, count};
}

/* Replaces pages [p0, p1) by pages holding the flat intervals `v` (n entries). */
static void replace_pages(imap *m, size_t p0, size_t p1, const ival *v, size_t n)
{
    size_t need = (n + PAGE_FILL - 1) / PAGE_FILL;
    size_t have = p1 - p0;
    /* Keep the buffers of the old pages for reuse, free the surplus. */
    imap_page spare[8];
    size_t nspare = 0;
    for (size_t p = p0; p < p1; p++) {
        if (nspare < 8 && nspare < need)
            spare[nspare++] = m->pg[p];
        else
            free(m->pg[p].v);
    }
    VEC_RESERVE(m->pg, m->cap, m->npg - have + need);
    if (need != have)
        memmove(m->pg + p0 + need, m->pg + p1, (m->npg - p1) * sizeof *m->pg);
    m->npg = m->npg - have + need;
    for (size_t k = 0; k < need; k++) {
        imap_page pg = k < nspare ? spare[k] : (imap_page){NULL, 0, 0};
        size_t take = n - k * PAGE_FILL < PAGE_FILL ? n - k * PAGE_FILL : PAGE_FILL;
        if (pg.cap < take) {
            uint32_t cap = take < 4 ? 4 : (uint32_t)take;
            pg.v = xrealloc(pg.v, cap * sizeof *pg.v);
            pg.cap = cap;
        }
        memcpy(pg.v, v + k * PAGE_FILL, take * sizeof *v);
        pg.n = (uint32_t)take;
        m->pg[p0 + k] = pg;
    }
}

void imap_set(imap *m, const blk_range *r, size_t n, uint64_t count, uint64_t hash)
{
    ival_buf flat = {0};
    for (size_t i = 0; i < n; i++)
        emit(&flat, r[i].lo, r[i].hi, count, hash);
    replace_pages(m, 0, m->npg, flat.v, flat.n);
    ival_buf_free(&flat);
}

/* Walks the ranges over m; with out != NULL collects the covering pieces. */
static int64_t walk(const imap *m, const blk_range *r, size_t n, ival_buf *out)
{
    for (size_t k = 0; k < n; k++) {
        int64_t p = r[k].lo;
        pos q = imap_locate(m, p);
        while (p < r[k].hi) {
            const ival *e = imap_at(m, q);
            if (!e || e->lo > p)
                return p;
            int64_t end = e->hi < r[k].hi ? e->hi : r[k].hi;
            if (out) {
                VEC_RESERVE(out->v, out->cap, out->n + 1);
                out->v[out->n++] = (ival){p, end, e->hash, e->count};
            }
            p = end;
            q = imap_next(m, q);
        }
    }
    return -1;
}

int64_t imap_extract(const imap *m, const blk_range *r, size_t n, ival_buf *out)
{
    return walk(m, r, n, out);
}

int64_t imap_first_missing_general(const imap *m, const blk_range *r, size_t n)
{
    return walk(m, r, n, NULL);
}

/* Merges the intervals `a` (sorted) with the pieces into out. */
static int64_t merge(const ival *av, size_t an, const ival *pieces, size_t n, int combine,
                     uint64_t limit, ival_buf *out)
{
    int64_t overflow = -1;
    size_t i = 0, j = 0;
    ival a = {0, 0, 0, 0}, b = {0, 0, 0, 0};
    int has_a = 0, has_b = 0;
    for (;;) {
        if (!has_a && i < an) {
            a = av[i++];
            has_a = 1;
        }
        if (!has_b && j < n) {
            b = pieces[j++];
            has_b = 1;
        }
        if (!has_a && !has_b)
            break;
        if (!has_b || (has_a && a.hi <= b.lo)) { /* a alone */
            emit(out, a.lo, a.hi, a.count, a.hash);
            has_a = 0;
        } else if (!has_a || b.hi <= a.lo) { /* b alone */
            emit(out, b.lo, b.hi, b.count, b.hash);
            has_b = 0;
        } else if (a.lo < b.lo) { /* a's part before the overlap */
            emit(out, a.lo, b.lo, a.count, a.hash);
            a.lo = b.lo;
        } else if (b.lo < a.lo) { /* b's part before the overlap */
            emit(out, b.lo, a.lo, b.count, b.hash);
            b.lo = a.lo;
        } else { /* overlap starting at the same block */
            int64_t end = a.hi < b.hi ? a.hi : b.hi;
            uint64_t count = combine ? a.count + b.count : b.count;
            uint64_t hash = combine ? a.hash + b.hash : b.hash;
            if (combine && count > limit && overflow < 0)
                overflow = a.lo;
            emit(out, a.lo, end, count, hash);
            a.lo = b.lo = end;
            if (a.lo == a.hi)
                has_a = 0;
            if (b.lo == b.hi)
                has_b = 0;
        }
    }
    return overflow;
}

/* Only the pages holding the intervals the pieces touch (and their neighbours, which may
 * merge with the result) are rebuilt. */
int64_t imap_apply(imap *m, const ival *pieces, size_t n, int combine, uint64_t limit,
                   ival_buf *scratch)
{
    if (n == 0)
        return -1;
    if (m->npg == 0) {
        scratch->n = 0;
        int64_t over = merge(NULL, 0, pieces, n, combine, limit, scratch);
        replace_pages(m, 0, 0, scratch->v, scratch->n);
        return over;
    }
    pos first = imap_locate(m, pieces[0].lo), last = imap_locate(m, pieces[n - 1].hi);
    if (first.p > 0 || first.i > 0)
        first = imap_prev(m, first); /* left neighbour */
    if (last.p < m->npg)
        last = imap_next(m, last); /* the straddling interval or the right neighbour */
    /* Rebuild whole pages: from the start of first's page to the end of last's page. */
    size_t p0 = first.p, p1 = last.p < m->npg ? last.p + 1 : m->npg;
    if (p1 <= p0)
        p1 = p0 + 1 <= m->npg ? p0 + 1 : m->npg;
    /* The region's intervals, flat (on the stack for the usual few pages). */
    ival stack[4 * IMAP_PAGE_MAX];
    ival_buf heap = {0};
    size_t count = 0;
    for (size_t p = p0; p < p1; p++)
        count += m->pg[p].n;
    ival *region = stack;
    if (count > sizeof stack / sizeof stack[0]) {
        VEC_RESERVE(heap.v, heap.cap, count);
        region = heap.v;
    }
    count = 0;
    for (size_t p = p0; p < p1; p++) {
        memcpy(region + count, m->pg[p].v, m->pg[p].n * sizeof *region);
        count += m->pg[p].n;
    }
    scratch->n = 0;
    int64_t over = merge(region, count, pieces, n, combine, limit, scratch);
    ival_buf_free(&heap);
    replace_pages(m, p0, p1, scratch->v, scratch->n);
    return over;
}

/* One range that extends a single interval without touching another one (what rings
 * and trees do at every step) is added in place. Returns 1 when done. */
static int extend_in_place(imap *m, blk_range r)
{
    if (m->npg == 0)
        return 0;
    pos q = imap_locate(m, r.lo);
    ival *after = (ival *)imap_at(m, q); /* first interval ending after r.lo */
    ival *before = q.p > 0 || q.i > 0 ? (ival *)imap_at(m, imap_prev(m, q)) : NULL;
    if (after && after->lo < r.hi)
        return after->lo <= r.lo && after->hi >= r.hi && after->count == 1; /* already held */
    int join_before = before && before->hi == r.lo && before->count == 1;
    int join_after = after && after->lo == r.hi && after->count == 1;
    if (join_before == join_after) /* joins both (merge two intervals) or none: general path */
        return 0;
    if (join_before)
        before->hi = r.hi;
    else
        after->lo = r.lo;
    return 1;
}

void imap_add_ranges(imap *m, const blk_range *r, size_t n, ival_buf *scratch)
{
    if (n == 1 && extend_in_place(m, r[0]))
        return;
    ival stack[8];
    ival_buf tmp = {0};
    ival *pieces = stack;
    if (n > 8) {
        VEC_RESERVE(tmp.v, tmp.cap, n);
        pieces = tmp.v;
    }
    for (size_t k = 0; k < n; k++)
        pieces[k] = (ival){r[k].lo, r[k].hi, 0, 1};
    imap_apply(m, pieces, n, 0, 0, scratch);
    ival_buf_free(&tmp);
}
