/* sweep.h - Lua scenarios and sweeps: `collsim run`.
 *
 * A scenario file (Lua 5.4, docs/scenarios.md) is run once, sandboxed, in the collsim
 * process; its collsim.sweep{...} calls expand into a *plan*: an ordered list of
 * simulation points. Expansion is deterministic: the same file, seed and collsim give
 * the same points in the same order, each with a stable id (the first 16 hex digits of
 * the SHA-256 of the point's canonical parameters, seed included). Everything wrong in
 * the scenario itself (a Lua error, an unknown collective, algorithm, algorithm parameter
 * or topology key, a malformed size) is a `file:line: message` error while loading,
 * before any point runs.
 *
 * The runner executes a plan's points (or one shard of them: point i belongs to shard
 * k/N when i mod N = k-1), each in its own child process (sim.h: sim_job), up to `jobs`
 * at once, and appends one row per finished point to OUTDIR/results.csv with a single
 * write(2) on an O_APPEND descriptor, so that a killed run leaves only whole lines (a
 * partial last line, possible only if the kernel cut a write short, is dropped on
 * resume). Rows are written as points finish; when the run ends the file is rewritten in
 * point order (temp file + rename) if it is not, so that -j N and -j 1 give the same
 * file. A point that fails (an algorithm constraint, P larger than the machine, a
 * simulation error) is a row with status "error" and the message; the sweep goes on.
 * OUTDIR/manifest.json (written atomically, at the start and at the end) records the
 * scenario, its SHA-256, versions, seed, host, dates, and every point's resolved
 * parameters, status and wall time.
 *
 * Resume: --resume keeps the rows of results.csv whose ids are points of this plan (and
 * shard), skips those points and runs the others. Every row is checked first: a malformed
 * one (anywhere in the file) is dropped with a message naming its line, and its point runs
 * again. It refuses (out->refused) when the manifest (read as JSON, any layout) records
 * another scenario SHA-256, seed, shard or --model, or is not valid JSON, or a row is not
 * a point of this run, unless forced: then such rows are moved to
 * OUTDIR/results.foreign.csv. Before sweep_run, `collsim run` claims the directory
 * (outdir_claim, below: the lock, and no silent overwrite). An
 * error that stops a run leaves the manifest in state "failed" with the message. Interruption (SIGINT, SIGTERM, SIGHUP):
 * running points are killed and not recorded, completed rows stay, the manifest says
 * "interrupted", and the run returns 128 + the signal number.
 */
#ifndef COLLSIM_SWEEP_H
#define COLLSIM_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/registry.h"
#include "common/error.h"
#include "common/sha256.h"
#include "sim/sim.h"
#include "traffic/workload.h"

/* ---- plans ----------------------------------------------------------------------------- */

/* One point. Text fields are indices into the plan's string table (sweep_plan_str). */
typedef struct sweep_point {
    int64_t index;              /* position in the plan */
    char id[SWEEP_ID_LEN + 1];
    int32_t topology;           /* spec "family k=v ..." or "preset.yaml k=v ..." or
                                   "platform.xml" */
    int32_t groups;             /* external platforms: group map file or preset, or "" */
    int32_t algorithm;          /* name */
    int32_t params;             /* "name=value name=value" sorted by name, or "" */
    coll_kind coll;
    int32_t ranks, ranks_per_node, root, dst;
    int64_t bytes;
    int32_t placement;          /* canonical placement text, seed resolved */
    sim_model model;
    pk_routing routing;         /* model packet: routing, mtu and buffer (else defaults) */
    int64_t mtu, buffer;
    pk_engine engine;           /* model packet: loop (default) or actors */
    flow_engine flow_engine;    /* model cm02: simgrid (default) or loop (sim/fluid.h) */
    int32_t barrier;            /* 1: a dissemination barrier before the collective */
    endpoint_config endpoint;   /* endpoint keys the sweep gave (.given); they override the
                                   topology's and its preset's (sim/endpoint.h) */
    int32_t workload;           /* canonical workload text, seed resolved, or "" */
    int32_t dims;               /* "8x8" or "" */
    double reduce_Bps, copy_Bps;
    int32_t rep;
    uint64_t seed;
    int32_t sweep;              /* which collsim.sweep call made it (0-based) */
    int32_t jobs;               /* several jobs (collsim.sweep{jobs = ...}): their --job
                                   specs joined by '\n' (sim/jobs.h), or "" for a single
                                   collective; a jobs point's coll, algorithm, ranks,
                                   size, placement ... are placeholders */
    /* model = "auto" (docs/scenarios.md): pass 1 is the analytic model over every point,
     * pass 2 the auto_model run of the points whose pass-1 time is within auto_factor of
     * the best of their group (same point but for algorithm, params and dims) */
    int32_t auto_pass;          /* 0: not auto, 1: first pass, 2: second pass */
    double auto_factor;
    uint64_t auto_group;        /* the group's key (a hash of the compared fields) */
    int64_t auto_first;         /* pass 2: plan index of its pass-1 point */
} sweep_point;

/* The model axis value of `model = "auto"` (not a sim_model: it expands into two passes). */
#define SWEEP_MODEL_AUTO 99
#define SWEEP_AUTO_FACTOR 1.5
/* sim_model_name, or "auto". */
const char *sweep_model_name(int model);

typedef struct sweep_plan sweep_plan; /* opaque: owns the Lua state and the points */

typedef struct scenario_opts {
    const char *outdir;   /* scenario writes (io.open) are allowed under it */
    int unsafe_lua;       /* no sandbox */
    int have_seed;        /* seed given on the command line (overrides collsim.seed) */
    uint64_t seed;
    /* Limits of the scenario's Lua code (0: none): wall time of its evaluation and of
     * each on_result call (filter and dims functions run during the evaluation), and
     * memory of its Lua state. Exceeding one is a "file:line:" error. */
    double lua_timeout_s;
    size_t lua_memory;
    int algorithms_only;  /* --lua FILE: the file is run for its collsim.define_algorithm
                             calls; collsim.sweep and collsim.draw do nothing, and a file
                             without points is fine */
    int64_t max_memory;   /* refuse a topology, and points, estimated to need more
                             (sim/estimate.h; bytes, 0 = no limit) */
    int have_model;       /* --model: `model` replaces the model of every sweep's points,
                             except traffic-model ones (they count bytes, no time); the
                             point ids change with it, as for a model set in the file */
    sim_model model;      /* or SWEEP_MODEL_AUTO */
    int dry_run;          /* --dry-run: collsim.draw checks its options, draws nothing */
} scenario_opts;
/* The defaults of collsim run (--lua-timeout, --lua-memory). */
#define SCENARIO_LUA_TIMEOUT_S 60.0
#define SCENARIO_LUA_MEMORY ((size_t)1 << 30)

/* The scenario name: the file's base name without ".lua" ("quickstart"). */
void scenario_name_of(const char *path, char *name, size_t n);

/* Runs the scenario file and builds its plan. Errors: "file:line: message". */
int scenario_load(const char *path, const scenario_opts *o, sweep_plan **out, cs_error *err);
void sweep_plan_free(sweep_plan *p);

size_t sweep_plan_count(const sweep_plan *p);
const sweep_point *sweep_plan_point(const sweep_plan *p, size_t i);
const char *sweep_plan_str(const sweep_plan *p, int32_t s);
/* The index of the point with this id, or -1. */
int64_t sweep_plan_find(const sweep_plan *p, const char *id);

/* Facts about the scenario, for the manifest. */
typedef struct scenario_facts {
    char path[4096];     /* as given */
    char name[256];
    char sha256[SHA256_HEX_LEN + 1];
    uint64_t seed;
    int unsafe_lua;
    char model_override[16]; /* collsim run --model, "" if none */
    char plot_baseline[512]; /* collsim.plot{baseline=...}: names separated by ',' */
    size_t duplicates;   /* points dropped because an earlier one had the same id */
} scenario_facts;
const scenario_facts *sweep_plan_facts(const sweep_plan *p);
/* algorithms = "all": the algorithms left out of points whose constraints they do not
 * meet, one line each ("name  P=6: reason (k points)") into buf; returns how many. */
size_t sweep_plan_skipped(const sweep_plan *p, char *buf, size_t n);
/* The algorithms the scenario defined (collsim.define_algorithm), NULL if none. */
const alg_registry *sweep_plan_algorithms(const sweep_plan *p);

/* The simulation of a point: fills c; *w is the alltoallv workload (NULL if none) that
 * c->spec.workload points to, which the caller frees (workload_free) after the run. */
int sweep_point_config(const sweep_plan *p, const sweep_point *pt, sim_config *c, workload **w,
                       cs_error *err);
/* Does the point run several jobs (pt->jobs not "")? Does any point of the plan? (Then
 * results.csv has the job columns: csvfile.c.) */
int sweep_point_has_jobs(const sweep_plan *p, const sweep_point *pt);
int sweep_plan_has_jobs(const sweep_plan *p);
/* The jobs of a jobs point: js->base from the point (topology, model, rates, endpoint
 * costs) and every job parsed from its spec. Errors: a spec's (named "job N"). */
struct job_set;
int sweep_point_jobs(const sweep_plan *p, const sweep_point *pt, struct job_set *js,
                     cs_error *err);
/* The sweep columns of a point's row; status "ok" (the caller changes it on failure). */
void sweep_point_fields(const sweep_plan *p, const sweep_point *pt, sweep_fields *f);
/* "allreduce ring P=32 n=1MiB" (for progress lines). */
void sweep_point_label(const sweep_plan *p, const sweep_point *pt, char *buf, size_t n);

/* Calls the on_result callback of the point's sweep, if any, with the row as a Lua table
 * (docs/scenarios.md; a jobs point: once per job, job its result, with the job columns). Errors (the callback's) are "file:line: message". */
struct job_result;
int sweep_plan_on_result(sweep_plan *p, const sweep_point *pt, const sweep_fields *f,
                         const sim_row *row, const struct job_result *job, cs_error *err);

/* ---- running -------------------------------------------------------------------------- */

typedef enum { PROGRESS_QUIET, PROGRESS_LINES, PROGRESS_TTY } progress_mode;

typedef struct sweep_run_opts {
    const char *outdir;
    int jobs;              /* points in flight at once, >= 1 */
    int shard_k, shard_n;  /* this run's shard k/N (1/1: everything) */
    int resume;
    progress_mode progress;
    const char *command;   /* the command line, for the manifest */
    double point_timeout_s; /* > 0: a point running longer is killed, status "timeout" */
    int force;             /* with resume: go on when the scenario, seed, shard or
                              --model changed */
    int retry;             /* with resume: run again the points whose rows are not ok
                              (timeout, error), dropping those rows */
    double announce_over_s; /* a point expected to run longer (its time estimate x the
                              measured / estimated ratio so far) is announced before it
                              starts; 0 announces every point (collsim run: 60) */
} sweep_run_opts;

typedef struct sweep_outcome {
    size_t total;       /* points of the shard */
    size_t resumed;     /* found in results.csv */
    size_t ok, failed;  /* rows in results.csv at the end */
    int signal;         /* the signal that interrupted the run, 0 if none */
    int refused;        /* the error is the output directory's (--resume): nothing ran */
} sweep_outcome;

/* Runs the plan into o->outdir (created if needed). Returns 0 when the run ended
 * (interrupted or not: see out->signal), -1 on an error that stopped it (the output
 * directory, a results.csv of other columns or of another scenario on --resume, an
 * on_result error). */
int sweep_run(sweep_plan *p, const sweep_run_opts *o, sweep_outcome *out, cs_error *err);

/* ---- the output directory ---------------------------------------------------------------- */

/* What a run does with the results of an earlier run in its output directory. */
typedef enum outdir_mode {
    OUTDIR_NEW,       /* refuse them (the default) */
    OUTDIR_RESUME,    /* keep them (--resume: sweep_run matches their rows) */
    OUTDIR_OVERWRITE  /* move them aside into DIR/previous-<UTC time>/ (--overwrite) */
} outdir_mode;
typedef struct outdir_lock {
    int fd;      /* DIR/.collsim.lock, flock'ed; -1: none */
    int created; /* outdir_claim created DIR (outdir_abandon removes it again) */
} outdir_lock;
/* Creates dir if needed and locks it for this process (flock on DIR/.collsim.lock, which
 * then holds its PID): a second run on it is refused naming the first one's PID. Then,
 * if dir holds a run's files (results.csv, manifest.json, timings.csv,
 * results.foreign.csv): OUTDIR_NEW refuses, naming the rows there and the options;
 * OUTDIR_OVERWRITE moves them and the plots (*.png) into a new DIR/previous-<time>/
 * subfolder, named in moved ("" if nothing moved). -1 with err (the lock released). */
int outdir_claim(const char *dir, outdir_mode mode, outdir_lock *lock, char *moved, size_t n,
                 cs_error *err);
/* Releases the lock (the lock file stays, empty of meaning once unlocked). */
void outdir_release(outdir_lock *lock);
/* A run that could not start (its scenario did not load): releases the lock and, when
 * outdir_claim created dir, removes the lock file and dir again if nothing else is in it,
 * so a failed start leaves no directory behind. */
void outdir_abandon(const char *dir, outdir_lock *lock);

/* ---- merging shards -------------------------------------------------------------------- */

typedef struct sweep_merge_outcome {
    size_t total; /* points of the whole plan (the manifests' points_total) */
    size_t rows;  /* points with rows in the merged results.csv (a jobs point has one
                     row per job) */
} sweep_merge_outcome;

/* Combines the output directories of `collsim run --shard k/N` runs of one scenario (same
 * scenario_sha256, seed and points_total, else an error) into outdir: results.csv and
 * timings.csv with every row in point order, byte-identical to an unsharded run's when
 * all shards are there; manifest.json with the first shard's header, "shard": "merged",
 * "merged_from": [the directories], every point, and "state": "complete" when every
 * point has a row ("incomplete" otherwise, e.g. a shard missing). A point with two
 * different rows is an error. Files are written to temporary names and renamed. Like a
 * run, the merge claims outdir (outdir_claim with mode, after the shards are read and
 * checked): results of a run there are refused (OUTDIR_NEW) or moved aside
 * (OUTDIR_OVERWRITE, the subfolder named in moved). */
int sweep_merge(const char *outdir, char *const *shard_dirs, size_t n, outdir_mode mode,
                char *moved, size_t nmoved, sweep_merge_outcome *out, cs_error *err);

/* ---- plots ---------------------------------------------------------------------------- */

/* Runs scripts/plot.py on outdir/results.csv (PNGs into outdir) with a Python that has
 * matplotlib ($COLLSIM_PYTHON, python3 on PATH, /usr/bin/python3). Returns 0 when the
 * plots were drawn, 1 when no suitable Python or script exists (a note is printed), -1
 * when the script failed. quiet: no notes, the script's output discarded. */
int sweep_plot(const char *outdir, const char *baseline, int quiet, cs_error *err);

#endif
