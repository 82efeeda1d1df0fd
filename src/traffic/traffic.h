/* traffic.h - bytes on links: what a schedule puts on the network, per link class.
 *
 * Every message (a send op of the schedule) travels from its rank's host to its peer's
 * host along the route the platform uses. Counting it means adding its bytes to every
 * link resource of the route:
 *
 *   resource         what SimGrid shares: a full-duplex link is two resources (one per
 *                    direction, SimGrid's _UP/_DOWN), a shared or one-way link is one.
 *                    Resource id = 2 * link + (full duplex and traversed b -> a).
 *   bytes_<class>    bytes x links traversed, per link class (host, local, global);
 *   bytes_intergroup_msgs
 *                    bytes of messages whose two hosts have different group ids (the
 *                    Bine/PICO "external bytes"; 0 on topologies without groups);
 *   max_link_bytes   the largest byte count of one resource;
 *   messages         number of sends; bytes_sent their bytes; steps the longest rank's
 *                    number of steps.
 *
 * Messages between two ranks on the same host (several ranks per node) count in
 * `messages` and `bytes_sent` but not on any link: they never reach the network.
 *
 * The same tally serves the `traffic` model (routes from topo_route, below) and the
 * SimGrid run (routes from sg_host_get_route, src/sim): both must give equal numbers.
 */
#ifndef COLLSIM_TRAFFIC_H
#define COLLSIM_TRAFFIC_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "topologies/topology.h"

typedef struct traffic_counts {
    int64_t bytes_class[LINK__COUNT]; /* indexed by link_class */
    int64_t bytes_intergroup_msgs;
    int64_t max_link_bytes;
    int64_t messages;
    int64_t bytes_sent;
    int32_t steps;
} traffic_counts;

/* Bytes per link resource, plus the running totals. */
typedef struct traffic_tally {
    const topology *t;
    int64_t *resource_bytes; /* 2 * t->nlinks entries */
    traffic_counts c;
    /* The byte counters must fit in int64_t: a sum that would not sets `overflow` (the
     * counter saturates at INT64_MAX) and `worst` follows the largest true sum in double
     * precision, so that the error can say how much too large the point is. */
    int overflow;
    double worst;
    double sum_class[LINK__COUNT], sum_sent, sum_intergroup;
} traffic_tally;

void traffic_tally_init(traffic_tally *x, const topology *t);
void traffic_tally_free(traffic_tally *x);
/* -1 with "the byte counts of this point overflow: bytes x links would reach 1.1e+19,
 * more than 2^63-1 (9.2e+18); sizes at most 0.84x of these fit" when a counter did not
 * fit in int64_t; 0 otherwise. */
int traffic_tally_check(const traffic_tally *x, cs_error *err);

/* The resource a directed hop uses (see the file comment). */
static inline int64_t traffic_resource(const topology *t, topo_hop h)
{
    return 2 * h.link + (t->links[h.link].sharing == LINK_FULL_DUPLEX && h.reverse ? 1 : 0);
}

/* Counts one message between two hosts (messages, bytes_sent, inter-group bytes); the
 * caller then adds its route, hop by hop, with traffic_tally_hop. */
void traffic_tally_message(traffic_tally *x, int32_t src_host, int32_t dst_host, int64_t bytes);
void traffic_tally_hop(traffic_tally *x, int64_t resource, int64_t bytes);
/* A rank ran `steps` steps (keeps the maximum). */
void traffic_tally_steps(traffic_tally *x, int32_t steps);
/* The totals, with max_link_bytes computed over the resources. */
void traffic_tally_result(const traffic_tally *x, traffic_counts *out);

/* Counts a whole schedule without SimGrid: every rank is generated in turn through a
 * streaming builder (memory stays per-rank, so 10^6 ranks are fine) and every send is
 * walked along topo_route(host_of_rank[rank], host_of_rank[peer]). When `tally` is not
 * NULL it receives the per-resource bytes (initialised here; the caller frees it). */
int traffic_count(const alg_run *run, topology *t, const int32_t *host_of_rank,
                  traffic_counts *out, traffic_tally *tally, cs_error *err);

/* One send as the walker sees it: the sending rank, its step (the rank's absolute step
 * index, 0-based), the op, the two hosts and the route (nhops = 0 when both ranks share a
 * host). The hops array is only valid during the call. */
typedef void (*traffic_visit_fn)(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                                 int32_t src_host, int32_t dst_host, const topo_hop *hops,
                                 int nhops);

/* One step of one rank, every op of it (sends, receives, local ops), as the walker
 * sees it before it counts the step's sends: ops [rs_step_begin(chunk, s),
 * rs_step_end(chunk, s)) of chunk->rank's absolute step `step`. */
typedef void (*traffic_step_fn)(void *ctx, const rank_sched *chunk, uint32_t s, uint32_t step);

/* What traffic_count_ex counts, besides the defaults of traffic_count. */
typedef struct traffic_walk_opts {
    int64_t step;           /* TRAFFIC_ALL_STEPS, or count only the sends of the steps
                               step .. step + nsteps - 1 */
    int64_t nsteps;         /* with a step: how many steps from it (default 1) */
    traffic_visit_fn visit; /* optional: called for every counted send after it is tallied */
    void *visit_ctx;
    traffic_step_fn visit_step; /* optional: called for every counted step (visit_ctx) */
} traffic_walk_opts;
#define TRAFFIC_ALL_STEPS (-1)
/* Defaults: every step, no visitor. */
void traffic_walk_opts_init(traffic_walk_opts *o);

/* traffic_count restricted to a window of steps (opts->step, opts->nsteps) and / or
 * reporting every counted step and send to visitors (opts may be NULL: traffic_count).
 * With a step filter, messages, bytes and link bytes are the window's; `steps` stays the
 * longest rank's number of steps. Summing the per-step tallies over every step gives
 * traffic_count's tally. */
int traffic_count_ex(const alg_run *run, topology *t, const int32_t *host_of_rank,
                     const traffic_walk_opts *opts, traffic_counts *out, traffic_tally *tally,
                     cs_error *err);
/* The PICO tracer's count (docs/interop.md), no topology needed: the bytes of every send
 * between two ranks of one group (internal, same host included) or of two groups
 * (external, = bytes_intergroup_msgs); sends with a rank of no group (-1) are `ungrouped`. */
typedef struct group_traffic {
    int64_t internal, external, ungrouped;
    int64_t messages;
} group_traffic;
int traffic_count_groups(const alg_run *run, const int32_t *group_of_rank, group_traffic *out);

#endif
