/* fault_route.c - routing around failed links (faults.h): rerouting a faulty topology on
 * its remaining graph, the classes of hosts that still reach each other, and the check
 * that a point's ranks do.
 *
 * Rule (faults.h): a pair keeps its family route (torus dimension order, Dragonfly
 * local-global-local, fat-tree deterministic ECMP, ...) when that route avoids every
 * failed link; otherwise it takes the first shortest path over the remaining links that
 * a breadth-first search finds from its source (neighbours in node id order, then link
 * id). Removing links never shortens a path, so a surviving minimal route is still
 * minimal; the detours are minimal among the remaining paths. fault_emit.c writes these
 * routes into the platform. Networks too large for a table are rerouted by Dijkstra
 * instead (reroute_dijkstra).
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

/* Routes an explicit table would hold: host pairs (direct), pairs of switches with hosts. */
static int64_t table_routes(const topology *t)
{
    int64_t n = t->nhosts;
    if (!t->direct) {
        n = 0;
        for (int32_t h = 0; h < t->nhosts; h++)
            n += h == 0 || topo_host_switch(t, h) != topo_host_switch(t, h - 1);
    }
    return n * (n - 1);
}

/* Dijkstra rerouting (too many routes for a table): the family's routing is replaced by
 * shortest paths over the remaining links, as SimGrid's DijkstraCache zone finds them. */
static int reroute_dijkstra(topology *t, cs_error *err)
{
    topo_free_routing(t); /* rebuilt by topo_finish over the remaining links */
    t->routing = TOPO_ROUTE_SHORTEST;
    t->route_fn = NULL;
    t->next_hops = NULL; /* the families' next hops assume their own routes
                            (topo_fault_reroute installs fault_hops.c's instead) */
    t->flat_groups = 0;
    return topo_finish(t, err);
}

int topo_fault_reroute(topology *t, cs_error *err)
{
    topo_faults *f = t->faults;
    topo_next_hops_fn family = t->next_hops;
    if (f->nfailed == 0 && t->routing != TOPO_ROUTE_TORUS)
        return 0; /* only bandwidths changed: the same routes, the same platform layout */
    int rc;
    if (table_routes(t) > TOPO_FAULT_TABLE_MAX) {
        rc = reroute_dijkstra(t, err);
    } else {
        f->table = 1;
        f->ntree = topo_nnodes(t);
        f->tree = xcalloc((size_t)f->ntree, sizeof *f->tree);
        rc = f->nfailed ? topo_fault_components(t, err) : 0;
    }
    /* the families' next hops know neither the failed links nor Dijkstra's routes; a
     * torus only degraded keeps its routes in the table, and its next hops */
    if (rc == 0 && family && (f->nfailed || (int)t->routing != f->base_routing))
        topo_fault_hops_install(t, family);
    return rc;
}

int topo_fault_skips(const topology *t, int64_t l)
{
    return t->faults && !t->faults->table && t->faults->failed[l];
}

/* Breadth-first search from node s over the remaining links, along their directions
 * (backward: against them); dist[v] = -1 when unreached. */
static void bfs(const topology *t, int32_t s, int backward, int32_t *dist, int32_t *queue)
{
    int32_t N = topo_nnodes(t), head = 0, tail = 0;
    for (int32_t v = 0; v < N; v++)
        dist[v] = -1;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int32_t u = queue[head++];
        for (int64_t k = t->inc_first[u]; k < t->inc_first[u + 1]; k++) {
            const topo_link *l = &t->links[t->inc_link[k]];
            int32_t v = t->inc_node[k];
            if (topo_link_failed(t, t->inc_link[k]))
                continue;
            if (l->sharing == LINK_ONE_WAY && l->a != (backward ? v : u))
                continue;
            /* a route never passes through a host of an indirect network */
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                if (t->direct || !topo_is_host(t, v))
                    queue[tail++] = v;
            }
        }
    }
}

int topo_fault_components(topology *t, cs_error *err)
{
    (void)err;
    topo_faults *f = t->faults;
    int32_t N = topo_nnodes(t);
    int32_t *fwd = xmalloc((size_t)N * sizeof *fwd), *bwd = xmalloc((size_t)N * sizeof *bwd);
    int32_t *queue = xmalloc((size_t)N * sizeof *queue);
    free(f->comp);
    f->comp = xmalloc((size_t)t->nhosts * sizeof *f->comp);
    for (int32_t h = 0; h < t->nhosts; h++)
        f->comp[h] = -1;
    f->ncomp = 0;
    int longest = 1;
    for (int32_t u = 0; u < t->nhosts; u++) {
        if (f->comp[u] >= 0)
            continue;
        bfs(t, u, 0, fwd, queue);
        bfs(t, u, 1, bwd, queue);
        int out = 0, in = 0;
        for (int32_t h = u; h < t->nhosts; h++) /* hosts before u are in earlier classes */
            if (f->comp[h] < 0 && fwd[h] >= 0 && bwd[h] >= 0) {
                f->comp[h] = f->ncomp;
                out = fwd[h] > out ? fwd[h] : out;
                in = bwd[h] > in ? bwd[h] : in;
            }
        f->ncomp++;
        /* d(s, d) <= d(s, u) + d(u, d) inside a class */
        longest = out + in > longest ? out + in : longest;
    }
    /* detours are shortest paths; surviving family routes keep the family's bound */
    if (longest > t->max_route_hops)
        t->max_route_hops = longest;
    free(fwd);
    free(bwd);
    free(queue);
    return 0;
}

int topo_hosts_connected(const topology *t, int32_t a, int32_t b)
{
    return !t->faults || !t->faults->comp || t->faults->comp[a] == t->faults->comp[b];
}

int topo_faults_check_ranks(const topology *t, const int32_t *host_of_rank, int32_t P,
                            cs_error *err)
{
    if (!t->faults || t->faults->ncomp <= 1 || P < 1)
        return 0;
    for (int32_t r = 1; r < P; r++) {
        int32_t a = host_of_rank[0], b = host_of_rank[r];
        if (topo_hosts_connected(t, a, b))
            continue;
        char la[64], lb[64];
        topo_host_label(t, a, la, sizeof la);
        topo_host_label(t, b, lb, sizeof lb);
        return cs_fail(err, "fail_links: the failed links disconnect the network: rank 0 "
                            "(host %s) and rank %d (host %s) cannot reach each other (every "
                            "pair of a point's ranks must stay connected; fail fewer links or "
                            "place the ranks in one part)", la, r, lb);
    }
    return 0;
}

/* ---- the table's routes -------------------------------------------------------------------- */

/* The hop into every node on the breadth-first tree of the remaining links from node
 * src (link -1: unreached), never through a host of an indirect network. Cached per
 * source; the cache is dropped as a whole beyond ~128 MiB. */
static const topo_hop *fault_tree(topology *t, int32_t src)
{
    topo_faults *f = t->faults;
    int32_t N = topo_nnodes(t);
    if (f->tree[src])
        return f->tree[src];
    if (f->tree_entries + N > (8LL << 20)) {
        for (int32_t v = 0; v < N; v++) {
            free(f->tree[v]);
            f->tree[v] = NULL;
        }
        f->tree_entries = 0;
    }
    topo_hop *in = xmalloc((size_t)N * sizeof *in);
    int32_t *queue = xmalloc((size_t)N * sizeof *queue), head = 0, tail = 0;
    for (int32_t v = 0; v < N; v++)
        in[v] = (topo_hop){-1, 0};
    in[src] = (topo_hop){-2, 0}; /* the root */
    queue[tail++] = src;
    while (head < tail) {
        int32_t u = queue[head++];
        if (u != src && !t->direct && topo_is_host(t, u))
            continue;
        for (int64_t k = t->inc_first[u]; k < t->inc_first[u + 1]; k++) {
            const topo_link *l = &t->links[t->inc_link[k]];
            int32_t v = t->inc_node[k];
            if (in[v].link != -1 || f->failed[t->inc_link[k]] ||
                (l->sharing == LINK_ONE_WAY && l->a != u))
                continue;
            in[v] = (topo_hop){t->inc_link[k], (int8_t)(l->a != u)};
            queue[tail++] = v;
        }
    }
    free(queue);
    f->tree[src] = in;
    f->tree_entries += N;
    return in;
}

/* The shortest remaining path from host s to host d (the tree from s's switch in
 * indirect networks, so that every host of a switch routes alike). */
static int detour(topology *t, int32_t s, int32_t d, topo_hop *hops, int max)
{
    int32_t a = t->direct ? s : topo_host_switch(t, s), b = t->direct ? d : topo_host_switch(t, d);
    if (!t->direct && (t->faults->failed[t->host_link[s]] || t->faults->failed[t->host_link[d]]))
        return -1;
    const topo_hop *in = fault_tree(t, a);
    int n = 0, ends = t->direct ? 0 : 2;
    for (int32_t v = b; v != a; n++) {
        if (in[v].link < 0)
            return -1;
        const topo_link *l = &t->links[in[v].link];
        v = in[v].reverse ? l->b : l->a;
    }
    if (n + ends > max)
        return -1;
    if (!t->direct) {
        hops[0] = (topo_hop){t->host_link[s], 0};
        hops[n + 1] = (topo_hop){t->host_link[d], 1};
    }
    int i = n - 1 + (t->direct ? 0 : 1);
    for (int32_t v = b; v != a; i--) {
        hops[i] = in[v];
        const topo_link *l = &t->links[in[v].link];
        v = in[v].reverse ? l->b : l->a;
    }
    return n + ends;
}

int topo_fault_route(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max)
{
    if (src_host == dst_host)
        return 0;
    if (!topo_hosts_connected(t, src_host, dst_host))
        return -1;
    int n = topo_route_base(t, src_host, dst_host, hops, max);
    int crosses = n < 0;
    for (int i = 0; i < n && !crosses; i++)
        crosses = t->faults->failed[hops[i].link];
    return crosses ? detour(t, src_host, dst_host, hops, max) : n;
}
