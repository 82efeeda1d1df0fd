/* packet.h - the packet-level network model (`--model packet`, docs/packet-model.md).
 *
 * The flow models let SimGrid share link bandwidth fluidly. This model moves packets hop
 * by hop instead. Two engines run it (packet_config.engine, `--packet-engine`):
 *
 *   loop     (default) the network is its own discrete-event simulation: ports, buffers
 *            and NICs are plain structures, their events (a port's serialization ends, a
 *            port or NIC has work again, a message completes, a rank's local work ends)
 *            wait in one binary heap, and one SimGrid actor runs them
 *            (packet_loop.c). Rank actors stay SimGrid actors; while any of them runs,
 *            the engine waits; when all wait in the model, it runs events until one
 *            wakes a rank, moves SimGrid's clock there (sg_actor_sleep_until; not
 *            under the fluid network, whose ranks read the engine's clock:
 *            pk_rank_clock) and resumes that rank. A rank's local work must
 *            therefore go through pk_compute, not sg_actor_sleep_for.
 *   actors   the earlier engine, kept for one release to compare against: every port
 *            and NIC is a SimGrid actor that sleeps for serialization times and
 *            suspends / resumes the others (packet_actors.c). Same rules, same packets.
 *
 * The model (both engines):
 *
 *   messages   a send from rank a to rank b starts once b has posted the matching
 *              receive (rendezvous, like SimGrid's mailboxes in the flow models); its
 *              source host's NIC cuts it into packets of at most `mtu` bytes, taking
 *              one packet in turn from each of its active messages (round robin);
 *   ports      every link resource (one per direction of a full-duplex link, one for a
 *              shared link: traffic.h) is an output port with a queue: it takes the
 *              oldest packet that has arrived (per-hop latency) and has a credit of
 *              the downstream buffer on its virtual channel (a blocked channel never
 *              holds up another; packet_queue.c finds that packet without walking the
 *              queue), serializes it at the link bandwidth; the packet arrives at the
 *              link's far node `lat` seconds later and is routed into the next port's
 *              queue;
 *   buffers    the input buffer at the far end of every port holds `buffer` bytes per
 *              virtual channel; a packet holds its credit from the start of its
 *              serialization until it leaves that node (the next port's serialization
 *              ends), and the NIC's injection buffer holds `buffer` bytes too; hosts
 *              absorb delivered packets at once;
 *   deadlock   virtual channel = number of links the packet has crossed (structured
 *              buffer pools): buffers are only ever waited for in increasing channel
 *              order, so no cycle of waits exists whatever the routing (minimal,
 *              adaptive or Valiant);
 *   delivery   a message is complete when its last packet has arrived; the sending and
 *              the receiving rank then both see it complete; messages between ranks of
 *              one host take intra_lat + bytes / intra_bw (the loopback, no packets).
 *
 * Routing (per packet, decided at every node):
 *   minimal    the flow model's route (topo_route), for every family;
 *   adaptive   among the minimal next hops (topo_next_hops: torus, mesh, hyperx, 2dfc,
 *              fattree, dragonfly, dragonflyplus) the output with the fewest bytes
 *              queued plus bytes in its downstream buffer (ties: the deterministic
 *              hop); families without next hops route minimally; with failed links
 *              the next hops of minimal remaining paths (topologies/fault_hops.c);
 *   ugal       UGAL-L, Dragonfly and Dragonfly+ only: at the source router a packet
 *              toward another group goes through a random intermediate group (Valiant)
 *              when q_min x H_min > q_val x H_val + buffer x H_min (q: occupancy of
 *              the first output, H: path lengths); then adaptive routing as above;
 *   ecmp       per flow: among the minimal next hops the one a hash of (source rank,
 *              destination rank, the message's number between them, the node) picks,
 *              so every packet of a message takes the same path and messages spread;
 *              families without next hops route minimally.
 */
#ifndef COLLSIM_PACKET_H
#define COLLSIM_PACKET_H

#include <stdint.h>

#include <simgrid/forward.h>

#include "common/error.h"
#include "topologies/topology.h"
#include "traffic/traffic.h"

typedef enum { PK_ROUTE_MINIMAL, PK_ROUTE_ADAPTIVE, PK_ROUTE_UGAL, PK_ROUTE_ECMP } pk_routing;
typedef enum { PK_ENGINE_LOOP, PK_ENGINE_ACTORS } pk_engine;

#define PK_DEFAULT_MTU 4096
#define PK_DEFAULT_BUFFER (64 * 1024)
#define PK_MAX_BUFFER (1 << 30)

typedef struct packet_config {
    int64_t mtu;        /* bytes per packet, >= 1 (default 4 KiB) */
    int64_t buffer;     /* bytes per input buffer and virtual channel, >= mtu (64 KiB) */
    pk_routing routing; /* default minimal */
    uint64_t seed;      /* UGAL's choice of intermediate groups (default 1) */
    pk_engine engine;   /* default loop; actors: the earlier engine, for comparison */
    /* Tests only, to show that pk_net_check detects each fault (1-based; 0 = never):
     * drop the n-th packet delivered (lost); deliver the n-th packet twice (duplicated
     * at the destination); have the port of the n-th packet hop send it twice, the copy
     * vanishing on the wire (a port sending more bytes than it took). */
    int64_t fault_drop, fault_dup, fault_resend;
    /* Tests only: a single virtual channel, to show that rings then deadlock. */
    int fault_one_vc;
} packet_config;

void packet_config_init(packet_config *c);
/* "minimal", "adaptive", "ugal", "ecmp" */
const char *pk_routing_name(pk_routing r);
int pk_routing_parse(const char *text, pk_routing *out, cs_error *err);
/* "loop", "actors" */
const char *pk_engine_name(pk_engine e);
int pk_engine_parse(const char *text, pk_engine *out, cs_error *err);
/* The configuration is usable on t: mtu >= 1, mtu <= buffer <= PK_MAX_BUFFER, ugal only
 * on dragonfly / dragonflyplus. */
int packet_config_check(const packet_config *c, const topology *t, cs_error *err);

/* ---- the network (used by the rank actors, sim_actors.c, and sim_run.c) ------------- */

typedef struct pk_net pk_net;

/* A network for P ranks placed on hosts host_of_rank (kept, not copied); its actors run
 * on actor_host; the bytes of every packet-hop go to tally, port by port, when the
 * network is freed (pk_net_free). Call after the platform is loaded and before the P rank
 * actors start (the loop engine starts its actor here and counts the P rank actors as
 * running). */
pk_net *pk_net_new(const packet_config *c, topology *t, int32_t P, const int32_t *host_of_rank,
                   sg_host_t actor_host, traffic_tally *tally);
void pk_net_free(pk_net *n);
/* Several jobs (jobs.h): every packet hop goes to the tally of its message's source rank,
 * per_rank[rank] (kept, not copied), instead of the network's tally. */
void pk_net_rank_tallies(pk_net *n, traffic_tally *const *per_rank);

/* Called by rank actors. pk_send / pk_recv post a send of `bytes` to rank peer / a
 * receive from rank peer (the k-th send a -> b meets the k-th receive at b from a,
 * whichever form posted them); pk_wait blocks until every message the rank posted with
 * pk_send / pk_recv has completed. */
void pk_send(pk_net *n, int32_t rank, int32_t peer, int64_t bytes);
void pk_recv(pk_net *n, int32_t rank, int32_t peer);
void pk_wait(pk_net *n, int32_t rank);
/* The per-message form: the same posts, returning a handle (>= 0) that pk_wait_any
 * waits for; pk_wait does not. pk_wait_any blocks until one of handles[0 .. count-1] has
 * completed and returns its index (the lowest if several have), releasing that handle;
 * -1 when count is 0. Of several completed handles it takes the one that completed
 * first (ties: the lowest index). */
typedef int64_t pk_handle;
pk_handle pk_isend(pk_net *n, int32_t rank, int32_t peer, int64_t bytes);
pk_handle pk_irecv(pk_net *n, int32_t rank, int32_t peer);
int pk_wait_any(pk_net *n, int32_t rank, const pk_handle *handles, int count);
/* With channels and payloads (the rank executor, sim_exec.c): a send on `channel`
 * meets a receive on the same channel (the k-th send a -> b on channel c meets the k-th
 * receive at b from a on c; channel 0 is pk_isend / pk_irecv's); when they meet, the
 * send's `payload` is stored at *payload_out (as SimGrid's mailboxes hand a pointer over).
 * pk_detach: the rank will not wait for handle h (released once it completes).
 * pk_timer: a handle that completes `seconds` from now (the rank's local work while it
 * also waits for messages), waited for with pk_wait_any like the others. (Under the
 * actors engine a message is known complete up to its last hop's latency before it
 * arrives, and pk_wait_any then sleeps until its arrival: a timer ending in between is
 * seen after it. The executor uses timers only for local work overlapping messages,
 * schedules with dependencies and no endpoint costs.) */
pk_handle pk_isend_on(pk_net *n, int32_t rank, int32_t peer, int64_t channel, int64_t bytes,
                      void *payload);
pk_handle pk_irecv_on(pk_net *n, int32_t rank, int32_t peer, int64_t channel,
                      void **payload_out);
void pk_detach(pk_net *n, pk_handle h);
pk_handle pk_timer(pk_net *n, int32_t rank, double seconds);
/* The rank's local work (reduction, copies) of `seconds`: under the loop engine the
 * engine wakes the rank when it ends (a rank must not sg_actor_sleep_for then). */
void pk_compute(pk_net *n, int32_t rank, double seconds);
/* pk_wait, then pk_compute(seconds): under the fluid network the engine queues the local
 * work itself when the messages end, so the rank is suspended once, not twice; every
 * event keeps its place, so the results are those of the two calls (packet_loop.c). */
void pk_wait_compute(pk_net *n, int32_t rank, double seconds);
/* The rank's actor ends (it posts nothing more). */
void pk_rank_exit(pk_net *n, int32_t rank);
/* The time a rank actor sees (rank actors read this clock, not SimGrid's): under the
 * fluid network (fluid.h) the loop engine's clock, as SimGrid's clock does not move
 * there; under the packet model SimGrid's, which its engines move. */
double pk_rank_clock(const pk_net *n);

/* After the run: every port sent on exactly the bytes queued on it and every message's
 * bytes were delivered exactly once; fails naming the first port or message that differs. */
int pk_net_check(const pk_net *n, cs_error *err);
/* Packet hops simulated (packets x links crossed). */
int64_t pk_net_packet_hops(const pk_net *n);

/* What the run cost (`collsim sim --verbose`): packet-hops, events run by the loop engine,
 * CPU seconds inside its event loop and between its runs (the rank actors and SimGrid),
 * and the process's CPU clock (cpu_seconds) when the loop first ran (everything before is
 * setup) and when it ended for good (everything after is teardown). Zero under the actors
 * engine. */
typedef struct pk_run_stats {
    int64_t packet_hops, events;
    uint64_t event_digest; /* the events in the order run, when asked (tests), else 0 */
    double engine_cpu_s, ranks_cpu_s, first_event_cpu_s, end_cpu_s;
} pk_run_stats;
void pk_net_stats(const pk_net *n, pk_run_stats *s);
/* The loop engine measures the CPU split of pk_run_stats (two reads of the process's CPU
 * clock, system calls, at every wake-up of its loop: `collsim sim --verbose` only);
 * without it the four CPU fields stay 0. */
void pk_net_measure_cpu(pk_net *n);

#endif
