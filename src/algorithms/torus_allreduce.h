/* torus_allreduce.h - the allreduce of torus butterflies (Swing, torus recursive
 * doubling): ports, the two variants, and shapes that are not powers of two.
 *
 * Shape: the spec's dims (or the ring of P), see torus_shape.h.
 *
 * Ports. multiport: the vector is cut into 2D parts, one butterfly per part, all run at
 * once (concurrent.h; an odd ring's extra-rank exchanges are a second lane); part j < D
 * is the plain collective starting in dimension j, part D + j the mirrored one (offsets
 * negated) starting in the same dimension, so at every step the 2D collectives use 2D
 * different ports. Single port: one collective, port 0.
 *
 * Variants. latency: L steps, each part's whole data to and from the peer every step.
 * bandwidth: reduce-scatter (L steps, torus_bfly.h block rule) then allgather (the same
 * steps backwards); each message is one block range when the shape is all powers of two.
 *
 * Shapes that are not all powers of two, in this order of preference:
 *   dedup   (even_dedup, bandwidth) every dimension even: run on the shape as it is; the
 *           block rule sends a block only at its last step (Swing paper Sec. 3.2);
 *   extra   (odd_extra, bandwidth) a ring of odd P: ranks 0..P-2 run the even algorithm
 *           and rank P-1 exchanges directly: at reduce-scatter step s it sends each rank
 *           of a group its contribution to that rank's final block and gets theirs to its
 *           own block; groups take half the remaining ranks, the last step the rest
 *           (P = 7: 3, 2, 1); the allgather returns the reduced blocks in reverse order;
 *   shrink  otherwise: each dimension d shrinks to d' = the largest power of two <= d,
 *           one dimension after the other: the ranks with coordinate c >= d' hand their
 *           whole vector to c - (d - d') before the butterflies and get the result back
 *           after them (one extra step each way per such dimension; the authors'
 *           libswing does this for its latency-optimal variant).
 * Blocks: part k is blocks [k*B, (k+1)*B), B = the butterflies' ranks (+1 for the extra
 * rank's block) for bandwidth, 1 for latency.
 */
#ifndef COLLSIM_TORUS_ALLREDUCE_H
#define COLLSIM_TORUS_ALLREDUCE_H

#include "algorithms/algorithm.h"
#include "algorithms/torus_bfly.h"

typedef struct ta_config {
    torus_peer_rule rule;
    int multiport;  /* 2D parts (all ports) or one collective */
    int bandwidth;  /* reduce-scatter + allgather, else the whole vector every step */
    int even_dedup; /* allow the dedup strategy */
    int odd_extra;  /* allow the extra-rank strategy */
} ta_config;

/* prepare / gen_rank / release of an alg_desc, with the family's configuration. */
int torus_allreduce_prepare(const coll_spec *s, sched_layout *l, const ta_config *cfg,
                            void **ctx, cs_error *err);
void torus_allreduce_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b);
void torus_allreduce_release(void *ctx);

#endif
