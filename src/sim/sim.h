/* sim.h - one simulation point: a collective schedule executed on a topology.
 *
 * sim_run() builds the topology (topo_build_spec: a "family key=value ..." spec or a
 * "preset.yaml [key=value ...]" machine preset; a path ending in ".xml" is an external
 * SimGrid platform, sim_external.h), places the ranks, prepares the
 * algorithm, then either counts traffic only (model `traffic`) or loads the topology's
 * cached platform (topo_platform_path; the packet model, whose network is its own, only
 * its hosts: topo_hosts_platform_path) into SimGrid and runs it:
 *
 *   - one actor per rank, on its placed host, generates its own schedule step by step
 *     (a streaming builder: only the current step is held) and executes each step: all
 *     its sends (sg_mailbox_put_async) and receives (sg_mailbox_get_async) start
 *     together, the step's communication ends when all have completed, then its reduce
 *     and copy ops take bytes / rate seconds, one after the other;
 *   - messages from rank a to rank b go through the mailbox "a>b", so the k-th send a->b
 *     meets the k-th receive at b from a (the IR's matching rule: SimGrid mailboxes are
 *     FIFO and each pair has its own);
 *   - all ranks start at time 0; time_s is the latest finish time; with c->barrier every
 *     rank first runs a dissemination barrier of 0-byte messages (alg_run.barrier), which
 *     time_s, messages and steps then include;
 *   - ranks of one host (Q > 1) exchange messages over the host's loopback link
 *     (topology.h: intra_bw, intra_lat), which is no network link: such messages count
 *     in `messages` but in no link class;
 *   - traffic is counted from the routes SimGrid uses (sg_host_get_route), with the same
 *     tally as the traffic model (src/traffic), so both give the same numbers.
 *
 * Network models (SimGrid's flow models):
 *   cm02     network/model:CM02 with network/crosstraffic:0 — exact max-min sharing; a
 *            message of s bytes alone on a route takes sum(latency) + s / min(bw) (default)
 *   lv08     network/model:LV08 with SimGrid's defaults (TCP-calibrated: bandwidth x0.97,
 *            latency x13.01, 5 % cross-traffic on the reverse route)
 *   smpi     network/model:SMPI with SMPI's default piecewise smpi/bw-factor and
 *            smpi/lat-factor tables and cross-traffic (what smpirun uses); like SMPI's
 *            point-to-point layer, sends below SIM_SMPI_DETACHED_BELOW bytes are eager
 *            (detached: the sender goes on without waiting for them)
 *   traffic  no SimGrid: traffic columns only, time_s is NAN
 *   packet   packets hop by hop with finite buffers and per-packet routing, SimGrid as
 *            the event kernel only (packet.h, docs/packet-model.md); its options are
 *            sim_config.packet; traffic is counted from the packets' actual paths
 *   analytic no SimGrid: each global step costs its slowest message, every link shared
 *            equally by the step's messages crossing it (analytic.h); an estimate,
 *            streamed over ranks (10^6 ranks in seconds); traffic as the traffic model
 * Endpoint costs (endpoint.h: send / receive overheads, NIC message gap, envelope, eager
 * limit) apply to every model that has a time (all but traffic; the packet model has no
 * eager_limit yet); none given, every result is what it was without them.
 * Every SimGrid model runs with surf/precision:1e-9, like smpirun, and 512 KiB actor
 * stacks (contexts/stack-size).
 *
 * SimGrid can be initialised once per process, so sim_run() may be called only once per
 * process. sim_run_isolated() runs it in a forked child and returns the result through a
 * pipe: callers that run several points (the CLI, tests, sweeps) use it, and a child that
 * crashes or aborts becomes an error message instead of taking the caller down.
 *
 * Callers that run several points at once (the sweep runner) use the same child as a
 * job: sim_job_start() forks it and returns at once; the caller polls job->fd, calls
 * sim_job_read() whenever it is readable until it returns 1, then sim_job_finish().
 * sim_run_isolated() is exactly start, read until the end, finish. The child resets the
 * signal mask the parent may have blocked (so Ctrl-C reaches it) and dies with its parent
 * (PR_SET_PDEATHSIG), so killing a sweep never leaves simulations running.
 */
#ifndef COLLSIM_SIM_H
#define COLLSIM_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "common/error.h"
#include "sim/endpoint.h"
#include "sim/fluid.h"
#include "sim/packet.h"
#include "sim/placement.h"
#include "sim/result.h"

typedef enum {
    SIM_MODEL_CM02, SIM_MODEL_LV08, SIM_MODEL_SMPI, SIM_MODEL_TRAFFIC,
    SIM_MODEL_PACKET, /* packet.h */
    SIM_MODEL_ANALYTIC /* analytic.h: no SimGrid, a per-step estimate */
} sim_model;

/* "cm02", "lv08", "smpi", "traffic", "packet", "analytic" */
const char *sim_model_name(sim_model m);
int sim_model_parse(const char *text, sim_model *out, cs_error *err);
/* The model as the result row's `model` column shows it: its name, and for the packet
 * model its options, "packet routing=adaptive mtu=4096 buffer=65536" (sizes in bytes), so
 * that rows of different routings, MTUs or buffers differ (docs/results.md). */
void sim_model_describe(sim_model m, const packet_config *pc, char *buf, size_t n);

/* SMPI's default smpi/send-is-detached-thresh. */
#define SIM_SMPI_DETACHED_BELOW 65536

/* Default local operation rates (bytes per second): see docs/cli.md. */
#define SIM_DEFAULT_REDUCE_BPS 10e9
#define SIM_DEFAULT_COPY_BPS 20e9

typedef struct sim_config {
    char topology[1024];   /* "family k=v ..." or "preset.yaml k=v ..." (docs/topologies.md) */
    char algorithm[64];
    coll_spec spec;        /* collective, P, size, root, Q = ranks_per_node, dims, params */
    const alg_registry *algorithms; /* user-defined algorithms; NULL: built-ins only */
    placement_spec placement;
    sim_model model;
    double reduce_Bps;     /* local reduction rate; 0 = free */
    double copy_Bps;       /* local copy rate; 0 = free */
    int per_rank;          /* record every rank's finish time */
    int cpu_split;         /* the packet loop engine measures sim_result's CPU split
                              (`collsim sim --verbose`; costs system calls per wake-up) */
    int barrier;           /* every rank runs a dissemination barrier first (alg_run.barrier):
                              time_s includes it; `model` shows " barrier=true" */
    char groups[1024];     /* external platforms: a group map (groupmap.h), "" = none */
    packet_config packet;  /* model packet: mtu, buffer, routing */
    flow_engine flow_engine; /* model cm02: SimGrid's network model (default) or collsim's
                                own fluid network in the loop engine (fluid.h); the
                                `model` column shows " flow_engine=loop" for the latter */
    fluid_config fluid;    /* tests: the fluid network's verification and fault */
    endpoint_config endpoint; /* endpoint costs given by the CLI / sweep keys: they override
                                 the topology spec's and its preset's (endpoint.h); the
                                 `model` column names the effective non-zero ones */
    int64_t max_memory;    /* refuse a point estimated above this many bytes before it
                              starts (sim/estimate.h); <= 0: no limit. Default: half of
                              the physical memory */
    double point_timeout_s; /* sim_run_isolated: kill the point after this many seconds
                               of wall time and fail with "timeout" (0: no limit) */
    int64_t eager_limit;   /* sends of at most this many bytes are eager: they complete
                              for the sender at once, the receiver still waits for them
                              (LogGOPSim's -S; issue 24's name). -1: none (rendezvous);
                              SIM_EAGER_MODEL (default): the model's own (smpi: below
                              SIM_SMPI_DETACHED_BELOW, the others none). The row's model
                              shows " eager_limit=N" unless it is SIM_EAGER_MODEL */
} sim_config;

#define SIM_EAGER_MODEL (-2)
/* LogGOPSim's default -S: what a plain GOAL file (Schedgen's) is run with by default. */
#define SIM_GOAL_EAGER_LIMIT 65535

/* Defaults: linear placement, cm02, the default rates, no per-rank times, the default
 * memory limit, no timeout; the caller fills topology, algorithm and spec. */
void sim_config_init(sim_config *c);
/* --flow-engine loop is usable with c's model and topology: cm02 (the models without a
 * network, traffic and analytic, and the packet model ignore it), no external platform. */
int sim_flow_engine_check(const sim_config *c, cs_error *err);

typedef struct sim_result {
    sim_row row;
    double *rank_finish_s; /* per_rank: spec.P finish times, else NULL */
    /* measurements of the run that are no result column (`collsim sim --verbose`) */
    double cpu_s;          /* CPU time (user + system) of the simulating process */
    int64_t packet_hops;   /* model packet: packets x links crossed (pk_net_packet_hops);
                              --flow-engine loop: flows simulated */
    int64_t packet_events; /* model packet, loop engine: events run (pk_net_stats) */
    uint64_t packet_event_digest; /* loop engine, fluid.digest_events (tests): a hash of
                                     the events run, in order */
    double packet_engine_cpu_s; /* CPU seconds in the loop engine's event loop */
    double packet_setup_cpu_s;  /* CPU seconds before its first event (topology, platform,
                                   schedules, rank actors) */
    double packet_ranks_cpu_s;  /* CPU seconds between the loop's runs (the rank actors
                                   and SimGrid's scheduling of them) */
    double packet_teardown_cpu_s; /* CPU seconds after the loop's end; the four add up to
                                     cpu_s (measured with sim_config.cpu_split only, else
                                     the four are 0) */
    int timed_out;         /* sim_run_isolated failed because of point_timeout_s */
} sim_result;

void sim_result_free(sim_result *r);

/* Fills the point columns of a row (topology .. model) from a configuration; the
 * metrics are left 0 / NAN. */
void sim_row_describe(const sim_config *c, sim_row *row);

/* Runs the point in this process (once per process: SimGrid). */
int sim_run(const sim_config *c, sim_result *res, cs_error *err);
/* Runs the point in a child process; the child's SimGrid warnings are copied to stderr.
 * With c->point_timeout_s > 0 the child is killed when it runs longer: -1 with
 * res->timed_out = 1 and "timeout: ..." in err. */
int sim_run_isolated(const sim_config *c, sim_result *res, cs_error *err);

/* A point running in a child process. */
typedef struct sim_job {
    int pid;           /* the child */
    int fd;            /* read end of the child's answer pipe: poll it for input */
    FILE *errf;        /* the child's stderr */
    char *answer;      /* what the child wrote so far */
    size_t len, cap;
    int wstatus;       /* waitpid status, after sim_job_finish */
} sim_job;

/* Forks the child that runs the point; returns at once. */
int sim_job_start(const sim_config *c, sim_job *job, cs_error *err);
/* Reads what the child has written (blocks only if nothing is there yet); returns 1
 * when the child has closed the pipe (its answer is complete), 0 otherwise. */
int sim_job_read(sim_job *job);
/* Reaps the child (waiting for it) and decodes its answer into res, or fails with the
 * child's error (or how it died); frees the job's resources either way. */
int sim_job_finish(sim_job *job, sim_result *res, cs_error *err);
/* Sends a signal to the child (e.g. SIGTERM when a sweep is interrupted). */
void sim_job_signal(const sim_job *job, int sig);
/* After sim_job_finish: 1 if the child was ended by SIGINT, SIGTERM or SIGHUP (someone
 * stopped it; its point did not fail), 0 otherwise. */
int sim_job_was_stopped(const sim_job *job);

#endif
