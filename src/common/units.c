/* units.c - parsing and printing of sizes, bandwidths and times (see units.h). */
#include "common/units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *suffix;
    double factor;
} unit;

static const unit size_units[] = {
    {"B", 1.0},          {"KiB", 1024.0},  {"MiB", 1048576.0},  {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12},
    {NULL, 0}};

static const unit bw_units[] = {
    {"bps", 0.125},   {"Kbps", 125.0},   {"Mbps", 125e3},  {"Gbps", 125e6},  {"Tbps", 125e9},
    {"Bps", 1.0},     {"KBps", 1e3},     {"MBps", 1e6},    {"GBps", 1e9},    {"TBps", 1e12},
    {"KiBps", 1024.0}, {"MiBps", 1048576.0}, {"GiBps", 1073741824.0},
    {"B/s", 1.0},     {"KB/s", 1e3},     {"MB/s", 1e6},    {"GB/s", 1e9},    {"TB/s", 1e12},
    {"Gb/s", 125e6},  {"Mb/s", 125e3},   {"Tb/s", 125e9},
    {NULL, 0}};

static const unit time_units[] = {
    {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}, {NULL, 0}};

static void list_units(const unit *u, char *buf, size_t n)
{
    buf[0] = '\0';
    for (; u->suffix; u++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", len ? ", " : "", u->suffix);
    }
}

/* Splits "12.5GiB" into a number and a unit; the unit must be in the table (or empty
 * when empty_ok). */
static int parse_with_units(const char *text, const unit *units, int empty_ok,
                            const char *what, double *out, cs_error *err)
{
    char allowed[512];
    list_units(units, allowed, sizeof allowed);
    if (!text || !*text)
        return cs_fail(err, "empty %s (expected a number with a unit: %s)", what, allowed);
    while (isspace((unsigned char)*text))
        text++;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || errno == ERANGE || !isfinite(v))
        return cs_fail(err, "invalid %s '%s' (expected a number with a unit: %s)", what, text,
                       allowed);
    if (v < 0)
        return cs_fail(err, "invalid %s '%s': must not be negative", what, text);
    while (isspace((unsigned char)*end))
        end++;
    if (*end == '\0') {
        if (!empty_ok)
            return cs_fail(err, "%s '%s' has no unit (allowed units: %s)", what, text, allowed);
        *out = v;
        return 0;
    }
    for (const unit *u = units; u->suffix; u++) {
        if (strcmp(end, u->suffix) == 0) {
            *out = v * u->factor;
            return 0;
        }
    }
    return cs_fail(err, "unknown unit '%s' in %s '%s' (allowed units: %s)", end, what, text,
                   allowed);
}

int parse_size(const char *text, int64_t *bytes, cs_error *err)
{
    double v;
    if (parse_with_units(text, size_units, 1, "size", &v, err) < 0)
        return -1;
    if (v >= 9223372036854775807.0)
        return cs_fail(err, "size '%s' is too large (the limit is 2^63-1 bytes)", text);
    double r = floor(v + 0.5);
    if (fabs(r - v) > 1e-6 * (v > 1 ? v : 1))
        return cs_fail(err, "size '%s' is not a whole number of bytes", text);
    *bytes = (int64_t)r;
    return 0;
}

int parse_bandwidth(const char *text, double *bytes_per_s, cs_error *err)
{
    double v;
    if (parse_with_units(text, bw_units, 0, "bandwidth", &v, err) < 0)
        return -1;
    if (v <= 0)
        return cs_fail(err, "bandwidth '%s' must be positive", text);
    *bytes_per_s = v;
    return 0;
}

int parse_time(const char *text, double *seconds, cs_error *err)
{
    return parse_with_units(text, time_units, 0, "time", seconds, err);
}

int parse_int_in(const char *text, int64_t min, int64_t max, const char *what, int64_t *out,
                 cs_error *err)
{
    if (!text || !*text)
        return cs_fail(err, "empty %s (expected an integer in %lld..%lld)", what,
                       (long long)min, (long long)max);
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (*end != '\0' || end == text)
        return cs_fail(err, "invalid %s '%s' (expected an integer in %lld..%lld)", what, text,
                       (long long)min, (long long)max);
    if (errno == ERANGE || v < min || v > max)
        return cs_fail(err, "%s %s is out of range (allowed: %lld..%lld)", what, text,
                       (long long)min, (long long)max);
    *out = v;
    return 0;
}

void format_size(int64_t bytes, char *buf, size_t n)
{
    static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int k = 0;
    int64_t v = bytes;
    while (k < 4 && v != 0 && v % 1024 == 0) {
        v /= 1024;
        k++;
    }
    snprintf(buf, n, "%lld%s", (long long)v, names[k]);
}
