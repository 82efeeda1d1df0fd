/* sweep_internal.h - the plan's insides, shared by the files of src/sweep (not public).
 *
 *   plan.c          the plan: strings, topologies, points, ids, seeds, point -> sim_config
 *   scenario.c      loading a scenario file into a Lua state, on_result calls
 *   lua_sandbox.c   the sandboxed standard library
 *   lua_limits.c    memory and time limits of the Lua state, error positions
 *   lua_collsim.c   the collsim module (constructors, helpers)
 *   lua_draw.c      collsim.draw{...}: pictures through draw_run (draw.h)
 *   lua_alg*.c      collsim.define_algorithm{...}: algorithms written in Lua (lua_alg.h)
 *   lua_sweep.c     collsim.sweep: reading the axes
 *   lua_expand.c    collsim.sweep: the cartesian product, seeds, filter
 *   csvfile.c       reading and rewriting results.csv
 *   manifest.c      manifest.json
 *   progress.c      the progress line / log lines, the ETA, announcements of long points
 *   point_cost.c    a point's time estimate (for the ETA)
 *   runner.c        running a plan: jobs, signals, resume
 *   plot.c          running scripts/plot.py
 *   merge.c         collsim merge: shard outputs into one
 *   outdir.c        claiming the output directory: the lock, refusing or moving old results
 */
#ifndef COLLSIM_SWEEP_INTERNAL_H
#define COLLSIM_SWEEP_INTERNAL_H

#include <stdio.h>

#include <lua.h>

#include "sweep/sweep.h"

/* A topology the scenario named, built once to validate it. */
typedef struct plan_topology {
    int32_t spec;     /* string index */
    char family[32];
    int32_t hosts, switches, groups;
    char dims[64];    /* "8x8x8" for grid families, else "" */
    int32_t id_spec;  /* string index: the spec as point ids see it (without endpoint=none) */
    int32_t id_endpoint; /* string index: the endpoint keys of its preset file, as lines
                          * (topologies/endpoint_keys.h), "" when none */
} plan_topology;

/* lua_limits.c: the memory cap, the time limit and the error positions of a scenario's
 * Lua state. Owned by the plan; the state's allocator data (lua_getallocf). */
typedef struct lua_limits {
    lua_State *L;           /* the main thread */
    const char *path;       /* the scenario file */
    size_t used, cap;       /* bytes the state holds; its cap (0: none) */
    double timeout_s;       /* per lua_limits_pcall (0: none) */
    double deadline;        /* wall_seconds() past which the hook raises (0: none) */
    const char *activity;   /* "scenario evaluation", "on_result": for the timeout error */
    int over_memory;        /* the allocator refused a block during this call */
    char where[LUA_IDSIZE + 32]; /* "file:line:" recorded for a memory error */
} lua_limits;
/* A new Lua state allocating through lim, with the time hook set; NULL if out of memory. */
lua_State *lua_limits_newstate(lua_limits *lim, const char *path, double timeout_s, size_t cap);
/* lua_pcall of the function under nargs arguments on top of the stack (no results),
 * with the time limit and the message handler; errors are "file:line: message" in err.
 * `activity` names the call in a timeout error. */
int lua_limits_pcall(lua_State *L, int nargs, const char *activity, cs_error *err);
/* The time limit of a call made outside lua_limits_pcall (a Lua algorithm's function,
 * called while a schedule is built): starts its deadline unless a limited call is
 * running already (then that deadline holds) or there is no limit; returns whether it
 * did, for lua_limits_end, which clears it. `activity` names the call in the error. */
int lua_limits_begin(lua_State *L, const char *activity);
void lua_limits_end(lua_State *L, int started);
/* After a failed call: 1 with "file used more than 1GiB of memory (--lua-memory)" in buf
 * when the allocator refused a block past the cap during it, 0 otherwise. */
int lua_limits_memory_error(lua_State *L, char *buf, size_t n);

/* An algorithm of algorithms = "all" left out of some points: the first reason. */
typedef struct plan_skip {
    char name[64];
    char reason[600];
    int points;
} plan_skip;

struct sweep_plan {
    scenario_facts facts;
    lua_limits limits;
    char dir[4096];     /* the scenario's directory (real path) */
    char outdir[4096];  /* scenario writes go only here (real path once created) */
    int seed_used;      /* a sweep has used the seed: collsim.seed may not change it now */
    int seed_from_cli;
    int64_t max_memory; /* scenario_opts.max_memory */
    int have_model;     /* scenario_opts.have_model, model */
    sim_model model;
    /* interned strings: strs[i], and an open-addressing table of indices + 1 */
    char **strs;
    size_t nstrs, strs_cap;
    int32_t *str_slots;
    size_t str_slots_cap;
    /* points, and an open-addressing table of point indices + 1 keyed by id */
    sweep_point *points;
    size_t npoints, points_cap;
    int64_t *id_slots;
    size_t id_slots_cap;
    plan_topology *topos;
    size_t ntopos, topos_cap;
    alg_registry algorithms; /* collsim.define_algorithm (lua_alg.c) */
    int algorithms_only;     /* scenario_opts.algorithms_only */
    int dry_run;             /* scenario_opts.dry_run */
    struct plan_skip *skipped; /* algorithms = "all": algorithms left out (plan_skips.c) */
    size_t nskipped, skipped_cap;
    lua_State *L;
    int *on_result;          /* per sweep call: Lua registry reference or LUA_NOREF */
    size_t nsweeps, sweeps_cap;
};

/* plan_skips.c: does the point meet its algorithm's constraints? 0 (noted once per
 * algorithm) when it does not; 1 when it does or they cannot be checked before the run. */
int plan_meets_constraints(sweep_plan *p, const sweep_point *pt);

/* plan.c */
sweep_plan *plan_new(void);
int32_t plan_intern(sweep_plan *p, const char *s);
/* Builds (once) and describes a topology spec; -1 with the topology's error, or when its
 * estimated size exceeds the plan's max_memory (refused before building). */
int plan_topology_find(sweep_plan *p, const char *spec, int32_t *index, cs_error *err);
/* The seed of repetition rep: a hash of the scenario seed and rep, below 2^31. */
uint64_t plan_rep_seed(uint64_t scenario_seed, int32_t rep);
/* Sets pt->index and pt->id and appends it; returns 1, or 0 when an earlier point has
 * the same id (then it is not added and facts.duplicates grows). */
int plan_add_point(sweep_plan *p, sweep_point *pt);
/* Adds a sweep call's on_result reference; returns the sweep number. */
int32_t plan_add_sweep(sweep_plan *p, int on_result_ref);

/* lua_sandbox.c: the standard library, restricted unless p->facts.unsafe_lua. */
void scenario_open_libs(lua_State *L, sweep_plan *p);
/* Raises a Lua error "fn: writing 'path' is allowed only under the output directory"
 * unless the sandbox is off or path is under p->outdir (created on demand). */
void scenario_check_write(lua_State *L, const char *fn, const char *path);
/* Resolves a path the scenario gave relative to the scenario's directory into buf: joined
 * with the directory of the scenario path as given (relative when that was relative). */
void scenario_resolve_path(const sweep_plan *p, const char *path, char *buf, size_t n);
/* The path as results record it: an absolute path inside the scenario's directory
 * rewritten relative to the current directory (when the scenario was given by a relative
 * path), so that rows and point ids do not depend on where the checkout lives. */
void scenario_portable_path(const sweep_plan *p, const char *path, char *buf, size_t n);

/* lua_collsim.c: pushes the collsim module table (also set as global `collsim`). */
void scenario_open_collsim(lua_State *L, sweep_plan *p);
/* The plan a collsim function belongs to (its first upvalue). */
sweep_plan *scenario_plan(lua_State *L);
/* The text of a scalar Lua value (string, integer, float, boolean) for key=value lists;
 * raises a Lua error naming `what` for other types. */
const char *scenario_value_text(lua_State *L, int idx, const char *what, char *buf, size_t n);
/* Pushes a list of the table's keys (at idx), sorted; returns how many. Raises a Lua error
 * naming `what` for a key that is not a string, or for more than max keys. */
int scenario_push_sorted_keys(lua_State *L, int idx, const char *what, int max);
/* A string, or a list of strings joined with sep, at idx into buf (the list ends at its
 * first non-string); returns 0 (buf empty) for any other value. */
int scenario_join_strings(lua_State *L, int idx, const char *sep, char *buf, size_t n);
/* A file the scenario names, into buf: as given if it exists (made portable by
 * scenario_portable_path), else joined with the scenario's directory as given; raises a
 * Lua error when neither exists. */
void scenario_find_file(lua_State *L, const char *path, char *buf, size_t n);
/* "k=v<sep>k=v" from the string keys of the table at idx, sorted by key (deterministic
 * whatever Lua's table order), appended to buf; values as scenario_value_text. */
void scenario_append_sorted_kv(lua_State *L, int idx, const char *what, char *buf, size_t n,
                               const char *sep);
/* Is the value at idx a table with the given collsim metatable name? */
int scenario_is_object(lua_State *L, int idx, const char *tname);

/* csvfile.c: results.csv. Rows are single lines (result.h). */
/* results.csv has the job columns (job start_s reps alone_time_s slowdown, after the
 * sweep columns) when the plan has a jobs point (sweep_plan_has_jobs): `jobs` below. */
struct job_result;
/* The row as one malloc'ed CSV line ending in '\n'; *len its length. With jobs, the job
 * columns follow: job's, or empty when job is NULL (a point of a single collective). */
char *csv_row_text(const sweep_fields *f, const sim_row *r, const struct job_result *job,
                   int jobs, size_t *len);
/* Columns of a row (with or without the job columns), and the name of column i (NULL
 * past the end; is_text may be NULL). */
int csv_ncolumns(int jobs);
const char *csv_column_name(int i, int jobs, int *is_text);
/* Splits a line (without its '\n') into fields, RFC 4180 quoting undone; *fields is one
 * malloc'ed block (free it alone). Returns the number of fields. */
int csv_split(const char *line, size_t len, char ***fields);

/* The rows of a results.csv: whole lines (without '\n'), in file order. */
typedef struct csv_rows {
    char **lines;
    size_t n, cap;
    size_t valid_bytes; /* length of the file up to its last whole line */
    int partial;        /* the file ended in a partial line (not in lines) */
    int jobs;           /* the header has the job columns */
} csv_rows;
/* Reads a results.csv; fails if its header is not the sweep header (with or without the
 * job columns: rows->jobs says which). */
int csv_read_results(const char *path, csv_rows *rows, cs_error *err);
void csv_rows_free(csv_rows *rows);
/* The point index (first field) and id (second field) of a row; -1 if malformed. */
int csv_row_key(const char *line, int64_t *point, char id[SWEEP_ID_LEN + 1]);
/* Is the line a well-formed row: a point number and id, as many fields as the header, a
 * known status (ok, error, timeout), a number or nothing in every numeric column? 0, or
 * -1 with why ("31 fields, the header has 33"). */
int csv_row_check(const char *line, int jobs, char *why, size_t n);
/* The whole file, malloc'ed, NUL-terminated (not counted in *n). */
char *sweep_read_text(const char *path, size_t *n, cs_error *err);
/* Writes header + lines to path through a temporary file and rename(2). */
int csv_write_results(const char *path, char *const *lines, size_t n, int jobs, cs_error *err);

/* lua_sweep.c: collsim.sweep{...} reads its table into axes; lua_expand.c multiplies
 * them out into points. Axes in nesting order (the last varies fastest). */
enum {
    AX_TOPOLOGY,   /* topology index (plan->topos) */
    AX_GROUPS,     /* string index: a group map of external platforms, -1 = none */
    AX_COLLECTIVE, /* coll_kind */
    AX_MODEL,      /* sim_model */
    AX_ROUTING,    /* pk_routing: model packet only (lua_expand.c), like mtu and buffer */
    AX_MTU,        /* bytes */
    AX_BUFFER,     /* bytes */
    AX_ENGINE,     /* pk_engine: model packet only, like routing */
    AX_FLOW_ENGINE, /* flow_engine: model cm02 only (the others take its first value) */
    AX_BARRIER,    /* 0 or 1: a dissemination barrier before the collective (sim.h) */
    AX_SEND_OVERHEAD, /* endpoint costs (sim/endpoint.h): .i = -1 not given (the topology's */
    AX_RECV_OVERHEAD, /*   and preset's apply), else times in .d (seconds), sizes in .i */
    AX_MSG_GAP,
    AX_ENVELOPE,
    AX_EAGER_LIMIT,
    AX_PLACEMENT,  /* string index: the placement as given ("random": seed from the point) */
    AX_RANKS_PER_NODE,
    AX_RANKS,
    AX_WORKLOAD,   /* string index, -1 = none */
    AX_ROOT,
    AX_DST,
    AX_DIMS,       /* string index, -1 = none, DIMS_FROM_FUNCTION */
    AX_REDUCE,     /* .d: bytes per second, 0 = free */
    AX_COPY,
    AX_REP,
    AX_JOBS,       /* string index: the jobs of a point (lua_jobs.c), -1 = none */
    AX_ALGORITHM,  /* variant index */
    AX_SIZE,
    AX__COUNT
};
#define DIMS_FROM_FUNCTION (-2) /* dims = function(point): called for each point */
typedef struct axis_value {
    int64_t i;
    double d;
} axis_value;
typedef struct sweep_axes {
    axis_value *v[AX__COUNT];
    size_t n[AX__COUNT], cap[AX__COUNT];
    int32_t *variant_name, *variant_params; /* string indices per algorithm variant */
    unsigned char *variant_all;             /* 1: the variant came from "all" */
    size_t nvariants, variants_cap;
    int dims_fn, filter, on_result;         /* Lua registry references or LUA_NOREF */
    double auto_factor;                     /* model = "auto": auto_factor, auto_model */
    int auto_model;
} sweep_axes;
int scenario_l_sweep(lua_State *L);
void sweep_axes_add(sweep_axes *ax, int a, int64_t i, double d);
/* lua_jobs.c: the sweep table's `jobs` key (at index 1), if any, into the AX_JOBS axis:
 * one value per combination of the jobs' listed values (raising Lua errors that name the
 * job). Nothing when the key is absent. */
void sweep_read_jobs(lua_State *L, sweep_plan *p, sweep_axes *ax);
/* lua_faults.c: replaces the sweep table at index 1 by a copy whose topologies carry the
 * fault keys (fail_links, degrade_links, fault_seed), every combination, and which no
 * longer has those keys. Nothing when none is given. */
void sweep_fold_faults(lua_State *L);
/* lua_draw.c: collsim.draw{...} */
int scenario_l_draw(lua_State *L);
/* Adds the points of the axes to the plan (raising Lua errors); returns how many. */
size_t sweep_expand(lua_State *L, sweep_plan *p, const sweep_axes *ax, int32_t sweep_no);

/* point_cost.c: a rough time estimate of a point before it runs, in CPU seconds of one
 * core of the machine the constants were fitted on (scripts/bench/point_cost.sh). */
typedef struct point_work {
    sim_model model;
    double ranks;
    double messages; /* sends of all ranks */
    double bytes;    /* bytes of those sends */
    double steps;    /* steps of the longest rank */
    double mtu;      /* model packet: bytes per packet */
    double hosts;    /* of the topology */
} point_work;
/* The work of a point, from three sampled ranks of its schedule (or a formula when the
 * schedule cannot be generated in this process). */
void point_work_of(const sweep_plan *p, const sweep_point *pt, point_work *w);
/* The cost model: seconds for that work. Increases with ranks, messages, steps' width
 * and (packet) bytes. */
double point_cost_seconds(const point_work *w);
/* point_cost_seconds(point_work_of(pt)). */
double sweep_point_cost(const sweep_plan *p, const sweep_point *pt);

/* progress.c. The ETA is the estimates (point_cost.c) of the points not finished, times
 * the ratio of measured to estimated seconds of the points this run finished "ok" (1
 * before any has), less what the running points have already run, over the jobs. */
typedef struct progress {
    progress_mode mode;
    size_t total, done, done_at_start;
    int jobs;          /* points in flight at once */
    double est_left;   /* estimated seconds of the points not finished */
    double est_done;   /* estimated and measured seconds of the points finished ok */
    double wall_done;
    double last_draw;  /* when the status line was drawn, < 0: draw at the next call */
    int shown;         /* a status line is on the terminal */
} progress;
/* total points, done of them already (resumed); est_left: the sum of the estimates of
 * the other total - done points. */
void progress_init(progress *pr, progress_mode mode, size_t total, size_t done, double est_left,
                   int jobs);
/* Measured over estimated seconds of the points finished ok so far; 1 before any. */
double progress_ratio(const progress *pr);
/* Seconds left: (est_left x ratio - ran) / min(jobs, points left), where `ran` is what
 * the running points have run already (each counted up to its own expected time). 0 when
 * nothing is left. */
double progress_eta(const progress *pr, double ran);
/* One point finished (status "ok", or its error) after wall_s seconds; est_s was its
 * estimate. A log line, except on a terminal for an "ok" point. */
void progress_point(progress *pr, const char *label, const char *status, double wall_s,
                    double est_s);
/* A point about to start whose expected time (estimate x ratio) is long: "collsim run:
 * point 17/40: allreduce ring P=4096 n=16MiB, expect ~3 min" on a line of its own. */
void progress_announce(progress *pr, size_t number, const char *label, double expect_s);
/* On a terminal: (re)draws the status line with the points in flight: `running`, the
 * label of the one running longest (NULL: none), running_s seconds so far, and nrunning
 * of them in all; `ran` as progress_eta. Redraws closer together than 0.1 s are skipped. */
void progress_show(progress *pr, const char *running, double running_s, size_t nrunning,
                   double ran);
void progress_end(progress *pr);
/* "<1 s", "~45 s", "~3 min", "~2.5 h", "over 1000 h": a rough duration for
 * announcements. */
void progress_format_rough(double s, char *buf, size_t n);
/* The status line: "[12/48] ETA 3m20s | running allreduce ring P=32 n=1MiB (4 s) +1 more",
 * at most width - 1 characters (the label is cut to fit). */
typedef struct progress_status {
    size_t done, total;
    const char *running; /* NULL: nothing running */
    double running_s;
    size_t more;         /* other points running */
    double eta_s;        /* < 0: unknown */
} progress_status;
void progress_format(const progress_status *st, int width, char *buf, size_t n);

/* manifest.c: OUTDIR/manifest.json, written atomically (temp file + rename). */
typedef struct point_record {
    char status[8];  /* "ok", "error", "timeout", "skipped", or "" (not run yet) */
    double time_s;   /* the row's time_s (model = "auto" ranks first-pass rows), NAN if none */
    double wall_s;   /* wall time of the point's run, NAN if unknown */
    long peak_rss_kb; /* the child's peak resident memory, 0 if unknown */
} point_record;
/* auto_pass.c: may the second-pass (model = "auto") point at shard position pos run? 1:
 * run it; 0: skip it (why says so, for its row); -1: not yet (a first-pass point of its
 * group has no row). rec and indices are the run's records and plan indices (n). */
int sweep_auto_decide(const sweep_plan *p, const point_record *rec, const size_t *indices,
                      size_t n, size_t pos, char *why, size_t len);
typedef struct manifest_run {
    const sweep_run_opts *opts;
    const char *state;      /* "running", "complete", "interrupted", "failed" */
    const char *error;      /* with "failed": why (the message collsim run printed) */
    char started[32];       /* ISO 8601 UTC */
    double wall_s;          /* of the whole run so far */
    const size_t *indices;  /* the points of this shard, in order */
    size_t n;
    const point_record *records; /* per shard point */
} manifest_run;
int manifest_write(const sweep_plan *p, const manifest_run *m, cs_error *err);
/* The value of a top-level member of a manifest's text (json_top_member: any layout; a
 * string unescaped). 1 found, 0 absent (buf ""), -1 not valid JSON (*where: the byte). */
int manifest_value(const char *text, const char *key, char *buf, size_t n, size_t *where);
/* The current UTC time as "2026-11-23T21:30:00Z". */
void utc_now(char *buf, size_t n);

#endif
