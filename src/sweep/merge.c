/* merge.c - `collsim merge OUT SHARD_DIR...`: the outputs of `collsim run --shard k/N`
 * runs combined into the output of one whole run (sweep.h: sweep_merge).
 *
 * results.csv and timings.csv: every shard's rows, in point order (a row that two shards
 * both have must be the same row). manifest.json: the first shard's header (scenario,
 * versions, seed...) with "shard": "merged", "merged_from" and a state of "complete" or
 * "incomplete", then every shard's point lines in point order. The manifest writer puts
 * each point on one line starting with `    {"point": ` (manifest.c), which is what
 * makes the line-wise merge sound; the header fields compared (scenario_sha256, seed,
 * points_total) are read as JSON (json_read.c), and a manifest whose points are not in
 * that layout is refused rather than merged without them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/json.h"
#include "common/util.h"
#include "sweep/sweep_internal.h"

/* A line keyed by its point index; `line` points into a buffer owned elsewhere. */
typedef struct keyed_line {
    int64_t point;
    size_t sub; /* the line's place among its point's lines (a jobs point: its job) */
    const char *line;
} keyed_line;

typedef struct keyed_lines {
    keyed_line *v;
    size_t n, cap;
} keyed_lines;

static void keyed_add(keyed_lines *k, int64_t point, size_t sub, const char *line)
{
    VEC_RESERVE(k->v, k->cap, k->n + 1);
    k->v[k->n++] = (keyed_line){point, sub, line};
}

static int by_point(const void *a, const void *b)
{
    const keyed_line *x = a, *y = b;
    if (x->point != y->point)
        return (x->point > y->point) - (x->point < y->point);
    return (x->sub > y->sub) - (x->sub < y->sub);
}

/* Sorts by point (and place within it) and keeps the first line of each; when `what` is
 * not NULL, two different lines for one place fail (timings may differ: a point measured
 * twice). */
static int keyed_sort_unique(keyed_lines *k, const char *what, cs_error *err)
{
    if (k->n > 1)
        qsort(k->v, k->n, sizeof *k->v, by_point);
    size_t m = 0;
    for (size_t i = 0; i < k->n; i++) {
        if (m > 0 && k->v[m - 1].point == k->v[i].point && k->v[m - 1].sub == k->v[i].sub) {
            if (what && strcmp(k->v[m - 1].line, k->v[i].line) != 0)
                return cs_fail(err, "point %" PRId64 " has different %s in two shards",
                               k->v[i].point, what);
            continue;
        }
        k->v[m++] = k->v[i];
    }
    k->n = m;
    return 0;
}

/* One shard directory: its files' texts (split into lines in place) and header facts. */
typedef struct shard {
    const char *dir;
    csv_rows rows;
    char *timings, *manifest;
    char sha256[SHA256_HEX_LEN + 1], seed[32], total[32];
} shard;

/* Every row of results.csv and every line of timings.csv well formed (a garbage line is
 * an error naming the file and line, not a row silently left out). */
static int shard_check(const shard *s, cs_error *err)
{
    char why[128], id[SWEEP_ID_LEN + 1], extra;
    for (size_t i = 0; i < s->rows.n; i++)
        if (csv_row_check(s->rows.lines[i], s->rows.jobs, why, sizeof why) < 0)
            return cs_fail(err, "%s/results.csv:%zu: not a valid row (%s)", s->dir, i + 2, why);
    if (s->rows.partial)
        return cs_fail(err, "%s/results.csv:%zu: a partial last line (a killed run: finish it "
                            "with collsim run --resume first)", s->dir, s->rows.n + 2);
    size_t line = 1;
    for (const char *t = s->timings; *t; line++) {
        const char *nl = strchr(t, '\n');
        long long point;
        double wall;
        long rss;
        char text[256];
        size_t len = nl ? (size_t)(nl - t) : strlen(t);
        snprintf(text, sizeof text, "%.*s", (int)(len < 255 ? len : 255), t);
        int ok = line == 1 ? strcmp(text, "point,id,wall_s,peak_rss_kb") == 0
                           : len < 255 && sscanf(text, "%lld,%16[0-9a-f],%lf,%ld%c", &point, id,
                                                 &wall, &rss, &extra) == 4;
        if (!ok || !nl)
            return cs_fail(err, "%s/timings.csv:%zu: not a line of point,id,wall_s,peak_rss_kb",
                           s->dir, line);
        t = nl + 1;
    }
    return 0;
}

static int shard_read(shard *s, const char *dir, cs_error *err)
{
    char path[4200];
    size_t n;
    memset(s, 0, sizeof *s);
    s->dir = dir;
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    if (!(s->manifest = sweep_read_text(path, &n, err)))
        return -1;
    char kind[32];
    size_t where;
    if (manifest_value(s->manifest, "manifest", kind, sizeof kind, &where) < 0)
        return cs_fail(err, "%s is not valid JSON (at byte %zu)", path, where);
    if (strcmp(kind, "collsim-run-1") != 0)
        return cs_fail(err, "%s is not a collsim run manifest (no \"manifest\": "
                            "\"collsim-run-1\")", path);
    manifest_value(s->manifest, "scenario_sha256", s->sha256, sizeof s->sha256, NULL);
    manifest_value(s->manifest, "seed", s->seed, sizeof s->seed, NULL);
    manifest_value(s->manifest, "points_total", s->total, sizeof s->total, NULL);
    /* the point list is merged line by line: it must be in the writer's layout */
    char first[64];
    manifest_value(s->manifest, "points", first, sizeof first, NULL);
    size_t skip = 1 + strspn(first + 1, " \t\r\n");
    if (first[0] == '[' && first[skip] != ']' &&
        (!strstr(s->manifest, "\n    {\"point\": ") || !strstr(s->manifest, "\n  \"points\": [")))
        return cs_fail(err, "%s: its points are not one per line as collsim writes them (a "
                            "manifest rewritten by another tool?): merge needs that layout",
                       path);
    snprintf(path, sizeof path, "%s/timings.csv", dir);
    if (!(s->timings = sweep_read_text(path, &n, err)))
        return -1;
    snprintf(path, sizeof path, "%s/results.csv", dir);
    if (csv_read_results(path, &s->rows, err) < 0)
        return -1;
    return shard_check(s, err);
}

static void shard_free(shard *s)
{
    csv_rows_free(&s->rows);
    free(s->timings);
    free(s->manifest);
}

/* Adds the lines of text that start with a point number (after `prefix`) to k; the
 * lines are cut in place (their '\n' and a trailing ',' become '\0'). */
static void collect_lines(char *text, const char *prefix, keyed_lines *k)
{
    size_t plen = strlen(prefix);
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        char *end;
        if (strncmp(line, prefix, plen) == 0) {
            long long point = strtoll(line + plen, &end, 10);
            if (end != line + plen && *end == ',') {
                size_t len = strlen(line);
                if (len > 0 && line[len - 1] == ',')
                    line[len - 1] = '\0';
                keyed_add(k, point, 0, line);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
}

static int write_lines(const char *path, const char *header, const keyed_lines *k,
                       const char *sep, const char *footer, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    FILE *f = out.f;
    fputs(header, f);
    for (size_t i = 0; i < k->n; i++) {
        fputs(k->v[i].line, f);
        fputs(i + 1 < k->n ? sep : "\n", f);
    }
    fputs(footer, f);
    return atomic_file_commit(&out, 1, err);
}

/* The merged manifest's header: the first shard's, up to its point list, with the
 * state, shard and source directories of the merge. */
static char *manifest_header(const shard *s, size_t nshards, int complete)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m)
        return NULL;
    const char *text = s[0].manifest, *end = strstr(text, "\n  \"points\": [");
    for (const char *line = text; line && line < end;) {
        const char *nl = strchr(line, '\n');
        size_t len = (size_t)(nl - line);
        if (strncmp(line, "  \"state\": ", 11) == 0)
            fprintf(m, "  \"state\": \"%s\",", complete ? "complete" : "incomplete");
        else if (strncmp(line, "  \"shard\": ", 11) == 0)
            fputs("  \"shard\": \"merged\",", m);
        else
            fwrite(line, 1, len, m);
        fputc('\n', m);
        line = nl + 1;
    }
    fputs("  \"merged_from\": [", m);
    for (size_t i = 0; i < nshards; i++) {
        fputs(i ? ", " : "", m);
        json_write_string(m, s[i].dir);
    }
    fputs("],\n  \"points\": [\n", m);
    fclose(m);
    return buf;
}

static int check_same_scenario(const shard *s, size_t n, cs_error *err)
{
    for (size_t i = 1; i < n; i++)
        if (s[i].rows.jobs != s[0].rows.jobs)
            return cs_fail(err, "%s/results.csv and %s/results.csv differ in their columns "
                                "(one has the job columns)", s[0].dir, s[i].dir);
    for (size_t i = 1; i < n; i++)
        if (strcmp(s[i].sha256, s[0].sha256) || strcmp(s[i].seed, s[0].seed) ||
            strcmp(s[i].total, s[0].total))
            return cs_fail(err, "%s and %s are runs of different scenarios, seeds or plans "
                                "(scenario_sha256, seed, points_total differ)",
                           s[0].dir, s[i].dir);
    return 0;
}

static int write_merged(const char *outdir, shard *s, size_t nshards, sweep_merge_outcome *out,
                        cs_error *err)
{
    keyed_lines rows = {0}, timings = {0}, points = {0};
    for (size_t i = 0; i < nshards; i++) {
        int64_t last = -1;
        size_t sub = 0;
        for (size_t r = 0; r < s[i].rows.n; r++) {
            int64_t point;
            char id[SWEEP_ID_LEN + 1];
            if (csv_row_key(s[i].rows.lines[r], &point, id) < 0)
                continue;
            sub = point == last ? sub + 1 : 0; /* a shard's file is in point order */
            last = point;
            keyed_add(&rows, point, sub, s[i].rows.lines[r]);
        }
        collect_lines(s[i].timings, "", &timings);
    }
    char path[4200], *header = NULL;
    int rc = keyed_sort_unique(&rows, "rows", err);
    size_t npoints = 0; /* points with rows (a jobs point has one per job) */
    for (size_t i = 0; i < rows.n; i++)
        npoints += i == 0 || rows.v[i].point != rows.v[i - 1].point;
    out->rows = npoints;
    out->total = (size_t)strtoull(s[0].total, NULL, 10);
    /* the header first: collect_lines cuts the manifests' text */
    if (rc == 0 && !(header = manifest_header(s, nshards, npoints == out->total)))
        rc = cs_fail(err, "out of memory (manifest)");
    for (size_t i = 0; i < nshards; i++)
        collect_lines(s[i].manifest, "    {\"point\": ", &points);
    if (rc == 0)
        rc = keyed_sort_unique(&timings, NULL, err);
    if (rc == 0)
        rc = keyed_sort_unique(&points, "manifest entries", err);
    if (rc == 0 && (rc = make_dirs(outdir, err)) == 0) {
        char **lines = xmalloc((rows.n + 1) * sizeof *lines);
        for (size_t i = 0; i < rows.n; i++)
            lines[i] = (char *)rows.v[i].line;
        snprintf(path, sizeof path, "%s/results.csv", outdir);
        rc = csv_write_results(path, lines, rows.n, s[0].rows.jobs, err);
        free(lines);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/timings.csv", outdir);
        rc = write_lines(path, "point,id,wall_s,peak_rss_kb\n", &timings, "\n", "", err);
    }
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/manifest.json", outdir);
        rc = write_lines(path, header, &points, ",\n", "  ]\n}\n", err);
    }
    free(header);
    free(rows.v);
    free(timings.v);
    free(points.v);
    return rc;
}

int sweep_merge(const char *outdir, char *const *dirs, size_t n, outdir_mode mode, char *moved,
                size_t nmoved, sweep_merge_outcome *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    shard *s = xcalloc(n + 1, sizeof *s);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = shard_read(&s[i], dirs[i], err);
    if (rc == 0)
        rc = check_same_scenario(s, n, err);
    outdir_lock lock = {.fd = -1};
    moved[0] = '\0';
    if (rc == 0)
        rc = outdir_claim(outdir, mode, &lock, moved, nmoved, err);
    if (rc == 0)
        rc = write_merged(outdir, s, n, out, err);
    outdir_release(&lock);
    for (size_t i = 0; i < n; i++)
        shard_free(&s[i]);
    free(s);
    return rc;
}
