/* external_graph.c - the network graph of an external platform, inferred from its routes
 * (external.h: "links" and "graph").
 *
 * Nodes live in a union-find: hosts are nodes 0..H-1, every end of a link not known yet
 * is a new node, and walking a route identifies the node it leaves a link by with the
 * node it enters the next link by. A class of nodes is represented by its host when it
 * has one; two hosts are never united (the attempt is a conflict).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/external_internal.h"

typedef struct uf {
    int32_t *parent;
    size_t n, cap;
    int32_t nhosts;
    int64_t conflicts;
} uf;

static int32_t uf_new(uf *u)
{
    VEC_RESERVE(u->parent, u->cap, u->n + 1);
    u->parent[u->n] = (int32_t)u->n;
    return (int32_t)u->n++;
}

static int32_t uf_find(uf *u, int32_t x)
{
    while (u->parent[x] != x) {
        u->parent[x] = u->parent[u->parent[x]];
        x = u->parent[x];
    }
    return x;
}

static void uf_unite(uf *u, int32_t x, int32_t y)
{
    int32_t rx = uf_find(u, x), ry = uf_find(u, y);
    if (rx == ry)
        return;
    if (rx < u->nhosts && ry < u->nhosts) {
        u->conflicts++;
        return;
    }
    int32_t root = rx < u->nhosts ? rx : ry < u->nhosts ? ry : (rx < ry ? rx : ry);
    u->parent[rx == root ? ry : rx] = root;
}

/* ---- links: X_UP / X_DOWN pairs ------------------------------------------------------------ */

/* The raw link named base + suffix, or -1. */
static int32_t twin_of(const strmap *names, const char *name, size_t base_len, const char *suffix)
{
    char buf[1024];
    if (base_len + strlen(suffix) >= sizeof buf)
        return -1;
    memcpy(buf, name, base_len);
    strcpy(buf + base_len, suffix);
    int64_t id;
    return strmap_get(names, buf, &id) ? (int32_t)id : -1;
}

static int ends_with(const char *s, const char *suffix, size_t *base_len)
{
    size_t n = strlen(s), k = strlen(suffix);
    *base_len = n >= k ? n - k : 0;
    return n > k && strcmp(s + n - k, suffix) == 0;
}

static void pair_links(const ext_raw *raw, ext_graph *g)
{
    int32_t L = raw->nlinks;
    strmap names;
    strmap_init(&names);
    for (int32_t i = 0; i < L; i++)
        strmap_put(&names, raw->link_names[i], i);
    g->link_of_sg = xmalloc((size_t)(L ? L : 1) * sizeof *g->link_of_sg);
    g->down_of_sg = xcalloc((size_t)(L ? L : 1), 1);
    g->twin = xcalloc((size_t)(L ? L : 1), 1);
    g->sg_fwd = xmalloc((size_t)(L ? L : 1) * sizeof *g->sg_fwd);
    g->sg_rev = xmalloc((size_t)(L ? L : 1) * sizeof *g->sg_rev);
    for (int32_t i = 0; i < L; i++)
        g->link_of_sg[i] = -1;
    for (int32_t i = 0; i < L; i++) {
        if (g->link_of_sg[i] >= 0)
            continue;
        const char *name = raw->link_names[i];
        size_t base;
        int32_t up = i, down = -1;
        if (ends_with(name, "_UP", &base)) {
            down = twin_of(&names, name, base, "_DOWN");
        } else if (ends_with(name, "_DOWN", &base)) {
            up = twin_of(&names, name, base, "_UP");
            down = up >= 0 ? i : -1;
            if (up < 0)
                up = i;
        }
        int32_t l = g->nlinks++;
        g->link_of_sg[up] = l;
        g->sg_fwd[l] = up;
        g->sg_rev[l] = down >= 0 ? down : up;
        if (down >= 0) {
            g->link_of_sg[down] = l;
            g->down_of_sg[down] = 1;
            g->twin[l] = 1;
        }
    }
    strmap_free(&names);
}

/* ---- walking the routes ---------------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* A shared link entered at node cur: is it traversed b -> a? Fixes unknown ends. */
static int shared_direction(uf *u, int32_t *a, int32_t *b, int32_t cur, int last, int32_t dst)
{
    if (*a < 0) {
        *a = cur;
        *b = last ? dst : uf_new(u);
        return 0;
    }
    int32_t rc = uf_find(u, cur);
    if (uf_find(u, *a) == rc)
        return 0;
    if (uf_find(u, *b) == rc)
        return 1;
    /* entered by a node not yet known to be one of its ends: the last link must reach the
     * destination; otherwise take the link forwards */
    int rev = last && uf_find(u, *a) == uf_find(u, dst) && uf_find(u, *b) != uf_find(u, dst);
    uf_unite(u, rev ? *b : *a, cur);
    return rev;
}

static void walk_route(const ext_raw *raw, ext_graph *g, uf *u, int64_t pair)
{
    int32_t cur = raw->pair_src[pair], dst = raw->pair_dst[pair];
    int64_t first = raw->route_first[pair], n = raw->route_first[pair + 1] - first;
    for (int64_t i = 0; i < n; i++) {
        int32_t sg = raw->route_links[first + i], l = g->link_of_sg[sg];
        int last = i == n - 1, rev;
        if (g->twin[l]) {
            rev = g->down_of_sg[sg];
            int32_t *tail = rev ? &g->end_b[l] : &g->end_a[l];
            int32_t *head = rev ? &g->end_a[l] : &g->end_b[l];
            if (*tail < 0)
                *tail = cur;
            else
                uf_unite(u, *tail, cur);
            if (*head < 0)
                *head = last ? dst : uf_new(u);
        } else {
            rev = shared_direction(u, &g->end_a[l], &g->end_b[l], cur, last, dst);
        }
        g->hop_rev[first + i] = (int8_t)rev;
        cur = rev ? g->end_a[l] : g->end_b[l];
    }
    uf_unite(u, cur, dst);
}

/* Final node ids: hosts keep theirs, routers are numbered in order of appearance. */
static void number_nodes(ext_graph *g, uf *u)
{
    for (int32_t l = 0; l < g->nlinks; l++) { /* a link no route uses gets ends of its own */
        if (g->end_a[l] < 0)
            g->end_a[l] = uf_new(u);
        if (g->end_b[l] < 0)
            g->end_b[l] = uf_new(u);
    }
    int32_t *id = xmalloc((u->n ? u->n : 1) * sizeof *id);
    for (size_t v = 0; v < u->n; v++)
        id[v] = -1;
    int32_t next = u->nhosts;
    for (int32_t l = 0; l < g->nlinks; l++) {
        int32_t *ends[2] = {&g->end_a[l], &g->end_b[l]};
        for (int e = 0; e < 2; e++) {
            int32_t r = uf_find(u, *ends[e]);
            if (r >= u->nhosts && id[r] < 0)
                id[r] = next++;
            *ends[e] = r < u->nhosts ? r : id[r];
        }
    }
    g->nnodes = next;
    free(id);
}

void ext_graph_infer(const ext_raw *raw, ext_graph *g)
{
    memset(g, 0, sizeof *g);
    pair_links(raw, g);
    g->end_a = xmalloc((size_t)(g->nlinks ? g->nlinks : 1) * sizeof *g->end_a);
    g->end_b = xmalloc((size_t)(g->nlinks ? g->nlinks : 1) * sizeof *g->end_b);
    for (int32_t l = 0; l < g->nlinks; l++)
        g->end_a[l] = g->end_b[l] = -1;
    int64_t nentries = raw->route_first[raw->npairs];
    g->hop_rev = xcalloc((size_t)(nentries ? nentries : 1), 1);
    uf u = {.nhosts = raw->nhosts};
    for (int32_t h = 0; h < raw->nhosts; h++)
        uf_new(&u);
    /* shortest routes first: (length << 36 | pair) */
    int64_t *order = xmalloc((size_t)(raw->npairs ? raw->npairs : 1) * sizeof *order);
    int64_t m = 0;
    for (int64_t p = 0; p < raw->npairs; p++)
        if (raw->pair_src[p] != raw->pair_dst[p])
            order[m++] = ((raw->route_first[p + 1] - raw->route_first[p]) << 36) | p;
    qsort(order, (size_t)m, sizeof *order, cmp_i64);
    for (int64_t k = 0; k < m; k++)
        walk_route(raw, g, &u, order[k] & ((1LL << 36) - 1));
    free(order);
    number_nodes(g, &u);
    g->conflicts = u.conflicts;
    free(u.parent);
}

void ext_graph_free(ext_graph *g)
{
    free(g->link_of_sg);
    free(g->down_of_sg);
    free(g->twin);
    free(g->sg_fwd);
    free(g->sg_rev);
    free(g->end_a);
    free(g->end_b);
    free(g->hop_rev);
    memset(g, 0, sizeof *g);
}
