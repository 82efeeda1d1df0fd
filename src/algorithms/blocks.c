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

void rl_grow(range_list *l)
{
    VEC_RESERVE(l->r, l->cap, l->n + 1);
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
