/* bine_core.h - the arithmetic of Bine trees and butterflies (De Sensi et al., "Bine
 * Trees", SC'25; formulas and test vectors in shared/reference/bine.md).
 *
 * Ranks sit on a circle 0..p-1; Bine picks peers with negabinary (base -2) arithmetic so
 * that the modular distance of each step is about 2/3 of the binomial one.
 *
 *   s            number of steps, ceil(log2 p)
 *   rho(i)       sum_{k=0..i} (-2)^k = 1, -1, 3, -5, 11, ...            (always odd)
 *   pi(r, i, p)  butterfly peer: r + rho(i) for even r, r - rho(i) for odd r (mod p).
 *                For even p it is an involution and pairs even with odd ranks.
 *                Distance-halving (DH) step i uses pi(r, s-1-i); distance-doubling (DD)
 *                step j uses pi(r, j).
 *   nb(r)        rank2nb: the s-bit negabinary string of r if r <= largest(s), else of
 *                r - p (ranks "left" of 0); nb2rank is its inverse (p a power of two)
 *   DH tree      rank r != 0 receives at step s - u (u = number of equal trailing bits
 *                of nb(r)) and then forwards at step i to nb2rank(nb(r) xor (2^(s-i) - 1))
 *                (Eq. 1); its subtree is the ranks sharing its i+1 top nb bits: a
 *                contiguous circular range
 *   v(r)         h xor (h >> 1), h = nb(r) for odd r, nb(p - r) for even r, h(0) = 0;
 *                in the DD tree rooted at 0, r receives at step hibit(v(r)) from the q
 *                with v(q) = v(r) xor 2^step, and its subtree shares the low bits of v
 *   nu(r)        bit-reverse of v(r) over s bits: the block position that makes DD
 *                subtrees contiguous ("permute" / "send" strategies)
 *
 * Everything here takes p <= 2^30. v, nu, nb2rank and the Eq. 1 forms need p a power of
 * two; the first-arrival table (App. C) handles any even p.
 */
#ifndef COLLSIM_BINE_CORE_H
#define COLLSIM_BINE_CORE_H

#include <stdint.h>

/* ceil(log2 p), 0 for p = 1. */
int bine_steps(int32_t p);

/* rho(i) = sum_{k=0..i} (-2)^k = (1 - (-2)^(i+1)) / 3, i in 0..60. */
int64_t bine_rho(int i);

/* pi(r, i, p): the butterfly peer of r at the step using rho(i). */
int32_t bine_pi(int32_t r, int i, int32_t p);

/* Negabinary of any integer (two's-complement trick on 64 bits; for a value that fits
 * s negabinary bits, the low s bits are its representation), and back. */
uint64_t bine_int_to_nb(int64_t x);
int64_t bine_nb_to_int(uint64_t nb);
/* The range of values s negabinary bits represent: [smallest(s), largest(s)]. */
int64_t bine_nb_largest(int s);  /* 0101..01 */
int64_t bine_nb_smallest(int s); /* 1010..10 */

/* rank2nb / nb2rank on s = bine_steps(p) bits (p a power of two). */
uint32_t bine_rank2nb(int32_t r, int32_t p);
int32_t bine_nb2rank(uint32_t nb, int32_t p);

/* v(r) and nu(r) = reverse_s(v(r)) (p a power of two). */
uint32_t bine_v(int32_t r, int32_t p);
uint32_t bine_nu(int32_t r, int32_t p);
uint32_t bine_bitrev(uint32_t x, int s);

/* Closed forms of the trees rooted at 0 (p a power of two); -1 for rank 0.
 *   bine_dh_recv_step   s - u (Eq. 1)
 *   bine_dh_forward     the rank r sends to at DH step i (Eq. 1)
 *   bine_dd_recv_step   the highest set bit of v(r) */
int bine_dh_recv_step(int32_t r, int32_t p);
int32_t bine_dh_forward(int32_t r, int i, int32_t p);
int bine_dd_recv_step(int32_t r, int32_t p);

/* First arrivals of the distance-halving tree rooted at 0 over an even p (App. C): at
 * step i every rank that already holds the data sends to pi(r, s-1-i, p) unless that
 * rank was reached before (the later, duplicate subtree is dropped). step[r] is the
 * step at which r is first reached (-1 for rank 0). For a power of two it is the Eq. 1
 * tree. `by_step` lists the ranks in order of arrival step, `first[i]` where step i's
 * ranks start (first[s] = p - 1). */
typedef struct bine_arrivals {
    int32_t p;
    int s;
    int8_t *step;
    int32_t *by_step;
    int32_t first[33];
} bine_arrivals;

/* p even, 2 <= p <= 2^30. */
void bine_arrivals_init(bine_arrivals *a, int32_t p);
void bine_arrivals_free(bine_arrivals *a);

#endif
