/* bine_patterns.h - Bine trees and butterflies as patterns of the tree engine (tree.h)
 * and the butterfly engine (butterfly.h), over n participants.
 *
 * Trees (broadcast order, rooted at participant 0; any root by the chunk map's rotation):
 *
 *   DH tree   distance-halving: v receives at its first-arrival step from
 *             pi(v, s-1-step) and forwards at each later step t to pi(v, s-1-t) unless
 *             that participant was reached earlier (n even: App. C pruning; for a power
 *             of two this is Eq. 1). Subtrees are contiguous circular ranges for powers
 *             of two (a few are not after pruning). Small bcast/reduce, gather, scatter.
 *   DD tree   distance-doubling, n a power of two: v receives at step hibit(v(v)) from
 *             pi(v, step) and sends to pi(v, t) at every later step. Its subtree()
 *             returns nu-POSITIONS (positions sharing the top bits of nu(v)), which are
 *             contiguous: the scatter of the large bcast and the gather of the large
 *             reduce, where participant v's data sits at position nu(v).
 *
 * Butterflies (the reduce-scatter order; the allgather runs it backwards):
 *
 *   natural   distance-doubling, peer pi(v, i); rs_send(v, i) = the chunks x whose DH
 *             tree rooted at x reaches v at step s-1-i (the superposition of the DH
 *             trees, pruned for n even: App. C). Not contiguous. n even.
 *   remap     distance-doubling, peer pi(v, i); rs_send names nu-positions: the 2^(s-1-i)
 *             positions sharing the top i+1 bits of nu(pi(v, i)). pos(v) = nu(v).
 *             n a power of two.
 *   halving   distance-halving, peer pi(v, s-1-i); rs_send = the 2^(s-1-i) participants
 *             around q = pi(v, s-1-i) that q reaches in the remaining steps: a circular
 *             range (the "two transmissions" strategy). n a power of two.
 */
#ifndef COLLSIM_BINE_PATTERNS_H
#define COLLSIM_BINE_PATTERNS_H

#include "algorithms/butterfly.h"
#include "algorithms/bine_core.h"
#include "algorithms/tree.h"

typedef struct bine_tree {
    int32_t n;
    int s;
    bine_arrivals arr; /* DH tree only */
} bine_tree;

/* n even (>= 2). */
void bine_dh_tree_init(bine_tree *t, int32_t n);
/* n a power of two. */
void bine_dd_tree_init(bine_tree *t, int32_t n);
void bine_tree_free(bine_tree *t);
void bine_dh_tree_pattern(tree_pattern *tp, const bine_tree *t);
void bine_dd_tree_pattern(tree_pattern *tp, const bine_tree *t);

typedef struct bine_bfly {
    int32_t n;
    int s;
    bine_arrivals arr; /* natural */
    int32_t *nu_inv;   /* remap */
} bine_bfly;

void bine_natural_bfly(bfly_pattern *p, bine_bfly *c, int32_t n);
void bine_remap_bfly(bfly_pattern *p, bfly_remap *rm, bine_bfly *c, int32_t n);
void bine_halving_bfly(bfly_pattern *p, bine_bfly *c, int32_t n);
void bine_bfly_free(bine_bfly *c);

#endif
