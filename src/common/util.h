/* util.h - small helpers shared by every module: allocation that never returns NULL,
 * a growable array, 64-bit hashing, wall clock and peak memory, mkdir -p. */
#ifndef COLLSIM_UTIL_H
#define COLLSIM_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"

/* Allocation: on failure print "collsim: out of memory (N bytes)" and exit(3). Running
 * out of memory is not bad input, and the refusal checks (issue: robustness) are meant
 * to stop impossible runs before they get here. */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Grows *p (an array of elem bytes with capacity *cap) so that it holds at least need
 * elements; capacity doubles, so appends are amortised O(1). */
void vec_reserve(void **p, size_t *cap, size_t need, size_t elem);
#define VEC_RESERVE(ptr, cap, need)                                                        \
    do {                                                                                   \
        if ((size_t)(need) > (cap))                                                        \
            vec_reserve((void **)&(ptr), &(cap), (need), sizeof *(ptr));                   \
    } while (0)

/* splitmix64 finaliser: a cheap, well-mixed 64-bit hash. */
static inline uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
static inline uint64_t hash_combine(uint64_t h, uint64_t v)
{
    return mix64(h ^ (v + 0x632be59bd9b4e019ULL + (h << 6) + (h >> 2)));
}

/* Seconds since an arbitrary origin (CLOCK_MONOTONIC). */
double wall_seconds(void);
/* CPU seconds (user + system) this process has used (CLOCK_PROCESS_CPUTIME_ID). */
double cpu_seconds(void);

/* Peak resident set size of this process in KiB (VmHWM), 0 if unknown. */
long peak_rss_kb(void);

/* For the few functions run on every op of every rank (see scripts/bench/verify_scale.sh):
 * CS_HOT_INLINE makes GCC inline them even where its size heuristics would not, CS_COLD
 * keeps their rarely taken error paths out of line. */
#define CS_HOT_INLINE static inline __attribute__((always_inline))
#define CS_COLD __attribute__((cold, noinline))
/* mkdir -p: creates path and its missing parents (mode 0777 & umask). */
int make_dirs(const char *path, cs_error *err);

/* fopen for reading an input file: also NULL (errno EISDIR, "Is a directory") for a
 * directory, which fopen opens and whose reads then fail half-way. */
FILE *fopen_input(const char *path, const char *mode);
/* Text from an input file made safe to echo in a message: bytes outside printable ASCII
 * as \xNN, cut to fit n (with "..."). Returns out. */
const char *printable(const char *in, char *out, size_t n);

/* Integer helpers. */
static inline int is_pow2_i64(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }
int ilog2_floor(uint64_t x); /* floor(log2 x), x >= 1 */
int ilog2_ceil(uint64_t x);  /* ceil(log2 x), x >= 1 */
/* a mod m, in [0, m). Generators call this for every op, almost always with a within one
 * period of [0, m): those cases are a compare and an add, not a 64-bit division (tens of
 * cycles, measured as the largest single cost of generating a ring schedule). */
static inline int64_t mod_i64(int64_t a, int64_t m)
{
    if (a >= 0 && a < m)
        return a;
    if (a < 0 && a >= -m)
        return a + m;
    if (a >= m && a - m < m)
        return a - m;
    int64_t r = a % m;
    return r < 0 ? r + m : r;
}

#endif
