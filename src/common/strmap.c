/* strmap.c - string -> int64 hash map (see strmap.h). */
#include "common/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void strmap_init(strmap *m) { memset(m, 0, sizeof *m); }

void strmap_free(strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->values);
    strmap_init(m);
}

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ULL;
    return h;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t find_slot(const strmap *m, const char *key)
{
    size_t i = (size_t)fnv1a(key) & (m->cap - 1);
    while (m->keys[i] && strcmp(m->keys[i], key) != 0)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void grow(strmap *m)
{
    strmap old = *m;
    m->cap = old.cap ? old.cap * 2 : 16;
    m->keys = xcalloc(m->cap, sizeof *m->keys);
    m->values = xmalloc(m->cap * sizeof *m->values);
    for (size_t i = 0; i < old.cap; i++)
        if (old.keys[i]) {
            size_t j = find_slot(m, old.keys[i]);
            m->keys[j] = old.keys[i];
            m->values[j] = old.values[i];
        }
    free(old.keys);
    free(old.values);
}

void strmap_put(strmap *m, const char *key, int64_t value)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    size_t i = find_slot(m, key);
    if (!m->keys[i]) {
        m->keys[i] = xstrdup(key);
        m->n++;
    }
    m->values[i] = value;
}

int strmap_get(const strmap *m, const char *key, int64_t *value)
{
    if (m->cap == 0)
        return 0;
    size_t i = find_slot(m, key);
    if (!m->keys[i])
        return 0;
    if (value)
        *value = m->values[i];
    return 1;
}
