/* rankspec.c - parsing of rank-count lists (see rankspec.h). */
#include "common/rankspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int parse_num(const char *s, const char *end, int64_t *out)
{
    if (s == end)
        return -1;
    int64_t v = 0;
    for (const char *p = s; p < end; p++) {
        if (*p < '0' || *p > '9' || v > (INT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return 0;
}

static void push(int64_t **v, size_t *n, size_t *cap, int64_t x)
{
    vec_reserve((void **)v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = x;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* One comma-separated item. */
static int parse_item(const char *s, const char *end, int64_t min, int64_t max, int64_t **v,
                      size_t *n, size_t *cap, cs_error *err)
{
    enum { ALL, POW2, EVEN } kind = ALL;
    if (end - s > 5 && strncmp(s, "pow2:", 5) == 0) {
        kind = POW2;
        s += 5;
    } else if (end - s > 5 && strncmp(s, "even:", 5) == 0) {
        kind = EVEN;
        s += 5;
    }
    const char *dots = NULL;
    for (const char *p = s; p + 1 < end; p++)
        if (p[0] == '.' && p[1] == '.') {
            dots = p;
            break;
        }
    int64_t lo, hi;
    if (!dots) {
        if (kind != ALL || parse_num(s, end, &lo) < 0)
            return -1;
        hi = lo;
    } else {
        if (dots == s)
            lo = min > 2 ? min : 2;
        else if (parse_num(s, dots, &lo) < 0)
            return -1;
        if (parse_num(dots + 2, end, &hi) < 0)
            return -1;
    }
    if (lo > hi)
        return cs_fail(err, "range %lld..%lld is empty", (long long)lo, (long long)hi);
    if (lo < min || hi > max)
        return cs_fail(err, "values must lie in %lld..%lld (got %lld..%lld)", (long long)min,
                       (long long)max, (long long)lo, (long long)hi);
    if (kind == POW2) {
        for (int64_t x = 1; x <= hi; x *= 2) {
            if (x >= lo)
                push(v, n, cap, x);
            if (x > INT64_MAX / 2) /* the next power would overflow (hi near 2^63) */
                break;
        }
    } else {
        /* counted before anything is pushed: 2..2147483647 would be 16 GiB of values */
        uint64_t count = ((uint64_t)hi - (uint64_t)lo) / (kind == EVEN ? 2 : 1) + 1;
        if (count > RANKSPEC_MAX_VALUES || *n + count > RANKSPEC_MAX_VALUES)
            return cs_fail(err, "range %lld..%lld: more than " RANKSPEC_MAX_TEXT
                                " values in the rank list", (long long)lo, (long long)hi);
        for (int64_t x = lo; x <= hi; x++)
            if (kind == ALL || x % 2 == 0)
                push(v, n, cap, x);
    }
    return 0;
}

int rankspec_parse(const char *text, int64_t min, int64_t max, int64_t **values, size_t *n,
                   cs_error *err)
{
    *values = NULL;
    *n = 0;
    size_t cap = 0;
    const char *s = text ? text : "";
    if (!*s)
        return cs_fail(err, "empty rank list");
    while (*s) {
        const char *end = strchr(s, ',');
        if (!end)
            end = s + strlen(s);
        cs_error_clear(err);
        if (parse_item(s, end, min, max, values, n, &cap, err) < 0) {
            if (!err || !err->msg[0])
                cs_fail(err,
                        "cannot read '%.*s' (expected N, A..B, pow2:A..B or even:A..B, "
                        "comma separated)",
                        (int)(end - s), s);
            free(*values);
            *values = NULL;
            *n = 0;
            return -1;
        }
        s = *end ? end + 1 : end;
    }
    if (*n > 1) /* "even:3..3" yields nothing: qsort(NULL, 0) is undefined (fuzz_rankspec) */
        qsort(*values, *n, sizeof **values, cmp_i64);
    size_t k = 0;
    for (size_t i = 0; i < *n; i++)
        if (k == 0 || (*values)[k - 1] != (*values)[i])
            (*values)[k++] = (*values)[i];
    *n = k;
    if (k == 0)
        return cs_fail(err, "'%s' contains no value", text);
    return 0;
}
