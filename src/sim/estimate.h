/* estimate.h - refusing impossible runs before they start: memory and event estimates.
 *
 * A run that cannot fit in memory should stop at once with a message giving the estimate
 * and the limit, not be killed by the kernel after minutes of work. Every command that
 * simulates or verifies (collsim sim, collsim verify, the Lua layer through the same
 * calls) checks twice:
 *
 *   1. before anything is built (O(1)): from P, Q and the topology's size computed from
 *      its parameters (topo_size_spec), so that a 10^9-rank run or a 2^26-node torus is
 *      refused before a 10^9-entry table or the topology is allocated;
 *   2. once the topology is built and the algorithm prepared: the point's estimate, with
 *      the topology's hosts and links and the schedules of three sampled ranks (0, P/2,
 *      P-1: their messages per rank and their largest step).
 *
 * The figures are peak resident memory of the process doing the work (the simulation
 * child), calibrated against measured peak RSS (docs/robustness.md "Calibration"): a
 * SimGrid point costs a base, plus per rank (actor, its touched stack, per-rank tables),
 * per host, per link (SimGrid's resources and our link tables) and per message in flight
 * in one step (SimGrid communication objects). Estimates are made in double precision, so
 * products of huge factors cannot overflow; they are meant to be right within a factor of
 * about two, which is enough to tell "fits" from "impossible".
 *
 * The limit (`--max-memory SIZE`) defaults to half of the physical memory.
 */
#ifndef COLLSIM_ESTIMATE_H
#define COLLSIM_ESTIMATE_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "sim/sim.h"
#include "topologies/topology.h"

typedef struct run_estimate {
    double bytes;     /* peak resident memory, bytes */
    double messages;  /* messages simulated or verified (0: not estimated) */
    char basis[256];  /* what the figure is made of, for messages */
} run_estimate;

/* Physical memory in bytes (0 if unknown). */
int64_t estimate_physical_memory(void);
/* The default --max-memory: half of the physical memory (8 GiB when unknown). */
int64_t estimate_default_max_memory(void);

/* Building a topology of this size in a collsim process (collsim topo, draw, run's
 * validation of a scenario's topologies): our node and link tables, the family's extra
 * tables. */
void estimate_topology(const topo_size *s, run_estimate *e);
/* Sizes a topology spec (topo_size_spec) and fails when building it would need more than
 * max_memory (<= 0: no limit), or with the spec's own error. External platforms (.xml)
 * are not sized here: 0. */
int estimate_topology_check(const char *spec, int64_t max_memory, cs_error *err);

/* Simulation, before anything is built: P ranks at Q per host on a topology of size s
 * (NULL when unknown, an external platform: then a lower bound from P and Q alone). */
void estimate_sim_plan(int32_t P, int32_t Q, sim_model model, const topo_size *s,
                       run_estimate *e);
/* Simulation of a prepared run on a built topology. */
void estimate_sim_point(const topology *t, const alg_run *run, sim_model model,
                        run_estimate *e);

/* Verification (collsim verify), before the algorithm is prepared: what the streaming
 * engine, the lighter of the two, needs at least with `threads` threads (0: as many as
 * verify_run would start). */
void estimate_verify_ranks(int32_t P, int threads, run_estimate *e);

/* Writing a prepared run as a schedule file (collsim dump): e->bytes is the size of the
 * output, e->messages the sends, from the operations of three sampled ranks. */
void estimate_dump(const alg_run *run, run_estimate *e);

/* Fails when the estimate exceeds max_memory (<= 0: no limit), with a message giving both:
 * "needs about 18.2TiB of memory (basis), more than --max-memory 11.6GiB". */
int estimate_check(const run_estimate *e, int64_t max_memory, cs_error *err);

/* Writes an approximate size with one decimal and a binary unit ("18.2TiB", "512.0MiB"). */
void estimate_format_bytes(double bytes, char *buf, size_t n);

#endif
