/* jobs_internal.h - the pieces of several jobs on one machine (not a public header).
 *
 *   jobs_spec.c     parsing a job spec (jobs.h)
 *   jobs_place.c    the hosts of every job, and the overlap check
 *   jobs_pattern.c  a traffic job's schedule
 *   jobs_wrap.c     a job's schedule: start delay, repetitions, around its algorithm
 *   jobs_sim.c      one simulation of some of the jobs (in a child process)
 *   jobs_run.c      together, then each alone; the slowdowns
 *   jobs_result.c   the job rows' extra columns
 */
#ifndef COLLSIM_JOBS_INTERNAL_H
#define COLLSIM_JOBS_INTERNAL_H

#include "sim/jobs.h"
#include "topologies/topology.h"
#include "traffic/traffic.h"

/* Places every job of js on t: host_of_rank[k] (malloc'ed, jobs[k].spec.P entries).
 * Errors: a job's placement ("job NAME: hosts=...: ..."), not enough free hosts for a
 * job without hosts=, two jobs on one host without shared=yes on both. */
int jobs_place(const job_set *js, const topology *t, int32_t **host_of_rank, cs_error *err);

/* The injection bandwidth of a rank of a job: the smallest over its hosts of the sum of
 * the bandwidths of the links at the host, divided by the ranks per node. */
double jobs_injection_Bps(const topology *t, const int32_t *host_of_rank, int32_t P, int32_t Q);

/* A traffic job's run (jobs_pattern.c): run->alg is the pattern generator; release with
 * alg_run_release. */
int job_pattern_prepare(const job_spec *j, double inj_Bps, alg_run *run, cs_error *err);
int64_t job_pattern_rounds(const alg_run *run);

/* Appends a local op of `ns` nanoseconds (OPF_TIME) to the open step. */
void job_timed_op(sched_builder *b, int64_t ns);

/* A job ready to generate: its own run (the algorithm or the pattern) and the run the
 * simulator sees, which starts with a step holding a timed op of the start time and
 * repeats the job's run reps times. */
typedef struct job_run {
    alg_run inner;
    alg_run outer;
    int64_t start_ns;
    int32_t reps;
} job_run;

/* Prepares job k of js on its hosts (rank_shape_resolve for topology-aware algorithms). */
int job_run_prepare(const job_set *js, int k, const topology *t, const int32_t *host_of_rank,
                    job_run *jr, cs_error *err);
void job_run_release(job_run *jr);

/* The packet model (jobs_packet.c): one network for the jobs of the mask, whose states
 * (st[k], initialised) get rank0 and net; jobs_net_finish checks it (pk_net_check) and
 * frees it. */
struct sim_state;
typedef struct jobs_net {
    struct pk_net *net;
    int32_t *host_of_rank;           /* every job's ranks, one job after the other */
    traffic_tally **tally;           /* per rank of the network: its job's tally */
} jobs_net;
int jobs_net_start(const job_set *js, unsigned mask, struct sim_state *st, topology *t,
                   jobs_net *jn, cs_error *err);
int jobs_net_finish(jobs_net *jn, cs_error *err);

/* Simulates the jobs whose bit is set in mask together (all placed, so every job keeps its
 * hosts): out[k] for those jobs. In this process (SimGrid: once per process). */
int jobs_simulate(const job_set *js, unsigned mask, job_result *out, cs_error *err);

#endif
