/* strmap.h - a string -> int64 hash map (open addressing, FNV-1a), for name lookups:
 * host names to host ids, group names to group ids, SimGrid link names to link indices.
 * Keys are copied; the map grows as needed (load factor <= 1/2). */
#ifndef COLLSIM_STRMAP_H
#define COLLSIM_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct strmap {
    char **keys;     /* per slot, NULL = empty */
    int64_t *values;
    size_t cap;      /* slots (a power of two, or 0) */
    size_t n;        /* keys stored */
} strmap;

void strmap_init(strmap *m);
void strmap_free(strmap *m);
/* Adds or replaces. */
void strmap_put(strmap *m, const char *key, int64_t value);
/* 1 and *value when present, 0 otherwise (value may be NULL). */
int strmap_get(const strmap *m, const char *key, int64_t *value);

#endif
