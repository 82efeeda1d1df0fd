/* torus_bfly.h - one port's butterfly on a logical torus, as a pattern for the butterfly
 * engine (butterfly.h, butterfly_parts.h): Swing and torus recursive doubling differ only
 * in their peer rule.
 *
 * Peer. A peer rule gives the signed offset, within the active dimension, of the peer of
 * a node whose coordinate there is c, at the dimension's relative step rel (Swing:
 * rho(rel), negated for odd c; recursive doubling: c xor 2^rel as an offset). At global
 * step s the port's dimension schedule (torus_shape.h) names the dimension and rel; a
 * mirrored port negates the offset. The peer relation must be symmetric at every step.
 *
 * Block rule (Swing digest Sec. 1.3): at reduce-scatter step s, r sends its peer
 * q = peer(r, s) the blocks SEND(r, s) = ({q} u reach(q, s+1)) \ ({r} u reach(r, s+1)),
 * reach(x, t) being every node x reaches from step t on, directly or through others. When
 * the reach sets overlap (a shape that is not all powers of two) the difference keeps a
 * block only at the last step that would send it (the "send a block only at its last
 * step" rule). Two ways to compute it:
 *
 *   contiguous  when the pattern is a true butterfly (P = 2^L: each step splits every
 *               group of nodes that still talk to each other in two halves), the chunks
 *               are renumbered once (Swing's "contiguous remapping"): position(v) is the
 *               chunk v ends the reduce-scatter with, every SEND(r, s) is one aligned
 *               range of 2^(L-1-s) positions, and rs_send costs O(1);
 *   explicit    otherwise: position(v) = v and SEND(r, s) is built as a product of
 *               per-dimension reach sets (torus_bfly.c); messages then carry several
 *               ranges, more as P grows (6x6: up to 12, 10x10: 32, 100x100: hundreds),
 *               which keeps such shapes practical up to a few thousand ranks.
 *
 * The position map is computed in O(P L) time and O(P) memory and then checked (each step
 * must flip exactly one position bit); a pattern that fails the check uses explicit sets.
 */
#ifndef COLLSIM_TORUS_BFLY_H
#define COLLSIM_TORUS_BFLY_H

#include "algorithms/butterfly.h"
#include "algorithms/torus_shape.h"

typedef int64_t (*torus_peer_rule)(int32_t coord, int rel);

/* The peer rules, defined in their family files:
 *   swing_rho(s)        swing.c: sum_{i<=s} (-2)^i = 1, -1, 3, -5, 11, ...
 *   swing_peer_rule     swing.c: rho(rel), negated for odd c
 *   xor_peer_rule       rd_torus.c: +2^rel if bit rel of c is 0, else -2^rel (c xor 2^rel) */
int64_t swing_rho(int s);
int64_t swing_peer_rule(int32_t c, int rel);
int64_t xor_peer_rule(int32_t c, int rel);

typedef struct torus_bfly {
    torus_shape shape;
    torus_peer_rule rule;
    int mirrored;
    int nsteps;
    torus_step steps[TORUS_MAX_STEPS];
    int32_t *pos;    /* contiguous block rule: position of each participant; NULL: explicit */
    bfly_pattern pat; /* peer and rs_send, ctx = this struct (do not copy it afterwards) */
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
