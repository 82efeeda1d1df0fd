/* alloc.c - reading allocations (hostlist expressions, node list files, PICO CSV) and
 * placing ranks on them in block or cyclic order (see alloc.h). */
#include "sim/alloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/strmap.h"
#include "common/util.h"

int alloc_order_parse(const char *text, alloc_order *out, cs_error *err)
{
    if (strcmp(text, "block") == 0)
        *out = ALLOC_ORDER_BLOCK;
    else if (strcmp(text, "cyclic") == 0)
        *out = ALLOC_ORDER_CYCLIC;
    else
        return cs_fail(err, "unknown rank order '%s' (allowed: block, cyclic)", text);
    return 0;
}

const char *alloc_order_name(alloc_order o) { return o == ALLOC_ORDER_CYCLIC ? "cyclic" : "block"; }

void alloc_free(allocation *a) { hostlist_free(&a->hosts); }

/* Trims white space and '#' comments in place; returns the text (maybe empty). */
static char *trim_line(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    while (isspace((unsigned char)*line))
        line++;
    size_t n = strlen(line);
    while (n > 0 && isspace((unsigned char)line[n - 1]))
        line[--n] = '\0';
    return line;
}

/* Trims a CSV field: spaces and surrounding double quotes. */
static char *csv_field(char *f)
{
    f = trim_line(f);
    size_t n = strlen(f);
    if (n >= 2 && f[0] == '"' && f[n - 1] == '"') {
        f[n - 1] = '\0';
        f++;
    }
    return f;
}

/* Splits a CSV line on commas (no quoted commas in allocation files). */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    for (char *s = line; s && n < max;) {
        char *comma = strchr(s, ',');
        if (comma)
            *comma = '\0';
        fields[n++] = csv_field(s);
        s = comma ? comma + 1 : NULL;
    }
    return n;
}

static int is_csv_header(const char *line)
{
    return strchr(line, ',') && strncasecmp(line, "MPI_Rank", 8) == 0;
}

/* ---- PICO CSV --------------------------------------------------------------------------- */

/* The rows as read; sorted by rank at the end (memory follows the file, not the largest
 * rank number: one row "1000000000,x" must not allocate a billion-entry table). */
typedef struct csv_row_entry {
    int64_t rank;
    int line;
    char *host;
} csv_row_entry;

typedef struct csv_state {
    int rank_col, host_col;
    csv_row_entry *rows;
    size_t n, cap;
} csv_state;

static int csv_header(const char *path, int lineno, char *line, csv_state *c, cs_error *err)
{
    char *fields[64];
    int n = split_csv(line, fields, 64);
    c->rank_col = c->host_col = -1;
    for (int i = 0; i < n; i++) {
        if (strcasecmp(fields[i], "MPI_Rank") == 0)
            c->rank_col = i;
        else if (strcasecmp(fields[i], "allocation") == 0)
            c->host_col = i;
    }
    if (c->rank_col < 0 || c->host_col < 0)
        return cs_fail(err, "%s:%d: a PICO allocation CSV needs the columns MPI_Rank and "
                            "allocation", path, lineno);
    return 0;
}

static int csv_row(const char *path, int lineno, char *line, csv_state *c, cs_error *err)
{
    char *fields[64];
    int n = split_csv(line, fields, 64);
    if (n <= c->rank_col || n <= c->host_col || !fields[c->host_col][0])
        return cs_fail(err, "%s:%d: expected %d columns (MPI_Rank, allocation, ...)", path,
                       lineno, (c->rank_col > c->host_col ? c->rank_col : c->host_col) + 1);
    char *end;
    errno = 0;
    long r = strtol(fields[c->rank_col], &end, 10);
    if (*end || errno || r < 0 || r >= (1L << 30) || end == fields[c->rank_col])
    {
        char safe[96];
        return cs_fail(err, "%s:%d: MPI_Rank '%s' is not a rank number", path, lineno,
                       printable(fields[c->rank_col], safe, sizeof safe));
    }
    VEC_RESERVE(c->rows, c->cap, c->n + 1);
    c->rows[c->n++] = (csv_row_entry){r, lineno, xstrdup(fields[c->host_col])};
    return 0;
}

static int cmp_rank(const void *x, const void *y)
{
    const csv_row_entry *a = x, *b = y;
    return a->rank != b->rank ? (a->rank < b->rank ? -1 : 1) : (a->line < b->line ? -1 : 1);
}

/* Every rank 0..n-1 exactly once (rows sorted by rank, then line). */
static int csv_check_ranks(const char *path, const csv_state *c, cs_error *err)
{
    for (size_t i = 0; i < c->n; i++) {
        if (i > 0 && c->rows[i].rank == c->rows[i - 1].rank)
            return cs_fail(err, "%s:%d: rank %lld appears twice", path, c->rows[i].line,
                           (long long)c->rows[i].rank);
        if (c->rows[i].rank != (int64_t)i)
            return cs_fail(err, "%s: rank %zu is missing (ranks 0..%lld must each have a row)",
                           path, i, (long long)c->rows[c->n - 1].rank);
    }
    return 0;
}

/* Moves the rows into a (rc: the reading's status so far; errors are not overwritten). */
static int csv_finish(const char *path, csv_state *c, int rc, allocation *a, cs_error *err)
{
    if (rc == 0 && c->n == 0)
        rc = cs_fail(err, "%s: no rank in the allocation CSV", path);
    if (c->n)
        qsort(c->rows, c->n, sizeof *c->rows, cmp_rank);
    if (rc == 0)
        rc = csv_check_ranks(path, c, err);
    for (size_t i = 0; i < c->n; i++) {
        if (rc == 0)
            hostlist_push(&a->hosts, c->rows[i].host);
        free(c->rows[i].host);
    }
    free(c->rows);
    a->per_rank = 1;
    return rc;
}

/* ---- node lists --------------------------------------------------------------------------- */

/* Refuses a node named twice; where = "file:line" or "the expression". */
static int check_new_nodes(const allocation *a, int64_t from, strmap *seen, const char *where,
                           cs_error *err)
{
    for (int64_t i = from; i < a->hosts.n; i++) {
        if (strmap_get(seen, a->hosts.names[i], NULL))
            return cs_fail(err, "%s: node %s is named twice (a node list names each node once; "
                                "several ranks per node: --ranks-per-node, or one line per "
                                "rank in a PICO CSV or a --hostfile)", where, a->hosts.names[i]);
        strmap_put(seen, a->hosts.names[i], i);
    }
    return 0;
}

static int read_file(const char *path, allocation *a, cs_error *err)
{
    FILE *f = fopen_input(path, "r");
    if (!f)
        return cs_fail(err, "%s: cannot open the allocation: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int rc = 0, lineno = 0, csv = -1; /* -1: not known yet */
    csv_state c;
    memset(&c, 0, sizeof c);
    strmap seen;
    strmap_init(&seen);
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        lineno++;
        char *text = trim_line(line);
        if (!text[0])
            continue;
        if (csv < 0) {
            csv = is_csv_header(text);
            if (csv) {
                rc = csv_header(path, lineno, text, &c, err);
                continue;
            }
        }
        if (csv) {
            rc = csv_row(path, lineno, text, &c, err);
            continue;
        }
        int64_t before = a->hosts.n;
        char where[4200];
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        if (hostlist_expand(text, &a->hosts, err) < 0) {
            cs_error_prefix(err, "%s", where);
            rc = -1;
        } else {
            rc = check_new_nodes(a, before, &seen, where, err);
        }
    }
    free(line);
    fclose(f);
    strmap_free(&seen);
    if (csv == 1)
        rc = csv_finish(path, &c, rc, a, err);
    else if (rc == 0 && a->hosts.n == 0) {
        rc = cs_fail(err, "%s: the allocation names no host", path);
    }
    return rc;
}

int alloc_read(const char *spec, allocation *a, cs_error *err)
{
    memset(a, 0, sizeof *a);
    hostlist_init(&a->hosts);
    if (!spec[0])
        return cs_fail(err, "empty allocation");
    if (access(spec, F_OK) == 0)
        return read_file(spec, a, err);
    if (strchr(spec, '/'))
        return cs_fail(err, "%s: no such allocation file", spec);
    if (hostlist_expand(spec, &a->hosts, err) < 0) {
        cs_error_prefix(err, "hostlist '%s'", spec);
        return -1;
    }
    strmap seen;
    strmap_init(&seen);
    int rc = check_new_nodes(a, 0, &seen, "the hostlist", err);
    strmap_free(&seen);
    if (rc == 0 && a->hosts.n == 0)
        rc = cs_fail(err, "the hostlist '%s' names no host", spec);
    return rc;
}

/* ---- ranks ---------------------------------------------------------------------------------- */

int64_t alloc_default_ranks(const allocation *a, int32_t Q)
{
    return a->per_rank ? a->hosts.n : a->hosts.n * (int64_t)Q;
}

int32_t alloc_ranks_per_host(const allocation *a)
{
    if (!a->per_rank)
        return 1;
    strmap count;
    strmap_init(&count);
    int64_t most = 1;
    for (int64_t r = 0; r < a->hosts.n; r++) {
        int64_t c = 0;
        strmap_get(&count, a->hosts.names[r], &c);
        strmap_put(&count, a->hosts.names[r], ++c);
        if (c > most)
            most = c;
    }
    strmap_free(&count);
    return (int32_t)most;
}

int alloc_place(const allocation *a, int32_t P, int32_t Q, alloc_order order,
                int32_t *host_of_rank, cs_error *err)
{
    int64_t N = a->hosts.n;
    if (a->per_rank) {
        if (P > N)
            return cs_fail(err, "P=%d ranks but the allocation CSV has %lld", P, (long long)N);
        for (int32_t r = 0; r < P; r++)
            host_of_rank[r] = r;
        return 0;
    }
    if ((int64_t)P > N * Q)
        return cs_fail(err, "P=%d ranks at %d per node need %lld nodes, the allocation has "
                            "%lld", P, Q, (long long)(((int64_t)P + Q - 1) / Q), (long long)N);
    for (int32_t r = 0; r < P; r++)
        host_of_rank[r] = (int32_t)(order == ALLOC_ORDER_CYCLIC ? r % N : r / Q);
    return 0;
}
