/* blocks.c - growable lists of block ranges (see blocks.h). */
#include "algorithms/blocks.h"

#include <stdlib.h>

#include "common/util.h"

void rl_free(range_list *l)
{
    free(l->r);
    l->r = NULL;
    l->n = l->cap = 0;
}

void rl_push(range_list *l, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return;
    if (l->n > 0 && l->r[l->n - 1].hi == lo) {
        l->r[l->n - 1].hi = hi;
        return;
    }
    VEC_RESERVE(l->r, l->cap, l->n + 1);
    l->r[l->n].lo = lo;
    l->r[l->n].hi = hi;
    l->n++;
}

void rl_push_circular(range_list *l, int64_t start, int64_t len, int64_t mod, int64_t unit)
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

static int cmp_lo(const void *a, const void *b)
{
    const blk_range *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

void rl_normalize(range_list *l)
{
    if (l->n < 2)
        return;
    qsort(l->r, l->n, sizeof *l->r, cmp_lo);
    size_t k = 0;
    for (size_t i = 0; i < l->n; i++) {
        if (k > 0 && l->r[k - 1].hi >= l->r[i].lo) {
            if (l->r[i].hi > l->r[k - 1].hi)
                l->r[k - 1].hi = l->r[i].hi;
        } else {
            l->r[k++] = l->r[i];
        }
    }
    l->n = k;
}

void chunk_map_plain(chunk_map *m, int32_t P, int32_t root, int32_t rot, int64_t unit)
{
    m->P = P;
    m->rem = 0;
    m->root = root;
    m->rot = rot;
    m->unit = unit;
}

void chunk_map_folded(chunk_map *m, int32_t P, int32_t root, int32_t rot, int64_t unit)
{
    chunk_map_plain(m, P, root, rot, unit);
    m->rem = P - (int32_t)(1u << ilog2_floor((uint64_t)P));
}

int32_t chunk_map_first(const chunk_map *m, int32_t v)
{
    return v < m->rem ? 2 * v : v + m->rem;
}

int32_t chunk_map_rank(const chunk_map *m, int32_t v)
{
    return (int32_t)mod_i64((int64_t)chunk_map_first(m, v) + m->root, m->P);
}

int32_t chunk_map_participant(const chunk_map *m, int32_t rank)
{
    int32_t rel = (int32_t)mod_i64((int64_t)rank - m->root, m->P);
    if (rel < 2 * m->rem)
        return rel % 2 == 0 ? rel / 2 : -1;
    return rel - m->rem;
}

void chunk_map_push(const chunk_map *m, range_list *out, int32_t a, int32_t b)
{
    int32_t n = chunk_map_participants(m);
    if (b <= a)
        return;
    if (b > n) { /* wraps around the participant ring */
        chunk_map_push(m, out, a, n);
        chunk_map_push(m, out, 0, b - n);
        return;
    }
    int32_t lo = chunk_map_first(m, a), hi = chunk_map_first(m, b);
    rl_push_circular(out, (int64_t)lo + m->rot, hi - lo, m->P, m->unit);
}
