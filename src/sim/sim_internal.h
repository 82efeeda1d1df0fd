/* sim_internal.h - state shared by the SimGrid side of sim_run (not a public header).
 *
 *   sim_run.c       the point: topology, placement, algorithm, models, results
 *   sim_actors.c    the rank actors executing their schedules
 *   sim_exec.c      the rank executor: one rank's ops, in every timed model
 *   exec_net.c      its transport: SimGrid mailboxes or the packet network
 *   sim_links.c     SimGrid links -> topology link resources, route counting
 *   sim_isolated.c  running a point in a child process
 *   sim_external.c  external SimGrid platforms for one job (sim_external.h)
 *   sim_mailbox.c   the mailbox of each (from, to, tag) channel, looked up once
 *   sim_pair_bytes.c bytes per host pair, put on the tally once after the run
 *
 * The platform file, the SimGrid names of hosts and links and the check that SimGrid
 * routes as topo_route does all belong to the topology module (topology.h).
 */
#ifndef COLLSIM_SIM_INTERNAL_H
#define COLLSIM_SIM_INTERNAL_H

#include <simgrid/forward.h>

#include "algorithms/sched_ready.h"
#include "sim/endpoint.h"
#include "sim/packet.h"
#include "sim/sim_mailbox.h"
#include "sim/sim_pair_bytes.h"
#include "sim/sim.h"
#include "traffic/traffic.h"

/* Endpoint costs of a run (sim_state.ep; NULL when endpoint costs are off). */
typedef struct endpoint_sim {
    endpoint_config cfg;
    endpoint_ports ports;
    char request_tag; /* its address marks a rendezvous request's payload */
} endpoint_sim;

/* Everything the actors share. SimGrid runs actors one at a time in one thread, so they
 * update it without locks; it lives on sim_run's stack (no global state). */
typedef struct sim_state {
    const alg_run *run;
    topology *t;
    const int32_t *host_of_rank;
    sg_host_t *rank_host;      /* per rank */
    double reduce_s_per_byte;  /* 0: free */
    double copy_s_per_byte;
    int64_t eager_limit;       /* sends of at most this many bytes complete for the sender
                                  at once (detached); -1: none */
    traffic_tally tally;       /* counted from SimGrid's routes */
    sim_pair_bytes pairs;      /* bytes per host pair, put on the tally after the run */
    sim_mailboxes mailboxes;   /* per (from, to, tag) channel */
    double *finish;            /* per rank; -1 until the rank has finished */
    uint32_t *step;            /* per rank: the step it is executing (diagnostics) */
    pk_net *net;               /* model packet: messages go through it, else NULL */
    endpoint_sim *ep;          /* endpoint costs, NULL when there are none */
    int32_t job;               /* several jobs (jobs.h): k > 0 prefixes the job's mailboxes
                                  with "Jk:" so messages never cross jobs; 0: one point */
    int32_t rank0;             /* several jobs under the packet model: the job's rank r is
                                  rank rank0 + r of the shared network; 0: one point */
} sim_state;

/* The time a rank actor sees: the network's (pk_rank_clock) under the packet model or
 * the fluid network, whose loop engine leaves SimGrid's clock where it was; SimGrid's
 * otherwise. */
double sim_clock(const sim_state *st);

/* A job of the rank's CPU (sim_exec.c). */
typedef struct exec_job {
    uint32_t item; /* an op, or a step's local item (sched_ready.h) */
    uint32_t kind; /* sim_exec.c: JOB_* */
} exec_job;

/* The rank executor's scratch (sim_exec.c), reused from chunk to chunk of one rank. The
 * active communications are slots 0 .. nactive-1 of comms (flow models) or pks (packet
 * model), with their op and protocol state in comm_op and comm_state; payloads are per op. */
typedef struct sim_exec_scratch {
    sched_ready ready;
    exec_job *cpu;
    uint32_t *comm_op;
    uint8_t *comm_state;
    sg_comm_t *comms;
    pk_handle *pks;
    void **payloads;
    size_t cap_ops, cap_cpu;
    uint32_t first_step;
    void *route; /* xbt_dynar_t scratch for route counting */
} sim_exec_scratch;

/* Runs one chunk of rank `rank`'s schedule (steps first_step .. of it) to its end (see
 * sim_exec.c); -1 when ops are left that can never start (a dependency cycle). */
int sim_exec_chunk(sim_state *st, int32_t rank, sim_exec_scratch *x, const rank_sched *rs,
                   uint32_t first_step);
void sim_exec_scratch_free(sim_exec_scratch *x);

/* ---- the executor's transport (exec_net.c) ------------------------------------------- */

enum { XN_DATA, XN_REPLY, XN_RDV }; /* a channel's kind: data or rendezvous request, reply,
                                       rendezvous data */
/* A channel: the messages of data direction a -> b with one tag and kind. */
typedef struct xn_chan {
    int32_t a, b, tag, kind;
} xn_chan;
/* Posts a put of `bytes` from rank to `to` (payload handed to the get); unless detached,
 * its handle goes to slot k, and 1 is returned. */
int xn_put(sim_state *st, int32_t rank, int32_t to, xn_chan c, int64_t bytes, void *payload,
           int detached, sim_exec_scratch *x, size_t k);
/* Posts rank's get from `from` into slot k; the put's payload goes to *payload_out. */
void xn_get(sim_state *st, int32_t rank, int32_t from, xn_chan c, void **payload_out,
            sim_exec_scratch *x, size_t k);
/* Slot `from`'s handle moves to slot `to`. */
void xn_move(sim_exec_scratch *x, size_t from, size_t to);
/* The rank is busy for `seconds` (nothing else happens to it meanwhile). */
void xn_sleep(sim_state *st, int32_t rank, double seconds);
/* Blocks until the first of slots 0 .. n-1 ends (its index; SimGrid's comm reference is
 * released) or, when rest >= 0, `rest` seconds have passed (-1). The packet model keeps
 * a timer for that in *timer (-1: none) until it fires. */
long xn_wait(sim_state *st, int32_t rank, sim_exec_scratch *x, size_t n, double rest,
             pk_handle *timer);

/* sg_comm_wait_any_for that keeps the caller's references on a timeout (sg_wait.cpp):
 * the index of the finished comm (its reference released), or -1 after `timeout` s. */
long sim_wait_any_for(sg_comm_t *comms, unsigned long n, double timeout);

/* Creates and starts one actor per rank (after the platform is loaded). */
void sim_actors_start(sim_state *st);
/* After simgrid_run: fails naming the ranks that did not finish. */
int sim_actors_check_finished(const sim_state *st, cs_error *err);

/* Tags every SimGrid link that stands for a topology link resource with that resource
 * (sg_link_set_data: resource + 1); fails if a topology link has no SimGrid link. */
int sim_links_map(const topology *t, cs_error *err);
/* Adds a message's bytes to every tagged link of SimGrid's route (`route` is a scratch
 * dynar of sg_link_t). Links without a tag (loopbacks) are not network links. */
void sim_links_count_route(traffic_tally *tally, sg_host_t src, sg_host_t dst, int64_t bytes,
                           void *route);

/* Work done in a child process: fills a malloc'ed payload, or fails. */
typedef int (*sim_child_work)(const void *arg, void **payload, size_t *len, cs_error *err);
/* Runs work(arg) in a forked child (sim_isolated.c); on success *payload (malloc'ed) and
 * *len hold its answer; a child that dies becomes an error naming what it printed. */
int sim_run_in_child(sim_child_work work, const void *arg, void **payload, size_t *len,
                     cs_error *err);
/* The same, killing the child (and so its own children, which die with it) when it runs
 * longer than timeout_s seconds of wall time: -1 with *timed_out = 1 and "timeout: ...". */
int sim_run_in_child_timed(sim_child_work work, const void *arg, double timeout_s,
                           void **payload, size_t *len, int *timed_out, cs_error *err);
/* The pieces of sim_run_in_child for a caller that polls several children (sim.h's
 * sim_job): fork the child that runs work(arg); after sim_job_read returned 1, reap it
 * and decode its answer (*payload malloc'ed) or its error. */
int sim_job_start_work(sim_child_work work, const void *arg, sim_job *job, cs_error *err);
int sim_job_finish_payload(sim_job *job, void **payload, size_t *len, cs_error *err);

/* Initialises SimGrid for a model and loads the platform file (once per process). */
void sim_simgrid_start(sim_model model, const char *platform);
/* The model's network is its own, not SimGrid's (packet; cm02 under the loop flow engine,
 * fluid.h): SimGrid only runs its actors, on a platform of hosts alone
 * (topo_hosts_platform_path). */
int sim_model_own_network(sim_model m, flow_engine fe);
/* Starts SimGrid for model m on t (sim_simgrid_start): the hosts-only platform for a model
 * with a network of its own, else the whole platform with its links tagged
 * (sim_links_map). An external platform (t->ext) was loaded whole before (place_job). */
int sim_platform_start(sim_model m, flow_engine fe, const topology *t, cs_error *err);

/* SimGrid's command-line options for a model (NULL-terminated, static strings). */
const char *const *sim_model_cfg(sim_model m);

#endif
