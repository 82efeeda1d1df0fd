/* torus_linkload.h - per-step link loads of a schedule on its logical torus, and the
 * congestion figure of the Swing paper computed from them.
 *
 * Every send of the schedule is routed on the collective's logical torus (coll_spec dims;
 * the ring of P without) by minimal dimension-order routing: dimension 0 first, in each
 * dimension the shorter way round, a tie (distance exactly d/2) split half and half
 * between the two ways. Bytes add up per directed link and per step. This is the model
 * of the paper's Sec. 4.1 and of the digest's models/swing_linkload.py; it needs no
 * topology, only the schedule. (Loads on real topologies and routes are src/traffic's.)
 *
 * From the loads, the paper's Eq. 1 bandwidth term: T_bw = (n/D) beta Psi Xi, and a
 * step lasts as long as its most loaded link needs, so
 *   Psi * Xi = sum over steps of (bytes on the step's most loaded link) / (n / D).
 * For Swing bandwidth-optimal Psi = 1 and this is the congestion deficiency Xi
 * (1.184 on 64x64, tending to 1.19 / 1.03 / 1.008 for D = 2 / 3 / 4).
 */
#ifndef COLLSIM_TORUS_LINKLOAD_H
#define COLLSIM_TORUS_LINKLOAD_H

#include "algorithms/algorithm.h"

typedef struct torus_load {
    int32_t nsteps;
    double *step_max; /* bytes on the most loaded directed link, per step */
    int ndims;        /* of the logical torus */
} torus_load;

/* Generates every rank of a prepared algorithm (streaming) and routes its sends. Memory:
 * steps x P x 2D doubles. */
int torus_linkload(const alg_run *run, torus_load *out, cs_error *err);
void torus_load_free(torus_load *l);

/* Psi * Xi: sum of step_max over the steps, divided by bytes / D. */
double torus_load_bandwidth_factor(const torus_load *l, int64_t bytes);

#endif
