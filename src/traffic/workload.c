/* workload.c - block sizes of a workload bound to P ranks, computed on demand from
 * counter-based random words, optionally cached in a table (see workload.h). */
#include "traffic/workload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Salts that keep the random words of different purposes apart. */
#define SALT_SIZES 0x51e5a11ce0ULL
#define SALT_PERM 0x9e7b1a5e0ULL

/* Rejection sampling gives up after this many draws (see normal_bytes). */
#define NORMAL_MAX_DRAWS 1000

struct workload {
    workload_params p;
    int32_t P;
    uint64_t key;          /* mix64(seed): the root of every random word */
    int perm_half_bits;    /* powerlaw: the Feistel network permutes 2 * this many bits */
    int64_t fft_senders;   /* fft1: ranks s < this send */
    int64_t fft_receivers; /* fft1: to ranks d < this */
    uint32_t *table;       /* materialized sizes (src * P + dst), or NULL */
};

/* ---- random words ------------------------------------------------------------------- */

/* The k-th random 64-bit word of block (s, d). */
static inline uint64_t block_word(const workload *w, int32_t s, int32_t d, uint64_t k)
{
    return hash_combine(hash_combine(hash_combine(w->key ^ SALT_SIZES, (uint64_t)s), (uint64_t)d),
                        k);
}

/* A word as a double uniform on [0, 1) (53 bits). */
static inline double unit_interval(uint64_t x)
{
    return (double)(x >> 11) * 0x1.0p-53;
}

/* The position (0..P-1) of destination d in rank s's shuffled order: a 4-round Feistel
 * network keyed by (seed, s) permutes [0, 4^h) and cycle walking (re-applying it until
 * the value falls below P) makes that a permutation of [0, P). */
static int64_t shuffled_position(const workload *w, int32_t s, int32_t d)
{
    int h = w->perm_half_bits;
    uint64_t mask = ((uint64_t)1 << h) - 1;
    uint64_t key = hash_combine(w->key ^ SALT_PERM, (uint64_t)s);
    uint64_t v = (uint64_t)d;
    do {
        uint64_t left = v >> h, right = v & mask;
        for (uint64_t round = 0; round < 4; round++) {
            uint64_t f = hash_combine(key + round, right) & mask;
            uint64_t next_right = left ^ f;
            left = right;
            right = next_right;
        }
        v = (left << h) | right;
    } while (v >= (uint64_t)w->P);
    return (int64_t)v;
}

/* ---- the kinds -------------------------------------------------------------------- */

static inline int64_t round_to_unit(const workload *w, int64_t bytes)
{
    return bytes - bytes % w->p.unit;
}

static int64_t uniform_bytes(const workload *w, int32_t s, int32_t d)
{
    int64_t units = w->p.size / w->p.unit; /* draw k in 0..units */
    int64_t k = (int64_t)(unit_interval(block_word(w, s, d, 0)) * (double)(units + 1));
    if (k > units)
        k = units;
    return k * w->p.unit;
}

/* Box-Muller draws until one falls in [0, max]. The parameters were checked to put at
 * least 5% of the mass there, so NORMAL_MAX_DRAWS draws all fail with probability below
 * 0.95^1000 ~ 5e-23; the fallback (the mean clamped to [0, max]) keeps it total. */
static int64_t normal_bytes(const workload *w, int32_t s, int32_t d)
{
    double max = (double)w->p.size;
    for (uint64_t i = 0; i < NORMAL_MAX_DRAWS; i++) {
        double u1 = 1.0 - unit_interval(block_word(w, s, d, 2 * i)); /* (0, 1] */
        double u2 = unit_interval(block_word(w, s, d, 2 * i + 1));
        double v = w->p.mean + w->p.sd * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
        if (v >= 0 && v <= max)
            return round_to_unit(w, (int64_t)floor(v));
    }
    double m = w->p.mean < 0 ? 0 : w->p.mean > max ? max : w->p.mean;
    return round_to_unit(w, (int64_t)floor(m));
}

static int64_t powerlaw_bytes(const workload *w, int32_t s, int32_t d)
{
    double k = (double)shuffled_position(w, s, d);
    return round_to_unit(w, (int64_t)floor((double)w->p.size * pow(w->p.x, k)));
}

static int64_t compute_bytes(const workload *w, int32_t s, int32_t d)
{
    switch (w->p.kind) {
    case WL_CONSTANT: return w->p.size;
    case WL_UNIFORM: return uniform_bytes(w, s, d);
    case WL_NORMAL: return normal_bytes(w, s, d);
    case WL_POWERLAW: return powerlaw_bytes(w, s, d);
    case WL_FFT1: return s < w->fft_senders && d < w->fft_receivers ? w->p.size : 0;
    case WL_FFT2: return d == w->P - 1 ? w->p.last : w->p.size;
    default: return 0;
    }
}

/* ---- public ------------------------------------------------------------------------ */

int workload_create(const workload_params *p, int32_t P, workload **out, cs_error *err)
{
    *out = NULL;
    if (P < 1)
        return cs_fail(err, "workload %s: needs P >= 1 ranks (got %d)", workload_kind_name(p->kind),
                       P);
    if ((unsigned)p->kind >= WL__COUNT || p->unit < 1)
        return cs_fail(err, "workload: invalid parameters (use workload_parse)");
    workload *w = xcalloc(1, sizeof *w);
    w->p = *p;
    w->P = P;
    w->key = mix64(p->seed);
    int bits = P > 1 ? ilog2_floor((uint64_t)(P - 1)) + 1 : 1; /* bits of P - 1 */
    w->perm_half_bits = (bits + 1) / 2;
    w->fft_senders = (5 * (int64_t)P + 7) / 8;     /* ceil(0.625 P) */
    w->fft_receivers = (25 * (int64_t)P + 31) / 32; /* ceil(0.78125 P) */
    *out = w;
    return 0;
}

void workload_free(workload *w)
{
    if (!w)
        return;
    free(w->table);
    free(w);
}

int workload_materialize(workload *w, int64_t max_bytes)
{
    workload_kind k = w->p.kind;
    int random = k == WL_UNIFORM || k == WL_NORMAL || k == WL_POWERLAW;
    int64_t need = (int64_t)w->P * w->P * (int64_t)sizeof *w->table;
    if (w->table)
        return 1;
    if (!random || need > max_bytes)
        return 0;
    uint32_t *t = xmalloc((size_t)need);
    for (int32_t s = 0; s < w->P; s++)
        for (int32_t d = 0; d < w->P; d++)
            t[(int64_t)s * w->P + d] = (uint32_t)compute_bytes(w, s, d);
    w->table = t;
    return 1;
}

int32_t workload_ranks(const workload *w)
{
    return w->P;
}

const workload_params *workload_get_params(const workload *w)
{
    return &w->p;
}

int64_t workload_bytes(const workload *w, int32_t src, int32_t dst)
{
    if (w->table)
        return w->table[(int64_t)src * w->P + dst];
    return compute_bytes(w, src, dst);
}

int64_t workload_block_bytes(const void *ctx, int64_t block)
{
    const workload *w = ctx;
    return workload_bytes(w, (int32_t)(block / w->P), (int32_t)(block % w->P));
}

void workload_compute_stats(const workload *w, workload_stats *st)
{
    memset(st, 0, sizeof *st);
    for (int32_t s = 0; s < w->P; s++)
        for (int32_t d = 0; d < w->P; d++) {
            int64_t b = workload_bytes(w, s, d);
            st->total += b;
            st->zeros += b == 0;
            if (b > st->max)
                st->max = b;
        }
}
