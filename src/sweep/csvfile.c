/* csvfile.c - results.csv on disk: one row as one line, reading back whole lines only,
 * rewriting atomically (sweep_internal.h).
 *
 * Rows never contain line breaks (result.h), so a line is a row and a file cut short by
 * a kill ends, at worst, in a partial line without its '\n': readers drop it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/util.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

/* The text `write` prints (with its argument), as one malloc'ed string; *len its length. */
static char *memstream_text(void (*write)(FILE *, const void *), const void *arg, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    if (!m) {
        fprintf(stderr, "collsim: out of memory (row buffer)\n");
        exit(3);
    }
    write(m, arg);
    fclose(m);
    *len = n;
    return buf;
}

/* A plan with jobs appends the job columns after the sweep columns (sim/jobs.h: their
 * names and values, as `collsim sim --job` writes them). */

typedef struct row_ref {
    const sweep_fields *f;
    const sim_row *r;
    const job_result *job;
    int jobs;
} row_ref;

static void sweep_columns(FILE *m, const void *arg)
{
    const row_ref *ref = arg;
    sweep_row_csv(m, ref->f, ref->r);
}

static void sweep_header(FILE *m, const void *arg)
{
    (void)arg;
    sweep_row_csv_header(m);
}

/* The one line `write` prints, copied to m without its newline (the job columns follow). */
static void line_without_newline(FILE *m, void (*write)(FILE *, const void *), const void *arg)
{
    size_t n;
    char *line = memstream_text(write, arg, &n);
    fwrite(line, 1, n - 1, m);
    free(line);
}

/* sweep_row_csv, and with the job columns their values (empty for a row of no job). */
static void write_row(FILE *m, const void *arg)
{
    const row_ref *ref = arg;
    if (!ref->jobs) {
        sweep_columns(m, ref);
        return;
    }
    line_without_newline(m, sweep_columns, ref);
    if (ref->job)
        job_result_csv_columns(m, ref->job);
    else
        for (int i = 0; i < JOB_NCOLUMNS; i++)
            fputc(',', m);
    fputc('\n', m);
}

static void write_header(FILE *m, const void *arg)
{
    if (!*(const int *)arg) {
        sweep_row_csv_header(m);
        return;
    }
    line_without_newline(m, sweep_header, NULL);
    for (int i = 0; i < JOB_NCOLUMNS; i++)
        fprintf(m, ",%s", job_column_names[i]);
    fputc('\n', m);
}

char *csv_row_text(const sweep_fields *f, const sim_row *r, const job_result *job, int jobs,
                   size_t *len)
{
    row_ref ref = {f, r, job, jobs};
    return memstream_text(write_row, &ref, len);
}

static char *header_text(int jobs, size_t *len)
{
    return memstream_text(write_header, &jobs, len);
}

int csv_ncolumns(int jobs)
{
    return sweep_csv_ncolumns() + (jobs ? JOB_NCOLUMNS : 0);
}

const char *csv_column_name(int i, int jobs, int *is_text)
{
    int base = sweep_csv_ncolumns();
    if (i < base)
        return sweep_csv_column_name(i, is_text, NULL);
    if (!jobs || i >= base + JOB_NCOLUMNS)
        return NULL;
    if (is_text)
        *is_text = i == base;
    return job_column_names[i - base];
}

int csv_split(const char *line, size_t len, char ***fields)
{
    /* at most len + 1 fields; each field's text is no longer than the line */
    size_t maxf = len + 1;
    char **out = xmalloc(maxf * sizeof *out + len + maxf);
    char *text = (char *)(out + maxf);
    int n = 0;
    size_t i = 0;
    for (;;) {
        out[n++] = text;
        if (i < len && line[i] == '"') {
            for (i++; i < len; i++) {
                if (line[i] == '"' && i + 1 < len && line[i + 1] == '"')
                    *text++ = line[i++];
                else if (line[i] == '"')
                    break;
                else
                    *text++ = line[i];
            }
            i++; /* the closing quote */
        }
        while (i < len && line[i] != ',')
            *text++ = line[i++];
        *text++ = '\0';
        if (i >= len)
            break;
        i++; /* the comma */
    }
    *fields = out;
    return n;
}

int csv_row_key(const char *line, int64_t *point, char id[SWEEP_ID_LEN + 1])
{
    char *end;
    errno = 0;
    long long v = strtoll(line, &end, 10);
    if (errno || end == line || *end != ',' || v < 0)
        return -1;
    const char *s = end + 1;
    size_t k = strspn(s, "0123456789abcdef");
    if (k != SWEEP_ID_LEN || s[k] != ',')
        return -1;
    memcpy(id, s, SWEEP_ID_LEN);
    id[SWEEP_ID_LEN] = '\0';
    *point = v;
    return 0;
}

/* A numeric column's field: empty (a failed point's metric) or a whole number. */
static int numeric_field(const char *text)
{
    if (!*text)
        return 1;
    char *end;
    errno = 0;
    (void)strtod(text, &end);
    return end != text && *end == '\0';
}

int csv_row_check(const char *line, int jobs, char *why, size_t n)
{
    int64_t point;
    char id[SWEEP_ID_LEN + 1];
    if (csv_row_key(line, &point, id) < 0) {
        snprintf(why, n, "it does not start with a point number and a %d-hex-digit id",
                 SWEEP_ID_LEN);
        return -1;
    }
    char **f;
    int nf = csv_split(line, strlen(line), &f), rc = 0;
    int st = sweep_csv_column("status");
    if (nf != csv_ncolumns(jobs)) {
        snprintf(why, n, "%d fields, the header has %d", nf, csv_ncolumns(jobs));
        rc = -1;
    } else if (strcmp(f[st], "ok") && strcmp(f[st], "error") && strcmp(f[st], "timeout") &&
               strcmp(f[st], "skipped")) { /* skipped: model = "auto"'s second pass */
        snprintf(why, n, "status '%.32s' (allowed: ok, error, timeout, skipped)", f[st]);
        rc = -1;
    }
    for (int i = 0; rc == 0 && i < nf; i++) {
        int is_text;
        const char *name = csv_column_name(i, jobs, &is_text);
        if (!is_text && !numeric_field(f[i])) {
            snprintf(why, n, "column %s is not a number", name);
            rc = -1;
        }
    }
    free(f);
    return rc;
}

void csv_rows_free(csv_rows *rows)
{
    for (size_t i = 0; i < rows->n; i++)
        free(rows->lines[i]);
    free(rows->lines);
    memset(rows, 0, sizeof *rows);
}

char *sweep_read_text(const char *path, size_t *n, cs_error *err)
{
    FILE *f = fopen_input(path, "rb");
    if (!f) {
        cs_fail(err, "cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536;
    char *buf = xmalloc(cap);
    *n = 0;
    size_t r;
    while ((r = fread(buf + *n, 1, cap - *n, f)) > 0) {
        *n += r;
        if (*n == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    fclose(f);
    buf[*n] = '\0'; /* *n < cap: the buffer grows when full */
    return buf;
}

int csv_read_results(const char *path, csv_rows *rows, cs_error *err)
{
    memset(rows, 0, sizeof *rows);
    size_t n, hlen;
    char *text = sweep_read_text(path, &n, err);
    if (!text)
        return -1;
    int same = 0;
    for (int jobs = 0; jobs < 2 && !same; jobs++) { /* without or with the job columns */
        char *header = header_text(jobs, &hlen);
        same = n >= hlen && memcmp(text, header, hlen) == 0;
        rows->jobs = jobs;
        free(header);
    }
    if (!same) {
        free(text);
        return cs_fail(err, "%s does not start with the columns of this collsim's results "
                            "(docs/results.md)", path);
    }
    size_t at = hlen;
    rows->valid_bytes = hlen;
    while (at < n) {
        char *nl = memchr(text + at, '\n', n - at);
        if (!nl) {
            rows->partial = 1;
            break;
        }
        size_t len = (size_t)(nl - (text + at));
        VEC_RESERVE(rows->lines, rows->cap, rows->n + 1);
        char *line = xmalloc(len + 1);
        memcpy(line, text + at, len);
        line[len] = '\0';
        rows->lines[rows->n++] = line;
        at += len + 1;
        rows->valid_bytes = at;
    }
    free(text);
    return 0;
}

int csv_write_results(const char *path, char *const *lines, size_t n, int jobs, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    size_t hlen;
    char *header = header_text(jobs, &hlen);
    fputs(header, out.f);
    free(header);
    for (size_t i = 0; i < n; i++) {
        fputs(lines[i], out.f);
        fputc('\n', out.f);
    }
    return atomic_file_commit(&out, 1, err);
}
