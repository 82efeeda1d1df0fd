/* check_report.c - what a check produced: the case list, its JUnit XML and its baseline CSV
 * (see check.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "common/atomic_file.h"
#include "common/util.h"

void check_report_free(check_report *r)
{
    free(r->cases);
    r->cases = NULL;
    r->n = r->cap = 0;
}

check_case *check_report_add(check_report *r)
{
    VEC_RESERVE(r->cases, r->cap, r->n + 1);
    check_case *c = &r->cases[r->n++];
    memset(c, 0, sizeof *c);
    c->time_s = c->bytes_global = NAN;
    return c;
}

/* ---- JUnit XML ------------------------------------------------------------------------ */

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\n' || *s == '\t')
                fputc(*s, f);
        }
    }
}

static void count(const check_report *r, const char *kind, size_t *n, size_t *fail,
                  size_t *skip, double *wall)
{
    *n = *fail = *skip = 0;
    *wall = 0;
    for (size_t i = 0; i < r->n; i++)
        if (!kind || strcmp(r->cases[i].kind, kind) == 0) {
            (*n)++;
            *fail += r->cases[i].status == CASE_FAIL;
            *skip += r->cases[i].status == CASE_SKIP;
            *wall += r->cases[i].wall_s;
        }
}

static void write_suite(FILE *f, const check_report *r, const char *kind)
{
    size_t n, fail, skip;
    double wall;
    count(r, kind, &n, &fail, &skip, &wall);
    if (n == 0)
        return;
    fprintf(f, "  <testsuite name=\"%s ", kind);
    xml_text(f, r->suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
            n, fail, skip, wall);
    for (size_t i = 0; i < r->n; i++) {
        const check_case *c = &r->cases[i];
        if (strcmp(c->kind, kind) != 0)
            continue;
        fprintf(f, "    <testcase classname=\"collsim.%s.", kind);
        xml_text(f, r->suite);
        fputs("\" name=\"", f);
        xml_text(f, c->name);
        fprintf(f, "\" time=\"%.3f\"", c->wall_s);
        if (c->status == CASE_OK) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n      <", f);
        fputs(c->status == CASE_FAIL ? "failure" : "skipped", f);
        fputs(" message=\"", f);
        xml_text(f, c->message);
        fputs("\"/>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
}

int check_write_junit(const check_report *r, const char *path, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    FILE *f = out.f;
    size_t n, fail, skip;
    double wall;
    count(r, NULL, &n, &fail, &skip, &wall);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
    fprintf(f, "<testsuites name=\"collsim check\" tests=\"%zu\" failures=\"%zu\" "
               "errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n", n, fail, skip, wall);
    write_suite(f, r, "verify");
    write_suite(f, r, "simulate");
    fputs("</testsuites>\n", f);
    return atomic_file_commit(&out, 1, err);
}

/* ---- baselines ------------------------------------------------------------------------- */

/* Case names may hold commas (topology specs rarely do, but quote anyway). */
static void csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int check_baseline_write(const check_report *r, const char *path, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    FILE *f = out.f;
    fputs("case,time_s,bytes_global\n", f);
    for (size_t i = 0; i < r->n; i++) {
        const check_case *c = &r->cases[i];
        if (strcmp(c->kind, "simulate") != 0 || c->status != CASE_OK)
            continue;
        csv_field(f, c->name);
        if (isnan(c->time_s))
            fputc(',', f);
        else
            fprintf(f, ",%.9g", c->time_s);
        fprintf(f, ",%.0f\n", c->bytes_global);
    }
    return atomic_file_commit(&out, 1, err);
}

typedef struct baseline_row {
    char name[1200];
    double time_s, bytes_global;
} baseline_row;

/* Parses `"name",time,bytes`; returns 0, or -1 on a malformed line. */
static int parse_row(char *line, baseline_row *row)
{
    char *p = line;
    size_t n = 0;
    if (*p++ != '"')
        return -1;
    while (*p && !(p[0] == '"' && p[1] != '"')) {
        if (p[0] == '"')
            p++;
        if (n + 1 < sizeof row->name)
            row->name[n++] = *p;
        p++;
    }
    row->name[n] = '\0';
    if (*p++ != '"' || *p++ != ',')
        return -1;
    char *end;
    row->time_s = *p == ',' ? NAN : strtod(p, &end);
    if (*p != ',') {
        if (end == p)
            return -1;
        p = end;
    }
    if (*p++ != ',')
        return -1;
    row->bytes_global = strtod(p, &end);
    return end == p ? -1 : 0;
}

/* Compares one figure; returns 1 (and writes why) when it is beyond the tolerance. */
static int beyond(const char *what, double now, double base, double tol, char *msg, size_t n)
{
    if (isnan(now) && isnan(base))
        return 0;
    if (isnan(now) != isnan(base)) {
        snprintf(msg, n, "%s: %s now, %s in the baseline", what, isnan(now) ? "none" : "a value",
                 isnan(base) ? "none" : "a value");
        return 1;
    }
    double rel = base != 0 ? (now - base) / base : (now != 0 ? INFINITY : 0);
    if (fabs(rel) <= tol)
        return 0;
    snprintf(msg, n, "%s %.6g vs baseline %.6g (%+.1f%%, tolerance %.1f%%)", what, now, base,
             100 * rel, 100 * tol);
    return 1;
}

static void compare_case(check_case *c, const baseline_row *rows, size_t nrows, double tol)
{
    for (size_t k = 0; k < nrows; k++) {
        if (strcmp(rows[k].name, c->name) != 0)
            continue;
        char msg[CS_ERROR_MAX];
        if (beyond("time_s", c->time_s, rows[k].time_s, tol, msg, sizeof msg) ||
            beyond("bytes_global", c->bytes_global, rows[k].bytes_global, tol, msg, sizeof msg)) {
            c->status = CASE_FAIL;
            snprintf(c->message, sizeof c->message, "regression: %s", msg);
        }
        return;
    }
    c->status = CASE_FAIL;
    snprintf(c->message, sizeof c->message, "not in the baseline (write one with "
             "--write-baseline)");
}

int check_baseline_compare(check_report *r, const char *path, double tolerance, cs_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return cs_fail(err, "cannot open %s", path);
    baseline_row *rows = NULL;
    size_t nrows = 0, cap = 0, len = 0;
    char *line = NULL;
    int lineno = 0, rc = 0;
    while (rc == 0 && getline(&line, &len, f) >= 0) {
        if (++lineno == 1 || line[0] == '\n')
            continue; /* the header */
        VEC_RESERVE(rows, cap, nrows + 1);
        if (parse_row(line, &rows[nrows]) < 0)
            rc = cs_fail(err, "%s:%d: expected \"case\",time_s,bytes_global", path, lineno);
        nrows++;
    }
    free(line);
    fclose(f);
    for (size_t i = 0; rc == 0 && i < r->n; i++)
        if (strcmp(r->cases[i].kind, "simulate") == 0 && r->cases[i].status == CASE_OK)
            compare_case(&r->cases[i], rows, nrows, tolerance);
    free(rows);
    return rc;
}
