/* table.c - reading a measured table: the file's lines, the format detected from its first
 * lines (OSU text output or CSV), and the checks every table must pass. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "common/util.h"

#define MAX_TABLE_BYTES (16 << 20) /* a benchmark table is a few KiB; refuse anything huge */
#define ALLOWED "osu_latency, osu_bw, osu_bibw, osu_mbw_mr text output, or a CSV " \
                "bytes,seconds[,messages]"

const char *cal_source_name(cal_source s)
{
    switch (s) {
    case CAL_OSU_LATENCY: return "osu_latency";
    case CAL_OSU_BW: return "osu_bw";
    case CAL_OSU_BIBW: return "osu_bibw";
    case CAL_OSU_MBW_MR: return "osu_mbw_mr";
    case CAL_CSV: return "csv";
    }
    return "?";
}

void cal_add_point(cal_table *t, double bytes, double seconds, int line)
{
    if ((t->n & (t->n - 1)) == 0) /* capacity doubles at powers of two */
        t->pts = xrealloc(t->pts, (t->n ? 2 * t->n : 1) * sizeof *t->pts);
    t->pts[t->n++] = (cal_point){bytes, seconds, line};
}

void cal_table_free(cal_table *t)
{
    free(t->pts);
    t->pts = NULL;
    t->n = 0;
}

static int read_lines(const char *path, cal_lines *l, cs_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return cs_fail(err, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    char *text = xmalloc(cap);
    size_t got;
    while ((got = fread(text + len, 1, cap - len - 1, f)) > 0 && len <= MAX_TABLE_BYTES) {
        len += got;
        if (len + 1 == cap)
            text = xrealloc(text, cap *= 2);
    }
    if (len > MAX_TABLE_BYTES) {
        fclose(f);
        free(text);
        return cs_fail(err, "%s: larger than %d MiB: not a benchmark table (expected %s)", path,
                       MAX_TABLE_BYTES >> 20, ALLOWED);
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        return cs_fail(err, "%s: read error", path);
    }
    text[len] = '\0';
    if (memchr(text, '\0', len)) {
        free(text);
        return cs_fail(err, "%s: binary data (expected %s)", path, ALLOWED);
    }
    l->text = text;
    l->n = 0;
    l->line = xmalloc((len / 2 + 2) * sizeof *l->line);
    for (char *p = text; *p || p == text;) {
        l->line[l->n++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        if (nl > p && nl[-1] == '\r')
            nl[-1] = '\0';
        p = nl + 1;
        if (!*p)
            break;
    }
    return 0;
}

/* OSU when a line names an OSU benchmark before any data; CSV when the first line that is
 * not blank or a comment has a comma. */
static int detect_osu(const cal_lines *l, int *osu)
{
    for (size_t i = 0; i < l->n; i++) {
        const char *s = l->line[i] + strspn(l->line[i], " \t");
        if (strstr(s, "OSU")) {
            *osu = 1;
            return 0;
        }
        if (!*s || *s == '#')
            continue;
        *osu = 0;
        return strchr(s, ',') ? 0 : (int)i + 1;
    }
    return -1;
}

int cal_read_table(const char *path, int osu_window, cal_table *t, cs_error *err)
{
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    t->pairs = 1;
    t->window = 1;
    cal_lines l;
    if (read_lines(path, &l, err) < 0)
        return -1;
    int osu = 0, at = detect_osu(&l, &osu), rc;
    if (at < 0)
        rc = cs_fail(err, "%s:1: no data (expected %s)", path, ALLOWED);
    else if (at > 0)
        rc = cs_fail(err, "%s:%d: neither an OSU benchmark's output nor a CSV row (expected %s)",
                     path, at, ALLOWED);
    else
        rc = osu ? cal_read_osu(&l, osu_window, t, err) : cal_read_csv(&l, t, err);
    free(l.line);
    free(l.text);
    if (rc == 0)
        rc = cal_check_points(t, err);
    if (rc < 0)
        cal_table_free(t);
    return rc;
}

int cal_check_points(const cal_table *t, cs_error *err)
{
    if (t->n < 2)
        return cs_fail(err, "%s:%d: %s table: %zu data point%s; at least 2 sizes are needed to "
                       "fit a latency and a bandwidth", t->path, t->n ? t->pts[0].line : 1,
                       cal_source_name(t->source), t->n, t->n == 1 ? "" : "s");
    for (size_t i = 0; i < t->n; i++) {
        const cal_point *p = &t->pts[i];
        if (!isfinite(p->seconds) || p->seconds <= 0)
            return cs_fail(err, "%s:%d: the time or rate of size %.0f is %s (allowed: a "
                           "positive number)", t->path, p->line, p->bytes,
                           p->seconds < 0 ? "negative" : "zero or not a number");
        if (i > 0 && p->bytes <= t->pts[i - 1].bytes)
            return cs_fail(err, "%s:%d: sizes not sorted: %.0f after %.0f (line %d); each size "
                           "must be larger than the one before", t->path, p->line, p->bytes,
                           t->pts[i - 1].bytes, t->pts[i - 1].line);
    }
    return 0;
}
