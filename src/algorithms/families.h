/* families.h - the built-in algorithm family tables (one per file in src/algorithms/). */
#ifndef COLLSIM_FAMILIES_H
#define COLLSIM_FAMILIES_H

#include "algorithms/algorithm.h"

extern const alg_desc alg_family_binomial[];  /* binomial.c: binomial trees */
extern const alg_desc alg_family_linear[];    /* linear.c: root-to-all, all-to-all at once */
extern const alg_desc alg_family_butterfly[]; /* recursive.c: recursive doubling / halving */
extern const alg_desc alg_family_ring[];      /* ring.c */
extern const alg_desc alg_family_bruck[];     /* bruck.c: Bruck and k-port Bruck */
extern const alg_desc alg_family_pairwise[];  /* pairwise.c: pairwise, XOR exchanges */
extern const alg_desc alg_family_composite[]; /* composite.c: two-phase compositions */
extern const alg_desc alg_family_swing[];     /* swing.c: Swing allreduce on tori */
extern const alg_desc alg_family_rd_torus[];  /* rd_torus.c: recursive doubling on tori */
extern const alg_desc alg_family_bucket[];    /* bucket.c: multidimensional ring on tori */
extern const alg_desc alg_family_hamiltonian[]; /* hamiltonian.c: Hamiltonian rings, 2D tori */

#endif
