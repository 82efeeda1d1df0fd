/* torus_product.h - torus-optimized collectives: the product, dimension by dimension, of
 * one-dimensional butterflies or trees (Bine paper, App. D; Swing and Bucket build their
 * torus versions the same way). Any 1D bfly_pattern / tree_pattern can be a factor.
 *
 * Ranks are coordinates on a torus d_0 x ... x d_{D-1}, dimension 0 varying fastest
 * (rank = sum c_k * stride_k: the numbering of the torus topology). A factor of size d_k
 * has s_k steps (its pattern's nsteps). In broadcast / allgather order (distance
 * halving) the product's steps go round-robin over the dimensions that still have steps,
 * starting at dimension `start`: for 4x4 with start 0, (dim 0, step 0), (dim 1, 0),
 * (dim 0, 1), (dim 1, 1), so that rank 0 of a Bine product talks to 3, 12, 1, 4 (App.
 * D.1), each step a move along one dimension. A butterfly's reduce-scatter runs that
 * sequence backwards. `mirror` reflects every coordinate (c -> -c),
 * so the product starts in the opposite direction: a multi-port collective runs 2D
 * products, one per (start dimension, direction) (see concurrent.h).
 *
 * Butterfly product. Participant = rank. At step i (dimension k, local step j) v moves
 * along k to the factor's peer. Its reduce-scatter set is the product of the factor's
 * set in dimension k with, in every other dimension, the factor's index set still held
 * after the local steps already done there. Factors may name positions instead of
 * chunks (a bfly_remap, e.g. Bine's nu-positions): then the product also does, and
 * tp_bfly_remap() gives where each participant's chunk ends (index = sum of the
 * factors' indices times the strides).
 *
 * Tree product. Participant = rank (the root's coordinates are subtracted per dimension,
 * then mirrored). v receives at the latest of the global steps at which its coordinates
 * are reached in their factors, from the neighbour along that dimension; its subtree is
 * the product of the factors' descendants reachable in the remaining steps.
 */
#ifndef COLLSIM_TORUS_PRODUCT_H
#define COLLSIM_TORUS_PRODUCT_H

#include "algorithms/algorithm.h"
#include "algorithms/butterfly.h"
#include "algorithms/tree.h"

#define TP_MAX_STEPS 64

/* The shape and the step schedule of a product. */
typedef struct tp_order {
    int ndims;
    int32_t dims[SPEC_MAX_DIMS];
    int64_t stride[SPEC_MAX_DIMS];
    int32_t P;
    int mirror;
    int nsteps;
    int8_t dim[TP_MAX_STEPS];   /* dimension of global step i */
    int8_t local[TP_MAX_STEPS]; /* its step within that dimension */
    int8_t done[TP_MAX_STEPS + 1][SPEC_MAX_DIMS]; /* local steps of each dim before step i */
    int8_t global[SPEC_MAX_DIMS][TP_MAX_STEPS];   /* global index of (dim, local step) */
} tp_order;

typedef struct tp_bfly {
    tp_order o;
    const bfly_pattern *dim[SPEC_MAX_DIMS];
    const bfly_remap *remap[SPEC_MAX_DIMS]; /* NULL: the factor names chunks */
} tp_bfly;

/* `dim[k]` is a butterfly over dims[k] participants (a dimension of size 1 has no
 * pattern: pass NULL), `remap[k]` its position map or NULL. The sum of the steps must be
 * at most TP_MAX_STEPS. */
void tp_bfly_init(tp_bfly *t, int ndims, const int32_t *dims, const bfly_pattern *const *dim,
                  const bfly_remap *const *remap, int start, int mirror);
void tp_bfly_pattern(bfly_pattern *p, const tp_bfly *t);
/* Whether a participant can end a reduce-scatter with another's chunk (a factor remaps,
 * or the product is mirrored), and the product's position map. */
int tp_bfly_remaps(const tp_bfly *t);
void tp_bfly_remap(bfly_remap *rm, const tp_bfly *t);

typedef struct tp_tree {
    tp_order o;
    const tree_pattern *dim[SPEC_MAX_DIMS];
    int32_t root[SPEC_MAX_DIMS]; /* the root's coordinates */
} tp_tree;

/* `dim[k]` is a tree over dims[k] participants rooted at 0 (NULL for size 1). */
void tp_tree_init(tp_tree *t, int ndims, const int32_t *dims, const tree_pattern *const *dim,
                  int32_t root, int start, int mirror);
void tp_tree_pattern(tree_pattern *tp, const tp_tree *t);

#endif
