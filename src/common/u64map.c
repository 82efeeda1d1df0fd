/* u64map.c - uint64 -> int64 hash map (see u64map.h). */
#include "common/u64map.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void u64map_init(u64map *m) { memset(m, 0, sizeof *m); }

void u64map_free(u64map *m)
{
    free(m->keys);
    free(m->values);
    free(m->used);
    u64map_init(m);
}

/* splitmix64's finaliser: consecutive keys spread over the table. */
static uint64_t mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find_slot(const u64map *m, uint64_t key)
{
    size_t i = (size_t)mix(key) & (m->cap - 1);
    while (m->used[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void grow(u64map *m)
{
    u64map old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->keys = xmalloc(m->cap * sizeof *m->keys);
    m->values = xmalloc(m->cap * sizeof *m->values);
    m->used = xcalloc(m->cap, 1);
    for (size_t i = 0; i < old.cap; i++)
        if (old.used[i]) {
            size_t j = find_slot(m, old.keys[i]);
            m->used[j] = 1;
            m->keys[j] = old.keys[i];
            m->values[j] = old.values[i];
        }
    free(old.keys);
    free(old.values);
    free(old.used);
}

void u64map_put(u64map *m, uint64_t key, int64_t value)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t i = find_slot(m, key);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        m->n++;
    }
    m->values[i] = value;
}

int u64map_get(const u64map *m, uint64_t key, int64_t *value)
{
    if (m->cap == 0)
        return 0;
    size_t i = find_slot(m, key);
    if (!m->used[i])
        return 0;
    if (value)
        *value = m->values[i];
    return 1;
}
