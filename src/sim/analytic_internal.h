/* analytic_internal.h - state shared by the analytic model's files (not a public header).
 *
 *   analytic.c       the rule: message costs, ready times, the plan of windows, the run
 *   analytic_pass.c  the passes over the ranks: survey, window, count and cost
 */
#ifndef COLLSIM_ANALYTIC_INTERNAL_H
#define COLLSIM_ANALYTIC_INTERNAL_H

#include "sim/analytic.h"

/* A send kept for costing: the two ranks and the bytes. */
typedef struct an_msg {
    int32_t src, dst;
    int64_t bytes;
} an_msg;

/* One step of the current window. */
typedef struct an_step {
    uint32_t *counts;   /* per resource: the step's messages crossing it */
    double *local;      /* per rank: the step's local seconds */
    an_msg *msgs;       /* the step's sends (buffered windows only) */
    int64_t nmsgs, cap;
    uint64_t sent_hash, recv_hash; /* step alignment: sends and receives must pair up */
    int64_t sent_n, recv_n;
} an_step;

typedef enum { AN_SURVEY, AN_WINDOW, AN_COUNT, AN_COST } an_mode;

typedef struct analytic_ctx {
    topology *t;
    const alg_run *run;
    const int32_t *host_of_rank;
    const analytic_opts *o;
    int32_t P;
    size_t nres;          /* link resources (+1) */
    double *ready;        /* per rank: end of its previous step */
    double *comm_end;     /* per rank: latest end of its messages in the step being costed */
    an_mode mode;
    int64_t first, n;     /* the window: steps first .. first + n - 1 */
    an_step *steps;       /* n of them */
    int64_t *sends;       /* survey: sends per step (nsteps entries) */
    int64_t nsteps, sends_cap;
    topo_hop *hops;       /* scratch route */
} analytic_ctx;

/* Passes (analytic_pass.c). The survey fills a->sends, a->nsteps and the traffic counts;
 * a window pass fills the steps' counts, local times and records; a count pass only the
 * counts of the single step of the window; a cost pass costs that step's sends with them
 * (into comm_end) and fills its local times. Each fails on a missing route. */
int an_pass(analytic_ctx *a, an_mode mode, traffic_counts *out, cs_error *err);

/* The cost of one send of a window step, its route walked again, into comm_end
 * (analytic.c). */
void an_cost_send(analytic_ctx *a, const an_step *st, int32_t src, int32_t dst, int64_t bytes,
                  const topo_hop *hops, int nhops);

#endif
