/* packet_internal.h - the packet model's state, shared by its files (not a public header).
 *
 *   packet_net.c     ports, NICs, credits, what a port or NIC does next, the check
 *   packet_loop.c    the loop engine: its event heap and its SimGrid actor
 *   packet_heap.c    that heap
 *   packet_actors.c  the actors engine: a SimGrid actor per port and NIC
 *   packet_queue.c   a port's queue: which waiting packet it sends next
 *   packet_route.c   the hop a packet takes next (minimal, adaptive, UGAL-L)
 *   packet_ranks.c   messages, rendezvous of sends and receives, ranks waiting
 *   packet_config.c  the configuration
 *
 * Everything lives in one pk_net owned by sim_run (no global state); SimGrid runs one
 * actor at a time, so the actors update it without locks. A port or NIC that has nothing
 * to do records why in its `wait` field; whoever changes that condition wakes it (the
 * loop engine: an event now; the actors engine: resumes its actor).
 */
#ifndef COLLSIM_PACKET_INTERNAL_H
#define COLLSIM_PACKET_INTERNAL_H

#include "sim/delay_lanes.h"
#include "sim/packet.h"

enum { PK_BUSY, PK_IDLE, PK_CREDIT, PK_SLEEP }; /* why a port or NIC waits */

/* A hop as the model uses it: the port (traffic_resource of the topo_hop) and the node
 * it leads to. */
typedef struct pk_next {
    int32_t port, to;
} pk_next;

static inline pk_next pk_next_of(const topology *t, topo_hop h)
{
    return (pk_next){(int32_t)traffic_resource(t, h), topo_hop_head(t, h)};
}

typedef struct pk_msg {
    int32_t src_rank, dst_rank, src_host, dst_host;
    int64_t bytes;
    int64_t to_cut;           /* packets the NIC has still to cut */
    int64_t to_deliver;       /* packets not yet delivered */
    int64_t delivered_bytes;
    double done_at;           /* arrival of the latest packet */
    int64_t sreq, rreq;       /* the sender's and the receiver's requests */
    uint64_t flow;            /* ECMP: hash of ranks and the message's number between them */
    void *payload;            /* handed to the receive (pk_irecv_on) */
    struct pk_msg *next;      /* in its pair's queue, then in its NIC's queue, or spare */
    int32_t ugal_at;          /* UGAL: the router whose path lengths the message keeps
                                 (pk_msg_ugal_len), -1 none yet */
    pk_next route[];          /* minimal routing: topo_route(src_host, dst_host); then,
                                 under UGAL, ngroups + 1 path lengths (packet_route.c) */
} pk_msg;

/* The minimal next hops from node `at` toward host `dst` (topo_next_hops, as pk_next),
 * remembered in a direct-mapped table (packet_route.c): 64 bytes, one cache line. */
enum { PK_MEMO_HOPS = 6 };
typedef struct pk_hop_memo {
    int32_t at, dst;          /* at = -1: empty */
    int32_t k;                /* hops (at most PK_MEMO_HOPS: more are not remembered) */
    int32_t pad;
    pk_next hops[PK_MEMO_HOPS];
} pk_hop_memo;

/* The same for one next hop, the common case (Dragonfly next hops are always one): 16
 * bytes, so that four share a cache line and the table stays small. */
typedef struct pk_hop_memo1 {
    int32_t at, dst;          /* at = -1: empty */
    pk_next hop;
} pk_hop_memo1;

/* A host's switch and the ports of its host link (up from it, down into it): the next
 * hops out of a host and out of its switch toward it, when the memo is keyed by switch. */
typedef struct pk_host_hops {
    int32_t sw, up, down;
} pk_host_hops;

/* 64 bytes, one cache line (the packets live in 64-byte aligned slabs, packet_net.c). */
typedef struct pk_packet {
    pk_msg *msg;
    struct pk_packet *next;   /* in its port's flying list or lane, or the spare list */
    double ready;             /* when it has arrived at `at` */
    uint32_t seq;             /* its port's count of packets queued before it (wraps:
                                 compared as a difference, packet_queue.c) */
    int32_t port;             /* the port it is queued at (traffic_resource of its hop) */
    int32_t to;               /* that hop's far node */
    int32_t at;               /* the node it is at */
    int32_t bytes;
    int32_t lane;             /* the lane of its port it waits in */
    int32_t pool;             /* the credit pool it needs at its port, -1 none */
    int32_t holding;          /* credit pool it occupies, -1 none */
    int32_t via;              /* UGAL: intermediate group still to reach, -1 none */
    int16_t hops;             /* links crossed so far = its virtual channel */
    int8_t decided;           /* UGAL: the source router has chosen */
} pk_packet;

/* Arrived packets of one port that need the same credit pool and are of the same size
 * class (packet_queue.c), oldest first. */
typedef struct pk_lane {
    pk_packet *head, *tail;
    int64_t pool;             /* -1: into the destination host, no credit needed */
    int32_t size_class;       /* bit length of the packets' bytes */
    int32_t active;           /* its index in the port's active list, -1: empty */
    /* The packets from head to blocked_end (none: NULL) are all of blocked_min bytes or
     * more: while the pool has fewer credits, they need not be looked at again. */
    pk_packet *blocked_end;
    int32_t blocked_min;
} pk_lane;

/* An output port. Its packets are in the order (ready, seq): by arrival, then first
 * queued first. Those still crossing the previous link are in `flying`; arrived ones are
 * in lanes (packet_queue.c says why).
 * 128 bytes, 64-byte aligned: two cache lines, all hot. The first holds what other ports'
 * packets read and write (a credit returned: in_buffer and wait; adaptive routing and
 * UGAL: queued, in_buffer and mult) and all a queue take needs, so that these touch one
 * line of a port they do not otherwise use. */
typedef struct pk_port {
    int64_t in_buffer;        /* bytes holding credits of its downstream buffer */
    int64_t queued;           /* bytes waiting in the queue */
    pk_packet *flying, *flying_tail; /* not arrived yet, sorted by (ready, seq) */
    pk_lane *lanes;           /* every lane the port has had, none freed before the end */
    int32_t *active;          /* [0, cap_lanes): indexes of the non-empty lanes; then
                                 [cap_lanes, 2 cap_lanes): each lane's key (packet_queue.c) */
    int wait;
    int32_t nactive;
    uint16_t mult;            /* physical links of its link (topo_link.mult), set with the
                                 port's first packet */
    int16_t pad;
    int32_t packets;          /* packets flying or in a lane */
    /* second line */
    uint32_t seq;             /* packets queued so far (wraps) */
    int32_t cap_lanes, nlanes, last_lane;
    double bw, lat;
    pk_packet *current;       /* loop engine: the packet being serialized */
    int64_t bytes_in, bytes_out;
    struct pk_net *net;       /* set with the port's first packet */
} pk_port;
_Static_assert(sizeof(pk_port) == 128, "a port is two cache lines");

typedef struct pk_nic {
    struct pk_net *net;
    pk_msg *head, *tail;      /* active messages, head = the next to cut from */
    sg_actor_t actor;
    int wait;
    int32_t host;
} pk_nic;

enum { PK_WAIT_NONE, PK_WAIT_ALL, PK_WAIT_ANY, PK_WAIT_TIMER }; /* what a rank waits for */

typedef struct pk_rank {
    int64_t pending;          /* messages posted by pk_send / pk_recv not yet complete */
    double done_at;           /* the latest completion among them */
    sg_actor_t waiter;        /* the rank's actor while it waits */
    int waiting;              /* PK_WAIT_* */
    int32_t pos;              /* loop engine: its place in the instant's wake-ups */
    double compute_s;         /* pk_wait_compute: local work after the wait, not yet queued */
    int8_t suspended;         /* loop engine: its actor is suspended (not handing over) */
} pk_rank;

/* A rank whose wait ended and whose local work the engine queued for it (pk_wait_compute
 * under the fluid network): where the rank's own pk_compute would have queued it among
 * the instant's wake-ups (packet_loop.c). */
typedef struct pk_deferred {
    int32_t pos, rank;
} pk_deferred;

/* One side of a message: a posted send or receive. Anonymous ones (pk_send, pk_recv)
 * count in their rank's `pending` and are released when the message completes; the
 * others are handles, released by pk_wait_any. */
typedef struct pk_req {
    int32_t rank;
    int8_t anonymous, done;
    int8_t detached;          /* pk_detach: released when it completes, nobody waits */
    double done_at;
    void **payload_out;       /* a receive's: where the matched send's payload goes */
    int64_t next;             /* free list, or the pair's queue of early receives */
} pk_req;

typedef struct pk_pair {      /* sends a -> b waiting for their receives, or the reverse */
    int64_t key;              /* a * P + b, -1 empty */
    int64_t channel;          /* pk_isend_on / pk_irecv_on; 0 for the others */
    pk_msg *head, *tail;      /* sends posted before their receive */
    int64_t rhead, rtail;     /* receives posted before their send (requests), -1 none */
    int64_t sent;             /* messages a -> b posted so far (ECMP's flow numbers) */
} pk_pair;

/* An event of the loop engine (packet_heap.c): at time t, in the order pushed. */
enum { PK_EV_PORT, PK_EV_PORT_DONE, PK_EV_NIC, PK_EV_MSG_DONE, PK_EV_RANK, PK_EV_TIMER,
       PK_EV_FLUID /* the fluid network's next date (fluid_net.c) */ };
typedef struct pk_event {
    double t;
    int64_t id;               /* port, host or rank */
    pk_msg *msg;              /* PK_EV_MSG_DONE */
    int kind;
} pk_event;

/* Stored compactly (24 bytes: a 4-ary heap of them stays in cache): the push number and
 * the kind share one word, the message pointer or the id the other. */
typedef struct pk_heap_entry {
    double t;
    uint64_t seq_kind;        /* push number << 3 | kind */
    int64_t what;             /* id, or (intptr_t) msg for PK_EV_MSG_DONE */
} pk_heap_entry;

/* A FIFO ring of heap entries. */
typedef struct pk_ring {
    pk_heap_entry *ev;
    int64_t head, n, cap;     /* first entry, entries, capacity (a power of two) */
} pk_ring;

/* The loop engine's event queue (packet_heap.c): a 4-ary heap, the ring of events for
 * the instant of the last pop (a port or NIC woken now), and the delay lanes. */
typedef struct pk_heap {
    pk_heap_entry *ev;
    int64_t n, cap;
    uint64_t seq;
    double now;               /* the time of the last pop */
    pk_ring ring;             /* events at time ring_t, in push order */
    double ring_t;
    /* events pushed for `now + d` with a delay d seen before (a port's serialization of
     * a full packet) are in push order by time too: they wait in the ring of that delay's
     * lane (delay_lanes.h), and only its head is in the heap */
    delay_lanes delays;
    pk_ring lanes[DELAY_LANES];
} pk_heap;

struct pk_net {
    packet_config cfg;
    topology *t;
    int32_t P;
    const int32_t *host_of_rank;
    sg_host_t actor_host;
    traffic_tally *tally;
    traffic_tally *const *rank_tally; /* pk_net_rank_tallies: per source rank, or NULL */
    int64_t nports;           /* 2 * t->nlinks: port id = traffic_resource(t, hop) */
    pk_port *ports;
    sg_actor_t *port_actor;   /* actors engine: each port's actor, created with its first
                                 packet */
    int nvc;                  /* virtual channels */
    int vc_shift;             /* a port's first 1 << vc_shift channels (at most
                                 PK_DENSE_VCS) are side by side (pk_pool) */
    int64_t pool_over;        /* nports << vc_shift: the first pool of the other channels */
    int64_t pool_base;        /* the first host injection pool */
    int32_t *credit;          /* free bytes per pool (pk_pool), then one per host */
    pk_nic *nics;             /* per host, NIC created on first use */
    pk_rank *ranks;
    pk_pair *pairs;           /* open addressing on key */
    int64_t npairs, cap_pairs;
    int has_next_hops;        /* adaptive routing possible */
    int maxdeg;
    topo_hop *scratch;        /* maxdeg hops */
    int32_t *group_host;      /* UGAL: one host per group */
    pk_hop_memo *memo;        /* adaptive, UGAL, ECMP: next hops remembered (packet_route.c):
                                 two or more */
    pk_hop_memo1 *memo1;      /* and one (twice the entries of memo) */
    int memo_wide;            /* memo holds an entry (else it is not read: a Dragonfly's
                                 next hops are all single) */
    pk_host_hops *host_hops;  /* per host, when the memo's keys are (switch, destination
                                 switch) (t->next_hops_by_switch), else NULL */
    uint64_t memo_mask;       /* memo's entries - 1 (a power of two) */
    int memo_shift;           /* 64 - log2(memo's entries) */
    pk_next *next_scratch;    /* maxdeg + 1: next hops not remembered */
    uint64_t rng;
    pk_packet *spare;         /* delivered packets, for reuse (linked by next) */
    pk_packet **slabs;        /* every packet allocated, PK_SLAB at a time */
    pk_msg *spare_msgs;       /* completed messages, for reuse (linked by next) */
    topo_hop *route_scratch;  /* max_route_hops hops */
    int64_t nslabs, slab_used;
    int64_t packet_hops, delivered;
    int64_t msgs_open;        /* messages started and not complete */
    int64_t bad_msgs;         /* completed with other than their bytes delivered */
    pk_req *reqs;             /* every posted send and receive, by handle */
    int64_t nreqs, cap_reqs, free_req;
    /* the loop engine */
    pk_heap heap;
    double now;               /* the engine's clock */
    double sg_clock0;         /* SimGrid's clock when the engine started (it stays there) */
    int32_t running;          /* rank actors not waiting in the model nor ended */
    sg_actor_t *woken;        /* actors of the ranks to resume once SimGrid's clock is at
                                 `now`, in the order woken */
    int32_t nwoken;
    int defer_compute;        /* the fluid network: 1 the engine queues pk_wait_compute's
                                 local work, 2 the same twice as long (a test's planted
                                 fault); 0 the rank does (the packet model, tests) */
    pk_deferred *deferred;    /* ranks of the instant whose local work is queued for them */
    int32_t ndeferred, deferred_next; /* entries, the first not yet pushed */
    int32_t batch_n;          /* wake-ups and deferrals of the instant so far */
    int defer_late;           /* a test's planted fault: deferrals pushed after the
                                 instant's ranks have run, last first */
    sg_actor_t engine_actor;
    int handover;             /* a rank resumed the engine and has not suspended yet */
    int engine_waiting;       /* the engine actor is suspended until running == 0 */
    uint64_t resume_batches;  /* the engine's resumes of woken ranks so far */
    int64_t events;
    int digest_events;        /* tests: fold every event run into event_digest */
    uint64_t event_digest;    /* a hash of the events run, in order (time, kind, id) */
    int measure_cpu;          /* pk_net_measure_cpu: read the CPU clock at every wake-up */
    double engine_cpu_s;      /* CPU seconds inside the event loop */
    double first_event_cpu_s; /* the process's CPU clock when the loop first ran, 0 before */
    double ranks_cpu_s;       /* CPU seconds between the loop's runs (rank actors, SimGrid) */
    double handoff_cpu_s;     /* the CPU clock when the loop last stopped */
    double end_cpu_s;         /* the CPU clock when the loop ended for good, 0 before */
    struct fl_net *fluid;     /* the fluid network (fluid.h) instead of packets, or NULL */
};

/* Credit pools: channel vc of a port's far buffer. The paths packets take cross a few
 * links, so only a port's first channels are used, but a network's longest route may be
 * long (zone routes: TOPO_MAX_HOPS, so 129 channels under UGAL): a port's first
 * PK_DENSE_VCS channels are side by side, (port << vc_shift) + vc, one cache line of
 * credits per port (64-byte aligned), and the others after every port's first ones,
 * pool_over + (vc - dense) * nports + port, where nothing but their counters' memory
 * costs anything while no packet reaches them. */
enum { PK_DENSE_VCS = 16 };
static inline int32_t pk_pool(const pk_net *n, int64_t port, int vc)
{
    int dense = 1 << n->vc_shift;
    return (int32_t)(vc < dense ? (port << n->vc_shift) + vc
                                : n->pool_over + (int64_t)(vc - dense) * n->nports + port);
}
/* The port and the channel of a pool below pool_base. */
static inline int64_t pk_pool_port(const pk_net *n, int64_t pool)
{
    return pool < n->pool_over ? pool >> n->vc_shift : (pool - n->pool_over) % n->nports;
}
static inline int pk_pool_vc(const pk_net *n, int64_t pool)
{
    return pool < n->pool_over ? (int)(pool & ((1 << n->vc_shift) - 1))
                               : (1 << n->vc_shift) + (int)((pool - n->pool_over) / n->nports);
}
/* Sets vc_shift, pool_over and pool_base from nports and nvc. */
void pk_pools_layout(pk_net *n);

/* packet_net.c */
/* Memory for a hot array (freed with free): 64-byte aligned; from 2 MiB on, 2 MiB aligned
 * and rounded, and asked to be backed by huge pages (madvise MADV_HUGEPAGE, a hint), so
 * that the loop's scattered reads of ports, credits, packets and next hops at large P
 * miss the TLB less. */
void *pk_alloc_hot(size_t bytes);
/* The model's clock: the loop engine's, or SimGrid's under the actors engine. */
double pk_now(const pk_net *n);
/* The credit pool of a host's injection buffer. */
int64_t pk_inject_pool(const pk_net *n, int32_t host);
/* Queues packet p on the port of hop h out of p->at (waking the port). */
void pk_port_enqueue(pk_net *n, pk_packet *p, pk_next h);
/* Adds a started message to its source NIC (waking it). */
void pk_nic_add(pk_net *n, pk_msg *m);
/* Bytes queued at a port plus bytes in its downstream buffer. */
int64_t pk_port_occupancy(const pk_net *n, topo_hop h);
/* Bytes queued at port `port` plus bytes holding its far buffer's credits, per physical
 * link (divided by the links a folded trunk stands for): what adaptive routing and UGAL
 * compare. */
int64_t pk_occupancy(const pk_net *n, int64_t port);
/* What port pt does next at time now: PK_BUSY (*p: the packet to serialize, holding
 * its credit), PK_SLEEP (until *p, the next packet to arrive, has: p->ready), PK_IDLE
 * (nothing queued) or PK_CREDIT (every arrived packet waits for a credit). */
int pk_port_next(pk_net *n, pk_port *pt, double now, pk_packet **p);
/* Port pt has serialized p: it crossed the link (routed on or delivered). */
void pk_port_crossed(pk_net *n, pk_port *pt, pk_packet *p);
/* The NIC cuts the next packet if its buffer has room: PK_BUSY if it did, else PK_IDLE
 * (no active message) or PK_CREDIT. */
int pk_nic_cut(pk_net *n, pk_nic *nic);
/* The last packet of m was delivered (done_at set): it completes at done_at. */
void pk_msg_delivered(pk_net *n, pk_msg *m);

/* packet_ranks.c: timer request h (pk_timer) is due now. */
void pk_timer_fire(pk_net *n, int64_t h);

/* packet_actors.c: the actors engine's port and NIC actors, started on first use. */
sg_actor_t pka_port_start(pk_net *n, pk_port *pt, int64_t id);
sg_actor_t pka_nic_start(pk_net *n, pk_nic *nic);

/* packet_heap.c */
void pk_heap_push(pk_heap *h, double t, int kind, int64_t id, pk_msg *msg);
/* The same at time now + d, for kinds other than PK_EV_MSG_DONE, where now never
 * decreases from one call to the next (the engine's clock). */
void pk_heap_push_after(pk_heap *h, double now, double d, int kind, int64_t id);
/* Removes the earliest event (by t, then pushed first) into *e; 0 if the heap is empty. */
int pk_heap_pop(pk_heap *h, pk_event *e);
/* The earliest event's kind and id (for PK_EV_MSG_DONE the message's address), left in
 * the heap; 0 if the heap is empty. */
int pk_heap_peek(const pk_heap *h, int *kind, int64_t *id);
/* The earliest event's time, or INFINITY. */
double pk_heap_top(const pk_heap *h);
void pk_heap_free(pk_heap *h);

/* packet_loop.c: the loop engine */
void pk_loop_start(pk_net *n);
/* Something for port pt / the NIC of host to do now. */
void pk_loop_port_wake(pk_net *n, pk_port *pt);
void pk_loop_nic_wake(pk_net *n, int32_t host);
/* The calling rank actor waits (rank r's `waiting` set) until the engine resumes it. */
void pk_loop_block(pk_net *n, int32_t r);
/* Rank r's wait is over: resume it once SimGrid's clock is at the engine's. */
void pk_loop_wake_rank(pk_net *n, int32_t r);
/* Rank r's actor ended. */
void pk_loop_rank_exit(pk_net *n, int32_t r);
/* Rank r's wait for all its messages is over and it asked for local work after it
 * (pk_wait_compute): 1 if the engine queued that work for it (the rank sleeps on), 0 if
 * the rank must be woken to queue it itself (pk_loop_wake_rank). */
int pk_loop_defer_compute(pk_net *n, int32_t r);
/* sg_resume.cpp: resumes the n suspended actors in one simcall, in this order. */
void pk_actors_resume(sg_actor_t const *actors, long n);

/* packet_queue.c */
/* Queues packet p, whose p->pool is set, at port pt (not waking the port). */
void pk_queue_push(const pk_net *n, pk_port *pt, pk_packet *p);
/* The packet port pt sends next at time `now`: the oldest arrived one whose pool has a
 * credit, unlinked and holding that credit; NULL if none. */
pk_packet *pk_queue_take(pk_net *n, pk_port *pt, double now);
/* Frees the port's lanes (its packets belong to the network's slabs). */
void pk_queue_free(pk_port *pt);

/* Bytes of a message with its route and UGAL's path lengths (packet_ranks.c). */
size_t pk_msg_size(const pk_net *n);
/* UGAL: the message's path lengths + 1 from its ugal_at router (0: not known yet): [g] via
 * group g, [ngroups] minimal. */
static inline int32_t *pk_msg_ugal_len(const pk_net *n, pk_msg *m)
{
    return (int32_t *)(void *)(m->route + n->t->max_route_hops);
}

/* packet_route.c: the hop out of p->at toward the packet's destination. */
pk_next pk_route(pk_net *n, pk_packet *p);
/* The routing state (n->t, n->cfg.routing, n->maxdeg, n->scratch set): the next-hop memo
 * of 2^memo_bits entries under adaptive, UGAL and ECMP routing (memo_bits <= 0: sized from
 * the network), and its release. */
void pk_route_init(pk_net *n, int memo_bits);
void pk_route_free(pk_net *n);
/* topo_next_hops(n->t, at, dst, ...) as pk_next: their number, *hops pointing at them
 * (valid until the next call). */
int pk_next_hops(pk_net *n, int32_t at, int32_t dst, const pk_next **hops);

/* packet_ranks.c: the last packet of m arrived (done_at set): completes it. */
void pk_msg_complete(pk_net *n, pk_msg *m);

/* The fluid network (fluid_net.c, fluid.h), when n->fluid is set: both sides of m are
 * posted and its flow starts (instead of its packets); the loop engine's PK_EV_FLUID
 * event; pk_net_free's and pk_net_check's part. */
void fl_msg_start(pk_net *n, pk_msg *m);
void fl_run(pk_net *n);
void fl_net_free(pk_net *n);
int fl_net_check(const pk_net *n, cs_error *err);

#endif
