/* test_faults.c - failed and degraded links (topologies/faults.h): which links a spec
 * names, seeded draws, bad specs, routes around failed links (the family's route when it
 * survives, else as long as a breadth-first search written here finds), the Dijkstra
 * rerouting of networks too large for a route table, and the disconnected-ranks error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"
#include "testutil.h"

static topology *build(const char *spec)
{
    topology *t = NULL;
    cs_error err;
    if (topo_build_spec(spec, &t, &err) < 0) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        return NULL;
    }
    return t;
}

/* The spec fails and its message holds every one of the (up to 3) pieces. */
static int fails_with(const char *spec, const char *a, const char *b, const char *c)
{
    topology *t = NULL;
    cs_error err;
    if (topo_build_spec(spec, &t, &err) == 0) {
        fprintf(stderr, "%s: accepted\n", spec);
        topo_free(t);
        return 0;
    }
    const char *want[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        if (want[i] && !strstr(err.msg, want[i])) {
            fprintf(stderr, "%s: message '%s' lacks '%s'\n", spec, err.msg, want[i]);
            return 0;
        }
    return 1;
}

static int64_t count_failed(const topology *t)
{
    int64_t n = 0;
    for (int64_t i = 0; i < t->nlinks; i++)
        n += topo_link_failed(t, i);
    return n;
}

/* ---- naming links -------------------------------------------------------------------------- */

static void test_named_links(void)
{
    /* a ring of 8: link i joins hosts i and i+1 (torus.c); h7-h0 is link 7 */
    const char *specs[] = {"torus dims=8 fail_links=l3", "torus dims=8 fail_links=h3-h4",
                           "torus dims=8 fail_links=h4-h3", "torus dims=8 fail_links=l3_DOWN",
                           "torus dims=8 fail_links=torus_link_from_3_to_4_UP"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        topology *t = build(specs[i]);
        CU_ASSERT_FATAL(t != NULL);
        CU_ASSERT(count_failed(t) == 1);
        CU_ASSERT(topo_link_failed(t, 3));
        topo_free(t);
    }
    topology *t = build("torus dims=8 fail_links=l1,h7-h0,l1");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(count_failed(t) == 2 && topo_link_failed(t, 1) && topo_link_failed(t, 7));
    topo_free(t);
}

/* CLASS:N%: round(N% of the class), at least 1, all of that class. */
static void test_class_counts(void)
{
    topology *t = build("dragonfly p=2 a=4 h=2");
    CU_ASSERT_FATAL(t != NULL);
    int64_t global = 0;
    for (int64_t i = 0; i < t->nlinks; i++)
        global += t->links[i].cls == LINK_GLOBAL;
    topo_free(t);
    struct { const char *spec; int64_t want; } cases[] = {
        {"dragonfly p=2 a=4 h=2 fail_links=global:25%", (global * 25 + 50) / 100},
        {"dragonfly p=2 a=4 h=2 fail_links=global:1%", 1},
        {"dragonfly p=2 a=4 h=2 fail_links=global:3", 3},
        {"dragonfly p=2 a=4 h=2 fail_links=global:100%", global},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        t = build(cases[c].spec);
        CU_ASSERT_FATAL(t != NULL);
        CU_ASSERT(count_failed(t) == cases[c].want);
        for (int64_t i = 0; i < t->nlinks; i++)
            if (topo_link_failed(t, i))
                CU_ASSERT(t->links[i].cls == LINK_GLOBAL);
        topo_free(t);
    }
}

/* The same spec and seed give the same links; random never takes host links. */
static void test_random_is_seeded(void)
{
    const char *a = "fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:5 fault_seed=9";
    topology *t1 = build(a), *t2 = build(a);
    topology *t3 = build("fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:5,seed=9");
    CU_ASSERT_FATAL(t1 && t2 && t3);
    int same = 1, same3 = 1, differs = 0;
    for (int64_t i = 0; i < t1->nlinks; i++) {
        same &= topo_link_failed(t1, i) == topo_link_failed(t2, i);
        same3 &= topo_link_failed(t1, i) == topo_link_failed(t3, i);
        if (topo_link_failed(t1, i))
            CU_ASSERT(t1->links[i].cls != LINK_HOST);
    }
    CU_ASSERT(same && same3 && count_failed(t1) == 5);
    CU_ASSERT(t1->params_hash == t2->params_hash);
    /* some other seed draws other links (5 of 32 network links) */
    for (int s = 1; s <= 8 && !differs; s++) {
        char spec[160];
        snprintf(spec, sizeof spec, "fattree leaves=8 hosts_per_leaf=4 spines=4 "
                                    "fail_links=random:5 fault_seed=%d", 100 + s);
        topology *u = build(spec);
        CU_ASSERT_FATAL(u != NULL);
        for (int64_t i = 0; i < u->nlinks; i++)
            differs |= topo_link_failed(u, i) != topo_link_failed(t1, i);
        CU_ASSERT(u->params_hash != t1->params_hash);
        topo_free(u);
    }
    CU_ASSERT(differs);
    topo_free(t1);
    topo_free(t2);
    topo_free(t3);
}

/* Degraded: bandwidth x factor, and a new platform (cache key); failed wins over degraded. */
static void test_degrade(void)
{
    topology *t0 = build("torus dims=4 local_bw=1GBps");
    topology *t = build("torus dims=4 local_bw=1GBps degrade_links=l1,l2:0.25 fail_links=l2");
    CU_ASSERT_FATAL(t0 && t);
    CU_ASSERT_DOUBLE_EQUAL(t->links[1].bw, 0.25e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(t->links[0].bw, 1e9, 1);
    CU_ASSERT(topo_link_failed(t, 2) && topo_link_factor(t, 2) == 1.0);
    CU_ASSERT(t->faults->ndegraded == 1 && t->faults->nfailed == 1);
    CU_ASSERT(t->params_hash != t0->params_hash);
    CU_ASSERT(strstr(t->params, "degrade_links=l1,l2:0.25") != NULL);
    topo_free(t0);
    topo_free(t);
}

static void test_bad_specs(void)
{
    CU_ASSERT(fails_with("torus dims=8 fail_links=l8", "fail_links", "no link 'l8'", "l0..l7"));
    CU_ASSERT(fails_with("torus dims=8 fail_links=h0-h2", "fail_links", "no link 'h0-h2'", NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=local:9", "asks for 9 links", "1..8", NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=global:1", "no such links", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=glob:1", "unknown class 'glob'",
                         "host, local, global, random", NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=local:0", "bad count", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=local:1e400", "bad count", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=random:nan", "bad count", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=,", "no link given", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=h-", "no link 'h-'", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=torus_link_from_-1_to_0", "no link", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 degrade_links=l1:nan", "out of range", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=local:150%", "more than 100%", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 degrade_links=l1:1.5", "degrade_links", "0 < FACTOR <= 1",
                         NULL));
    CU_ASSERT(fails_with("torus dims=8 degrade_links=l1:0", "out of range", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 degrade_links=l1", "expected SPEC:FACTOR", NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fault_seed=x fail_links=l1", "fault_seed", "bad seed",
                         NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=random:1,seed=3 fault_seed=4", "differs",
                         NULL, NULL));
    CU_ASSERT(fails_with("torus dims=8 fail_links=seed=3", "no link given", NULL, NULL));
}

/* ---- routes ------------------------------------------------------------------------------- */

/* Hops from s over links that are not failed, never through a host of an indirect network
 * (written independently of fault_route.c); dist[] = -1 when unreached. */
static void ref_bfs(const topology *t, int32_t s, int32_t *dist)
{
    int32_t N = topo_nnodes(t), *queue = xmalloc((size_t)N * sizeof *queue), head = 0, tail = 0;
    for (int32_t v = 0; v < N; v++)
        dist[v] = -1;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int32_t u = queue[head++];
        if (u != s && !t->direct && topo_is_host(t, u))
            continue;
        for (int64_t i = 0; i < t->nlinks; i++) {
            const topo_link *l = &t->links[i];
            if (topo_link_failed(t, i))
                continue;
            int32_t v = l->a == u ? l->b : (l->b == u && l->sharing != LINK_ONE_WAY) ? l->a : -1;
            if (v >= 0 && dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    free(queue);
}

/* Every pair: a route exactly when the reference search reaches the host, a chain of
 * hops from s to d over links that remain; the family's route (on the same network
 * without faults) when it avoids the failed links, else as long as the shortest
 * remaining path. `base` is the spec without its fault keys. */
static int check_pair(topology *t, topology *b, int32_t s, int32_t d, const int32_t *dist,
                      topo_hop *hops, topo_hop *bh)
{
    int n = topo_route(t, s, d, hops, t->max_route_hops);
    if (dist[d] < 0)
        return n < 0 && !topo_hosts_connected(t, s, d);
    int nb = topo_route(b, s, d, bh, b->max_route_hops), survives = nb >= 0;
    for (int i = 0; i < nb; i++)
        survives &= !topo_link_failed(t, bh[i].link);
    int ok = survives ? n == nb : n == dist[d];
    for (int i = 0; ok && survives && i < n; i++) /* field by field: hops have padding */
        ok = hops[i].link == bh[i].link && hops[i].reverse == bh[i].reverse;
    int32_t at = s;
    for (int i = 0; ok && i < n; i++) {
        const topo_link *l = &t->links[hops[i].link];
        ok = !topo_link_failed(t, hops[i].link) && (hops[i].reverse ? l->b : l->a) == at;
        at = topo_hop_head(t, hops[i]);
    }
    return ok && at == d;
}

static int routes_around(const char *spec, const char *base, int64_t *disconnected)
{
    topology *t = build(spec), *b = build(base);
    if (!t || !b)
        return 0;
    int ok = 1;
    int32_t *dist = xmalloc((size_t)topo_nnodes(t) * sizeof *dist);
    topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
    topo_hop *bh = xmalloc((size_t)b->max_route_hops * sizeof *bh);
    *disconnected = 0;
    for (int32_t s = 0; s < t->nhosts && ok; s++) {
        ref_bfs(t, s, dist);
        for (int32_t d = 0; d < t->nhosts && ok; d++) {
            if (s == d)
                continue;
            *disconnected += dist[d] < 0;
            ok = check_pair(t, b, s, d, dist, hops, bh);
            if (!ok)
                fprintf(stderr, "%s: route h%d -> h%d wrong (shortest %d)\n", spec, s, d, dist[d]);
        }
    }
    free(dist);
    free(hops);
    free(bh);
    topo_free(t);
    topo_free(b);
    return ok;
}

static void test_routes_avoid_failed_links(void)
{
    const char *specs[] = {
        "torus dims=8 fail_links=l0",
        "torus dims=4x4 fail_links=random:4 fault_seed=2",
        "torus dims=4x4x2 fail_links=random:6 fault_seed=5",
        "dragonfly p=2 a=4 h=2 fail_links=global:20% fault_seed=3",
        "dragonfly p=2 a=4 h=2 fail_links=local:10 fault_seed=4",
        "dragonflyplus p=2 leaves=3 spines=2 h=2 fail_links=random:4",
        "fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:6 fault_seed=7",
        "hyperx dims=4x4 T=2 fail_links=random:8",
        "kautz d=3 k=2 fail_links=random:3 fault_seed=11",
        "2dfc m1=4 m2=4 fail_links=random:6",
        "torus dims=8 fail_links=l0,l4", /* two halves */
        "fattree leaves=4 hosts_per_leaf=2 spines=2 fail_links=host:1", /* one host alone */
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        int64_t cut;
        char base[160];
        snprintf(base, sizeof base, "%.*s", (int)(strstr(specs[i], " fail_links") - specs[i]),
                 specs[i]);
        CU_ASSERT(routes_around(specs[i], base, &cut));
        if (strstr(specs[i], "l0,l4"))
            CU_ASSERT(cut == 2 * 4 * 4); /* every ordered pair across the halves */
        if (strstr(specs[i], "host:1"))
            CU_ASSERT(cut == 2 * 7);
    }
}

/* Too many host pairs for a table (24x24: 331,200 > TOPO_FAULT_TABLE_MAX): Dijkstra
 * rerouting, every route a shortest remaining path (sampled sources). */
static void test_dijkstra_rerouting(void)
{
    topology *t = build("torus dims=24x24 fail_links=random:6 fault_seed=4");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(!t->faults->table && t->routing == TOPO_ROUTE_SHORTEST);
    CU_ASSERT((int64_t)t->nhosts * (t->nhosts - 1) > TOPO_FAULT_TABLE_MAX);
    int32_t *dist = xmalloc((size_t)topo_nnodes(t) * sizeof *dist);
    topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
    int ok = 1;
    for (int32_t s = 0; s < t->nhosts && ok; s += 97) {
        ref_bfs(t, s, dist);
        for (int32_t d = 0; d < t->nhosts && ok; d++) {
            int n = topo_route(t, s, d, hops, t->max_route_hops);
            ok = n == dist[d];
            for (int i = 0; ok && i < n; i++)
                ok = !topo_link_failed(t, hops[i].link);
        }
    }
    CU_ASSERT(ok);
    free(dist);
    free(hops);
    topo_free(t);
}

/* The long way round: h0 -> h1 on a ring of 8 without link 0 crosses the 7 others. */
static void test_ring_long_way(void)
{
    topology *t = build("torus dims=8 fail_links=l0");
    CU_ASSERT_FATAL(t != NULL);
    topo_hop hops[16];
    int n = topo_route(t, 0, 1, hops, 16);
    CU_ASSERT(n == 7);
    for (int i = 0; i < n; i++)
        CU_ASSERT(hops[i].link == 7 - i && hops[i].reverse == 1);
    CU_ASSERT(topo_route(t, 1, 2, hops, 16) == 1); /* others keep their one link */
    topo_free(t);
}

static void test_disconnected_ranks(void)
{
    topology *t = build("torus dims=8 fail_links=l0,l4");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(t->faults->ncomp == 2);
    int32_t inside[4] = {1, 2, 3, 4}, across[4] = {1, 2, 5, 3};
    cs_error err;
    CU_ASSERT(topo_faults_check_ranks(t, inside, 4, &err) == 0);
    CU_ASSERT(topo_faults_check_ranks(t, across, 4, &err) < 0);
    CU_ASSERT(strstr(err.msg, "rank 0 (host h1) and rank 2 (host h5) cannot reach each other")
              != NULL);
    topo_free(t);
}

int main(void)
{
    char dir[64];
    if (test_cache_dir_create(dir, sizeof dir) < 0)
        return 1;
    CU_initialize_registry();
    static const test_case specs[] = {
        {"named links", test_named_links},
        {"class counts", test_class_counts},
        {"random draws are seeded", test_random_is_seeded},
        {"degraded bandwidth", test_degrade},
        {"bad specs", test_bad_specs},
        {NULL, NULL}};
    static const test_case routes[] = {
        {"routes: the family's, else shortest remaining", test_routes_avoid_failed_links},
        {"large networks: Dijkstra rerouting", test_dijkstra_rerouting},
        {"ring: the long way round", test_ring_long_way},
        {"disconnected ranks are an error", test_disconnected_ranks},
        {NULL, NULL}};
    test_add_suite("fault specs", specs);
    test_add_suite("fault routes", routes);
    int rc = test_run_suites();
    test_cache_dir_remove(dir);
    return rc;
}
