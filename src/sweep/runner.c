/* runner.c - running a plan's points (one shard of them) in child processes, appending
 * one row per finished point to results.csv, resuming, and stopping cleanly on SIGINT /
 * SIGTERM / SIGHUP (sweep.h describes the contract).
 *
 * The signals are blocked and read from a signalfd, which is polled together with the
 * running jobs' answer pipes: no signal handler, no global flag. The children unblock
 * them (sim.h), so Ctrl-C on a terminal reaches them too; their points are then dropped.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/util.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

typedef struct running {
    sim_job job;
    job_set *js;     /* a jobs point: its jobs (the child has its own copy), else NULL */
    size_t pos;      /* position in the shard */
    double started;
    int active;
    int timed_out;   /* killed after sweep_run_opts.point_timeout_s */
} running;

typedef struct runner {
    sweep_plan *p;
    const sweep_run_opts *o;
    size_t *indices;     /* plan indices of the shard's points */
    size_t n;
    point_record *rec;   /* per shard position */
    double *cost;        /* per shard position: estimated seconds (point_cost.c) */
    char csv[4200];
    int fd;              /* results.csv, O_APPEND */
    int tfd;             /* timings.csv, O_APPEND */
    int sigfd;
    running *slots;      /* o->jobs of them */
    progress pr;
    manifest_run m;
    double started;
    sweep_outcome *out;
    int jobs;            /* results.csv has the job columns (sweep_plan_has_jobs) */
} runner;

/* ---- the shard and results.csv ------------------------------------------------------------ */

static void select_shard(runner *r)
{
    size_t total = sweep_plan_count(r->p);
    r->indices = xmalloc((total + 1) * sizeof *r->indices);
    for (size_t i = (size_t)(r->o->shard_k - 1); i < total; i += (size_t)r->o->shard_n)
        r->indices[r->n++] = i;
    r->rec = xcalloc(r->n + 1, sizeof *r->rec);
    r->cost = xcalloc(r->n + 1, sizeof *r->cost);
    for (size_t i = 0; i < r->n; i++)
        r->rec[i].wall_s = r->rec[i].time_s = NAN;
}

/* The shard position of a plan index, or -1 if another shard has it (or index is -1, not a
 * point of the plan). */
static int64_t shard_pos(const runner *r, int64_t index)
{
    int64_t k = r->o->shard_k - 1, N = r->o->shard_n;
    return index >= 0 && index % N == k ? index / N : -1;
}

/* Rows of the point at shard position pos: one per job of a jobs point, else 1. */
static size_t point_rows(const runner *r, size_t pos)
{
    const sweep_point *pt = sweep_plan_point(r->p, r->indices[pos]);
    if (!sweep_point_has_jobs(r->p, pt))
        return 1;
    size_t n = 1;
    for (const char *c = sweep_plan_str(r->p, pt->jobs); *c; c++)
        n += *c == '\n';
    return n;
}

/* Takes the status of a kept row into its record. */
static void record_row(runner *r, size_t pos, const char *line)
{
    char **f;
    int nf = csv_split(line, strlen(line), &f);
    int st = sweep_csv_column("status"), ts = sweep_csv_column("time_s");
    if (nf > st)
        snprintf(r->rec[pos].status, sizeof r->rec[pos].status, "%s", f[st]);
    if (nf > ts && f[ts][0])
        r->rec[pos].time_s = strtod(f[ts], NULL);
    free(f);
}

/* ---- timings.csv: "point,id,wall_s,peak_rss_kb", the measurements results.csv leaves
 * out (result.h), appended like the rows; on resume, read back for the manifest. */

static const char timings_header[] = "point,id,wall_s,peak_rss_kb\n";

/* Takes the measurements of the kept rows, matched by point id like the rows (their
 * point numbers may be those of another plan). */
static void read_timings(runner *r, const char *path)
{
    FILE *f = fopen(path, "r");
    char line[256], id[SWEEP_ID_LEN + 1];
    long long index;
    double wall;
    long rss;
    int64_t pos;
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "%lld,%16[0-9a-f],%lf,%ld", &index, id, &wall, &rss) != 4 ||
            (pos = shard_pos(r, sweep_plan_find(r->p, id))) < 0)
            continue;
        point_record *rec = &r->rec[pos];
        if (rec->status[0]) {
            rec->wall_s = wall;
            rec->peak_rss_kb = rss;
        }
    }
    if (f)
        fclose(f);
}

static void append_timing(runner *r, const sweep_point *pt, double wall, long rss)
{
    char line[128];
    int n = snprintf(line, sizeof line, "%lld,%s,%.6f,%ld\n", (long long)pt->index, pt->id,
                     wall, rss);
    if (write(r->tfd, line, (size_t)n) != n)
        fprintf(stderr, "collsim run: cannot append to timings.csv: %s\n", strerror(errno));
}

/* Starts timings.csv. On resume the kept rows' measurements are read first and written
 * back under this plan's point numbers, so that its lines and results.csv's agree. */
static int open_timings(runner *r, cs_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/timings.csv", r->o->outdir);
    if (r->o->resume && access(path, F_OK) == 0)
        read_timings(r, path);
    r->tfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (r->tfd < 0 || write(r->tfd, timings_header, sizeof timings_header - 1) < 0)
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    for (size_t pos = 0; pos < r->n; pos++) /* only resumed rows have a status yet */
        if (r->rec[pos].status[0] && !isnan(r->rec[pos].wall_s))
            append_timing(r, sweep_plan_point(r->p, r->indices[pos]), r->rec[pos].wall_s,
                          r->rec[pos].peak_rss_kb);
    return 0;
}

/* ---- --resume: what the output directory holds ------------------------------------------ */

/* What differs between the run manifest.json records and this one ("" if nothing, or no
 * manifest): "the scenario file (sha256 ab12..., now cd34...) changed, the seed (7, now
 * 8) changed". Hashes are cut to 12 hex digits, or given whole where those are equal. A
 * manifest that is not valid JSON is a change too: nothing it says can be trusted. */
static void run_changes(const runner *r, char *buf, size_t n)
{
    char path[4200], was[96];
    size_t len, where;
    snprintf(path, sizeof path, "%s/manifest.json", r->o->outdir);
    buf[0] = '\0';
    cs_error ignored;
    char *text = access(path, F_OK) == 0 ? sweep_read_text(path, &len, &ignored) : NULL;
    if (!text)
        return;
    const scenario_facts *f = sweep_plan_facts(r->p);
    char seed[32], shard[32];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)f->seed);
    snprintf(shard, sizeof shard, "%d/%d", r->o->shard_k, r->o->shard_n);
    static const char *const keys[] = {"scenario_sha256", "seed", "shard", "model_override"};
    static const char *const names[] = {"the scenario file (sha256 ", "the seed (", "the shard (",
                                        "--model ("};
    const char *now[] = {f->sha256, seed, shard, f->model_override};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if (manifest_value(text, keys[i], was, sizeof was, &where) < 0) {
            snprintf(buf, n, "%s is not valid JSON (at byte %zu), so what it records cannot be "
                             "compared", path, where);
            break;
        }
        if (strcmp(was, now[i]) == 0)
            continue;
        /* 12 hex digits of a hash say enough, unless they are the same */
        int cut = i == 0 && strncmp(was, now[i], 12) != 0;
        int w = cut ? 12 : (int)sizeof was;
        size_t at = strlen(buf);
        snprintf(buf + at, n - at, "%s%s%.*s%s, now %.*s%s) changed", at ? ", " : "", names[i],
                 w, was[0] ? was : "none", cut ? "..." : "", w, now[i][0] ? now[i] : "none",
                 cut ? "..." : "");
    }
    free(text);
}

/* Adds rows to OUTDIR/results.foreign.csv (after the rows it already has). */
static int keep_foreign(runner *r, char **lines, size_t n, char *path, size_t pathlen,
                        cs_error *err)
{
    snprintf(path, pathlen, "%s/results.foreign.csv", r->o->outdir);
    csv_rows old = {0};
    if (access(path, F_OK) == 0 && csv_read_results(path, &old, err) < 0)
        return -1;
    char **all = xmalloc((old.n + n + 1) * sizeof *all);
    for (size_t i = 0; i < old.n; i++)
        all[i] = old.lines[i];
    for (size_t i = 0; i < n; i++)
        all[old.n + i] = lines[i];
    int rc = old.n && old.jobs != r->jobs
                 ? cs_fail(err, "%s has %s job columns, the rows to add %s", path,
                           old.jobs ? "the" : "no", r->jobs ? "have them" : "do not")
                 : csv_write_results(path, all, old.n + n, r->jobs, err);
    free(all);
    csv_rows_free(&old);
    return rc;
}

/* Refuses (without --force) to resume into a directory of another run: the rows that are
 * not points of this run would be lost. */
static int refuse_resume(runner *r, const char *changes, size_t nforeign, cs_error *err)
{
    char rows[128] = "";
    if (nforeign)
        snprintf(rows, sizeof rows, "; %zu of its rows are not points of this run", nforeign);
    r->out->refused = 1;
    return cs_fail(err, "--resume: %s holds the results of another run%s%s%s. Use --resume "
                        "--force to go on (keeping the rows that are points of this run, and "
                        "moving the others to %s/results.foreign.csv), --overwrite to move "
                        "them all aside, or another -o directory",
                   r->o->outdir, changes[0] ? ": " : "", changes, rows, r->o->outdir);
}

/* Replaces the point number (the first field) of a results.csv row. */
static void renumber_row(char **line, int64_t index)
{
    const char *rest = strchr(*line, ',');
    size_t n = strlen(rest) + 24;
    char *out = xmalloc(n);
    snprintf(out, n, "%lld%s", (long long)index, rest);
    free(*line);
    *line = out;
}

/* A malformed row of results.csv on --resume (a cut write, an edit): dropped, so that its
 * point (if it has a readable id) runs again. The first few are named. */
static void drop_malformed(const runner *r, size_t line, const char *why, size_t before)
{
    if (r->o->progress == PROGRESS_QUIET || before >= 5)
        return;
    fprintf(stderr, "collsim run: --resume: %s line %zu is not a valid row (%s): dropped, its "
                    "point runs again\n", r->csv, line, why);
}

/* --resume: keeps the rows of this plan's shard (one per point, matched by point id); the
 * others ("foreign") refuse the resume, or with --force go to results.foreign.csv. With
 * --retry, rows that are not ok are dropped and their points run again. */
static int resume_rows(runner *r, cs_error *err)
{
    csv_rows rows;
    if (csv_read_results(r->csv, &rows, err) < 0) {
        r->out->refused = 1;
        return -1;
    }
    if (rows.jobs != r->jobs) {
        int had = rows.jobs;
        csv_rows_free(&rows);
        r->out->refused = 1;
        return cs_fail(err, "--resume: %s has %s job columns (job, start_s, ...), but this "
                            "run's points %s: use --overwrite or another -o directory",
                       r->csv, had ? "the" : "no", r->jobs ? "include jobs" : "have no jobs");
    }
    char **kept = xmalloc((rows.n + 1) * sizeof *kept);
    char **foreign = xmalloc((rows.n + 1) * sizeof *foreign);
    int64_t *row_pos = xmalloc((rows.n + 1) * sizeof *row_pos);
    size_t *count = xcalloc(r->n + 1, sizeof *count);
    size_t nkept = 0, nforeign = 0, nretried = 0, nbad = 0, npartial = 0;
    char why[128];
    for (size_t i = 0; i < rows.n; i++) {
        int64_t index, pos;
        char id[SWEEP_ID_LEN + 1];
        row_pos[i] = -1;
        if (csv_row_check(rows.lines[i], r->jobs, why, sizeof why) < 0) {
            drop_malformed(r, i + 2, why, nbad++); /* line 1 is the header */
            continue;
        }
        if (csv_row_key(rows.lines[i], &index, id) < 0 ||
            (pos = shard_pos(r, sweep_plan_find(r->p, id))) < 0 ||
            count[pos] == point_rows(r, (size_t)pos)) {
            foreign[nforeign++] = rows.lines[i];
            continue;
        }
        /* a point of this plan, perhaps at another position (a scenario whose environment
         * selects a larger subset, say): it gets this plan's point number */
        renumber_row(&rows.lines[i], (int64_t)r->indices[pos]);
        if (count[pos]++ == 0)
            record_row(r, (size_t)pos, rows.lines[i]);
        row_pos[i] = pos;
    }
    /* a point is kept whole (all its rows: one per job) or runs again */
    for (size_t pos = 0; pos < r->n; pos++)
        if (count[pos] && count[pos] < point_rows(r, pos)) {
            r->rec[pos].status[0] = '\0';
            npartial++;
        } else if (count[pos] && r->o->retry && strcmp(r->rec[pos].status, "ok") != 0) {
            r->rec[pos].status[0] = '\0'; /* a point to run again */
            nretried++;
        }
    for (size_t i = 0; i < rows.n; i++)
        if (row_pos[i] >= 0 && r->rec[row_pos[i]].status[0])
            kept[nkept++] = rows.lines[i];
    if (npartial && r->o->progress != PROGRESS_QUIET)
        fprintf(stderr, "collsim run: --resume: %zu point(s) without all their job rows: "
                        "dropped, they run again\n", npartial);
    free(row_pos);
    free(count);
    if (nbad > 5 && r->o->progress != PROGRESS_QUIET)
        fprintf(stderr, "collsim run: --resume: %zu malformed rows dropped in all\n", nbad);
    if (nretried && r->o->progress != PROGRESS_QUIET)
        fprintf(stderr, "collsim run: --retry: running again the %zu point(s) whose rows "
                        "were not ok\n", nretried);
    char changes[512], path[4200];
    run_changes(r, changes, sizeof changes);
    int rc = 0;
    if ((changes[0] || nforeign) && !r->o->force)
        rc = refuse_resume(r, changes, nforeign, err);
    else if (nforeign && (rc = keep_foreign(r, foreign, nforeign, path, sizeof path, err)) == 0 &&
             r->o->progress != PROGRESS_QUIET)
        fprintf(stderr, "collsim run: --resume --force: %zu rows that are not points of this "
                        "run moved to %s\n", nforeign, path);
    for (size_t pos = 0; pos < r->n; pos++)
        r->out->resumed += r->rec[pos].status[0] != '\0';
    if (rc == 0)
        rc = csv_write_results(r->csv, kept, nkept, r->jobs, err);
    free(kept);
    free(foreign);
    csv_rows_free(&rows);
    return rc;
}

static int open_results(runner *r, cs_error *err)
{
    snprintf(r->csv, sizeof r->csv, "%s/results.csv", r->o->outdir);
    if (r->o->resume && access(r->csv, F_OK) == 0) {
        if (resume_rows(r, err) < 0)
            return -1;
    } else if (csv_write_results(r->csv, NULL, 0, r->jobs, err) < 0) {
        return -1;
    }
    r->fd = open(r->csv, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (r->fd < 0)
        return cs_fail(err, "cannot open %s: %s", r->csv, strerror(errno));
    return open_timings(r, err);
}

/* One write(2) per point (all the rows of a jobs point at once), so a kill leaves whole
 * lines and whole points (sweep.h). */
static int append_text(runner *r, const char *text, size_t len, cs_error *err)
{
    ssize_t w;
    do
        w = write(r->fd, text, len);
    while (w < 0 && errno == EINTR);
    if (w != (ssize_t)len)
        return cs_fail(err, "cannot append to %s: %s", r->csv,
                       w < 0 ? strerror(errno) : "short write");
    return 0;
}

/* Row order: point, then place in the file (a jobs point's rows keep the job order). */
typedef struct row_order {
    int64_t point;
    size_t line;
} row_order;

static int by_point_line(const void *a, const void *b)
{
    const row_order *x = a, *y = b;
    if (x->point != y->point)
        return (x->point > y->point) - (x->point < y->point);
    return (x->line > y->line) - (x->line < y->line);
}

/* Rewrites results.csv in point order if the rows finished out of order (-j N). */
static int sort_results(runner *r, cs_error *err)
{
    csv_rows rows;
    if (csv_read_results(r->csv, &rows, err) < 0)
        return -1;
    row_order *order = xmalloc((rows.n + 1) * sizeof *order);
    int sorted = 1;
    int64_t last = -1;
    for (size_t i = 0; i < rows.n; i++) {
        char id[SWEEP_ID_LEN + 1];
        csv_row_key(rows.lines[i], &order[i].point, id);
        order[i].line = i;
        sorted &= order[i].point >= last;
        last = order[i].point;
    }
    int rc = 0;
    if (!sorted) {
        qsort(order, rows.n, sizeof *order, by_point_line);
        char **lines = xmalloc((rows.n + 1) * sizeof *lines);
        for (size_t i = 0; i < rows.n; i++)
            lines[i] = rows.lines[order[i].line];
        rc = csv_write_results(r->csv, lines, rows.n, r->jobs, err);
        free(lines);
    }
    free(order);
    csv_rows_free(&rows);
    return rc;
}

/* ---- points ---------------------------------------------------------------------------------- */

/* The record, timing and progress line of a finished point (its rows written). */
static void point_recorded(runner *r, size_t pos, const sweep_fields *f, double time_s,
                           double wall, long rss)
{
    const sweep_point *pt = sweep_plan_point(r->p, r->indices[pos]);
    append_timing(r, pt, wall, rss);
    snprintf(r->rec[pos].status, sizeof r->rec[pos].status, "%s", f->status);
    r->rec[pos].time_s = time_s;
    r->rec[pos].wall_s = wall;
    r->rec[pos].peak_rss_kb = rss;
    char label[1024];
    sweep_point_label(r->p, pt, label, sizeof label);
    progress_point(&r->pr, label, f->error[0] ? f->error : f->status, wall, r->cost[pos]);
}

/* Records a finished point: the row, the callback, the progress line. */
static int point_done(runner *r, size_t pos, sweep_fields *f, sim_row *row, double wall,
                      cs_error *err)
{
    const sweep_point *pt = sweep_plan_point(r->p, r->indices[pos]);
    row->sim_wall_s = wall;
    size_t len;
    char *text = csv_row_text(f, row, NULL, r->jobs, &len);
    int rc = append_text(r, text, len, err);
    free(text);
    if (rc < 0)
        return -1;
    point_recorded(r, pos, f, row->time_s, wall, row->sim_peak_rss_kb);
    return sweep_plan_on_result(r->p, pt, f, row, NULL, err);
}

/* Records a finished jobs point: one row per job (each with its collective, ranks, size,
 * root, dst and dims), written at once, then on_result once per row. */
static int jobs_done(runner *r, size_t pos, const sweep_fields *f, const job_set *js,
                     job_result *out, double wall, cs_error *err)
{
    const sweep_point *pt = sweep_plan_point(r->p, r->indices[pos]);
    sweep_fields *fj = xmalloc((size_t)js->njobs * sizeof *fj);
    char *all = NULL;
    size_t total = 0;
    FILE *m = open_memstream(&all, &total);
    for (int k = 0; k < js->njobs && m; k++) {
        fj[k] = *f;
        fj[k].root = js->jobs[k].spec.root;
        fj[k].dst = js->jobs[k].spec.dst;
        for (int d = 0; d < js->jobs[k].spec.ndims; d++)
            snprintf(fj[k].dims + strlen(fj[k].dims), sizeof fj[k].dims - strlen(fj[k].dims),
                     "%s%d", d ? "x" : "", js->jobs[k].spec.dims[d]);
        out[k].row.sim_wall_s = wall;
        size_t len;
        char *text = csv_row_text(&fj[k], &out[k].row, &out[k], r->jobs, &len);
        fwrite(text, 1, len, m);
        free(text);
    }
    int rc = m ? 0 : cs_fail(err, "out of memory (rows)");
    if (m)
        fclose(m);
    if (rc == 0)
        rc = append_text(r, all, total, err);
    free(all);
    if (rc == 0)
        point_recorded(r, pos, f, out[0].row.time_s, wall, out[0].row.sim_peak_rss_kb);
    for (int k = 0; k < js->njobs && rc == 0; k++)
        rc = sweep_plan_on_result(r->p, pt, &fj[k], &out[k].row, &out[k], err);
    free(fj);
    return rc;
}

/* A jobs point that produced no measurement: a row per job, status and why. */
static int jobs_failed(runner *r, size_t pos, const job_set *js, const char *status,
                       const char *msg, double wall, cs_error *err)
{
    sweep_fields f;
    sweep_point_fields(r->p, sweep_plan_point(r->p, r->indices[pos]), &f);
    snprintf(f.status, sizeof f.status, "%s", status);
    snprintf(f.error, sizeof f.error, "%s", msg);
    job_result *out = xcalloc((size_t)js->njobs, sizeof *out);
    for (int k = 0; k < js->njobs; k++)
        job_result_describe(js, k, &out[k]);
    int rc = jobs_done(r, pos, &f, js, out, wall, err);
    free(out);
    return rc;
}

/* Records a point that produced no measurement: status "error" or "timeout", and why. */
static int point_failed(runner *r, size_t pos, const sim_config *c, const char *status,
                        const char *msg, double wall, cs_error *err)
{
    sweep_fields f;
    sim_row row;
    sweep_point_fields(r->p, sweep_plan_point(r->p, r->indices[pos]), &f);
    memset(&row, 0, sizeof row);
    sim_row_describe(c, &row);
    snprintf(f.status, sizeof f.status, "%s", status);
    snprintf(f.error, sizeof f.error, "%s", msg);
    return point_done(r, pos, &f, &row, wall, err);
}

static int any_active(const runner *r)
{
    for (int j = 0; j < r->o->jobs; j++)
        if (r->slots[j].active)
            return 1;
    return 0;
}

/* A point expected (its estimate x the ratio measured so far) to run longer than
 * --announce-over is announced before it starts. */
static void announce_if_long(runner *r, size_t pos)
{
    double expect = r->cost[pos] * progress_ratio(&r->pr);
    if (expect <= r->o->announce_over_s)
        return;
    char label[1024];
    sweep_point_label(r->p, sweep_plan_point(r->p, r->indices[pos]), label, sizeof label);
    progress_announce(&r->pr, pos + 1, label, expect);
}

/* Starts the point at pos in slot s (or records its error, or its skipping, at once).
 * Returns 1 when it is a second pass of model = "auto" that cannot be decided yet. */
static int start_jobs(runner *r, running *s, size_t pos, cs_error *err)
{
    cs_error perr;
    double t0 = wall_seconds();
    s->js = xcalloc(1, sizeof *s->js);
    int rc = sweep_point_jobs(r->p, sweep_plan_point(r->p, r->indices[pos]), s->js, &perr);
    if (rc == 0) {
        announce_if_long(r, pos);
        rc = jobs_job_start(s->js, 1, &s->job, &perr);
    }
    if (rc < 0) {
        rc = jobs_failed(r, pos, s->js, "error", perr.msg, wall_seconds() - t0, err);
        free(s->js);
        s->js = NULL;
        return rc;
    }
    s->pos = pos;
    s->started = t0;
    s->active = 1;
    s->timed_out = 0;
    return 0;
}

static int start_point(runner *r, running *s, size_t pos, cs_error *err)
{
    if (sweep_point_has_jobs(r->p, sweep_plan_point(r->p, r->indices[pos])))
        return start_jobs(r, s, pos, err);
    sim_config c;
    workload *w = NULL;
    cs_error perr;
    double t0 = wall_seconds();
    const sweep_point *pt = sweep_plan_point(r->p, r->indices[pos]);
    if (pt->auto_pass == 2) {
        int go = sweep_auto_decide(r->p, r->rec, r->indices, r->n, pos, perr.msg,
                                   sizeof perr.msg);
        if (go < 0 && any_active(r))
            return 1;
        if (go == 0) {
            workload *ignored = NULL;
            sweep_point_config(r->p, pt, &c, &ignored, &perr);
            workload_free(ignored);
            return point_failed(r, pos, &c, "skipped", perr.msg, 0, err);
        }
    }
    int rc = sweep_point_config(r->p, pt, &c, &w, &perr);
    if (rc == 0) {
        announce_if_long(r, pos);
        rc = sim_job_start(&c, &s->job, &perr);
    }
    workload_free(w);
    if (rc < 0)
        return point_failed(r, pos, &c, "error", perr.msg, wall_seconds() - t0, err);
    s->pos = pos;
    s->started = t0;
    s->active = 1;
    s->timed_out = 0;
    return 0;
}

/* The timeout's message, the same for every point. */
static void timeout_text(const runner *r, char *buf, size_t n)
{
    snprintf(buf, n, "timeout: the point ran longer than %g s (--point-timeout); its "
                     "simulation process was killed", r->o->point_timeout_s);
}

/* A jobs point's child has answered: its rows (unless the run is being stopped). */
static int finish_jobs(runner *r, running *s, cs_error *err)
{
    cs_error perr;
    s->active = 0;
    job_set *js = s->js;
    s->js = NULL;
    job_result *out = xcalloc((size_t)js->njobs, sizeof *out);
    int rc = jobs_job_finish(&s->job, js, out, &perr);
    double wall = wall_seconds() - s->started;
    if (r->out->signal) {
        rc = 0;
    } else if (rc < 0) {
        if (s->timed_out)
            timeout_text(r, perr.msg, sizeof perr.msg);
        rc = jobs_failed(r, s->pos, js, s->timed_out ? "timeout" : "error", perr.msg, wall,
                         err);
    } else {
        sweep_fields f;
        sweep_point_fields(r->p, sweep_plan_point(r->p, r->indices[s->pos]), &f);
        rc = jobs_done(r, s->pos, &f, js, out, wall, err);
    }
    free(out);
    free(js);
    return rc;
}

/* The job in slot s has answered: record its row (unless the run is being stopped). */
static int finish_point(runner *r, running *s, cs_error *err)
{
    if (s->js)
        return finish_jobs(r, s, err);
    sim_result res;
    cs_error perr;
    s->active = 0;
    int rc = sim_job_finish(&s->job, &res, &perr);
    double wall = wall_seconds() - s->started;
    if (r->out->signal)
        return rc == 0 ? (sim_result_free(&res), 0) : 0;
    if (rc < 0) {
        sim_config c;
        workload *w = NULL;
        cs_error ignored;
        sweep_point_config(r->p, sweep_plan_point(r->p, r->indices[s->pos]), &c, &w, &ignored);
        workload_free(w);
        if (s->timed_out)
            timeout_text(r, perr.msg, sizeof perr.msg);
        return point_failed(r, s->pos, &c, s->timed_out ? "timeout" : "error", perr.msg, wall,
                            err);
    }
    sweep_fields f;
    sweep_point_fields(r->p, sweep_plan_point(r->p, r->indices[s->pos]), &f);
    rc = point_done(r, s->pos, &f, &res.row, wall, err);
    sim_result_free(&res);
    return rc;
}

/* ---- the loop ------------------------------------------------------------------------------ */

static void stop_all(runner *r, int sig)
{
    r->out->signal = sig;
    for (int j = 0; j < r->o->jobs; j++)
        if (r->slots[j].active)
            sim_job_signal(&r->slots[j].job, SIGTERM);
}

/* With --point-timeout: milliseconds until the first running point is overdue (-1: none);
 * on a terminal at most a second, so that the status line's clocks go on. */
static int poll_timeout_ms(const runner *r)
{
    double limit = r->o->point_timeout_s, first = -1, now = wall_seconds();
    for (int j = 0; j < r->o->jobs && limit > 0; j++)
        if (r->slots[j].active && !r->slots[j].timed_out) {
            double left = r->slots[j].started + limit - now;
            if (first < 0 || left < first)
                first = left > 0 ? left : 0;
        }
    int ms = first < 0 ? -1 : (int)(first * 1000) + 1;
    return r->pr.mode == PROGRESS_TTY && (ms < 0 || ms > 1000) ? 1000 : ms;
}

/* Kills the points that ran past --point-timeout; their pipes then close and
 * finish_point records them as "timeout". */
static void kill_overdue(runner *r)
{
    double limit = r->o->point_timeout_s, now = wall_seconds();
    if (limit <= 0)
        return;
    for (int j = 0; j < r->o->jobs; j++) {
        running *s = &r->slots[j];
        if (s->active && !s->timed_out && now - s->started >= limit) {
            s->timed_out = 1;
            sim_job_signal(&s->job, SIGKILL);
        }
    }
}

/* Waits for a job's answer, a signal or a point's deadline; returns -1 on a fatal error. */
static int wait_events(runner *r, cs_error *err)
{
    struct pollfd fds[r->o->jobs + 1];
    int slot_of[r->o->jobs + 1], nfds = 0;
    fds[nfds] = (struct pollfd){.fd = r->sigfd, .events = POLLIN};
    slot_of[nfds++] = -1;
    for (int j = 0; j < r->o->jobs; j++)
        if (r->slots[j].active) {
            fds[nfds] = (struct pollfd){.fd = r->slots[j].job.fd, .events = POLLIN};
            slot_of[nfds++] = j;
        }
    if (poll(fds, (nfds_t)nfds, poll_timeout_ms(r)) < 0)
        return errno == EINTR ? 0 : cs_fail(err, "poll: %s", strerror(errno));
    if (fds[0].revents & POLLIN) {
        struct signalfd_siginfo si;
        if (read(r->sigfd, &si, sizeof si) == (ssize_t)sizeof si && !r->out->signal)
            stop_all(r, (int)si.ssi_signo);
    }
    kill_overdue(r);
    for (int i = 1; i < nfds; i++)
        if (fds[i].revents && sim_job_read(&r->slots[slot_of[i]].job) == 1 &&
            finish_point(r, &r->slots[slot_of[i]], err) < 0)
            return -1;
    return 0;
}

/* On a terminal: the status line with the points in flight. */
static void show_running(runner *r)
{
    const running *oldest = NULL;
    size_t n = 0;
    double ran = 0, ratio = progress_ratio(&r->pr), now = wall_seconds();
    for (int j = 0; j < r->o->jobs; j++)
        if (r->slots[j].active) {
            n++;
            double expect = r->cost[r->slots[j].pos] * ratio, t = now - r->slots[j].started;
            ran += t < expect ? t : expect;
            if (!oldest || r->slots[j].started < oldest->started)
                oldest = &r->slots[j];
        }
    char label[1024];
    if (oldest)
        sweep_point_label(r->p, sweep_plan_point(r->p, r->indices[oldest->pos]), label,
                          sizeof label);
    progress_show(&r->pr, oldest ? label : NULL, oldest ? now - oldest->started : 0, n, ran);
}

static int run_points(runner *r, cs_error *err)
{
    size_t next = 0;
    for (;;) {
        for (int j = 0; j < r->o->jobs && !r->out->signal; j++) {
            while (next < r->n && r->rec[next].status[0])
                next++;
            if (r->slots[j].active || next >= r->n)
                continue;
            int rc = start_point(r, &r->slots[j], next, err);
            if (rc < 0)
                return -1;
            if (rc == 1) /* an auto second pass waits for its group's first passes */
                break;
            next++;
        }
        while (next < r->n && r->rec[next].status[0])
            next++;
        if (!any_active(r) && (next >= r->n || r->out->signal))
            return 0;
        if (r->pr.mode == PROGRESS_TTY)
            show_running(r);
        if (any_active(r) && wait_events(r, err) < 0)
            return -1;
    }
}

/* ---- sweep_run ------------------------------------------------------------------------------- */

static void count_rows(runner *r)
{
    for (size_t i = 0; i < r->n; i++) {
        r->out->ok += strcmp(r->rec[i].status, "ok") == 0;
        r->out->failed += strcmp(r->rec[i].status, "error") == 0 ||
                          strcmp(r->rec[i].status, "timeout") == 0;
    }
}

static int write_manifest(runner *r, const char *state, cs_error *err)
{
    r->m.state = state;
    r->m.wall_s = wall_seconds() - r->started;
    return manifest_write(r->p, &r->m, err);
}

/* After an error that stopped the run: the manifest says "failed", and why. */
static int run_failed(runner *r, cs_error *err)
{
    cs_error merr;
    r->m.error = err->msg;
    if (write_manifest(r, "failed", &merr) < 0)
        fprintf(stderr, "collsim run: %s\n", merr.msg);
    return -1;
}

/* The time estimates of the points to run (resumed ones are done); returns their sum. */
static double estimate_points(runner *r)
{
    double sum = 0;
    for (size_t pos = 0; pos < r->n; pos++)
        if (!r->rec[pos].status[0]) {
            r->cost[pos] = sweep_point_cost(r->p, sweep_plan_point(r->p, r->indices[pos]));
            sum += r->cost[pos];
        }
    return sum;
}

static int run(runner *r, cs_error *err)
{
    if (make_dirs(r->o->outdir, err) < 0 || open_results(r, err) < 0)
        return -1;
    r->m = (manifest_run){.opts = r->o, .indices = r->indices, .n = r->n, .records = r->rec};
    utc_now(r->m.started, sizeof r->m.started);
    if (write_manifest(r, "running", err) < 0)
        return -1;
    progress_init(&r->pr, r->o->progress, r->n, r->out->resumed, estimate_points(r), r->o->jobs);
    int rc = run_points(r, err);
    if (rc < 0)
        stop_all(r, r->out->signal ? r->out->signal : SIGTERM);
    for (int j = 0; j < r->o->jobs; j++) /* after an error or a signal: reap the rest */
        if (r->slots[j].active) {
            cs_error ignored;
            finish_point(r, &r->slots[j], &ignored);
        }
    progress_end(&r->pr);
    count_rows(r);
    if (rc < 0 || sort_results(r, err) < 0)
        return run_failed(r, err);
    return write_manifest(r, r->out->signal ? "interrupted" : "complete", err);
}

int sweep_run(sweep_plan *p, const sweep_run_opts *o, sweep_outcome *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    runner r = {.p = p, .o = o, .fd = -1, .tfd = -1, .out = out, .started = wall_seconds(),
                .jobs = sweep_plan_has_jobs(p)};
    select_shard(&r);
    out->total = r.n;
    for (size_t i = 0; i < r.n && o->shard_n > 1; i++)
        if (sweep_plan_point(p, r.indices[i])->auto_pass) {
            free(r.indices);
            free(r.rec);
            free(r.cost);
            return cs_fail(err, "--shard: model = \"auto\" ranks its first pass over the whole "
                                "plan; run a scenario with auto points without --shard");
        }
    r.slots = xcalloc((size_t)o->jobs, sizeof *r.slots);
    sigset_t mask, old;
    sigemptyset(&mask);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGHUP);
    sigprocmask(SIG_BLOCK, &mask, &old);
    r.sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    int rc = r.sigfd < 0 ? cs_fail(err, "signalfd: %s", strerror(errno)) : run(&r, err);
    if (r.sigfd >= 0)
        close(r.sigfd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (r.fd >= 0)
        close(r.fd);
    if (r.tfd >= 0)
        close(r.tfd);
    free(r.slots);
    free(r.indices);
    free(r.rec);
    free(r.cost);
    return rc;
}
