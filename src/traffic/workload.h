/* workload.h - non-uniform all-to-all workloads: bytes per (source, destination) block.
 *
 * A workload gives, for P ranks, the bytes rank s sends to rank d (alltoallv's sendcounts,
 * in bytes). It is described by a kind and parameters, as users write them:
 *
 *   constant:S=1KiB                          every block S bytes (uniform alltoall: the
 *                                            degenerate case; S=0 is the all-zero workload)
 *   uniform:S=1KiB[:seed=1][:unit=1B]        i.i.d. integers uniform on [0, S] (both ends
 *                                            included), in multiples of `unit`
 *   normal:mean=1000:sd=240:max=1KiB[:seed][:unit]
 *                                            normal(mean, sd) truncated to [0, max] by
 *                                            rejection, rounded down to the byte (and unit)
 *   powerlaw:max=1KiB:x=0.95[:seed][:unit]   the paper's "power-law": each rank sends the
 *                                            sizes floor(max * x^k), k = 0..P-1, to its
 *                                            destinations in a random (per rank) order
 *   fft1[:block=64B]                         FFT pattern N1: ranks s < ceil(5P/8) send
 *                                            `block` bytes to each d < ceil(25P/32), the
 *                                            others send nothing
 *   fft2[:block=512B][:last=128B]            FFT pattern N2: `block` bytes to every d < P-1,
 *                                            `last` bytes to d = P-1
 *
 * Sizes accept units ("1KiB", "64B", "1000"); block sizes are limited to 2^31-1 bytes
 * (MPI counts are ints). docs/workloads.md documents each kind with its source.
 *
 * Determinism. Random kinds use no global state and no sequential RNG: the k-th random
 * 64-bit word of block (s, d) is a hash (splitmix64 finaliser, util.h hash_combine) of
 * (mix64(seed), s, d, k). Every block's size is thus a pure function of (kind, parameters,
 * seed, P, s, d): the same on every machine, in any order, from any thread. The power-law
 * shuffle is a keyed permutation of the destinations of each rank (a 4-round Feistel
 * network over the next power of four >= P, with cycle walking), again a pure function of
 * (seed, s). Floating-point steps (normal sampling, x^k) use the C library's log, cos,
 * sqrt and pow; a libm that rounds differently could move a size by one unit.
 *
 * Memory. A workload computes sizes on demand and holds O(1) memory. workload_materialize
 * optionally caches every size in a P x P table (4 bytes each) for speed; constant and
 * FFT workloads are never materialized (they are O(1) formulas anyway).
 */
#ifndef COLLSIM_WORKLOAD_H
#define COLLSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/kv.h"

#define WORKLOAD_MAX_BLOCK ((int64_t)INT32_MAX)

typedef enum workload_kind {
    WL_CONSTANT,
    WL_UNIFORM,
    WL_NORMAL,
    WL_POWERLAW,
    WL_FFT1,
    WL_FFT2,
    WL__COUNT
} workload_kind;

/* A workload's description, independent of P. Fields not used by a kind are 0. */
typedef struct workload_params {
    workload_kind kind;
    int64_t size;    /* constant, uniform: S; normal, powerlaw: max; fft1, fft2: block */
    int64_t last;    /* fft2: bytes of the block to rank P-1 */
    double mean, sd; /* normal */
    double x;        /* powerlaw: ratio of consecutive sizes, in (0, 1] */
    int64_t unit;    /* random kinds: sizes are multiples of unit (>= 1) */
    uint64_t seed;   /* random kinds */
} workload_params;

/* "constant", "uniform", "normal", "powerlaw", "fft1", "fft2". */
const char *workload_kind_name(workload_kind k);

/* Sets p from a kind name and key=value parameters (every key must be one the kind
 * accepts; missing keys take their defaults, required ones are an error). Errors name the
 * kind, the key and the allowed values. */
int workload_params_from_kv(workload_params *p, const char *kind, kv_list *kv, cs_error *err);

/* Parses "kind:key=value:key=value...", e.g. "uniform:S=1KiB:seed=7". */
int workload_parse(const char *text, workload_params *p, cs_error *err);

/* Writes the canonical text of p, every parameter included ("uniform:S=1KiB:seed=7:unit=1B"),
 * which workload_parse reads back to the same workload (for manifests). */
void workload_format(const workload_params *p, char *buf, size_t n);

/* A workload bound to P ranks. */
typedef struct workload workload;

/* Creates the workload of p for P >= 1 ranks (O(1) memory, nothing materialized). */
int workload_create(const workload_params *p, int32_t P, workload **out, cs_error *err);
void workload_free(workload *w);

/* Caches every size in a P x P table when that needs at most max_bytes (and the kind is
 * random). Returns 1 when the table was built, 0 when sizes stay computed on demand.
 * Sizes are the same either way. */
int workload_materialize(workload *w, int64_t max_bytes);

int32_t workload_ranks(const workload *w);
const workload_params *workload_get_params(const workload *w);

/* Bytes rank src sends to rank dst (0 <= src, dst < P). */
int64_t workload_bytes(const workload *w, int32_t src, int32_t dst);

/* The same for alltoallv block src*P+dst, with the signature of sched_layout's
 * block_bytes_fn (ctx is the workload). */
int64_t workload_block_bytes(const void *ctx, int64_t block);

/* Summary over all P*P blocks (O(P^2) time). */
typedef struct workload_stats {
    int64_t total;  /* bytes of all blocks */
    int64_t max;    /* largest block */
    int64_t zeros;  /* blocks of 0 bytes */
} workload_stats;
void workload_compute_stats(const workload *w, workload_stats *st);

#endif
