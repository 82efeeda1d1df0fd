/* blockset.c - a set of blocks as a bitmap (see blockset.h). */
#include "algorithms/blockset.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void blockset_init(blockset *s, int64_t nblocks)
{
    s->nwords = (size_t)((nblocks + 63) / 64);
    s->bits = xcalloc(s->nwords ? s->nwords : 1, sizeof *s->bits);
    s->used = xmalloc((s->nwords ? s->nwords : 1) * sizeof *s->used);
    s->nused = 0;
}

void blockset_free(blockset *s)
{
    free(s->bits);
    free(s->used);
    memset(s, 0, sizeof *s);
}

void blockset_clear(blockset *s)
{
    if (s->nused > s->nwords / 4) { /* most words in use: one sweep is cheaper */
        memset(s->bits, 0, s->nwords * sizeof *s->bits);
    } else {
        for (size_t i = 0; i < s->nused; i++)
            s->bits[s->used[i]] = 0;
    }
    s->nused = 0;
}

int64_t blockset_first_missing_slow(const blockset *s, int64_t lo, int64_t hi)
{
    for (int64_t b = lo; b < hi;) {
        size_t w = (size_t)b >> 6;
        unsigned from = (unsigned)b & 63;
        unsigned to = hi - (int64_t)(w << 6) >= 64 ? 64 : (unsigned)(hi - (int64_t)(w << 6));
        uint64_t m = blockset_mask(from, to);
        uint64_t missing = ~s->bits[w] & m;
        if (missing)
            return (int64_t)(w << 6) + __builtin_ctzll(missing);
        b = (int64_t)(w << 6) + to;
    }
    return -1;
}
