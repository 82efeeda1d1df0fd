/* dims_check.h - a point's dims against its rank-to-node mapping, without simulating it
 * (`collsim run --dry-run`): the rule of rank_shape.h, checked before anything runs. */
#ifndef COLLSIM_DIMS_CHECK_H
#define COLLSIM_DIMS_CHECK_H

#include "common/error.h"
#include "sim/sim.h"
#include "topologies/topology.h"

/* The last topology built, kept for the next point with the same spec. */
typedef struct dims_checker {
    topology *t;
    char spec[1024];
} dims_checker;

void dims_checker_init(dims_checker *d);
void dims_checker_free(dims_checker *d);

/* 0 when the point of c would pass rank_shape_resolve (or the rule does not apply: an
 * algorithm that reads no dims, no dims given, an external platform); -1 with the
 * message sim_run would give (both shapes) when its dims contradict the mapping, or when
 * its algorithm, topology or placement fails. Builds the topology (once per spec). */
int dims_check(dims_checker *d, const sim_config *c, cs_error *err);

#endif
