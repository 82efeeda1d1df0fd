/* torus_shape.h - the logical torus of topology-aware algorithms: coordinates, moves
 * along a dimension, and the per-port dimension schedule of torus butterflies.
 *
 * Shape. A torus d_0 x d_1 x ... x d_{D-1} of P = prod d_i ranks, ranks mapped row-major
 * (dimension 0 varies slowest): rank = sum_i c_i * stride_i, stride_{D-1} = 1. The shape
 * comes from the collective spec (coll_spec.dims), never from a topology; without dims
 * it is the ring of P ranks. Dimensions of size 1 carry no communication and are
 * dropped (row-major ranks do not change).
 *
 * Dimension schedule (Swing digest Sec. 1.6, as the authors' code does it). A butterfly
 * on a torus talks in one dimension per step; dimension i takes ceil(log2 d_i) steps and
 * L = sum_i ceil(log2 d_i) steps in all. Port j (0 <= j < 2D; j < D "plain", j >= D
 * "mirrored", which negates every offset) starts in dimension j mod D and rotates: global
 * step i goes to dimension (j + i + o) mod D for the smallest o >= 0 whose dimension still
 * has steps left; "rel" counts the steps already taken in that dimension. On a square
 * torus this is plain rotation; on a rectangular one the exhausted dimensions are skipped.
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

/* One step of a port's schedule: the dimension and the step index within it. */
typedef struct torus_step {
    int8_t dim;
    int8_t rel;
} torus_step;

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

/* Coordinate of rank in dimension dim. */
static inline int32_t torus_coord(const torus_shape *t, int32_t rank, int dim)
{
    return (rank / t->stride[dim]) % t->dims[dim];
}
/* The rank whose coordinate in `dim` is c + offset (mod d_dim), other coordinates equal. */
int32_t torus_move(const torus_shape *t, int32_t rank, int dim, int64_t offset);
/* The rank whose coordinate in `dim` is `coord`, other coordinates equal. */
int32_t torus_with_coord(const torus_shape *t, int32_t rank, int dim, int32_t coord);

/* Steps of a torus butterfly: sum of ceil(log2 d_i). */
int torus_total_steps(const torus_shape *t);
/* Port `port`'s schedule (see the top of this file) into out[0..L); returns L. */
int torus_port_schedule(const torus_shape *t, int port, torus_step *out);

/* Ranks of a sub-shape (every d'_i <= d_i) embedded at the low corner of a shape:
 * sub-rank v <-> the rank with the same coordinates; ranks outside map to -1. */
int32_t torus_embed(const torus_shape *sub, const torus_shape *full, int32_t v);
int32_t torus_project(const torus_shape *sub, const torus_shape *full, int32_t rank);

#endif
