/* fluid_internal.h - the fluid network's state, shared by its files (not a public header).
 *
 *   fluid_net.c    flows: start, latency, end, the events of an instant, bytes, the check
 *   fluid_share.c  the max-min solver over the resources the instant changed
 *   fluid_heap.c   the flows' dates (latency end or completion): an indexed 4-ary heap,
 *                  the latency ends in FIFO lanes beside it
 *
 * The state hangs off the packet model's pk_net (pk_net.fluid), which owns the ranks,
 * the matching of sends and receives and the loop engine's event queue; that queue holds
 * one PK_EV_FLUID event for the fluid network's earliest date (fl_run handles it).
 */
#ifndef COLLSIM_FLUID_INTERNAL_H
#define COLLSIM_FLUID_INTERNAL_H

#include "sim/fluid.h"
#include "sim/packet_internal.h"

enum { FL_FREE, FL_LATENCY, FL_ACTIVE }; /* a flow's state */

typedef struct fl_flow {
    pk_msg *msg;
    double remains;    /* bytes left at `last` */
    double rate;       /* bytes per second since `last` */
    double last;
    double date;       /* its event: latency end or completion */
    double penalty;    /* CM02's sharing penalty: the route's latency (1 if 0) */
    double bound;      /* rate bound, < the route's smallest bandwidth (gamma), or INFINITY */
    int64_t heap;      /* index in the date heap, -1 none */
    int32_t nres;      /* resources on its route; 0: the loopback */
    int32_t next_free;
    int32_t src_rank;
    uint32_t mark;     /* solver: the round that put it among the flows to solve */
    uint64_t seq;      /* the order its date was set in (ties of the date heap) */
    int8_t state, fixed;
} fl_flow;

typedef struct fl_res {
    int32_t *flows;    /* active flows on it (ids) */
    int32_t n, cap;
    double bw;
    /* solver */
    double remaining, usage;
    double level;      /* remaining / usage, kept with them (the heap compares levels) */
    uint32_t inset;    /* the round that put it among the resources to solve */
    int32_t heap;      /* index in the solver's heap, -1 none */
    int64_t bytes;     /* bytes of the flows that crossed it */
} fl_res;

typedef struct fl_hent {   /* a heap entry: the flow's date and seq copied beside its id, */
    double date;           /* so that comparisons read the heap's own array only */
    uint64_t seq;
    int32_t id;
    int32_t lane;          /* the head of that latency lane, -1 none */
} fl_hent;

typedef struct fl_lane {   /* flows waiting one latency, in (date, seq) order */
    int32_t *ids;          /* a FIFO ring, cap a power of two */
    int64_t head, n, cap;
} fl_lane;

typedef struct fl_heap {
    fl_hent *e;        /* a 4-ary heap on (date, seq) */
    int64_t n, cap;
    delay_lanes delays;     /* the latency of each lane (delay_lanes.h) */
    fl_lane lanes[DELAY_LANES];
    int64_t queued;    /* flows in the lanes behind their heads */
} fl_heap;

typedef struct fl_route {  /* a route remembered (fluid_net.c): its resources, in
                              fl_net.route_res at the slot's maxh entries */
    int64_t key;           /* src_host * nhosts + dst_host, -1 empty */
    double lat, minbw;     /* the sum of its links' latencies, its smallest bandwidth */
    int32_t len;
} fl_route;

typedef struct fl_rent {   /* the solver's heap entry: a resource and a copy of its level */
    double level;
    int32_t id;
} fl_rent;

typedef struct fl_bkey {   /* a bounded flow, by bound x penalty (fluid_share.c) */
    double key;
    int32_t id;
} fl_bkey;

typedef struct fl_net {
    fluid_config cfg;
    int maxh;          /* t->max_route_hops */
    fl_flow *flows;
    int32_t nflows, cap_flows, free_flow;
    int32_t *hop_res;  /* per flow: maxh resources ... */
    int32_t *hop_pos;  /* ... and its index in each resource's list */
    fl_res *res;
    int64_t nres;
    fl_heap heap;
    double armed;      /* the date of the earliest PK_EV_FLUID queued, INFINITY none */
    /* the round's changes (one instant) and the solver's scratch */
    int32_t *ended;    /* flows completed this round, in order */
    int64_t nended, cap_ended;
    uint64_t seq;
    struct fl_rent *rheap; /* the solver's heap of resources by level (fluid_share.c) */
    int32_t *comp_res, *comp_flow; /* comp_res: the changed resources, then the
                                              rest of the component */
    fl_bkey *bheap;
    int64_t ncomp_res, ncomp_flow, cap_comp_res, cap_comp_flow;
    uint32_t round;    /* rounds so far: one per instant with flow events */
    double loop_rate;  /* a loopback flow's rate */
    topo_hop *route;
    fl_route *routes;  /* direct-mapped by (source, destination host): a ring or a
                          butterfly meets the same pairs again and again */
    int32_t *route_res;
    uint64_t route_mask;
    int route_shift;
    /* counts */
    int64_t nstarted, solves, solved_flows, rates;
    int64_t bad_solutions; /* verify: solutions that failed the check */
    char bad_what[256];
} fl_net;

/* fluid_heap.c: flow id's date and seq are set (seq larger than every earlier one). push:
 * a date; push_latency: the end of the latency d, date = now + d with now never less than
 * at the previous push_latency (the flow waits in d's lane); update: a flow in the heap
 * (not in a lane) or in none; remove: a flow in the heap, or the top. */
void fl_heap_push(fl_heap *h, fl_flow *flows, int32_t id);
void fl_heap_push_latency(fl_heap *h, fl_flow *flows, int32_t id, double d);
void fl_heap_update(fl_heap *h, fl_flow *flows, int32_t id);
void fl_heap_remove(fl_heap *h, fl_flow *flows, int32_t id);
int32_t fl_heap_top(const fl_heap *h);    /* -1 if empty */
int64_t fl_heap_size(const fl_heap *h);   /* flows with a date */
void fl_heap_free(fl_heap *h);

/* fluid_share.c: flow id was enabled or is about to leave: its resources changed this
 * round. */
void fl_mark_modified(fl_net *fl, int32_t id);
/* Recomputes the rates of every active flow sharing a resource, transitively, with the
 * round's changed resources, at time now, and their dates; the next round starts. */
void fl_share(fl_net *fl, double now);
/* Verification of one solution over the component (fl->cfg.verify). */
void fl_share_verify(fl_net *fl);

/* fluid_net.c's hooks into the packet model (fl_run, fl_msg_start, fl_net_free,
 * fl_net_check) are declared in packet_internal.h. */

#endif
