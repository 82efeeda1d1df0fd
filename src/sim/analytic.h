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
 * visitors, the traffic model's route walk): pass k costs the messages of step k with the
 * counts n_k made by pass k-1 and counts step k+1's messages for pass k+1. Memory is
 * O(P + link resources) (three doubles per rank, two message counts and the traffic
 * tally per resource), never O(messages); time is (steps + 1) generations of every rank.
 * The traffic columns are the traffic model's (every send tallied once, at its counting
 * pass).
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
} analytic_opts;

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
