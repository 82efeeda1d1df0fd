/* test_topology.c - topology generators: counts against the closed forms, routes valid,
 * complete and minimal (checked by an independent breadth-first search), family rules
 * (Dragonfly at most one global hop, Kautz one-way links, 2dfc degree and diameter),
 * closed-form routes equal to the SimGrid mirror, names, stats and the platform cache.
 * Route agreement with SimGrid itself is tests/test_sim_topo_routes.c. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "testutil.h"
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

static int64_t count_class(const topology *t, link_class c)
{
    int64_t n = 0;
    for (int64_t i = 0; i < t->nlinks; i++)
        n += t->links[i].cls == c;
    return n;
}

/* Hosts to use as sources: all of them, or an even sample of 48 for big topologies. */
static int32_t sample_host(const topology *t, int32_t i, int32_t *n)
{
    *n = t->nhosts <= 96 ? t->nhosts : 48;
    return t->nhosts <= 96 ? i : (int32_t)((int64_t)i * (t->nhosts - 1) / 47);
}

/* Breadth-first distances in links from node src over the link graph (one-way links only
 * forward; hosts are only end points unless the network is direct), using at most
 * max_global global links (-1: any). dist is nodes x (max_global + 1), -1 = unreachable;
 * returns the per-node minimum over global counts in best[]. */
static void bfs(const topology *t, int32_t src, int max_global, int32_t *best)
{
    int32_t N = topo_nnodes(t);
    int G = max_global < 0 ? 1 : max_global + 1;
    int32_t *dist = xmalloc((size_t)N * (size_t)G * sizeof *dist);
    int64_t *queue = xmalloc((size_t)N * (size_t)G * sizeof *queue);
    for (int64_t i = 0; i < (int64_t)N * G; i++)
        dist[i] = -1;
    int64_t head = 0, tail = 0;
    dist[(int64_t)src * G] = 0;
    queue[tail++] = (int64_t)src * G;
    while (head < tail) {
        int64_t st = queue[head++];
        int32_t v = (int32_t)(st / G);
        int g = (int)(st % G);
        if (v != src && topo_is_host(t, v) && !t->direct)
            continue; /* hosts do not forward */
        for (int64_t k = t->inc_first[v]; k < t->inc_first[v + 1]; k++) {
            const topo_link *l = &t->links[t->inc_link[k]];
            if (l->sharing == LINK_ONE_WAY && l->a != v)
                continue;
            int ng = g + (max_global >= 0 && l->cls == LINK_GLOBAL);
            if (ng >= G)
                continue;
            int64_t ns = (int64_t)t->inc_node[k] * G + ng;
            if (dist[ns] >= 0)
                continue;
            dist[ns] = dist[st] + 1;
            queue[tail++] = ns;
        }
    }
    for (int32_t v = 0; v < N; v++) {
        best[v] = -1;
        for (int g = 0; g < G; g++) {
            int32_t d = dist[(int64_t)v * G + g];
            if (d >= 0 && (best[v] < 0 || d < best[v]))
                best[v] = d;
        }
    }
    free(dist);
    free(queue);
}

/* The route is a chain of links from s to d, one-way links used forward only. */
static int route_is_valid(const topology *t, int32_t s, int32_t d, const topo_hop *hops, int n)
{
    int32_t at = s;
    for (int i = 0; i < n; i++) {
        const topo_link *l = &t->links[hops[i].link];
        int32_t from = hops[i].reverse ? l->b : l->a;
        if (from != at || (hops[i].reverse && l->sharing == LINK_ONE_WAY))
            return 0;
        at = topo_hop_head(t, hops[i]);
    }
    return at == d;
}

typedef struct route_check {
    int64_t invalid, not_minimal, max_global_hops, max_len;
} route_check;

/* Every (sampled source, any destination) route: valid and as short as the BFS allows with
 * at most max_global global links (-1: any). */
static route_check check_routes(topology *t, int max_global)
{
    route_check rc = {0, 0, 0, 0};
    int32_t *best = xmalloc((size_t)topo_nnodes(t) * sizeof *best);
    int32_t nsrc;
    sample_host(t, 0, &nsrc);
    for (int32_t i = 0; i < nsrc; i++) {
        int32_t s = sample_host(t, i, &nsrc);
        bfs(t, s, max_global, best);
        for (int32_t d = 0; d < t->nhosts; d++) {
            topo_hop hops[TOPO_MAX_HOPS];
            int n = topo_route(t, s, d, hops, TOPO_MAX_HOPS);
            if (n < 0 || !route_is_valid(t, s, d, hops, n)) {
                rc.invalid++;
                continue;
            }
            if (s != d && n != best[d])
                rc.not_minimal++;
            int64_t g = 0;
            for (int k = 0; k < n; k++)
                g += t->links[hops[k].link].cls == LINK_GLOBAL;
            if (g > rc.max_global_hops)
                rc.max_global_hops = g;
            if (n > rc.max_len)
                rc.max_len = n;
        }
    }
    free(best);
    return rc;
}

/* The closed-form route_fn returns exactly the generic (SimGrid-mirroring) route. */
static int64_t closed_form_differences(topology *t)
{
    int64_t diff = 0;
    int32_t nsrc;
    sample_host(t, 0, &nsrc);
    for (int32_t i = 0; i < nsrc; i++) {
        int32_t s = sample_host(t, i, &nsrc);
        for (int32_t d = 0; d < t->nhosts; d++) {
            topo_hop a[TOPO_MAX_HOPS], b[TOPO_MAX_HOPS];
            int na = topo_route(t, s, d, a, TOPO_MAX_HOPS);
            int nb = topo_route_generic(t, s, d, b, TOPO_MAX_HOPS);
            int same = na == nb;
            for (int k = 0; same && k < na; k++)
                same = a[k].link == b[k].link && a[k].reverse == b[k].reverse;
            diff += !same;
        }
    }
    return diff;
}

/* ---- Dragonfly ------------------------------------------------------------------------- */

static void test_dragonfly_counts_and_routes(void)
{
    static const char *const arr[] = {"absolute", "relative", "circulant"};
    for (int k = 0; k < 3; k++) {
        char spec[128];
        snprintf(spec, sizeof spec, "dragonfly p=2 a=4 h=2 arrangement=%s", arr[k]);
        topology *t = build(spec);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        int32_t g = 4 * 2 + 1;
        CU_ASSERT_EQUAL(t->nhosts, 2 * 4 * g);
        CU_ASSERT_EQUAL(t->nswitches, 4 * g);
        CU_ASSERT_EQUAL(t->ngroups, g);
        CU_ASSERT_EQUAL(count_class(t, LINK_HOST), t->nhosts);
        CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), g * 4 * 3 / 2);
        CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), g * (g - 1) / 2);
        /* every router carries h global links, every group pair exactly one */
        int32_t *per_router = xcalloc((size_t)t->nswitches, sizeof *per_router);
        int32_t *pair = xcalloc((size_t)(g * g), sizeof *pair);
        for (int64_t i = 0; i < t->nlinks; i++) {
            const topo_link *l = &t->links[i];
            if (l->cls != LINK_GLOBAL)
                continue;
            per_router[l->a - t->nhosts]++;
            per_router[l->b - t->nhosts]++;
            pair[t->group[l->a] * g + t->group[l->b]]++;
            pair[t->group[l->b] * g + t->group[l->a]]++;
        }
        for (int32_t r = 0; r < t->nswitches; r++)
            CU_ASSERT_EQUAL(per_router[r], 2);
        for (int32_t i = 0; i < g; i++)
            for (int32_t j = 0; j < g; j++)
                CU_ASSERT_EQUAL(pair[i * g + j], i == j ? 0 : 1);
        free(per_router);
        free(pair);
        /* minimal among routes with at most one global hop, and never more */
        route_check rc = check_routes(t, 1);
        CU_ASSERT_EQUAL(rc.invalid, 0);
        CU_ASSERT_EQUAL(rc.not_minimal, 0);
        CU_ASSERT_EQUAL(rc.max_global_hops, 1);
        CU_ASSERT_EQUAL(rc.max_len, 5); /* host, local, global, local, host */
        topo_free(t);
    }
}

/* The pitfall: plain shortest paths would take two global hops for some pairs. */
static void test_dragonfly_two_global_shortcut_avoided(void)
{
    topology *t = build("dragonfly p=1 a=4 h=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int32_t *best = xmalloc((size_t)topo_nnodes(t) * sizeof *best);
    int64_t shorter_with_two_globals = 0;
    for (int32_t s = 0; s < t->nhosts; s++) {
        bfs(t, s, -1, best);
        for (int32_t d = 0; d < t->nhosts; d++) {
            topo_hop hops[TOPO_MAX_HOPS];
            int n = topo_route(t, s, d, hops, TOPO_MAX_HOPS);
            shorter_with_two_globals += n > best[d];
        }
    }
    CU_ASSERT(shorter_with_two_globals > 0); /* such pairs exist, and we do not shortcut */
    free(best);
    route_check rc = check_routes(t, 1);
    CU_ASSERT_EQUAL(rc.max_global_hops, 1);
    CU_ASSERT_EQUAL(rc.not_minimal, 0);
    topo_free(t);
}

static void test_dragonfly_parallel_links_and_trunk(void)
{
    topology *t = build("dragonfly p=1 a=4 h=2 g=5"); /* 8 ports, 4 other groups: 2 each */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 5 * 4 / 2 * 2);
    route_check rc = check_routes(t, 1);
    CU_ASSERT_EQUAL(rc.invalid, 0);
    CU_ASSERT_EQUAL(rc.max_global_hops, 1);
    topo_free(t);
    t = build("dragonfly p=1 a=4 h=2 g=5 trunk=1 global_bw=100Gbps");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 5 * 4 / 2);
    for (int64_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == LINK_GLOBAL)
            CU_ASSERT_DOUBLE_EQUAL(t->links[i].bw, 2 * 12.5e9, 1);
    topo_free(t);
}

/* ---- Dragonfly+ ------------------------------------------------------------------------- */

static void test_dragonflyplus(void)
{
    topology *t = build("dragonflyplus p=2 leaves=3 spines=2 h=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int32_t g = 2 * 2 + 1;
    CU_ASSERT_EQUAL(t->nhosts, 2 * 3 * g);
    CU_ASSERT_EQUAL(t->nswitches, (3 + 2) * g);
    CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), 3 * 2 * g);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), g * (g - 1) / 2);
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid, 0);
    CU_ASSERT_EQUAL(rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_global_hops, 1);
    CU_ASSERT_EQUAL(rc.max_len, 5); /* host, up, global, down, host */
    /* inside a group, leaf l1 -> spine (l1 + l2) mod spines -> leaf l2 (documented ECMP) */
    topo_hop hops[TOPO_MAX_HOPS];
    int n = topo_route(t, 0, 2 * 2, hops, TOPO_MAX_HOPS); /* leaf 0 -> leaf 2 of group 0 */
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(topo_hop_head(t, hops[1]), t->nhosts + 3 + (0 + 2) % 2);
    topo_free(t);
}

/* ---- fat tree ------------------------------------------------------------------------- */

/* Level of a node: hosts 0, leaves 1, spines / aggregation 2, cores 3. */
static int ft_level(const topology *t, int32_t v, int32_t leaves, int32_t mid)
{
    if (topo_is_host(t, v))
        return 0;
    v -= t->nhosts;
    return v < leaves ? 1 : v < leaves + mid ? 2 : 3;
}

static void check_up_down(topology *t, int32_t leaves, int32_t mid)
{
    int64_t bad = 0;
    for (int32_t s = 0; s < t->nhosts; s += 3)
        for (int32_t d = 0; d < t->nhosts; d++) {
            topo_hop hops[TOPO_MAX_HOPS];
            int n = topo_route(t, s, d, hops, TOPO_MAX_HOPS), down = 0;
            int32_t at = s;
            for (int k = 0; k < n; k++) {
                int32_t next = topo_hop_head(t, hops[k]);
                int rising = ft_level(t, next, leaves, mid) > ft_level(t, at, leaves, mid);
                bad += rising && down;
                down |= !rising;
                at = next;
            }
        }
    CU_ASSERT_EQUAL(bad, 0);
}

static void test_fattree(void)
{
    topology *t = build("fattree radix=8"); /* 2 levels: 8 leaves x 4 hosts, 4 spines */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 32);
    CU_ASSERT_EQUAL(t->nswitches, 12);
    CU_ASSERT_EQUAL(t->nlinks, 32 + 8 * 4);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 0); /* 1:1: the whole tree is the group */
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    check_up_down(t, 8, 4);
    topo_free(t);

    t = build("fattree levels=3 radix=8"); /* k-ary 3-tree: k^3/4 hosts, 5k^2/4 switches */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 8 * 8 * 8 / 4);
    CU_ASSERT_EQUAL(t->nswitches, 5 * 8 * 8 / 4);
    CU_ASSERT_EQUAL(t->nlinks, 128 + 32 * 4 + 32 * 4);
    rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_len, 6);
    check_up_down(t, 32, 32);
    topo_free(t);

    t = build("fattree levels=3 radix=12 oversub=1:1,2:1"); /* pods are the groups */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->ngroups, 12); /* pods = radix / core multiplicity */
    int64_t global = count_class(t, LINK_GLOBAL), local = count_class(t, LINK_LOCAL);
    CU_ASSERT(global > 0 && local > 0);
    rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_global_hops, 2); /* agg -> core -> agg */
    topo_free(t);

    t = build("fattree radix=12 oversub=2:1 global_bw=100Gbps"); /* tapered leaves: 8 down, 4 up */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 12 * 8);
    CU_ASSERT_EQUAL(t->ngroups, 12);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 12 * 4);
    topo_free(t);
}

/* ---- torus and mesh --------------------------------------------------------------------- */

static void test_torus(void)
{
    topology *t = build("torus dims=4x4x3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 48);
    CU_ASSERT_EQUAL(t->nlinks, 48 * 3);
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_len, 2 + 2 + 1);
    topo_free(t);

    t = build("torus dims=4x3 mesh=1 ports=2 local_bw=100Gbps");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nlinks, 3 * 3 + 4 * 2);
    CU_ASSERT_DOUBLE_EQUAL(t->links[0].bw, 2 * 12.5e9, 1);
    rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_len, 3 + 2);
    CU_ASSERT_EQUAL(closed_form_differences(t), 0);
    topo_free(t);

    t = build("torus dims=4x4 group=2x2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->ngroups, 4);
    CU_ASSERT_EQUAL(t->group[0], 0);
    CU_ASSERT_EQUAL(t->group[2], 1);
    CU_ASSERT_EQUAL(t->group[8], 2);
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 16); /* every other link leaves its block */
    topo_free(t);
}

/* ---- HyperX, 2dfc ----------------------------------------------------------------------- */

static void test_hyperx(void)
{
    topology *t = build("hyperx dims=4x3 T=2 K=2x1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nswitches, 12);
    CU_ASSERT_EQUAL(t->nhosts, 24);
    CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), 3 * (4 * 3 / 2));  /* dimension 0 lines */
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 4 * (3 * 2 / 2)); /* dimension 1 lines */
    for (int64_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == LINK_LOCAL)
            CU_ASSERT_EQUAL(t->links[i].mult, 2);
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_len, 4);
    CU_ASSERT_EQUAL(closed_form_differences(t), 0);
    topo_free(t);

    t = build("hyperx dims=3x4x2 T=0"); /* direct */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 24);
    CU_ASSERT_EQUAL(t->nswitches, 0);
    topo_stats st;
    cs_error err;
    CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
    CU_ASSERT_EQUAL(st.min_degree, 2 + 3 + 1);
    CU_ASSERT_EQUAL(st.max_degree, 2 + 3 + 1);
    CU_ASSERT_EQUAL(st.diameter, 3);
    CU_ASSERT_EQUAL(closed_form_differences(t), 0);
    topo_free(t);
}

static void test_2dfc(void)
{
    for (int m = 3; m <= 6; m++) {
        char spec[64];
        snprintf(spec, sizeof spec, "2dfc m1=%d m2=%d", m, m);
        topology *t = build(spec);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        topo_stats st;
        cs_error err;
        CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
        CU_ASSERT_EQUAL(st.hosts, m * m);
        CU_ASSERT_EQUAL(st.min_degree, 2 * m - 2);
        CU_ASSERT_EQUAL(st.max_degree, 2 * m - 2);
        CU_ASSERT_EQUAL(st.diameter, 2);
        CU_ASSERT_EQUAL(t->nlinks, (int64_t)m * m * (2 * m - 2) / 2);
        CU_ASSERT_EQUAL(t->links[0].sharing, LINK_SHARED); /* the thesis' default */
        CU_ASSERT_EQUAL(closed_form_differences(t), 0);
        route_check rc = check_routes(t, -1);
        CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
        topo_free(t);
    }
    /* Table 2.1 of the dissertation: the 3 x 3 2dfc has 9 nodes, degree 4, 18 edges */
    topology *t = build("2dfc m1=3 m2=3");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 9);
    CU_ASSERT_EQUAL(t->nlinks, 18);
    topo_free(t);
    t = build("2dfc m1=4 m2=3 T=2 sharing=full"); /* m2 x m1: degree m1 + m2 - 2 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    topo_stats st;
    cs_error err;
    CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
    CU_ASSERT_EQUAL(st.min_degree, 4 + 3 - 2);
    CU_ASSERT_EQUAL(t->ngroups, 3); /* rows */
    CU_ASSERT_EQUAL(t->links[t->nlinks - 1].sharing, LINK_FULL_DUPLEX);
    CU_ASSERT_EQUAL(closed_form_differences(t), 0);
    topo_free(t);
}

/* ---- Kautz ---------------------------------------------------------------------------- */

static void test_kautz_d2(void)
{
    for (int d = 2; d <= 5; d++) {
        char spec[64];
        snprintf(spec, sizeof spec, "kautz d=%d k=2", d);
        topology *t = build(spec);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT_EQUAL(t->nhosts, d * (d + 1));
        CU_ASSERT_EQUAL(t->nlinks, d * d * (d + 1));
        for (int64_t i = 0; i < t->nlinks; i++)
            CU_ASSERT_EQUAL(t->links[i].sharing, LINK_ONE_WAY);
        topo_stats st;
        cs_error err;
        CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
        CU_ASSERT_EQUAL(st.diameter, 2);
        CU_ASSERT_EQUAL(st.min_degree, d); /* out-degree */
        CU_ASSERT_EQUAL(st.max_degree, d);
        route_check rc = check_routes(t, -1); /* also: no link used backwards */
        CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
        CU_ASSERT_EQUAL(closed_form_differences(t), 0);
        topo_free(t);
    }
}

static void test_kautz_vectors(void)
{
    /* reference/kautz-2dfc.md 1.1: the shortest path 10 -> 32 is 10 -> 03 -> 32 (d >= 3);
     * rank of xy = d*x + y - [y > x] */
    int d = 3;
    topology *t = build("kautz d=3 k=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
#define RANK(x, y) (d * (x) + (y) - ((y) > (x)))
    topo_hop hops[TOPO_MAX_HOPS];
    int n = topo_route(t, RANK(1, 0), RANK(3, 2), hops, TOPO_MAX_HOPS);
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(topo_hop_head(t, hops[0]), RANK(0, 3));
    CU_ASSERT_EQUAL(topo_hop_head(t, hops[1]), RANK(3, 2));
    /* the partners xy and yx are linked by two separate one-way links */
    topo_hop there, back;
    CU_ASSERT_EQUAL(topo_hop_between(t, RANK(1, 2), RANK(2, 1), &there), 0);
    CU_ASSERT_EQUAL(topo_hop_between(t, RANK(2, 1), RANK(1, 2), &back), 0);
    CU_ASSERT_NOT_EQUAL(there.link, back.link);
    CU_ASSERT_EQUAL(there.reverse + back.reverse, 0);
    /* 10 -> 12 is not a link (the dissertation's typo, reference 1.1) */
    CU_ASSERT_EQUAL(topo_hop_between(t, RANK(1, 0), RANK(1, 2), &there), -1);
#undef RANK
    topo_free(t);

    t = build("kautz d=2 k=3 T=2"); /* K(2,3): 12 vertices, 24 links, diameter 3 */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nswitches, 12);
    CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), 24);
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    CU_ASSERT_EQUAL(rc.max_len, 3 + 2);
    CU_ASSERT_EQUAL(closed_form_differences(t), 0);
    topo_free(t);
}

/* ---- HammingMesh ------------------------------------------------------------------------ */

static void test_hammingmesh(void)
{
    topology *t = build("hammingmesh a=2 x=3 y=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 6 * 4);
    CU_ASSERT_EQUAL(t->ngroups, 6);
    CU_ASSERT_EQUAL(t->nswitches, 4 + 6);
    CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), 6 * 4);     /* 2x2 mesh per board */
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 24 + 24);  /* every node: row + column */
    route_check rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    topo_free(t);

    t = build("hammingmesh a=4 b=2 x=2 y=3"); /* edge nodes only reach the trees */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(t->nhosts, 8 * 6);
    CU_ASSERT_EQUAL(count_class(t, LINK_LOCAL), 6 * (3 * 2 + 4 * 1));
    CU_ASSERT_EQUAL(count_class(t, LINK_GLOBAL), 6 * 2 * 2 + 8 * 3 * 2);
    rc = check_routes(t, -1);
    CU_ASSERT_EQUAL(rc.invalid + rc.not_minimal, 0);
    topo_free(t);

    t = build("hammingmesh a=1 x=4"); /* 1x1 boards: both ports of a node on one switch */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int64_t i = 0; i < t->nlinks; i++)
        CU_ASSERT_EQUAL(t->links[i].mult, 2);
    topo_free(t);
}

/* ---- link parameters, names, stats ------------------------------------------------------- */

static void test_link_parameters(void)
{
    topology *t = build("dragonfly p=2 a=2 h=1 host_bw=100Gbps nic_ports=4 local_lat=1us "
                        "router_lat=300ns intra_bw=50GBps intra_lat=1us sharing=shared");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const topo_link *host = &t->links[t->host_link[0]];
    CU_ASSERT_DOUBLE_EQUAL(host->bw, 4 * 12.5e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(host->lat, 100e-9 + 150e-9, 1e-15); /* half a router per end */
    for (int64_t i = 0; i < t->nlinks; i++)
        if (t->links[i].cls == LINK_LOCAL)
            CU_ASSERT_DOUBLE_EQUAL(t->links[i].lat, 1e-6 + 300e-9, 1e-15);
    CU_ASSERT_EQUAL(host->sharing, LINK_SHARED);
    CU_ASSERT_DOUBLE_EQUAL(t->intra_bw, 50e9, 1);
    CU_ASSERT_DOUBLE_EQUAL(t->intra_lat, 1e-6, 1e-15);
    /* a route crossing n switches carries n router latencies */
    topo_hop hops[TOPO_MAX_HOPS];
    int n = topo_route(t, 0, t->nhosts - 1, hops, TOPO_MAX_HOPS);
    double lat = 0;
    for (int k = 0; k < n; k++)
        lat += t->links[hops[k].link].lat;
    double bare = 0;
    for (int k = 0; k < n; k++) {
        const topo_link *l = &t->links[hops[k].link];
        bare += l->cls == LINK_HOST ? 100e-9 : l->cls == LINK_LOCAL ? 1e-6 : 100e-9;
    }
    CU_ASSERT_DOUBLE_EQUAL(lat - bare, (n - 1) * 300e-9, 1e-15);
    topo_free(t);
}

static void test_names(void)
{
    char buf[64];
    topology *t = build("hyperx dims=2x2 T=1");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    topo_sg_link_name(t, (topo_hop){5, 0}, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "l5_UP");
    topo_sg_link_name(t, (topo_hop){5, 1}, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "l5_DOWN");
    topo_loopback_link_name(t, 3, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "lo3");
    topo_host_name(3, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "h3");
    topo_free(t);
    t = build("2dfc m1=2 m2=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    topo_sg_link_name(t, (topo_hop){1, 1}, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "l1"); /* shared: one SimGrid link */
    topo_loopback_link_name(t, 0, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "__loopback__");
    topo_free(t);
    t = build("torus dims=3x2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    topo_sg_link_name(t, (topo_hop){2 * 2 + 0, 1}, buf, sizeof buf); /* node 2, dim 0: 2 -> 0 */
    CU_ASSERT_STRING_EQUAL(buf, "torus_link_from_2_to_0_DOWN");
    topo_loopback_link_name(t, 4, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "torus_link_4_loopback");
    topo_free(t);
}

static void test_stats(void)
{
    topology *t = build("torus dims=4x4 local_bw=100Gbps");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    topo_stats st;
    cs_error err;
    CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
    CU_ASSERT_EQUAL(st.diameter, 4);
    CU_ASSERT_EQUAL(st.min_degree, 4);
    CU_ASSERT(st.diameter_exact);
    /* halves = rows 0-1 and 2-3: 4 links between rows 1 and 2, 4 wrapping ones */
    CU_ASSERT_DOUBLE_EQUAL(st.bisection_Bps, 8 * 12.5e9, 1);
    topo_free(t);
    t = build("dragonfly p=2 a=4 h=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
    CU_ASSERT_EQUAL(st.diameter, 5);
    CU_ASSERT_EQUAL(st.links[LINK_GLOBAL], 36);
    CU_ASSERT_EQUAL(st.min_degree, 3 + 2);
    topo_free(t);
}

/* ---- platform cache ----------------------------------------------------------------------- */

static void test_platform_cache(void)
{
    char dir[] = "/tmp/collsim-cache-test-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char sub[512];
    snprintf(sub, sizeof sub, "%s/a/b", dir);
    setenv("COLLSIM_CACHE_DIR", sub, 1);
    topology *t = build("dragonfly p=1 a=2 h=1 g=3");
    topology *same = build("dragonfly h=1 g=3 a=2 p=1"); /* same keys, another order */
    topology *other = build("dragonfly p=1 a=2 h=1 g=2");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(same);
    CU_ASSERT_PTR_NOT_NULL_FATAL(other);
    char p1[1024], p2[1024], p3[1024];
    cs_error err;
    CU_ASSERT_EQUAL(topo_platform_path(t, p1, sizeof p1, &err), 0);
    CU_ASSERT(strncmp(p1, sub, strlen(sub)) == 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(p1, "/dragonfly-"));
    FILE *f = fopen(p1, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[256] = "";
    while (fgets(line, sizeof line, f) && !strstr(line, "<platform"))
        ;
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "version=\"4.1\""));
    f = fopen(p1, "w"); /* a cached file is reused, not rewritten */
    fputs("marker\n", f);
    fclose(f);
    CU_ASSERT_EQUAL(topo_platform_path(same, p2, sizeof p2, &err), 0);
    CU_ASSERT_STRING_EQUAL(p1, p2);
    f = fopen(p2, "r");
    CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
    fclose(f);
    CU_ASSERT_STRING_EQUAL(line, "marker\n");
    CU_ASSERT_EQUAL(topo_platform_path(other, p3, sizeof p3, &err), 0);
    CU_ASSERT_STRING_NOT_EQUAL(p1, p3);
    unlink(p1);
    unlink(p3);
    snprintf(line, sizeof line, "%s/a", dir);
    rmdir(sub);
    rmdir(line);
    rmdir(dir);
    unsetenv("COLLSIM_CACHE_DIR");
    topo_free(t);
    topo_free(same);
    topo_free(other);
}

/* ---- connectivity and route lengths ------------------------------------------------------ */

/* Two switches with one host each, routed by shortest paths; `links` one-way links
 * s0 -> s1 (bit 0) and s1 -> s0 (bit 1). */
static int finish_two_switches(unsigned links, topology **out, cs_error *err)
{
    topology *t = topo_new("test", 2, 2);
    topo_attach_host(t, 0, 2, LINK_FULL_DUPLEX, 1e9, 0);
    topo_attach_host(t, 1, 3, LINK_FULL_DUPLEX, 1e9, 0);
    if (links & 1)
        topo_add_link(t, 2, 3, LINK_LOCAL, LINK_ONE_WAY, 1e9, 0);
    if (links & 2)
        topo_add_link(t, 3, 2, LINK_LOCAL, LINK_ONE_WAY, 1e9, 0);
    int rc = topo_finish(t, err);
    *out = t;
    return rc;
}

static void test_disconnected_refused(void)
{
    topology *t;
    cs_error err;
    CU_ASSERT_EQUAL(finish_two_switches(0, &t, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not connected: no path from host h0 to host h1"));
    topo_free(t);
    CU_ASSERT_EQUAL(finish_two_switches(1, &t, &err), -1); /* one way only */
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not connected: no path from host h1 to host h0"));
    topo_free(t);
    CU_ASSERT_EQUAL_FATAL(finish_two_switches(3, &t, &err), 0);
    topo_hop hops[8];
    CU_ASSERT_EQUAL(topo_route(t, 1, 0, hops, 8), 3);
    CU_ASSERT(t->max_route_hops >= 3);
    topo_free(t);
}

/* Routes longer than TOPO_MAX_HOPS: a big ring and a long mesh, with buffers of
 * t->max_route_hops (the bound topo_finish computes). */
static void test_long_routes(void)
{
    const char *specs[] = {"torus dims=200", "torus dims=90 mesh=1"};
    const int want[] = {100, 89};
    for (int i = 0; i < 2; i++) {
        topology *t = build(specs[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        CU_ASSERT(t->max_route_hops >= want[i]);
        topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
        int n = topo_route(t, 0, want[i], hops, t->max_route_hops);
        CU_ASSERT_EQUAL(n, want[i]);
        for (int k = 0; k + 1 < n; k++) /* a path: each hop starts where the last ended */
            CU_ASSERT_EQUAL(topo_hop_head(t, hops[k]),
                            hops[k + 1].reverse ? t->links[hops[k + 1].link].b
                                                : t->links[hops[k + 1].link].a);
        CU_ASSERT_EQUAL(topo_route(t, 0, want[i], hops, want[i] - 1), -1); /* too small */
        topo_stats st;
        cs_error err;
        CU_ASSERT_EQUAL(topo_compute_stats(t, &st, &err), 0);
        CU_ASSERT_EQUAL(st.diameter, want[i]);
        free(hops);
        topo_free(t);
    }
}

/* ---- bad input ------------------------------------------------------------------------------ */

static void expect_error(const char *spec, const char *fragment)
{
    topology *t = NULL;
    cs_error err;
    err.msg[0] = '\0';
    int rc = topo_build_spec(spec, &t, &err);
    CU_ASSERT_EQUAL(rc, -1);
    CU_ASSERT_PTR_NULL(t);
    if (!strstr(err.msg, fragment))
        fprintf(stderr, "\n'%s': message '%s' lacks '%s'\n", spec, err.msg, fragment);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, fragment));
    topo_free(t);
    /* the size, known without building, fails with the same message */
    topo_size size;
    cs_error size_err;
    CU_ASSERT_EQUAL(topo_size_spec(spec, &size, &size_err), -1);
    if (strcmp(size_err.msg, err.msg) != 0)
        fprintf(stderr, "\n'%s': size error '%s' differs from '%s'\n", spec, size_err.msg, err.msg);
    CU_ASSERT_STRING_EQUAL(size_err.msg, err.msg);
}

/* topo_size_spec gives exactly the counts of the built topology, for every family and the
 * keys that change the counts (mesh, trunk, T, levels, a=1 boards, presets). */
static void test_sizes_before_building(void)
{
    static const char *const specs[] = {
        "torus dims=4x4", "torus dims=2x3x4", "torus dims=5x3 mesh=1", "torus dims=4x4 ports=2",
        "dragonfly", "dragonfly p=2 a=4 h=2 g=5", "dragonfly p=1 a=4 h=4 g=5 trunk=1",
        "dragonfly p=1 a=3 h=3 g=4 arrangement=circulant", "dragonfly a=1 h=0 g=1",
        "dragonflyplus", "dragonflyplus p=2 leaves=3 spines=2 h=3 g=4",
        "fattree", "fattree radix=8 oversub=3:1", "fattree levels=3 radix=8",
        "fattree levels=3 radix=16 oversub=1:1,3:1", "hyperx dims=4x4", "hyperx dims=3x4x2 T=0",
        "hyperx dims=4x4 T=2 K=2x1", "kautz d=2 k=3", "kautz d=3 k=2 T=2", "2dfc m1=5 m2=3",
        "2dfc m1=4 m2=4 T=2", "hammingmesh a=2 x=3", "hammingmesh a=1 b=3 x=2 y=3",
        "hammingmesh a=4 b=2 x=1 y=2", "platforms/kautz-16-2.yaml", "platforms/2dfc-4x4.yaml",
        NULL};
    for (const char *const *spec = specs; *spec; spec++) {
        topology *t;
        topo_size s;
        cs_error err;
        CU_ASSERT_EQUAL_FATAL(topo_build_spec(*spec, &t, &err), 0);
        CU_ASSERT_EQUAL_FATAL(topo_size_spec(*spec, &s, &err), 0);
        if (s.hosts != t->nhosts || s.switches != t->nswitches || s.links != (double)t->nlinks)
            fprintf(stderr, "\n'%s': size %.0f hosts %.0f switches %.0f links, built %d %d %lld\n",
                    *spec, s.hosts, s.switches, s.links, t->nhosts, t->nswitches,
                    (long long)t->nlinks);
        CU_ASSERT_EQUAL(s.hosts, t->nhosts);
        CU_ASSERT_EQUAL(s.switches, t->nswitches);
        CU_ASSERT_EQUAL(s.links, (double)t->nlinks);
        CU_ASSERT_EQUAL(s.extra_bytes > 0, t->fam_links != NULL);
        topo_free(t);
    }
    /* a topology far too large to build is sized at once */
    topo_size s;
    cs_error err;
    CU_ASSERT_EQUAL(topo_size_spec("hyperx dims=8192x8192 T=0", &s, &err), 0);
    CU_ASSERT_EQUAL(s.links, 8192.0 * 8192 * 8191);
}

static void test_bad_parameters(void)
{
    expect_error("dragonfy p=2", "unknown topology family 'dragonfy' (allowed: dragonfly,");
    expect_error("dragonfly p=2 hh=3", "unknown key 'hh' (allowed: p, a, h, g,");
    expect_error("dragonfly p=two", "dragonfly: p:");
    expect_error("dragonfly p=0", "dragonfly: p:");
    expect_error("dragonfly p", "expected key=value, got 'p'");
    expect_error("dragonfly a=4 h=1 g=9", "g=9 groups need a*h >= g-1");
    expect_error("dragonfly arrangement=spiral", "allowed: absolute|relative|circulant");
    expect_error("dragonflyplus spines=2 h=1 g=5", "spines*h >= g-1");
    expect_error("fattree radix=8 hosts_per_leaf=6", "a leaf switch would use 12 ports but radix is 8");
    expect_error("fattree radix=8 oversub=3:2 hosts_per_leaf=4", "gives a fractional number of leaf uplinks");
    expect_error("fattree oversub=2:1,1:1", "oversub: '2:1,1:1' is not a list of 1");
    expect_error("fattree group=pod", "group=pod needs levels=3");
    expect_error("fattree levels=3 radix=8 aggs=3", "aggs=3 must divide");
    /* 2 uplinks over 4 spines would leave leaves without a common spine */
    expect_error("fattree leaves=8 hosts_per_leaf=2 spines=4", "spines=4 must divide the 2 uplinks");
    expect_error("torus dims=4x1", "at least 2");
    expect_error("torus dims=4xx4", "invalid dimensions");
    expect_error("torus dims=4x4 group=3x2", "does not divide");
    expect_error("torus dims=4x4 host_bw=1GBps", "host_bw does not apply");
    expect_error("torus dims=4x4 global_bw=1GBps", "global_bw does not apply: this network has no global");
    expect_error("kautz d=3 k=2 host_bw=1GBps", "host_bw does not apply: this network has no host");
    expect_error("kautz d=3 k=2 nic_ports=2", "nic_ports does not apply");
    expect_error("kautz d=0 k=2", "kautz: d:");
    expect_error("hyperx dims=4x4 K=2x2x2", "K: give one multiplicity or one per dimension");
    expect_error("hyperx dims=1", "at least 2 switches");
    expect_error("2dfc m1=4 m2=4 sharing=half", "allowed: full|shared");
    expect_error("hammingmesh a=2 x=2 local_bw=fast", "local_bw");
    expect_error("", "empty topology specification");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"dragonfly counts and routes", test_dragonfly_counts_and_routes},
        {"dragonfly never takes two global hops", test_dragonfly_two_global_shortcut_avoided},
        {"dragonfly parallel links and trunk", test_dragonfly_parallel_links_and_trunk},
        {"dragonfly+", test_dragonflyplus},
        {"fat trees", test_fattree},
        {"torus and mesh", test_torus},
        {"hyperx", test_hyperx},
        {"2dfc", test_2dfc},
        {"kautz K(d,2)", test_kautz_d2},
        {"kautz vectors and K(2,3)", test_kautz_vectors},
        {"hammingmesh", test_hammingmesh},
        {"link parameters", test_link_parameters},
        {"simgrid names", test_names},
        {"stats", test_stats},
        {"platform cache", test_platform_cache},
        {"bad parameters", test_bad_parameters},
        {"sizes before building", test_sizes_before_building},
        {"disconnected networks are refused", test_disconnected_refused},
        {"routes longer than TOPO_MAX_HOPS", test_long_routes},
        {NULL, NULL},
    };
    test_add_suite("topology", cases);
    return test_run_suites();
}
