/* read_osu.c - the text output of the OSU micro-benchmarks osu_latency, osu_bw, osu_bibw and
 * osu_mbw_mr (any version: "# OSU MPI <name> Test vX", comment lines, then "size value..."
 * rows; extra columns of the -f full format are ignored).
 *
 * Values become seconds per message (calibrate.h): latency in us -> seconds; osu_bw
 * MB/s (OSU's MB = 1e6 bytes) -> bytes / bw; osu_bibw counts both directions -> 2 bytes /
 * bw; osu_mbw_mr -> 1 / (messages/s) of all pairs. The benchmark's window (messages in
 * flight before the receiver's acknowledgement) is read from "[ window size: W ]" when
 * printed, else osu_window (OSU's default 64). */
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"

#define ALLOWED_OSU "osu_latency, osu_bw, osu_bibw, osu_mbw_mr"

static int name_benchmark(const char *s, cal_table *t)
{
    static const struct {
        const char *title;
        cal_source src;
    } known[] = {
        {"Bi-Directional Bandwidth Test", CAL_OSU_BIBW},
        {"Multiple Bandwidth / Message Rate Test", CAL_OSU_MBW_MR},
        {"MPI Bandwidth Test", CAL_OSU_BW},
        {"MPI Latency Test", CAL_OSU_LATENCY},
        {"MPI-CUDA Bandwidth Test", CAL_OSU_BW},
        {"MPI-CUDA Latency Test", CAL_OSU_LATENCY},
    };
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strstr(s, known[i].title)) {
            t->source = known[i].src;
            t->kind = t->source == CAL_OSU_LATENCY ? CAL_LATENCY : CAL_STREAM;
            t->bidir = t->source == CAL_OSU_BIBW;
            return 0;
        }
    return -1;
}

/* A positive count after `key` in a header line, clamped to 1..2^20 (0: none there). */
static int header_count(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    if (!p)
        return 0;
    long v = strtol(p + strlen(key), NULL, 10);
    return v < 1 ? 0 : v > (1L << 20) ? 1 << 20 : (int)v;
}

/* "# [ pairs: 2 ] [ window size: 64 ]" */
static void read_bracket_header(const char *s, cal_table *t)
{
    int pairs = header_count(s, "pairs:"), window = header_count(s, "window size:");
    if (pairs)
        t->pairs = pairs;
    if (window)
        t->window = window;
}

/* One data row: size and the value the benchmark reports, converted to seconds. */
static int read_row(const char *s, int line, cal_table *t, cs_error *err)
{
    char *end;
    double bytes = strtod(s, &end);
    if (end == s || !(bytes >= 0 && bytes <= 9e15) || bytes != (double)(long long)bytes)
        return cs_fail(err, "%s:%d: expected a row 'size value' with a whole number of bytes, "
                       "got '%s'", t->path, line, s);
    const char *v = end;
    double value = strtod(v, &end);
    if (end == v)
        return cs_fail(err, "%s:%d: the row of size %.0f has no value (expected 'size %s')",
                       t->path, line, bytes,
                       t->kind == CAL_LATENCY ? "latency_us" : "MB/s [messages/s]");
    if (t->source == CAL_OSU_MBW_MR) { /* size MB/s messages/s: the rate is exact at 0 B */
        v = end;
        value = strtod(v, &end);
        if (end == v)
            return cs_fail(err, "%s:%d: osu_mbw_mr row of size %.0f without its messages/s "
                           "column", t->path, line, bytes);
    }
    double seconds;
    switch (t->source) {
    case CAL_OSU_LATENCY: seconds = value * 1e-6; break;
    case CAL_OSU_BW: seconds = bytes / (value * 1e6); break;
    case CAL_OSU_BIBW: seconds = 2 * bytes / (value * 1e6); break;
    default: seconds = 1 / value; break;
    }
    if (value < 0)
        seconds = -1; /* reported by cal_check_points with the line */
    if (bytes == 0 && t->source != CAL_OSU_LATENCY && t->source != CAL_OSU_MBW_MR)
        return 0; /* 0 B has no bandwidth */
    cal_add_point(t, bytes, seconds, line);
    return 0;
}

int cal_read_osu(const cal_lines *l, int osu_window, cal_table *t, cs_error *err)
{
    int named = 0;
    t->window = osu_window;
    for (size_t i = 0; i < l->n; i++) {
        const char *s = l->line[i] + strspn(l->line[i], " \t");
        int line = (int)i + 1;
        if (!named && strstr(s, "OSU")) {
            if (name_benchmark(s, t) < 0)
                return cs_fail(err, "%s:%d: '%s' is a benchmark collsim does not calibrate "
                               "from (allowed: %s, or a CSV bytes,seconds[,messages])",
                               t->path, line, s, ALLOWED_OSU);
            named = 1;
        } else if (*s == '#') {
            read_bracket_header(s, t);
        } else if (*s && named) {
            if (read_row(s, line, t, err) < 0)
                return -1;
        } else if (*s) {
            return cs_fail(err, "%s:%d: data before the OSU header line", t->path, line);
        }
    }
    return 0;
}
