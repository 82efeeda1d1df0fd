/* fault_route.c - routing around failed links (faults.h): rerouting a faulty topology on
 * its remaining graph, the classes of hosts that still reach each other, and the check
 * that a point's ranks do.
 *
 * Rule, every family: shortest paths over the links that remain, with route.c's
 * tie-break (SimGrid's DijkstraCache zone: among equal-length paths, the predecessor of
 * lowest graph id). The emitted platform is the family's switch graph (or host graph in
 * direct networks) without the failed links, so SimGrid computes exactly these routes.
 * Dragonfly and Dragonfly+ lose their zone routes (local-global-local) for the minimal
 * remaining route, fat trees their deterministic ECMP for the lowest-id shortest path,
 * the torus its dimension order for the lowest-id minimal path.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

int topo_fault_reroute(topology *t, cs_error *err)
{
    topo_faults *f = t->faults;
    if (f->nfailed == 0 && t->routing != TOPO_ROUTE_TORUS)
        return 0; /* only bandwidths changed: the same routes */
    if (t->pred_cache)
        for (int32_t v = 0; v < t->nvert; v++)
            free(t->pred_cache[v]);
    free(t->pred_cache);
    free(t->inc_first);
    free(t->inc_node);
    free(t->inc_link);
    free(t->adj_first);
    free(t->adj_link);
    free(t->adj_rev);
    free(t->sg_order);
    t->pred_cache = NULL;
    t->inc_first = t->adj_first = t->inc_link = t->adj_link = NULL;
    t->inc_node = t->sg_order = NULL;
    t->adj_rev = NULL;
    t->pred_cached = 0;
    t->routing = TOPO_ROUTE_SHORTEST;
    t->route_fn = NULL;
    t->next_hops = NULL; /* the families' next hops assume their own routes */
    t->flat_groups = 0;
    return topo_finish(t, err);
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
