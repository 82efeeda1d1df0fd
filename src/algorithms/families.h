/* families.h - the built-in algorithm family tables (one per file in src/algorithms/). */
#ifndef COLLSIM_FAMILIES_H
#define COLLSIM_FAMILIES_H

#include "algorithms/algorithm.h"

extern const alg_desc alg_family_binomial[];  /* binomial.c: binomial trees */
extern const alg_desc alg_family_linear[];    /* linear.c: root-to-all, all-to-all at once */
extern const alg_desc alg_family_butterfly[]; /* recursive.c: recursive doubling / halving */
extern const alg_desc alg_family_ring[];      /* ring.c */
extern const alg_desc alg_family_ring_ahead[]; /* ring_ahead.c: libbine's ring, recv ahead */
extern const alg_desc alg_family_chain_pipeline[]; /* chain_pipeline.c: pipelined chain bcast */
extern const alg_desc alg_family_bruck[];     /* bruck.c: Bruck and k-port Bruck */
extern const alg_desc alg_family_pairwise[];  /* pairwise.c: pairwise, XOR exchanges */
extern const alg_desc alg_family_composite[]; /* composite.c: two-phase compositions */
extern const alg_desc alg_family_bcast_sag[]; /* bcast_sag.c: scatter + allgather bcasts */
extern const alg_desc alg_family_kautz[];     /* kautz.c: Kautz K(d,2) neighbour collectives */
extern const alg_desc alg_family_twodfc[];    /* twodfc.c: 2D fully-connected (2dfc) */
extern const alg_desc alg_family_p2p[];       /* p2p.c: point to point */
extern const alg_desc alg_family_parlogna[];  /* parlogna.c: ParLogNa (alltoallv) */
extern const alg_desc alg_family_parlinna[];  /* parlinna.c: ParLinNa (alltoallv) */
extern const alg_desc alg_family_bine_tree[];      /* bine_tree.c: Bine trees */
extern const alg_desc alg_family_bine_butterfly[]; /* bine_butterfly.c: Bine butterflies */
extern const alg_desc alg_family_bine_alltoall[];  /* bine_alltoall.c: Bine alltoall */
extern const alg_desc alg_family_bine_torus[];     /* bine_torus.c: torus-optimized Bine */
extern const alg_desc alg_family_swing[];     /* swing.c: Swing allreduce on tori */
extern const alg_desc alg_family_swing_partitioned[]; /* swing_partitioned.c: Swing RS, AG */
extern const alg_desc alg_family_rd_torus[];  /* rd_torus.c: recursive doubling on tori */
extern const alg_desc alg_family_bucket[];    /* bucket.c: multidimensional ring on tori */
extern const alg_desc alg_family_hamiltonian[]; /* hamiltonian.c: Hamiltonian rings, 2D tori */

#endif
