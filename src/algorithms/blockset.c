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

/* The mask of the blocks of [lo, hi) in word w (which must hold some of them). */
static uint64_t word_mask(size_t w, int64_t lo, int64_t hi)
{
    int64_t base = (int64_t)(w << 6);
    unsigned first = lo > base ? (unsigned)(lo - base) : 0;
    unsigned last = hi - base >= 64 ? 63 : (unsigned)(hi - base - 1);
    return blockset_mask(first, last);
}

void blockset_add_slow(blockset *s, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return;
    for (size_t w = (size_t)lo >> 6; w <= (size_t)(hi - 1) >> 6; w++)
        blockset_or(s, w, word_mask(w, lo, hi));
}

int64_t blockset_first_missing_slow(const blockset *s, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return -1;
    for (size_t w = (size_t)lo >> 6; w <= (size_t)(hi - 1) >> 6; w++) {
        uint64_t missing = ~s->bits[w] & word_mask(w, lo, hi);
        if (missing)
            return (int64_t)(w << 6) + __builtin_ctzll(missing);
    }
    return -1;
}
