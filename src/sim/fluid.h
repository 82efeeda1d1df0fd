/* fluid.h - collsim's own flow network (`--flow-engine loop`, docs/simulator.md#flow-engines):
 * SimGrid's CM02 model as collsim configures it (network/model:CM02,
 * network/crosstraffic:0), run in the packet model's loop engine instead of SimGrid's
 * network model, so that a message costs no SimGrid comm, mailbox or max-min variable.
 *
 * The rank side is the packet model's (packet.h: pk_isend_on, pk_irecv_on, pk_wait_any,
 * pk_compute ...): a send meets its receive per channel, and once both are posted the
 * message is a flow on its route (topo_route: one resource per link, per direction when
 * full duplex, traffic_resource). As in SimGrid 3.32 (src/surf/network_cm02.cpp,
 * src/kernel/lmm/maxmin.cpp, src/kernel/resource/Model.cpp):
 *   latency   the flow first waits the sum of its links' latencies L (consuming nothing);
 *   share     then it gets a weighted max-min fair rate (progressive filling): its sharing
 *             penalty is L (weight 1 / L; 1 when L = 0: CM02's weight-S is 0), its bound
 *             TCP_gamma / (2 L) (gamma = 4 MiB) and its route's smallest bandwidth; the
 *             latency and bandwidth factors of CM02 are 1;
 *   loopback  ranks of one host: a FATPIPE link (intra_bw, intra_lat): every such flow
 *             gets min(intra_bw, gamma / (2 intra_lat)) after intra_lat;
 *   events    rates change only when a flow's latency ends or a flow ends; the flows that
 *             share a resource, transitively, with the ones that changed are recomputed,
 *             all changes of one instant together; a flow ends at now + remains / rate;
 *             like SimGrid's lazy update, the flow events within surf/precision (1e-9 s)
 *             of the instant are handled at it, and a resource whose remaining capacity
 *             falls below maxmin/precision (1e-5) of its bandwidth is saturated;
 *   ranks     the sender and the receiver see the message complete together when its flow
 *             ends.
 * Bytes: every flow adds its bytes to the resources of its route (the same route SimGrid
 * takes, which topo_sgcheck verifies), on the tally when the network is freed.
 */
#ifndef COLLSIM_FLUID_H
#define COLLSIM_FLUID_H

#include <stdint.h>

#include <simgrid/forward.h>

#include "common/error.h"
#include "sim/packet.h"
#include "topologies/topology.h"
#include "traffic/traffic.h"

/* Which engine runs the flow model (cm02): SimGrid's network model, or this one. */
typedef enum { FLOW_ENGINE_SIMGRID, FLOW_ENGINE_LOOP } flow_engine;

/* "simgrid", "loop" */
const char *flow_engine_name(flow_engine e);
int flow_engine_parse(const char *text, flow_engine *out, cs_error *err);

/* SimGrid's constants for collsim's cm02 (sim_run.c: sim_simgrid_start). */
#define FL_TCP_GAMMA 4194304.0
#define FL_SURF_PRECISION 1e-9
#define FL_MAXMIN_PRECISION 1e-5

typedef struct fluid_config {
    int verify;          /* tests: check every solution is feasible and max-min fair */
    int64_t fault_share; /* tests: the n-th rate computed is made 1.5 times too large
                            (1-based; 0: never), which the checks must catch */
    int serial_compute;  /* tests: a rank that waits, then computes, is woken in between and
                            queues its local work itself (pk_wait_compute's two steps) */
    int fault_defer;     /* tests: 1 local work the engine queues for a rank lasts twice as
                            long; 2 the engine queues the instant's work after its ranks
                            have all run, last first, not in the places the ranks' own
                            pushes would have taken; the comparison with serial_compute must catch both */
    int digest_events;   /* tests: hash the events the loop runs, in order
                            (sim_result.packet_event_digest) */
} fluid_config;

/* A network for P ranks placed on hosts host_of_rank (kept, not copied), driven by the
 * packet model's loop engine (its actor on actor_host); the flows' bytes go to tally, or
 * per source rank after pk_net_rank_tallies. Freed with pk_net_free, checked with
 * pk_net_check (which also reports a failed verification). Call after the platform is
 * loaded and before the rank actors start. */
pk_net *fl_net_new(const fluid_config *c, topology *t, int32_t P, const int32_t *host_of_rank,
                   sg_host_t actor_host, traffic_tally *tally);

/* What the run cost (`collsim sim --verbose`): flows, solver runs, flows solved; 0 (s
 * untouched) if n is a packet network. */
typedef struct fl_run_stats {
    int64_t flows, solves, solved_flows;
} fl_run_stats;
int fl_net_stats(const pk_net *n, fl_run_stats *s);

#endif
