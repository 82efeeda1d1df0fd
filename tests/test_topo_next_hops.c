/* test_topo_next_hops.c - topo_next_hops(), the minimal next hops of the packet model's
 * adaptive routing, checked for every pair of hosts of small networks of each family:
 *
 *   - following hops[0] from the source walks exactly topo_route (the flow model's route);
 *   - on graph-minimal families (torus, mesh, hyperx, 2dfc, fat trees) every listed hop
 *     gets one link closer to the destination (an independent breadth-first search), and
 *     every link that does so is listed;
 *   - on Dragonfly and Dragonfly+ (minimal = the family's routing, not graph distance),
 *     every listed hop leads to a route as long as the deterministic one;
 *   - families without next hops (kautz, hammingmesh) answer -1, as does a short buffer;
 *   - with failed links (fault_hops.c), at every node and for every destination host the
 *     hops listed are exactly the remaining links that begin a minimal remaining path
 *     (fewest links; fewest global links first on Dragonfly and Dragonfly+), against
 *     testutil's Bellman-Ford distances: none crosses a failed link, none when the
 *     destination is cut off, and following hops[0] reaches the destination; on a table
 *     rerouted network and on one rerouted by Dijkstra (a 24x24 torus), every family with
 *     next hops; the families' own next hops, which ignore the faults (a planted bug),
 *     fail the same check.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "testutil.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

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

/* Links from every node to host dst (hosts forward only in direct networks). */
static void distances_to(const topology *t, int32_t dst, int32_t *dist, int32_t *queue)
{
    int32_t N = topo_nnodes(t), head = 0, tail = 0;
    for (int32_t v = 0; v < N; v++)
        dist[v] = -1;
    dist[dst] = 0;
    queue[tail++] = dst;
    while (head < tail) {
        int32_t v = queue[head++];
        if (v != dst && topo_is_host(t, v) && !t->direct)
            continue;
        for (int64_t k = t->inc_first[v]; k < t->inc_first[v + 1]; k++)
            if (dist[t->inc_node[k]] < 0) {
                dist[t->inc_node[k]] = dist[v] + 1;
                queue[tail++] = t->inc_node[k];
            }
    }
}

/* Hops from `at` to dst following hops[0]; -1 if the walk fails or loops. */
static int walk_length(const topology *t, int32_t at, int32_t dst, topo_hop *buf, int max)
{
    int len = 0;
    while (at != dst) {
        if (topo_next_hops(t, at, dst, buf, max) < 1 || len > 4 * t->max_route_hops + 8)
            return -1;
        at = topo_hop_head(t, buf[0]);
        len++;
    }
    return len;
}

/* Links out of `at` one step closer to dst. */
static int closer_links(const topology *t, int32_t at, const int32_t *dist)
{
    int n = 0;
    for (int64_t k = t->inc_first[at]; k < t->inc_first[at + 1]; k++)
        n += dist[t->inc_node[k]] == dist[at] - 1 && (t->direct || !topo_is_host(t, t->inc_node[k]) ||
                                                      dist[t->inc_node[k]] == 0);
    return n;
}

/* Checks one node of a walk; returns 0 when every property holds. */
static int check_node(const topology *t, int32_t at, int32_t dst, const int32_t *dist,
                      int graph_minimal, topo_hop *hops, topo_hop *scratch, int max)
{
    int n = topo_next_hops(t, at, dst, hops, max);
    if (n < 1)
        return -1;
    if (graph_minimal && n != closer_links(t, at, dist))
        return -2;
    int rest = walk_length(t, at, dst, scratch, max);
    for (int i = 0; i < n; i++) {
        int32_t head = topo_hop_head(t, hops[i]);
        const topo_link *l = &t->links[hops[i].link];
        if ((hops[i].reverse ? l->b : l->a) != at)
            return -3; /* the hop does not leave `at` */
        if (graph_minimal && dist[head] != dist[at] - 1)
            return -4;
        if (!graph_minimal && walk_length(t, head, dst, scratch, max) != rest - 1)
            return -5;
    }
    return 0;
}

/* Every host pair: the hops[0] walk is topo_route, and every node on it passes check_node. */
static void check_family(const char *spec, int graph_minimal)
{
    topology *t = build(spec);
    CU_ASSERT_FATAL(t != NULL);
    int32_t N = topo_nnodes(t);
    int max = topo_max_degree(t);
    int32_t *dist = xmalloc((size_t)N * sizeof *dist), *queue = xmalloc((size_t)N * sizeof *queue);
    topo_hop *route = xmalloc((size_t)t->max_route_hops * sizeof *route);
    topo_hop *hops = xmalloc((size_t)max * sizeof *hops), *scratch = xmalloc((size_t)max * sizeof *scratch);
    int64_t failures = 0;
    for (int32_t d = 0; d < t->nhosts; d++) {
        distances_to(t, d, dist, queue);
        for (int32_t s = 0; s < t->nhosts; s++) {
            int n = topo_route(t, s, d, route, t->max_route_hops);
            int32_t at = s;
            for (int i = 0; i < n && failures < 5; i++) {
                int rc = check_node(t, at, d, dist, graph_minimal, hops, scratch, max);
                if (rc == 0 && (hops[0].link != route[i].link || hops[0].reverse != route[i].reverse))
                    rc = -6;
                if (rc != 0 && failures++ < 5)
                    fprintf(stderr, "%s: h%d -> h%d at node %d (hop %d): check %d failed\n", spec, s,
                            d, at, i, rc);
                at = topo_hop_head(t, route[i]);
            }
            if (topo_next_hops(t, d, d, hops, max) != 0)
                failures++;
        }
    }
    CU_ASSERT_EQUAL(failures, 0);
    free(dist);
    free(queue);
    free(route);
    free(hops);
    free(scratch);
    topo_free(t);
}

static void test_torus(void)
{
    check_family("torus dims=8", 1);
    check_family("torus dims=5x4", 1);
    check_family("torus dims=2x3x4", 1);
    check_family("torus dims=6x6 ports=2", 1);
}

static void test_mesh_hyperx_2dfc(void)
{
    check_family("torus dims=4x3 mesh=1", 1);
    check_family("hyperx dims=4x3 T=0", 1);
    check_family("hyperx dims=3x3x2 T=2 K=2x1x1", 1);
    check_family("2dfc m1=4 m2=3", 1);
}

static void test_fattree(void)
{
    check_family("fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1", 1);
    check_family("fattree radix=8 leaves=6 hosts_per_leaf=4 spines=4", 1);
    check_family("fattree levels=3 radix=8 oversub=1:1,2:1", 1);
    check_family("fattree levels=3 radix=8 pods=3 leaves_per_pod=2 hosts_per_leaf=2 aggs=2 cores=2", 1);
}

static void test_dragonflies(void)
{
    check_family("dragonfly p=2 a=4 h=2", 0);
    check_family("dragonfly p=1 a=3 h=2 g=4 arrangement=circulant", 0);
    check_family("dragonfly p=1 a=4 h=2 g=3 arrangement=relative", 0);
    check_family("dragonflyplus p=2 leaves=3 spines=2 h=2", 0);
    check_family("dragonflyplus p=1 leaves=2 spines=3 h=1 g=3 trunk=1", 0);
}

/* Valiant paths cross a Dragonfly+ group from spine to spine through a leaf: from a spine
 * not holding the needed global link, every leaf is listed. */
static void test_dragonflyplus_spine_to_spine(void)
{
    topology *t = build("dragonflyplus p=1 leaves=3 spines=2 h=2 g=5");
    CU_ASSERT_FATAL(t != NULL);
    topo_hop hops[8];
    /* 15 hosts (3 per group), then group 0's leaves H..H+2 and spines H+3, H+4; host 3
     * is in group 1 */
    int32_t H = t->nhosts, holder = -1, other = -1;
    CU_ASSERT_EQUAL(H, 15);
    for (int32_t s = H + 3; s <= H + 4; s++) {
        int n = topo_next_hops(t, s, 3, hops, 8);
        if (n == 1 && t->links[hops[0].link].cls == LINK_GLOBAL)
            holder = s;
        else if (n == 3)
            other = s;
    }
    CU_ASSERT(holder >= 0 && other >= 0 && holder != other);
    topo_free(t);
}

static void test_refusals(void)
{
    topology *k = build("kautz d=2 k=2"), *hm = build("hammingmesh a=2 x=2");
    topology *tor = build("torus dims=4x4");
    CU_ASSERT_FATAL(k && hm && tor);
    topo_hop hops[8];
    CU_ASSERT_EQUAL(topo_next_hops(k, 0, 3, hops, 8), -1);
    CU_ASSERT_EQUAL(topo_next_hops(hm, 0, 3, hops, 8), -1);
    CU_ASSERT_EQUAL(topo_next_hops(tor, 0, 5, hops, 2), 2); /* two dimensions differ */
    CU_ASSERT_EQUAL(topo_next_hops(tor, 0, 5, hops, 1), -1);
    CU_ASSERT_EQUAL(topo_max_degree(tor), 4);
    topo_free(k);
    topo_free(hm);
    topo_free(tor);
}

/* ---- failed links --------------------------------------------------------------------- */

/* Remaining links out of `at` that begin a minimal path to host dst (dist from testutil). */
static int expected_hops(const topology *t, int32_t at, int32_t dst, const int64_t *dist, int gf)
{
    int n = 0;
    if (dist[at] == INT64_MAX)
        return 0;
    for (int64_t k = t->inc_first[at]; k < t->inc_first[at + 1]; k++) {
        int64_t l = t->inc_link[k];
        int32_t v = t->inc_node[k];
        const topo_link *x = &t->links[l];
        if (topo_link_failed(t, l) || (x->sharing == LINK_ONE_WAY && x->a != at) ||
            dist[v] == INT64_MAX || (!t->direct && topo_is_host(t, v) && v != dst))
            continue;
        n += dist[v] + test_link_weight(t, l, gf) == dist[at];
    }
    return n;
}

/* Checks topo_next_hops at `at` toward dst; 0 when it lists exactly the expected hops. */
static int check_fault_node(const topology *t, int32_t at, int32_t dst, const int64_t *dist,
                            int gf, topo_hop *hops, int max)
{
    int n = topo_next_hops(t, at, dst, hops, max);
    if (n != expected_hops(t, at, dst, dist, gf))
        return -1;
    for (int i = 0; i < n; i++) {
        const topo_link *l = &t->links[hops[i].link];
        int32_t head = topo_hop_head(t, hops[i]);
        if ((hops[i].reverse ? l->b : l->a) != at || topo_link_failed(t, hops[i].link))
            return -2;
        if (dist[head] == INT64_MAX ||
            dist[head] + test_link_weight(t, hops[i].link, gf) != dist[at])
            return -3;
        for (int j = 0; j < i; j++)
            if (hops[j].link == hops[i].link && hops[j].reverse == hops[i].reverse)
                return -4; /* listed twice */
    }
    return 0;
}

/* Every node and destination host of t; the number of nodes where the check failed. */
static int64_t fault_failures(const topology *t, int gf, const char *spec)
{
    int32_t N = topo_nnodes(t);
    int max = topo_max_degree(t);
    int64_t *dist = xmalloc((size_t)N * sizeof *dist), failures = 0;
    topo_hop *hops = xmalloc((size_t)max * sizeof *hops);
    for (int32_t d = 0; d < t->nhosts; d++) {
        test_remaining_distances(t, d, gf, dist);
        for (int32_t at = 0; at < N; at++) {
            if (at == d)
                continue;
            int rc = check_fault_node(t, at, d, dist, gf, hops, max);
            if (rc != 0 && failures++ < 3)
                fprintf(stderr, "%s: node %d -> h%d: check %d failed\n", spec, at, d, rc);
        }
    }
    free(dist);
    free(hops);
    return failures;
}

/* Following hops[0] from every host reaches every host it is connected to. */
static int walks_arrive(const topology *t)
{
    int max = topo_max_degree(t);
    topo_hop *buf = xmalloc((size_t)max * sizeof *buf);
    int ok = 1;
    for (int32_t s = 0; s < t->nhosts && ok; s++)
        for (int32_t d = 0; d < t->nhosts && ok; d++)
            if (topo_hosts_connected(t, s, d))
                ok = walk_length(t, s, d, buf, max) >= 0;
    free(buf);
    return ok;
}

static void check_faulty(const char *spec, int gf)
{
    topology *t = build(spec);
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT_FATAL(t->faults != NULL && t->next_hops != NULL);
    CU_ASSERT_EQUAL(fault_failures(t, gf, spec), 0);
    CU_ASSERT(walks_arrive(t));
    topo_free(t);
}

static void test_faulty_networks(void)
{
    check_faulty("torus dims=4x4 fail_links=h0-h1", 0);
    check_faulty("torus dims=5x4 fail_links=random:4 fault_seed=3", 0);
    check_faulty("torus dims=6 mesh=1 fail_links=l2", 0); /* cut in two */
    check_faulty("hyperx dims=4x3 T=0 fail_links=random:5", 0);
    check_faulty("hyperx dims=4x4 T=2 fail_links=random:8 degrade_links=l40:0.5", 0);
    check_faulty("2dfc m1=4 m2=3 fail_links=random:3", 0);
    check_faulty("fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:6", 0);
    check_faulty("fattree leaves=4 hosts_per_leaf=2 spines=2 fail_links=host:1", 0);
    check_faulty("fattree levels=3 radix=8 oversub=1:1,2:1 fail_links=random:6", 0);
    check_faulty("dragonfly p=2 a=4 h=2 fail_links=global:30%", 1);
    check_faulty("dragonfly p=1 a=3 h=2 g=4 arrangement=circulant fail_links=random:4", 1);
    check_faulty("dragonflyplus p=2 leaves=3 spines=2 h=2 fail_links=random:4", 1);
}

/* Beyond the route table: rerouted by Dijkstra (faults.h), next hops all the same. */
static void test_faulty_dijkstra(void)
{
    topology *t = build("torus dims=24x24 fail_links=random:6");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(!topo_fault_table(t) && t->routing == TOPO_ROUTE_SHORTEST);
    int64_t *dist = xmalloc((size_t)t->nhosts * sizeof *dist), failures = 0;
    topo_hop hops[8];
    for (int32_t d = 0; d < t->nhosts; d += 37) {
        test_remaining_distances(t, d, 0, dist);
        for (int32_t at = 0; at < t->nhosts; at++)
            failures += at != d && check_fault_node(t, at, d, dist, 0, hops, 8) != 0;
    }
    CU_ASSERT_EQUAL(failures, 0);
    free(dist);
    topo_free(t);
    /* a small torus only degraded keeps its routes (in a table) and its own next hops */
    check_family("torus dims=4x4 degrade_links=l3:0.5", 1);
    t = build("torus dims=4x4 degrade_links=l3:0.5");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(t->faults != NULL && t->faults->hops_family == NULL);
    topo_free(t);
    /* only degraded, yet routed by Dijkstra: the families' hop order no longer holds */
    t = build("torus dims=24x24 degrade_links=random:6:0.5");
    CU_ASSERT_FATAL(t != NULL);
    CU_ASSERT(t->routing == TOPO_ROUTE_SHORTEST && t->next_hops != NULL);
    topo_free(t);
}

/* Planted bug: the family's next hops, which ignore failed links, fail the check. */
static void test_fault_check_catches_family_hops(void)
{
    static const char *const specs[][2] = {
        {"torus dims=4x4 fail_links=h0-h1", "0"},
        {"fattree leaves=4 hosts_per_leaf=4 spines=4 fail_links=s16-s20", "0"},
        {"dragonfly p=2 a=4 h=2 fail_links=global:1", "1"}};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        topology *t = build(specs[i][0]);
        CU_ASSERT_FATAL(t != NULL && t->faults && t->faults->hops_family);
        t->next_hops = t->faults->hops_family;
        CU_ASSERT(fault_failures(t, specs[i][1][0] == '1', "(planted)") > 0);
        topo_free(t);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"torus", test_torus},
        {"mesh, hyperx, 2dfc", test_mesh_hyperx_2dfc},
        {"fat trees", test_fattree},
        {"dragonfly and dragonfly+", test_dragonflies},
        {"dragonfly+ spine to spine", test_dragonflyplus_spine_to_spine},
        {"refusals and short buffers", test_refusals},
        {"failed links: minimal remaining hops", test_faulty_networks},
        {"failed links: Dijkstra rerouting", test_faulty_dijkstra},
        {"failed links: planted family hops caught", test_fault_check_catches_family_hops},
        {NULL, NULL},
    };
    test_add_suite("topo_next_hops", cases);
    return test_run_suites();
}
