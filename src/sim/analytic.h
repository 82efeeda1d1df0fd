/* analytic.h - the analytic network model (`--model analytic`): a per-step estimate with
 * no event simulation (docs/simulator.md, "The analytic model").
 *
 * Rule. Steps are counted globally: step k is the k-th step of every rank (the built-in
 * generators are step-aligned: a send and its receive sit in the same step index, which
 * the model checks). Every rank r has a ready time ready[r] (0 at the start; the end of
 * its step k-1). In step k:
 *
 *   share(l)   the messages of step k (over all ranks) crossing link resource l
 *              (traffic.h: one per direction of a full-duplex link) divide its bandwidth
 *              equally: each gets bw(l) / n_k(l);
 *   cost(m)    a message of s bytes on route R costs sum_{l in R} lat(l) +
 *              s / min_{l in R} (bw(l) / n_k(l)); between two ranks of one host,
 *              intra_lat + s / intra_bw (the loopback, not shared); plus the endpoint
 *              costs of analytic_endpoint_cost (none yet: the hook below);
 *   end(m)     max(ready[src], ready[dst]) + cost(m) (rendezvous: a message starts when
 *              both ends have reached the step);
 *   ready'[r]  max(ready[r], end of r's messages of step k) + r's reduce and copy bytes /
 *              their rates (one after the other, as in the flow models).
 *
 * time_s is the largest final ready time. For a contention-free (no resource crossed by
 * two messages of one step), step-aligned schedule this is exactly what the cm02 flow
 * model computes; otherwise it is an estimate: messages of one global step share links
 * even when their ranks reach the step at different times, and equal shares ignore the
 * bandwidth max-min fairness gives back when a flow is limited elsewhere or ends early.
 *
 * Streaming. Ranks are generated one at a time (traffic_count_ex with a step window and
 * visitors: the traffic model's route walk), never held whole:
 *
 *   survey     a first pass counts the traffic columns (the traffic model's numbers), the
 *              number of steps and the sends of every step;
 *   windows    consecutive steps are grouped into windows of at most window_bytes of
 *              working memory (a step costs 4 B per link resource for its counts, 8 B
 *              per rank for its local time, 16 B per send for its record (src, dst,
 *              bytes)); one pass per window counts its steps' messages per resource and
 *              records its sends, then the steps are costed in order from the records
 *              (routes walked again with topo_route);
 *   big steps  a step larger than window_bytes alone is streamed: one pass counts it,
 *              a second costs its sends as the walk visits them (no records).
 *
 * Memory is O(P + link resources + window_bytes), never O(messages); time is 1 + windows
 * (+ 2 per big step) generations of every rank. The result does not depend on the
 * windows (tested).
 */
#ifndef COLLSIM_ANALYTIC_H
#define COLLSIM_ANALYTIC_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "topologies/topology.h"
#include "traffic/traffic.h"

typedef struct analytic_opts {
    double reduce_s_per_byte; /* 0: free */
    double copy_s_per_byte;
    double window_bytes;      /* working memory of one window (ANALYTIC_WINDOW_BYTES) */
} analytic_opts;
#define ANALYTIC_WINDOW_BYTES (512.0 * 1024 * 1024)

/* Defaults: the default rates (sim.h) and window. */
void analytic_opts_init(analytic_opts *o);

/* Estimates the run: *time_s, rank_finish[P] (may be NULL) and the traffic counts. Fails
 * on a route that does not exist or a schedule that is not step-aligned (naming the
 * first step whose sends and receives differ). */
int analytic_run(const alg_run *run, topology *t, const int32_t *host_of_rank,
                 const analytic_opts *o, traffic_counts *tc, double *time_s,
                 double *rank_finish, cs_error *err);

/* The cost of one message of `bytes` bytes over `nhops` hops (none: the loopback) when
 * link resource hops[i] is crossed by counts[resource] messages of the step (>= 1 each;
 * counts may be NULL: alone). Exposed for the tests' closed forms. */
double analytic_message_cost(const topology *t, const topo_hop *hops, int nhops, int64_t bytes,
                             const uint32_t *counts);

#endif
