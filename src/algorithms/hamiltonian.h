/* hamiltonian.h - two edge-disjoint Hamiltonian cycles of a 2D torus (hamiltonian.c). */
#ifndef COLLSIM_HAMILTONIAN_H
#define COLLSIM_HAMILTONIAN_H

#include <stdint.h>

#include "common/error.h"

/* Builds the two cycles of a rows x cols torus (rank = row*cols + col) into order0 and
 * order1 (P entries each: the rank at each position) and checks that each visits every
 * rank once, moves one hop at a time, and that they share no link. -1 with a message
 * saying which property fails otherwise. In a dimension of size 2 the two neighbours
 * coincide and count as one link. */
int hamiltonian_rings_build(int32_t rows, int32_t cols, int32_t *order0, int32_t *order1,
                            cs_error *err);

#endif
