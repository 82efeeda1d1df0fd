/* jobs.h - several jobs on one machine: co-running collectives and traffic patterns
 * (issue 29, docs/simulator.md "Several jobs").
 *
 * A job is one collective with its own algorithm, ranks and hosts, or a traffic pattern
 * (uniform random destinations, a random permutation, incast, an alltoall loop) with an
 * offered load. Every job has a start time and a repetition count. All jobs of a point run
 * in one SimGrid simulation on one topology (flow models or the packet model), each with
 * its own rank numbering and its own mailboxes, so messages never cross jobs; then every
 * job runs again alone on the same hosts (one more simulation per job), and each job's row
 * gets its time alone and its slowdown (time together / time alone).
 *
 * Job spec (`collsim sim --job SPEC`, docs/cli.md): key=value items separated by commas
 * (commas inside [] belong to the value, as in a hostlist):
 *
 *   name=TEXT            the row's `job` column (default: the job's index 0, 1, ...)
 *   coll=C alg=A         a collective job: collective and algorithm (as --collective,
 *                        --algorithm)
 *   pattern=P            a traffic job: uniform, permutation, incast or alltoall
 *   ranks=P              ranks of the job (required)
 *   size=S               collective: vector size; pattern: bytes of every message
 *                        (default 1MiB)
 *   root=R dst=D q=Q dims=AxB params='k=v k=v'   as the single-point options
 *   hosts=H              where the ranks run: a placement (linear, roundrobin, random:SEED,
 *                        fragmented:K:SEED, file:PATH, alloc:HOSTLIST), host indices
 *                        "A-B" or "[A-B,C]" (= alloc:h[...]); default: the first hosts no
 *                        earlier job uses, in host order
 *   order=block|cyclic   rank order on the hosts (placement_spec.order)
 *   shared=yes|no        other jobs may use this job's hosts (default no: an overlap is an
 *                        error naming both jobs and a host)
 *   start=T              start time, e.g. 20us (default 0)
 *   reps=N               the collective N times back to back (default 1); time_s is the
 *                        mean per repetition
 *   load=L               pattern: offered load, 0 < L <= 1 of the rank's injection
 *                        bandwidth (default 1)
 *   rounds=N | duration=T  pattern: rounds of messages (default 1), or as many rounds as
 *                        fit in T at the offered load
 *   seed=N               pattern: seed of the random destinations (default 1)
 */
#ifndef COLLSIM_JOBS_H
#define COLLSIM_JOBS_H

#include <stdint.h>
#include <stdio.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "sim/placement.h"
#include "sim/sim.h"

#define JOBS_MAX 16

typedef enum {
    JOB_PATTERN_NONE, JOB_UNIFORM, JOB_PERMUTATION, JOB_INCAST, JOB_ALLTOALL
} job_pattern;

typedef struct job_spec {
    char name[32];
    char algorithm[64];     /* collective jobs */
    coll_spec spec;         /* coll, P, bytes, root, dst, Q, dims, params */
    job_pattern pattern;    /* JOB_PATTERN_NONE: a collective job */
    double load;            /* pattern: 0 < load <= 1 */
    double duration_s;      /* pattern: 0 = use rounds */
    int64_t rounds;
    uint64_t seed;
    placement_spec hosts;
    int hosts_auto;         /* no hosts= given: the first free hosts */
    int shared;             /* other jobs may use its hosts */
    double start_s;
    int32_t reps;
    char text[512];         /* the spec as given (for messages) */
} job_spec;

/* Parses one job spec (the format above); index names the job in messages ("--job 2:
 * ...") and is its default name. Errors name the key and its allowed values. */
int job_spec_parse(const char *text, int index, job_spec *out, cs_error *err);
/* The same without the "--job N ('text'): " prefix on errors (callers that name the job
 * their own way: a scenario's jobs table). */
int job_spec_parse_bare(const char *text, int index, job_spec *out, cs_error *err);
/* "uniform", ...; pattern names for the row's algorithm column. */
const char *job_pattern_name(job_pattern p);

/* A set of jobs on one topology: base gives topology, model, rates, endpoint costs,
 * limits; its spec, algorithm and placement are ignored. */
typedef struct job_set {
    sim_config base;
    int njobs;
    job_spec jobs[JOBS_MAX];
    const alg_registry *algorithms; /* user-defined algorithms, NULL: built-ins only */
} job_set;

/* One job's result: its row (the point columns from its spec, the metrics from the run
 * with every job), its time alone and its slowdown. */
typedef struct job_result {
    sim_row row;
    char job[32];
    double start_s;
    int32_t reps;
    double alone_s;   /* time_s of the job alone on the same hosts (NAN: not run) */
    double slowdown;  /* time_s / alone_s */
} job_result;

/* Runs every job together, then each alone (unless alone == 0), each simulation in a
 * child process; out gets njobs results. Errors: a bad job (prefixed "job NAME: "),
 * overlapping hosts, a model that cannot run jobs. */
int jobs_run_isolated(const job_set *js, int alone, job_result *out, cs_error *err);
/* With js->base.point_timeout_s > 0, jobs_run_isolated runs all of it (together and
 * alone) in one child killed after that many seconds: "timeout: ..." for the point as a
 * whole. */

/* The same point as a job the caller polls (sim.h: sim_job; the sweep runner): the child
 * runs jobs_run_isolated without a time limit (the caller kills it). After sim_job_read
 * returned 1, jobs_job_finish reaps it and fills out (njobs results) or fails. */
int jobs_job_start(const job_set *js, int alone, sim_job *job, cs_error *err);
int jobs_job_finish(sim_job *job, const job_set *js, job_result *out, cs_error *err);

/* Before running: the model, the topology and every job's hosts (the overlap rule), as
 * jobs_simulate checks them. The topology is built and freed. */
int jobs_check(const job_set *js, cs_error *err);

/* The point columns of job k's row (topology .. model, job, start_s, reps) without a
 * run (a job without hosts= shows its placement as given); metrics 0 / NAN. */
void job_result_describe(const job_set *js, int k, job_result *out);

/* The extra columns of a job row, after the sim_row columns:
 *   job start_s reps alone_time_s slowdown
 * (their names: job_column_names; the sweep's results.csv appends the same columns, its
 * values through job_result_csv_columns: ",job,start_s,..." without the newline) */
#define JOB_NCOLUMNS 5
extern const char *const job_column_names[JOB_NCOLUMNS];
void job_result_csv_columns(FILE *f, const job_result *r);
void job_result_csv_header(FILE *f);
void job_result_csv(FILE *f, const job_result *r);
void job_result_json(FILE *f, const job_result *r);
void job_result_text(FILE *f, const job_result *r);

#endif
