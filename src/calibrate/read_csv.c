/* read_csv.c - a plain CSV table "bytes,seconds[,messages]": '#' comments, an optional
 * header line naming those columns. Without a messages column (or with messages = 1 on
 * every row) a row is the one-way time of one message (as osu_latency); with messages = n
 * > 1 (the same n on every row) it is the time from the first send to the last arrival of
 * n back-to-back messages, stored as seconds / n per message (a CAL_STREAM of window n). */
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"

static int is_header(const char *s)
{
    return strncmp(s, "bytes,seconds", 13) == 0 &&
           (s[13] == '\0' || strcmp(s + 13, ",messages") == 0);
}

static int parse_row(const char *s, int line, const char *path, double v[3], int *nv,
                     cs_error *err)
{
    *nv = 0;
    const char *p = s;
    for (;;) {
        char *end;
        double x = strtod(p, &end);
        end += strspn(end, " \t");
        if (end == p || (*end != ',' && *end != '\0') || *nv == 3)
            return cs_fail(err, "%s:%d: expected 'bytes,seconds[,messages]' (numbers), got "
                           "'%s'", path, line, s);
        v[(*nv)++] = x;
        if (*end == '\0')
            break;
        p = end + 1;
    }
    if (*nv < 2)
        return cs_fail(err, "%s:%d: expected 'bytes,seconds[,messages]', got '%s'", path, line,
                       s);
    if (!(v[0] >= 0 && v[0] <= 9e15) || v[0] != (double)(long long)v[0])
        return cs_fail(err, "%s:%d: bytes must be a whole number >= 0, got '%s'", path, line, s);
    if (*nv == 3 && (!(v[2] >= 1 && v[2] <= 1e9) || v[2] != (double)(long long)v[2]))
        return cs_fail(err, "%s:%d: messages must be a whole number from 1 to 1e9, got '%s'", path, line,
                       s);
    return 0;
}

int cal_read_csv(const cal_lines *l, cal_table *t, cs_error *err)
{
    t->source = CAL_CSV;
    t->kind = CAL_LATENCY;
    int window = 0, window_line = 0;
    for (size_t i = 0; i < l->n; i++) {
        const char *s = l->line[i] + strspn(l->line[i], " \t");
        int line = (int)i + 1;
        if (!*s || *s == '#' || (t->n == 0 && is_header(s)))
            continue;
        double v[3];
        int nv;
        if (parse_row(s, line, t->path, v, &nv, err) < 0)
            return -1;
        int msgs = nv == 3 ? (int)v[2] : 1;
        if (window && msgs != window)
            return cs_fail(err, "%s:%d: messages = %d, but line %d has %d: one table holds one "
                           "kind (every row 1: one-way times; every row n > 1: a stream of n)",
                           t->path, line, msgs, window_line, window);
        window = msgs;
        window_line = line;
        cal_add_point(t, v[0], v[1] / msgs, line);
    }
    if (window > 1) {
        t->kind = CAL_STREAM;
        t->window = window;
    }
    return 0;
}
