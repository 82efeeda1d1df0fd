/* workload_params.c - workload descriptions: kinds, key=value parameters, text form
 * (see workload.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "traffic/workload.h"

static const char *const kind_names[WL__COUNT] = {"constant", "uniform", "normal",
                                                  "powerlaw", "fft1",    "fft2"};

/* The keys each kind accepts, as listed in its error messages. */
static const char *const kind_keys[WL__COUNT] = {
    "S", "S, seed, unit", "mean, sd, max, seed, unit", "max, x, seed, unit", "block",
    "block, last"};

/* A valid example per kind, for "missing key" messages. */
static const char *const kind_example[WL__COUNT] = {
    "constant:S=1KiB", "uniform:S=1KiB:seed=1", "normal:mean=1000:sd=240:max=1KiB",
    "powerlaw:max=1KiB:x=0.95", "fft1:block=64B", "fft2:block=512B:last=128B"};

const char *workload_kind_name(workload_kind k)
{
    return (unsigned)k < WL__COUNT ? kind_names[k] : "?";
}

static int kind_from_name(const char *name, workload_kind *out, cs_error *err)
{
    for (int k = 0; k < WL__COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0) {
            *out = (workload_kind)k;
            return 0;
        }
    return cs_fail(err,
                   "unknown workload '%s' (allowed: constant, uniform, normal, powerlaw, fft1, "
                   "fft2)",
                   name);
}

/* A block size key: required (def NULL) or defaulted, within 0..WORKLOAD_MAX_BLOCK. */
static int size_key(kv_list *kv, workload_kind k, const char *key, const char *def, int64_t min,
                    int64_t *out, cs_error *err)
{
    if (!def && !kv_get(kv, key))
        return cs_fail(err, "missing %s (e.g. %s)", key, kind_example[k]);
    if (kv_size(kv, key, def, out, err) < 0)
        return -1;
    if (*out < min || *out > WORKLOAD_MAX_BLOCK)
        return cs_fail(err, "%s: %lld bytes is outside %lld..%lld", key, (long long)*out,
                       (long long)min, (long long)WORKLOAD_MAX_BLOCK);
    return 0;
}

static int number_key(kv_list *kv, workload_kind k, const char *key, double min, double max,
                      double *out, cs_error *err)
{
    if (!kv_get(kv, key))
        return cs_fail(err, "missing %s (e.g. %s)", key, kind_example[k]);
    return kv_double(kv, key, 0, min, max, out, err);
}

/* seed and unit, the keys every random kind accepts. */
static int random_keys(kv_list *kv, workload_params *p, cs_error *err)
{
    int64_t seed;
    if (kv_int(kv, "seed", 1, 0, INT64_MAX, &seed, err) < 0)
        return -1;
    p->seed = (uint64_t)seed;
    return size_key(kv, p->kind, "unit", "1B", 1, &p->unit, err);
}

/* Probability that normal(mean, sd) falls in [0, max]. */
static double normal_mass(double mean, double sd, double max)
{
    if (sd == 0)
        return mean >= 0 && mean <= max ? 1.0 : 0.0;
    double a = (0 - mean) / (sd * sqrt(2.0)), b = (max - mean) / (sd * sqrt(2.0));
    return 0.5 * (erfc(-b) - erfc(-a));
}

static int kind_keys_from_kv(workload_params *p, kv_list *kv, cs_error *err)
{
    workload_kind k = p->kind;
    switch (k) {
    case WL_CONSTANT: return size_key(kv, k, "S", NULL, 0, &p->size, err);
    case WL_UNIFORM:
        if (size_key(kv, k, "S", NULL, 0, &p->size, err) < 0)
            return -1;
        return random_keys(kv, p, err);
    case WL_NORMAL:
        if (number_key(kv, k, "mean", -1e15, 1e15, &p->mean, err) < 0 ||
            number_key(kv, k, "sd", 0, 1e15, &p->sd, err) < 0 ||
            size_key(kv, k, "max", NULL, 0, &p->size, err) < 0 || random_keys(kv, p, err) < 0)
            return -1;
        if (normal_mass(p->mean, p->sd, (double)p->size) < 0.05)
            return cs_fail(err,
                           "normal(mean=%g, sd=%g) has less than 5%% of its mass in [0, max=%lld]: "
                           "truncation by rejection would hardly ever accept a size",
                           p->mean, p->sd, (long long)p->size);
        return 0;
    case WL_POWERLAW:
        if (size_key(kv, k, "max", NULL, 0, &p->size, err) < 0)
            return -1;
        if (number_key(kv, k, "x", 0, 1, &p->x, err) < 0)
            return -1;
        if (p->x <= 0)
            return cs_fail(err, "x: must be in (0, 1] (got %g)", p->x);
        return random_keys(kv, p, err);
    case WL_FFT1: return size_key(kv, k, "block", "64B", 0, &p->size, err);
    case WL_FFT2:
        if (size_key(kv, k, "block", "512B", 0, &p->size, err) < 0)
            return -1;
        return size_key(kv, k, "last", "128B", 0, &p->last, err);
    default: return cs_fail(err, "internal: workload kind %d", (int)k);
    }
}

int workload_params_from_kv(workload_params *p, const char *kind, kv_list *kv, cs_error *err)
{
    memset(p, 0, sizeof *p);
    p->unit = 1;
    if (kind_from_name(kind, &p->kind, err) < 0)
        return -1;
    if (kind_keys_from_kv(p, kv, err) < 0 || kv_check_unused(kv, kind_keys[p->kind], err) < 0) {
        cs_error_prefix(err, "workload %s", kind);
        return -1;
    }
    return 0;
}

int workload_parse(const char *text, workload_params *p, cs_error *err)
{
    char buf[512];
    if (strlen(text) >= sizeof buf)
        return cs_fail(err, "workload '%.40s...' is too long", text);
    snprintf(buf, sizeof buf, "%s", text);
    char *save = NULL, *kind = strtok_r(buf, ":", &save);
    if (!kind || text[0] == ':')
        return cs_fail(err, "empty workload (expected kind:key=value..., e.g. uniform:S=1KiB)");
    kv_list kv;
    kv_init(&kv);
    for (char *item = strtok_r(NULL, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(item, '=');
        if (!eq || eq == item) {
            cs_fail(err, "expected key=value, got '%s'", item);
            cs_error_prefix(err, "workload %s", kind);
            return -1;
        }
        *eq = '\0';
        if (kv_get(&kv, item)) {
            cs_fail(err, "%s given twice: give it once", item);
            cs_error_prefix(err, "workload %s", kind);
            return -1;
        }
        if (kv_set(&kv, item, eq + 1, 0, err) < 0) {
            cs_error_prefix(err, "workload %s", kind);
            return -1;
        }
    }
    return workload_params_from_kv(p, kind, &kv, err);
}

/* The shortest of %.15g / %.17g that reads back to exactly d. */
static void format_double(double d, char *buf, size_t n)
{
    snprintf(buf, n, "%.15g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, n, "%.17g", d);
}

void workload_format(const workload_params *p, char *buf, size_t n)
{
    char a[32], b[32], m[32], sd[32], x[32];
    format_double(p->mean, m, sizeof m);
    format_double(p->sd, sd, sizeof sd);
    format_double(p->x, x, sizeof x);
    format_size(p->size, a, sizeof a);
    format_size(p->kind == WL_FFT2 ? p->last : p->unit, b, sizeof b);
    const char *kind = workload_kind_name(p->kind);
    unsigned long long seed = (unsigned long long)p->seed;
    switch (p->kind) {
    case WL_CONSTANT: snprintf(buf, n, "%s:S=%s", kind, a); break;
    case WL_UNIFORM: snprintf(buf, n, "%s:S=%s:seed=%llu:unit=%s", kind, a, seed, b); break;
    case WL_NORMAL:
        snprintf(buf, n, "%s:mean=%s:sd=%s:max=%s:seed=%llu:unit=%s", kind, m, sd, a, seed, b);
        break;
    case WL_POWERLAW:
        snprintf(buf, n, "%s:max=%s:x=%s:seed=%llu:unit=%s", kind, a, x, seed, b);
        break;
    case WL_FFT1: snprintf(buf, n, "%s:block=%s", kind, a); break;
    case WL_FFT2: snprintf(buf, n, "%s:block=%s:last=%s", kind, a, b); break;
    default: snprintf(buf, n, "?"); break;
    }
}
