/* u64map.h - a uint64 -> int64 hash map (open addressing, a 64-bit mix of the key), for
 * lookups keyed by numbers: (from, to, tag) of a message, a pair of host ids. The map
 * grows as needed (load factor <= 1/2). */
#ifndef COLLSIM_U64MAP_H
#define COLLSIM_U64MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct u64map {
    uint64_t *keys;
    int64_t *values;
    uint8_t *used;   /* per slot: 1 when it holds a key */
    size_t cap;      /* slots (a power of two, or 0) */
    size_t n;        /* keys stored */
} u64map;

void u64map_init(u64map *m);
void u64map_free(u64map *m);
/* Adds or replaces. */
void u64map_put(u64map *m, uint64_t key, int64_t value);
/* 1 and *value when present, 0 otherwise (value may be NULL). */
int u64map_get(const u64map *m, uint64_t key, int64_t *value);

#endif
