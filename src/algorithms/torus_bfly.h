/* torus_bfly.h - one port's butterfly on a logical torus from a per-dimension peer rule:
 * Swing and torus recursive doubling differ only in their rule. It is a torus product
 * (torus_product.h) of one 1D factor per dimension, plus the contiguous block rule of the
 * butterfly engine when the shape allows it.
 *
 * Peer. A peer rule gives the signed offset, within the active dimension, of the peer of
 * a node whose coordinate there is c, at the dimension's relative step rel (Swing:
 * rho(rel), negated for odd c; recursive doubling: c xor 2^rel as an offset). The factor of
 * dimension k moves c to c + offset (mod d_k); port j (torus_shape.h) starts in dimension
 * j mod D, goes forwards through libswing's rotation (TORUS_ROTATION) in its
 * reduce-scatter, and a mirrored port (j >= D) negates every offset (the Swing paper's
 * mirrored collectives; for Swing this is the reflection of the product, for recursive
 * doubling it is not). The peer relation must be symmetric at every step.
 *
 * Block rule (Swing digest Sec. 1.3): at reduce-scatter step s, r sends its peer
 * q = peer(r, s) the blocks SEND(r, s) = ({q} u reach(q, s+1)) \ ({r} u reach(r, s+1)),
 * reach(x, t) being every node x reaches from step t on, directly or through others. When
 * the reach sets overlap (a shape that is not all powers of two) the difference keeps a
 * block only at the last step that would send it (the "send a block only at its last
 * step" rule). Each factor computes this rule in its dimension, and the product makes
 * the torus sets of them. Two ways to name the blocks:
 *
 *   contiguous  when the pattern is a true butterfly (P = 2^L), the chunks are renumbered
 *               once (Swing's "contiguous remapping", bfly_positions in butterfly.h):
 *               position(v) is the chunk v ends the reduce-scatter with, every SEND(r, s)
 *               is one aligned range of 2^(L-1-s) positions, and rs_send costs O(1);
 *   explicit    otherwise: position(v) = v and SEND(r, s) is the product's set of ranks;
 *               messages then carry several ranges, more as P grows (6x6: up to 12,
 *               10x10: 32, 100x100: hundreds), which keeps such shapes practical up to a
 *               few thousand ranks.
 */
#ifndef COLLSIM_TORUS_BFLY_H
#define COLLSIM_TORUS_BFLY_H

#include "algorithms/torus_product.h"

typedef int64_t (*torus_peer_rule)(int32_t coord, int rel);

/* The peer rules, defined in their family files:
 *   swing_rho(s)        swing.c: sum_{i<=s} (-2)^i = 1, -1, 3, -5, 11, ...
 *   swing_peer_rule     swing.c: rho(rel), negated for odd c
 *   xor_peer_rule       rd_torus.c: +2^rel if bit rel of c is 0, else -2^rel (c xor 2^rel) */
int64_t swing_rho(int s);
int64_t swing_peer_rule(int32_t c, int rel);
int64_t xor_peer_rule(int32_t c, int rel);

/* The 1D factor of one dimension: a butterfly over d coordinates. */
typedef struct torus_rule_factor {
    int32_t d;
    torus_peer_rule rule;
    int negate;
} torus_rule_factor;

typedef struct torus_bfly {
    torus_shape shape;
    int nsteps;
    torus_rule_factor factor[SPEC_MAX_DIMS];
    bfly_pattern factor_pat[SPEC_MAX_DIMS];
    tp_bfly product;
    bfly_pattern product_pat;
    int32_t *pos; /* contiguous block rule: position of each participant; NULL: explicit */
    bfly_contiguous contiguous;
    bfly_pattern pat; /* peer and rs_send (in positions); points into this struct: do not
                         copy it afterwards */
} torus_bfly;

/* Port `port` (0 <= port < 2 * ndims) of the butterfly with `rule` on shape t. With
 * `blocks`, prepares the contiguous block rule when the pattern allows it; without, the
 * block rule stays explicit (position(v) = v; fine for latency-optimal collectives, which
 * never ask, and for showing the sets in rank numbers). Fails when the peer relation is
 * not symmetric on this shape (e.g. Swing on an odd dimension). */
int torus_bfly_init(torus_bfly *tb, const torus_shape *t, torus_peer_rule rule, int port,
                    int blocks, cs_error *err);
void torus_bfly_free(torus_bfly *tb);

int32_t torus_bfly_peer(const torus_bfly *tb, int32_t v, int step);
/* The position of the chunk participant v holds after the reduce-scatter. */
int32_t torus_bfly_position(const torus_bfly *tb, int32_t v);
/* SEND(v, step) in positions, appended to out (the pattern's rs_send). */
void torus_bfly_send_set(const torus_bfly *tb, int32_t v, int step, range_list *out);

#endif
