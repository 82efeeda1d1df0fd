/* rank_shape.h - the shape of a placed job, and the dims of topology-aware algorithms.
 *
 * collsim has one dimension convention (docs/topologies.md, "Dimension order"): in a
 * shape d_0 x d_1 x ..., dimension 0 varies fastest. Topologies number their hosts so
 * (topology.h: host_ndims, host_dims) and topology-aware algorithms (ALG_READS_DIMS)
 * number their ranks so (torus_shape.h).
 *
 * The job's shape. With Q ranks per node, a rank's physical coordinates are its slot on
 * its host (0..Q-1 in rank order; only when Q > 1) followed by its host's coordinates.
 * The job has a shape B when its ranks fill a box of that grid exactly and in order:
 * rank r sits at the box corner plus the coordinates of r in B (dimension 0 fastest).
 * Dimensions of size 1 are dropped. So a linear placement of 8,192 ranks on a 32x256
 * torus has shape 32x256, 64 ranks on an 8x8x8 torus 8x8, 1,024 ranks at 4 per node on
 * a 16x16 HyperX 4x16x16; a random placement has none (nor has a fat tree or a
 * Dragonfly, whose hosts form no grid).
 *
 * The rule (rank_shape_resolve). A topology-aware algorithm run on a job with a shape:
 *   no dims given       the dims are the job's shape;
 *   dims given          they must be the job's shape (size-1 dimensions aside), else an
 *                       error names both shapes: dims that mean another rank-to-node
 *                       mapping would run the algorithm on a mis-mapped torus.
 * A job without a shape keeps the dims as given (the ring of P without them): a logical
 * torus over scattered ranks is a legitimate what-if, and nothing can contradict it.
 */
#ifndef COLLSIM_RANK_SHAPE_H
#define COLLSIM_RANK_SHAPE_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "topologies/topology.h"

/* The job's shape (see above) into dims (at most SPEC_MAX_DIMS entries); returns its
 * number of dimensions (>= 1), or 0 when the job has none. host_of_rank: P entries. */
int rank_shape_of_job(const topology *t, const int32_t *host_of_rank, int32_t P, int32_t Q,
                      int32_t *dims);

/* Applies the rule above to spec->dims for algorithm alg (nothing for an algorithm
 * without ALG_READS_DIMS). -1 with the message when explicit dims contradict the job. */
int rank_shape_resolve(const alg_desc *alg, coll_spec *spec, const topology *t,
                       const int32_t *host_of_rank, cs_error *err);

/* "32x256" into buf ("" for 0 dimensions). */
void rank_shape_format(int ndims, const int32_t *dims, char *buf, size_t n);

#endif
