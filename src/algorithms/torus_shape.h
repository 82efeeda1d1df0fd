/* torus_shape.h - the logical torus of topology-aware algorithms: coordinates, moves
 * along a dimension, ports, and the dimension-by-dimension step order of torus products.
 *
 * Shape. A torus d_0 x d_1 x ... x d_{D-1} of P = prod d_i ranks, dimension 0 varying
 * fastest: rank = sum_i c_i * stride_i with stride_0 = 1, stride_i = stride_{i-1} d_{i-1}.
 * This is the one convention of collsim (docs/topologies.md, "Dimension order"): every
 * topology generator numbers its nodes this way (as SimGrid's TORUS cluster does), and
 * every topology-aware algorithm reads coll_spec.dims this way, so `dims=32x256` names the
 * same shape for the torus and for the algorithms run on it.
 * The shape comes from the collective spec (coll_spec.dims); the simulator fills it from
 * the topology when it is not given (src/sim/rank_shape.h). Without dims it is the ring
 * of P ranks. Dimensions of size 1 carry no communication and are dropped (the strides of
 * the others do not change).
 *
 * Ports. A multiport torus collective runs 2D sub-collectives at once (D = dimensions),
 * one per port: port j starts in dimension j mod D and is "mirrored" (goes the other way
 * round in every dimension) when j >= D; one port: port 0 alone.
 *
 * Step order (Swing digest Sec. 1.6, Bine digest Sec. 3.2 D.1). A torus product talks in
 * one dimension per step; dimension k takes steps_k steps (a butterfly or tree over d_k:
 * ceil(log2 d_k)) and there are L = sum_k steps_k steps in all. Starting in dimension
 * `start`, the steps go round the dimensions; the two papers differ only on a rectangular
 * torus, in how the exhausted dimensions are skipped (torus_seq):
 *   TORUS_ROUND_ROBIN  round after round over the dimensions from `start`, each taking one
 *                      step while it has steps left (Bine's round-robin): 2x8x8 gives dims
 *                      0 1 2 1 2 1 2
 *   TORUS_ROTATION     step i goes to dimension (start + i) mod D, or the next one with
 *                      steps left (libswing's rotation): 2x8x8 gives 0 1 2 1 1 2 2
 *   TORUS_ROUND_ROBIN_REVERSED  the round-robin sequence backwards, each dimension's steps
 *                      counted backwards too (Bine's butterflies: their reduce-scatter is
 *                      the reverse of the broadcast order)
 * Both give 4x4 from dimension 0: (dim 0, step 0), (1, 0), (0, 1), (1, 1), and 2x4:
 * (0, 0), (1, 0), (1, 1). On a square torus every dimension is used once per round; on a
 * rectangular one the ports of the exhausted dimensions idle.
 */
#ifndef COLLSIM_TORUS_SHAPE_H
#define COLLSIM_TORUS_SHAPE_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

#define TORUS_MAX_STEPS 40 /* L <= log2 P + ndims < 31 + SPEC_MAX_DIMS */
#define TORUS_MAX_PORTS (2 * SPEC_MAX_DIMS)

typedef struct torus_shape {
    int ndims;
    int32_t dims[SPEC_MAX_DIMS];
    int32_t stride[SPEC_MAX_DIMS];
    int32_t P;
} torus_shape;

/* Documentation of the "ports" parameter of the torus families ("multi" or "1"). */
#define TORUS_PORTS_DOC                                                                     \
    "multi: 2D parts, D plain + D mirrored collectives on the 2D ports; 1: one collective"

/* A shape from sizes (size-1 dimensions dropped; at least one size > 1 or P = 1). */
void torus_shape_init(torus_shape *t, int ndims, const int32_t *dims);
/* The spec's shape: its dims (their product must equal P) or the ring of P. */
int torus_shape_from_spec(torus_shape *t, const coll_spec *s, cs_error *err);
/* Every dimension a power of two. */
int torus_shape_is_pow2(const torus_shape *t);
/* "8x8x8" into buf. */
void torus_shape_format(const torus_shape *t, char *buf, size_t n);
/* The dimension with the level-th largest stride (level 0: the slowest, the last one). */
static inline int torus_dim_by_stride(const torus_shape *t, int level)
{
    return t->ndims - 1 - level;
}

/* Coordinate of rank in dimension dim. */
static inline int32_t torus_coord(const torus_shape *t, int32_t rank, int dim)
{
    return (rank / t->stride[dim]) % t->dims[dim];
}
/* The rank whose coordinate in `dim` is c + offset (mod d_dim), other coordinates equal. */
int32_t torus_move(const torus_shape *t, int32_t rank, int dim, int64_t offset);
/* The rank whose coordinate in `dim` is `coord`, other coordinates equal. */
int32_t torus_with_coord(const torus_shape *t, int32_t rank, int dim, int32_t coord);

/* Ranks of a sub-shape (every d'_i <= d_i, same rank order) embedded at the low corner of
 * a shape: sub-rank v <-> the rank with the same coordinates; ranks outside map to -1. */
int32_t torus_embed(const torus_shape *sub, const torus_shape *full, int32_t v);
int32_t torus_project(const torus_shape *sub, const torus_shape *full, int32_t rank);

/* Ports (see the top of this file): 2D ports, or 1; port j's first dimension and
 * direction. */
static inline int torus_ports(const torus_shape *t, int multiport)
{
    return multiport ? 2 * t->ndims : 1;
}
static inline int torus_port_start(const torus_shape *t, int port)
{
    return port % t->ndims;
}
static inline int torus_port_mirrored(const torus_shape *t, int port)
{
    return port >= t->ndims;
}

/* ---- step order ------------------------------------------------------------------------ */

/* One step of a product: the dimension and the step index within it. */
typedef struct torus_step {
    int8_t dim;
    int8_t rel;
} torus_step;

typedef struct torus_order {
    int nsteps;
    torus_step step[TORUS_MAX_STEPS];
    int8_t done[TORUS_MAX_STEPS + 1][SPEC_MAX_DIMS]; /* steps of each dim before step i */
    int8_t global[SPEC_MAX_DIMS][TORUS_MAX_STEPS];   /* global index of (dim, rel) */
} torus_order;

/* Steps of a torus butterfly: sum of ceil(log2 d_i). */
int torus_total_steps(const torus_shape *t);
typedef enum { TORUS_ROUND_ROBIN, TORUS_ROUND_ROBIN_REVERSED, TORUS_ROTATION } torus_seq;

/* The order of steps[k] steps in each of ndims dimensions (see the top of this file);
 * the sum of the steps must be at most TORUS_MAX_STEPS. */
void torus_order_init(torus_order *o, int ndims, const int *steps, int start, torus_seq seq);

#endif
