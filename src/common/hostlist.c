/* hostlist.c - Slurm hostlist expressions and the natural order of host names (see
 * hostlist.h). An item is parsed into segments (literal text, or a bracket group of
 * ranges) and expanded as the product of its groups. */
#include "common/hostlist.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define NAME_MAX_LEN 255
#define MAX_SEGMENTS 16
#define NUMBER_MAX_DIGITS 18

void hostlist_init(hostlist *h) { memset(h, 0, sizeof *h); }

void hostlist_free(hostlist *h)
{
    for (int64_t i = 0; i < h->n; i++)
        free(h->names[i]);
    free(h->names);
    hostlist_init(h);
}

void hostlist_push(hostlist *h, const char *name)
{
    size_t cap = (size_t)h->cap;
    VEC_RESERVE(h->names, cap, (size_t)h->n + 1);
    h->cap = (int64_t)cap;
    h->names[h->n++] = xstrdup(name);
}

/* ---- parsing one item ------------------------------------------------------------------ */

typedef struct range {
    uint64_t lo, hi;
    int width; /* digits of lo: the zero-padded width of every number */
} range;

typedef struct segment {
    const char *text; /* literal: text, len; group: NULL */
    size_t len;
    range *ranges;
    int nranges;
    uint64_t count; /* numbers in the group */
} segment;

typedef struct item {
    segment seg[MAX_SEGMENTS];
    int nseg;
} item;

static void item_free(item *it)
{
    for (int i = 0; i < it->nseg; i++)
        free(it->seg[i].ranges);
}

static int col_fail(cs_error *err, size_t pos, const char *msg)
{
    return cs_fail(err, "column %zu: %s", pos + 1, msg);
}

/* A decimal number at expr[*pos]; advances *pos. */
static int parse_number(const char *expr, size_t *pos, uint64_t *value, int *width,
                        cs_error *err)
{
    size_t start = *pos;
    uint64_t v = 0;
    while (isdigit((unsigned char)expr[*pos])) {
        if (*pos - start >= NUMBER_MAX_DIGITS)
            return col_fail(err, start, "number too long (at most 18 digits)");
        v = v * 10 + (uint64_t)(expr[*pos] - '0');
        (*pos)++;
    }
    if (*pos == start)
        return col_fail(err, start, "expected a number");
    *value = v;
    *width = (int)(*pos - start);
    return 0;
}

/* The group whose '[' is at expr[*pos]; leaves *pos after its ']'. */
static int parse_group(const char *expr, size_t *pos, segment *s, cs_error *err)
{
    size_t open = (*pos)++;
    size_t cap = 0;
    memset(s, 0, sizeof *s);
    for (;;) {
        range r;
        if (expr[*pos] == '[')
            return col_fail(err, *pos, "'[' inside brackets (groups cannot nest)");
        if (parse_number(expr, pos, &r.lo, &r.width, err) < 0)
            break;
        r.hi = r.lo;
        if (expr[*pos] == '-') {
            size_t at = ++(*pos);
            int w;
            if (parse_number(expr, pos, &r.hi, &w, err) < 0)
                break;
            if (r.hi < r.lo) {
                char msg[96];
                snprintf(msg, sizeof msg, "range %llu-%llu goes down", (unsigned long long)r.lo,
                         (unsigned long long)r.hi);
                return col_fail(err, at, msg);
            }
        }
        VEC_RESERVE(s->ranges, cap, (size_t)s->nranges + 1);
        s->ranges[s->nranges++] = r;
        s->count += r.hi - r.lo + 1;
        if (s->count > HOSTLIST_MAX_NAMES)
            return col_fail(err, open, "bracket group of more than 2^18 numbers");
        char c = expr[*pos];
        if (c == ',') {
            (*pos)++;
            continue;
        }
        if (c == ']') {
            (*pos)++;
            return 0;
        }
        if (c == '\0') {
            char msg[96];
            snprintf(msg, sizeof msg, "missing ']' to close the '[' at column %zu", open + 1);
            return col_fail(err, *pos, msg);
        }
        if (c == '[')
            return col_fail(err, *pos, "'[' inside brackets (groups cannot nest)");
        return col_fail(err, *pos, "expected ',', '-' or ']' in a bracket group");
    }
    if (expr[*pos] == '\0') { /* a clearer message than "expected a number" at the end */
        char msg[96];
        snprintf(msg, sizeof msg, "missing ']' to close the '[' at column %zu", open + 1);
        return col_fail(err, *pos, msg);
    }
    return -1;
}

static int is_separator(char c) { return c == ',' || isspace((unsigned char)c); }

/* The item starting at expr[*pos] (not a separator); leaves *pos at its end. */
static int parse_item(const char *expr, size_t *pos, item *it, cs_error *err)
{
    memset(it, 0, sizeof *it);
    while (expr[*pos] && !is_separator(expr[*pos])) {
        if (it->nseg == MAX_SEGMENTS)
            return col_fail(err, *pos, "too many parts in one name (at most 16 texts and bracket groups)");
        segment *s = &it->seg[it->nseg];
        char c = expr[*pos];
        if (c == ']')
            return col_fail(err, *pos, "']' without a matching '['");
        if (c == '[') {
            if (parse_group(expr, pos, s, err) < 0) {
                it->nseg++; /* item_free releases the ranges read so far */
                return -1;
            }
        } else {
            memset(s, 0, sizeof *s);
            s->text = expr + *pos;
            while (expr[*pos] && !is_separator(expr[*pos]) && expr[*pos] != '[' &&
                   expr[*pos] != ']')
                (*pos)++;
            s->len = (size_t)(expr + *pos - s->text);
        }
        it->nseg++;
    }
    return 0;
}

/* ---- expansion ------------------------------------------------------------------------ */

/* The k-th number (0-based) of a group. */
static void group_number(const segment *s, uint64_t k, uint64_t *value, int *width)
{
    for (int i = 0; i < s->nranges; i++) {
        uint64_t n = s->ranges[i].hi - s->ranges[i].lo + 1;
        if (k < n) {
            *value = s->ranges[i].lo + k;
            *width = s->ranges[i].width;
            return;
        }
        k -= n;
    }
}

static int expand_item(const item *it, size_t col, hostlist *h, cs_error *err)
{
    uint64_t total = 1;
    for (int i = 0; i < it->nseg; i++)
        if (!it->seg[i].text) {
            total *= it->seg[i].count;
            if (total + (uint64_t)h->n > HOSTLIST_MAX_NAMES)
                return col_fail(err, col, "the expression names more than 2^18 hosts");
        }
    for (uint64_t k = 0; k < total; k++) {
        char name[NAME_MAX_LEN + 32];
        size_t len = 0;
        uint64_t rest = k, stride = total;
        for (int i = 0; i < it->nseg; i++) {
            const segment *s = &it->seg[i];
            if (s->text) {
                if (len + s->len <= NAME_MAX_LEN)
                    memcpy(name + len, s->text, s->len);
                len += s->len;
            } else {
                stride /= s->count; /* leftmost group varies slowest */
                uint64_t v;
                int w;
                group_number(s, rest / stride, &v, &w);
                rest %= stride;
                if (len <= NAME_MAX_LEN)
                    len += (size_t)snprintf(name + len, sizeof name - len, "%0*llu", w,
                                            (unsigned long long)v);
            }
            if (len > NAME_MAX_LEN)
                return col_fail(err, col, "host name longer than 255 characters");
        }
        name[len] = '\0';
        hostlist_push(h, name);
    }
    return 0;
}

int hostlist_expand(const char *expr, hostlist *h, cs_error *err)
{
    size_t pos = 0;
    int need_item = 0; /* a comma was seen: an item must follow */
    for (;;) {
        while (isspace((unsigned char)expr[pos]))
            pos++;
        if (expr[pos] == '\0')
            break;
        if (expr[pos] == ',') {
            if (need_item || pos == 0)
                return col_fail(err, pos, "empty host name (two separators in a row)");
            need_item = 1;
            pos++;
            continue;
        }
        size_t start = pos;
        item it;
        int rc = parse_item(expr, &pos, &it, err);
        if (rc == 0)
            rc = expand_item(&it, start, h, err);
        item_free(&it);
        if (rc < 0)
            return -1;
        need_item = 0;
    }
    if (need_item)
        return col_fail(err, pos, "empty host name after the last ','");
    return 0;
}

/* ---- natural order ---------------------------------------------------------------------- */

int hostname_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            const char *ea = a, *eb = b;
            while (*a == '0' && isdigit((unsigned char)a[1]))
                a++;
            while (*b == '0' && isdigit((unsigned char)b[1]))
                b++;
            const char *da = a, *db = b; /* significant digits */
            while (isdigit((unsigned char)*a))
                a++;
            while (isdigit((unsigned char)*b))
                b++;
            size_t la = (size_t)(a - da), lb = (size_t)(b - db);
            if (la != lb)
                return la < lb ? -1 : 1;
            int c = strncmp(da, db, la);
            if (c)
                return c;
            if ((a - ea) != (b - eb)) /* same value: fewer leading zeros first */
                return (a - ea) < (b - eb) ? -1 : 1;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    if (*a == *b)
        return 0;
    return *a ? 1 : -1; /* the shorter name first */
}
