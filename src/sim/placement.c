/* placement.c - ranks to hosts: linear, round-robin over groups, random, fragmented, host
 * files and scheduler allocations, in block or cyclic rank order (see placement.h). */
#include "sim/placement.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "common/util.h"

static const char allowed[] =
    "linear, roundrobin, random:SEED, fragmented:K:SEED, file:PATH, alloc:A (a hostlist, a "
    "node list or PICO CSV file, or env), each optionally followed by ' order=cyclic'";

/* ---- parsing ------------------------------------------------------------------------- */

static int parse_u64(const char *text, const char *what, uint64_t *out, cs_error *err)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!*text || *end || errno || *text == '-')
        return cs_fail(err, "invalid %s '%s' (expected a non-negative integer)", what, text);
    *out = v;
    return 0;
}

/* alloc:env -> the hostlist in $SLURM_JOB_NODELIST (so that results name the nodes). */
static int parse_alloc(const char *spec, placement_spec *out, cs_error *err)
{
    out->kind = PLACE_ALLOC;
    if (strcmp(spec, "env") == 0) {
        spec = getenv("SLURM_JOB_NODELIST");
        if (!spec || !spec[0])
            return cs_fail(err, "alloc:env: $SLURM_JOB_NODELIST is not set (run inside a Slurm "
                                "job, or give the hostlist)");
    }
    if (!spec[0] || strlen(spec) >= sizeof out->path)
        return cs_fail(err, "invalid allocation '%s' (expected alloc:HOSTLIST, alloc:FILE or "
                            "alloc:env)", spec);
    snprintf(out->path, sizeof out->path, "%s", spec);
    return 0;
}

static int parse_kind(const char *text, placement_spec *out, cs_error *err)
{
    if (strncmp(text, "alloc:", 6) == 0)
        return parse_alloc(text + 6, out, err);
    if (strcmp(text, "linear") == 0) {
        out->kind = PLACE_LINEAR;
        return 0;
    }
    if (strcmp(text, "roundrobin") == 0) {
        out->kind = PLACE_ROUNDROBIN;
        return 0;
    }
    if (strncmp(text, "random:", 7) == 0) {
        out->kind = PLACE_RANDOM;
        return parse_u64(text + 7, "random placement seed", &out->seed, err);
    }
    if (strncmp(text, "fragmented:", 11) == 0) {
        out->kind = PLACE_FRAGMENTED;
        char k[32];
        const char *colon = strchr(text + 11, ':');
        size_t len = colon ? (size_t)(colon - (text + 11)) : 0;
        if (!colon || len == 0 || len >= sizeof k)
            return cs_fail(err, "invalid placement '%s' (expected fragmented:K:SEED)", text);
        memcpy(k, text + 11, len);
        k[len] = '\0';
        if (parse_int_in(k, 1, INT32_MAX, "fragmented placement chunk count K", &out->chunks,
                         err) < 0)
            return -1;
        return parse_u64(colon + 1, "fragmented placement seed", &out->seed, err);
    }
    if (strncmp(text, "file:", 5) == 0) {
        out->kind = PLACE_FILE;
        if (!text[5] || strlen(text + 5) >= sizeof out->path)
            return cs_fail(err, "invalid placement '%s' (expected file:PATH)", text);
        snprintf(out->path, sizeof out->path, "%s", text + 5);
        return 0;
    }
    return cs_fail(err, "unknown placement '%s' (allowed: %s)", text, allowed);
}

int placement_parse(const char *text, placement_spec *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    char kind[1100];
    if (strlen(text) >= sizeof kind)
        return cs_fail(err, "placement too long (at most %zu characters)", sizeof kind - 1);
    snprintf(kind, sizeof kind, "%s", text);
    char *suffix = strstr(kind, " order=");
    if (suffix) {
        *suffix = '\0';
        if (alloc_order_parse(suffix + 7, &out->order, err) < 0)
            return -1;
    }
    alloc_order order = out->order;
    if (parse_kind(kind, out, err) < 0)
        return -1;
    out->order = order;
    return 0;
}

void placement_format(const placement_spec *p, char *buf, size_t n)
{
    size_t len;
    switch (p->kind) {
    case PLACE_LINEAR: snprintf(buf, n, "linear"); break;
    case PLACE_ROUNDROBIN: snprintf(buf, n, "roundrobin"); break;
    case PLACE_RANDOM: snprintf(buf, n, "random:%" PRIu64, p->seed); break;
    case PLACE_FRAGMENTED:
        snprintf(buf, n, "fragmented:%" PRId64 ":%" PRIu64, p->chunks, p->seed);
        break;
    case PLACE_FILE: snprintf(buf, n, "file:%s", p->path); break;
    case PLACE_ALLOC: snprintf(buf, n, "alloc:%s", p->path); break;
    }
    len = strlen(buf);
    if (p->order == ALLOC_ORDER_CYCLIC && len < n)
        snprintf(buf + len, n - len, " order=cyclic");
}

/* ---- seeded randomness ------------------------------------------------------------------ */

typedef struct rng {
    uint64_t state;
} rng;

static void rng_seed(rng *r, uint64_t seed) { r->state = mix64(seed); }
static uint64_t rng_next(rng *r) { return mix64(r->state++); }
/* Uniform in [0, n) (the modulo bias is below n / 2^64). */
static uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

/* m distinct values of [0, n), ascending (Floyd's sampling over a bitmap). */
static void choose_sorted(rng *r, int64_t m, int64_t n, int64_t *out)
{
    uint8_t *taken = xcalloc((size_t)(n / 8 + 1), 1);
    for (int64_t j = n - m; j < n; j++) {
        int64_t v = (int64_t)rng_below(r, (uint64_t)j + 1);
        if (taken[v / 8] & (1u << (v % 8)))
            v = j;
        taken[v / 8] |= (uint8_t)(1u << (v % 8));
    }
    int64_t k = 0;
    for (int64_t v = 0; v < n && k < m; v++)
        if (taken[v / 8] & (1u << (v % 8)))
            out[k++] = v;
    free(taken);
}

/* ---- node lists ------------------------------------------------------------------------- */

static void nodes_roundrobin(const topology *t, int32_t N, int32_t *nodes)
{
    int32_t H = t->nhosts, G = 0;
    for (int32_t h = 0; h < H; h++)
        if (t->group[h] + 1 > G)
            G = t->group[h] + 1;
    /* bucket b = group id, or G for hosts without a group; hosts in id order */
    int32_t *first = xcalloc((size_t)G + 2, sizeof *first);
    for (int32_t h = 0; h < H; h++)
        first[(t->group[h] < 0 ? G : t->group[h]) + 1]++;
    for (int32_t b = 0; b <= G; b++)
        first[b + 1] += first[b];
    int32_t *fill = xmalloc(((size_t)G + 1) * sizeof *fill);
    memcpy(fill, first, ((size_t)G + 1) * sizeof *fill);
    int32_t *sorted = xmalloc((size_t)H * sizeof *sorted);
    for (int32_t h = 0; h < H; h++)
        sorted[fill[t->group[h] < 0 ? G : t->group[h]]++] = h;
    int32_t k = 0;
    for (int32_t round = 0; k < N; round++)
        for (int32_t b = 0; b <= G && k < N; b++)
            if (first[b] + round < first[b + 1])
                nodes[k++] = sorted[first[b] + round];
    free(first);
    free(fill);
    free(sorted);
}

static void nodes_random(int32_t H, int32_t N, uint64_t seed, int32_t *nodes)
{
    rng r;
    rng_seed(&r, seed);
    int32_t *perm = xmalloc((size_t)H * sizeof *perm);
    for (int32_t h = 0; h < H; h++)
        perm[h] = h;
    for (int32_t i = 0; i < N; i++) { /* partial Fisher-Yates */
        int32_t j = i + (int32_t)rng_below(&r, (uint64_t)(H - i));
        int32_t x = perm[i];
        perm[i] = perm[j];
        perm[j] = x;
        nodes[i] = perm[i];
    }
    free(perm);
}

static int nodes_fragmented(int32_t H, int32_t N, int64_t K, uint64_t seed, int32_t *nodes,
                            cs_error *err)
{
    if (K > N)
        return cs_fail(err, "fragmented placement: K=%" PRId64 " chunks but only %d node(s) "
                            "to place (K must be at most the number of nodes)", K, N);
    int64_t spare = (int64_t)H - N - (K - 1); /* free hosts beyond one between chunks */
    if (spare < 0)
        return cs_fail(err, "fragmented placement: %d node(s) in K=%" PRId64 " chunks need "
                            "at least %" PRId64 " hosts (chunks are separated by a free "
                            "host), the topology has %d", N, K, (int64_t)N + K - 1, H);
    rng r;
    rng_seed(&r, seed);
    int64_t *cut = xmalloc((size_t)(K + 1) * sizeof *cut);
    int64_t *gap = xmalloc((size_t)(K + 1) * sizeof *gap);
    /* chunk sizes: K - 1 distinct cut points in 1 .. N-1 */
    choose_sorted(&r, K - 1, N - 1, cut);
    cut[K - 1] = N - 1;
    /* gaps: `spare` free hosts into K + 1 gaps (stars and bars), inner gaps + 1 */
    int64_t *bar = xmalloc((size_t)(K + 1) * sizeof *bar);
    choose_sorted(&r, K, spare + K, bar);
    for (int64_t i = 0; i <= K; i++) {
        int64_t lo = i == 0 ? 0 : bar[i - 1] + 1, hi = i == K ? spare + K : bar[i];
        gap[i] = hi - lo + (i > 0 && i < K ? 1 : 0);
    }
    int64_t pos = gap[0], k = 0, prev = 0;
    for (int64_t c = 0; c < K; c++) {
        int64_t size = cut[c] + 1 - prev;
        prev = cut[c] + 1;
        for (int64_t i = 0; i < size; i++)
            nodes[k++] = (int32_t)(pos + i);
        pos += size + gap[c + 1];
    }
    free(cut);
    free(gap);
    free(bar);
    return 0;
}

/* ---- allocation files ------------------------------------------------------------------- */

/* "<where>: unknown host 'x' (the topology's hosts are first..last)". */
static int unknown_host(const topology *t, const char *where, const char *name, cs_error *err)
{
    char first[64], last[64], safe[128];
    topo_host_label(t, 0, first, sizeof first);
    topo_host_label(t, t->nhosts - 1, last, sizeof last);
    return cs_fail(err, "%s: unknown host '%s' (the topology's hosts are %s..%s)", where,
                   printable(name, safe, sizeof safe), first, last);
}

/* The host name of a line, trimmed, comments removed; NULL for an empty line. */
static char *line_host(char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = '\0';
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strlen(line);
    while (n > 0 && strchr(" \t\r\n", line[n - 1]))
        line[--n] = '\0';
    return n ? line : NULL;
}

static int place_from_file(const placement_spec *p, const topology *t, int32_t P, int32_t Q,
                           int32_t *host_of_rank, cs_error *err)
{
    FILE *f = fopen_input(p->path, "r");
    if (!f)
        return cs_fail(err, "%s: cannot open the allocation file: %s", p->path, strerror(errno));
    int32_t *count = xcalloc((size_t)t->nhosts, sizeof *count);
    char *line = NULL;
    size_t cap = 0;
    int32_t r = 0;
    int rc = 0;
    for (int lineno = 1; r < P && getline(&line, &cap, f) >= 0; lineno++) {
        char *name = line_host(line);
        if (!name)
            continue;
        int32_t h = topo_host_lookup(t, name);
        if (h < 0) {
            char where[1100];
            snprintf(where, sizeof where, "%s:%d", p->path, lineno);
            rc = unknown_host(t, where, name, err);
            break;
        }
        if (++count[h] > Q) {
            rc = cs_fail(err, "%s:%d: host %s gets rank %d, more than --ranks-per-node %d "
                              "rank(s) per host", p->path, lineno, name, r, Q);
            break;
        }
        host_of_rank[r++] = h;
    }
    if (rc == 0 && ferror(f))
        rc = cs_fail(err, "%s: read error: %s", p->path, strerror(errno));
    if (rc == 0 && r < P)
        rc = cs_fail(err, "%s: the file places %d rank(s), %d are needed (one host name per "
                          "rank and line)", p->path, r, P);
    free(line);
    free(count);
    fclose(f);
    return rc;
}

int placement_file_ranks_per_host(const char *path, int32_t P, int32_t *q, cs_error *err)
{
    FILE *f = fopen_input(path, "r");
    if (!f)
        return cs_fail(err, "%s: cannot open the allocation file: %s", path, strerror(errno));
    allocation a = {.per_rank = 1}; /* a rank per line, as in a PICO CSV */
    hostlist_init(&a.hosts);
    char *line = NULL;
    size_t cap = 0;
    while (a.hosts.n < P && getline(&line, &cap, f) >= 0) {
        char *name = line_host(line);
        if (name)
            hostlist_push(&a.hosts, name);
    }
    *q = alloc_ranks_per_host(&a);
    free(line);
    fclose(f);
    alloc_free(&a);
    return 0;
}

/* ---- scheduler allocations -------------------------------------------------------------- */

static int place_from_alloc(const placement_spec *p, const topology *t, int32_t P, int32_t Q,
                            int32_t *host_of_rank, cs_error *err)
{
    allocation a;
    if (alloc_read(p->path, &a, err) < 0) {
        alloc_free(&a);
        return -1;
    }
    int32_t *index = xmalloc((size_t)P * sizeof *index);
    int32_t *count = xcalloc((size_t)t->nhosts, sizeof *count);
    int rc = a.per_rank && p->order == ALLOC_ORDER_CYCLIC
                 ? cs_fail(err, "%s: a PICO CSV fixes every rank's host; order=cyclic does not "
                                "apply", p->path)
                 : alloc_place(&a, P, Q, p->order, index, err);
    for (int32_t r = 0; r < P && rc == 0; r++) {
        const char *name = a.hosts.names[index[r]];
        int32_t h = topo_host_lookup(t, name);
        if (h < 0) {
            rc = unknown_host(t, "allocation", name, err);
        } else if (++count[h] > Q) {
            rc = cs_fail(err, "allocation: host %s gets rank %d, more than --ranks-per-node %d "
                              "rank(s) per host", name, r, Q);
        }
        host_of_rank[r] = h;
    }
    free(index);
    free(count);
    alloc_free(&a);
    return rc;
}

/* ---- entry point ------------------------------------------------------------------------ */

int placement_compute(const placement_spec *p, const topology *t, int32_t P, int32_t Q,
                      int32_t *host_of_rank, cs_error *err)
{
    if (P < 1 || Q < 1)
        return cs_fail(err, "placement needs P >= 1 and Q >= 1 (got P=%d, Q=%d)", P, Q);
    if (p->kind == PLACE_FILE && p->order == ALLOC_ORDER_CYCLIC)
        return cs_fail(err, "%s: a host file fixes every rank's host; order=cyclic does not "
                            "apply", p->path);
    if (p->kind == PLACE_FILE)
        return place_from_file(p, t, P, Q, host_of_rank, err);
    if (p->kind == PLACE_ALLOC)
        return place_from_alloc(p, t, P, Q, host_of_rank, err);
    int32_t N = (int32_t)((P + (int64_t)Q - 1) / Q);
    if (N > t->nhosts)
        return cs_fail(err, "P=%d ranks at %d per node need %d hosts, the topology has %d "
                            "(raise --ranks-per-node or use a bigger topology)",
                       P, Q, N, t->nhosts);
    int32_t *nodes = xmalloc((size_t)N * sizeof *nodes);
    int rc = 0;
    switch (p->kind) {
    case PLACE_LINEAR:
        for (int32_t i = 0; i < N; i++)
            nodes[i] = i;
        break;
    case PLACE_ROUNDROBIN: nodes_roundrobin(t, N, nodes); break;
    case PLACE_RANDOM: nodes_random(t->nhosts, N, p->seed, nodes); break;
    case PLACE_FRAGMENTED:
        rc = nodes_fragmented(t->nhosts, N, p->chunks, p->seed, nodes, err);
        break;
    case PLACE_FILE:
    case PLACE_ALLOC: break; /* handled above */
    }
    for (int32_t r = 0; r < P && rc == 0; r++)
        host_of_rank[r] = nodes[p->order == ALLOC_ORDER_CYCLIC ? r % N : r / Q];
    free(nodes);
    return rc;
}
