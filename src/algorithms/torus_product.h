/* torus_product.h - torus-optimized collectives: the product, dimension by dimension, of
 * one-dimensional butterflies or trees (Bine paper, App. D; Swing and Bucket build their
 * torus versions the same way). Any 1D bfly_pattern / tree_pattern can be a factor: Bine's
 * (bine_torus.c), the peer rules of Swing and torus recursive doubling (torus_bfly.h).
 *
 * Ranks are coordinates on a torus_shape (either rank order, torus_shape.h); the factor of
 * dimension k is a pattern over d_k participants (its coordinates) with s_k steps. The
 * product's steps follow one of the shape's step orders (torus_seq) from dimension
 * `start`: each step a move along one dimension. Trees and the allgather of Bine's
 * butterflies go round-robin (4x4, start 0, dimension 0 fastest: rank 0 talks to 3, 12,
 * 1, 4, App. D.1), so a Bine butterfly's reduce-scatter runs it backwards
 * (TORUS_ROUND_ROBIN_REVERSED); a Swing or torus recursive doubling reduce-scatter goes
 * forwards in libswing's rotation (TORUS_ROTATION). `mirror` reflects every coordinate
 * (c -> -c), so the product starts in the opposite direction: a multi-port collective runs
 * 2D products, one per (start dimension, direction) (torus_shape.h ports, concurrent.h).
 *
 * Butterfly product. Participant = rank. At step i (dimension k, local step j) v moves
 * along k to the factor's peer. Its reduce-scatter set is the product of the factor's
 * set in dimension k with, in every other dimension, the factor's index set still held
 * after the local steps already done there (for a factor that reaches every coordinate,
 * the coordinates it still reaches). Factors may name positions instead of chunks (a
 * bfly_remap, e.g. Bine's nu-positions); a mirrored product names reflected coordinates;
 * then the product names positions too, and tp_bfly_remap() gives where each
 * participant's chunk ends (index = sum of the factors' indices times the strides).
 *
 * Tree product. Participant = rank (the root's coordinates are subtracted per dimension,
 * then mirrored). v receives at the latest of the global steps at which its coordinates
 * are reached in their factors, from the neighbour along that dimension; its subtree is
 * the product of the factors' descendants reachable in the remaining steps.
 */
#ifndef COLLSIM_TORUS_PRODUCT_H
#define COLLSIM_TORUS_PRODUCT_H

#include "algorithms/butterfly.h"
#include "algorithms/torus_shape.h"
#include "algorithms/tree.h"

typedef struct tp_bfly {
    torus_shape shape;
    torus_order order; /* of the reduce-scatter */
    int mirror;
    const bfly_pattern *dim[SPEC_MAX_DIMS];
    const bfly_remap *remap[SPEC_MAX_DIMS]; /* NULL: the factor names chunks */
} tp_bfly;

/* `dim[k]` is a butterfly over the shape's d_k participants, `remap[k]` its position map
 * or NULL (remap itself may be NULL: no factor remaps). seq: the step order of the
 * reduce-scatter (the allgather runs it backwards). */
void tp_bfly_init(tp_bfly *t, const torus_shape *shape, const bfly_pattern *const *dim,
                  const bfly_remap *const *remap, int start, torus_seq seq, int mirror);
void tp_bfly_pattern(bfly_pattern *p, const tp_bfly *t);
/* Whether a participant can end a reduce-scatter with another's chunk (a factor remaps,
 * or the product is mirrored), and the product's position map. */
int tp_bfly_remaps(const tp_bfly *t);
void tp_bfly_remap(bfly_remap *rm, const tp_bfly *t);

typedef struct tp_tree {
    torus_shape shape;
    torus_order order; /* of the broadcast */
    int mirror;
    const tree_pattern *dim[SPEC_MAX_DIMS];
    int32_t root[SPEC_MAX_DIMS]; /* the root's coordinates */
} tp_tree;

/* `dim[k]` is a tree over the shape's d_k participants rooted at 0; the broadcast goes
 * round-robin (TORUS_ROUND_ROBIN). */
void tp_tree_init(tp_tree *t, const torus_shape *shape, const tree_pattern *const *dim,
                  int32_t root, int start, int mirror);
void tp_tree_pattern(tree_pattern *tp, const tp_tree *t);

#endif
