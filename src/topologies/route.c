/* route.c - routing that reproduces SimGrid's route choice exactly (see topology.h).
 *
 * Shortest paths: SimGrid's DijkstraZone pops nodes by (cost, graph id) and sets a node's
 * predecessor on the first strict improvement. Each zoneRoute we emit holds one link, so
 * every edge costs 1 and Dijkstra settles nodes layer by layer; within a layer in
 * increasing graph id. A node's predecessor is therefore its neighbour of lowest graph id
 * in the previous layer. Graph ids are given in the order nodes first appear in the
 * emitted zoneRoutes (links in id order, source before destination).
 *
 * Torus: SimGrid's TorusZone routes dimension 0 first; in each dimension it goes "right"
 * (+1) when the target is at most d/2 ahead, or when going right wraps around to it
 * within d/2 from a coordinate above d/2; otherwise left.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/topology.h"

static int32_t sw_index(const topology *t, int32_t node) { return node - t->nhosts; }

/* Arcs of the switch graph (inter-switch links, both directions unless one-way). */
static void build_adjacency(topology *t)
{
    int32_t S = t->nswitches;
    t->adj_first = xcalloc((size_t)S + 1, sizeof *t->adj_first);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (topo_is_host(t, l->a) || topo_is_host(t, l->b))
            continue;
        t->adj_first[sw_index(t, l->a) + 1]++;
        if (l->sharing != LINK_ONE_WAY)
            t->adj_first[sw_index(t, l->b) + 1]++;
    }
    for (int32_t s = 0; s < S; s++)
        t->adj_first[s + 1] += t->adj_first[s];
    int64_t narcs = t->adj_first[S];
    t->adj_link = xmalloc((size_t)(narcs ? narcs : 1) * sizeof *t->adj_link);
    t->adj_rev = xmalloc((size_t)(narcs ? narcs : 1) * sizeof *t->adj_rev);
    int64_t *fill = xmalloc(((size_t)S + 1) * sizeof *fill);
    memcpy(fill, t->adj_first, ((size_t)S + 1) * sizeof *fill);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (topo_is_host(t, l->a) || topo_is_host(t, l->b))
            continue;
        int64_t k = fill[sw_index(t, l->a)]++;
        t->adj_link[k] = i;
        t->adj_rev[k] = 0;
        if (l->sharing != LINK_ONE_WAY) {
            k = fill[sw_index(t, l->b)]++;
            t->adj_link[k] = i;
            t->adj_rev[k] = 1;
        }
    }
    free(fill);
}

/* SimGrid graph ids: order of first appearance in the emitted zoneRoutes. */
static void build_sg_order(topology *t)
{
    t->sg_order = xmalloc((size_t)(t->nswitches ? t->nswitches : 1) * sizeof *t->sg_order);
    for (int32_t s = 0; s < t->nswitches; s++)
        t->sg_order[s] = -1;
    int32_t next = 0;
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (topo_is_host(t, l->a) || topo_is_host(t, l->b))
            continue;
        if (t->sg_order[sw_index(t, l->a)] < 0)
            t->sg_order[sw_index(t, l->a)] = next++;
        if (t->sg_order[sw_index(t, l->b)] < 0)
            t->sg_order[sw_index(t, l->b)] = next++;
    }
    for (int32_t s = 0; s < t->nswitches; s++) /* isolated switches: after all others */
        if (t->sg_order[s] < 0)
            t->sg_order[s] = next++;
}

static int check_torus(const topology *t, cs_error *err)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndims; d++)
        n *= t->dims[d];
    if (t->nswitches != 0 || n != t->nhosts)
        return cs_fail(err, "internal: torus routing needs nhosts = product of dims (%lld vs %d)",
                       (long long)n, t->nhosts);
    if (t->nlinks != (int64_t)t->nhosts * t->ndims)
        return cs_fail(err, "internal: torus needs one link per node and dimension");
    return 0;
}

int topo_finish(topology *t, cs_error *err)
{
    if (t->nhosts < 1)
        return cs_fail(err, "the topology has no host");
    if (t->routing == TOPO_ROUTE_TORUS)
        return check_torus(t, err);
    for (int32_t h = 0; h < t->nhosts; h++)
        if (t->host_link[h] < 0 || topo_is_host(t, t->links[t->host_link[h]].b))
            return cs_fail(err, "internal: host %d is not attached to a switch", h);
    build_adjacency(t);
    build_sg_order(t);
    t->pred_cache = xcalloc((size_t)(t->nswitches ? t->nswitches : 1), sizeof *t->pred_cache);
    return 0;
}

/* Predecessor arc (index into adj arrays, as "arc of the predecessor leading here") of
 * every switch on the shortest-path tree from switch src, as SimGrid settles it. */
static int64_t *shortest_tree(const topology *t, int32_t src)
{
    int32_t S = t->nswitches;
    int64_t *pred = xmalloc((size_t)S * sizeof *pred); /* arc into the node, -1: none */
    int32_t *dist = xmalloc((size_t)S * sizeof *dist);
    int32_t *layer = xmalloc((size_t)S * sizeof *layer), *next = xmalloc((size_t)S * sizeof *next);
    for (int32_t s = 0; s < S; s++) {
        pred[s] = -1;
        dist[s] = -1;
    }
    dist[src] = 0;
    layer[0] = src;
    int32_t nlayer = 1;
    for (int32_t d = 0; nlayer > 0; d++) {
        int32_t nnext = 0;
        for (int32_t i = 0; i < nlayer; i++) { /* layer is sorted by SimGrid graph id */
            int32_t v = layer[i];
            for (int64_t k = t->adj_first[v]; k < t->adj_first[v + 1]; k++) {
                const topo_link *l = &t->links[t->adj_link[k]];
                int32_t u = sw_index(t, t->adj_rev[k] ? l->a : l->b);
                if (dist[u] >= 0)
                    continue;
                dist[u] = d + 1;
                pred[u] = k;
                next[nnext++] = u;
            }
        }
        /* sort the next layer by graph id (insertion sort: layers are small or sorted) */
        for (int32_t i = 1; i < nnext; i++) {
            int32_t x = next[i], j = i;
            while (j > 0 && t->sg_order[next[j - 1]] > t->sg_order[x]) {
                next[j] = next[j - 1];
                j--;
            }
            next[j] = x;
        }
        int32_t *tmp = layer;
        layer = next;
        next = tmp;
        nlayer = nnext;
    }
    free(dist);
    free(layer);
    free(next);
    return pred;
}

static int route_shortest(topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int32_t s1 = sw_index(t, topo_host_switch(t, src)), s2 = sw_index(t, topo_host_switch(t, dst));
    if (!t->pred_cache[s1])
        t->pred_cache[s1] = shortest_tree(t, s1);
    const int64_t *pred = t->pred_cache[s1];
    /* the switch path, backwards from s2 */
    topo_hop rev[TOPO_MAX_HOPS];
    int n = 0;
    for (int32_t v = s2; v != s1; n++) {
        int64_t k = pred[v];
        if (k < 0 || n >= TOPO_MAX_HOPS)
            return -1;
        rev[n] = (topo_hop){t->adj_link[k], t->adj_rev[k]};
        const topo_link *l = &t->links[t->adj_link[k]];
        v = sw_index(t, t->adj_rev[k] ? l->b : l->a);
    }
    if (n + 2 > max)
        return -1;
    int m = 0;
    hops[m++] = (topo_hop){t->host_link[src], 0};
    for (int i = n - 1; i >= 0; i--)
        hops[m++] = rev[i];
    hops[m++] = (topo_hop){t->host_link[dst], 1};
    return m;
}

/* SimGrid TorusZone: see the file comment. Link (node i, dim j) has id i*ndims + j and goes
 * from i to its +1 neighbour in dimension j. */
static int route_torus(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int n = 0;
    int64_t cur = src;
    while (cur != dst) {
        int64_t prod = 1;
        for (int j = 0; j < t->ndims; j++) {
            int64_t d = t->dims[j];
            int64_t my = (cur / prod) % d, target = ((int64_t)dst / prod) % d;
            int64_t src_c = ((int64_t)src / prod) % d;
            if (my != target) {
                /* SimGrid decides the direction from the *source* coordinates */
                int right = (target > src_c && target <= src_c + d / 2) ||
                            (src_c > d / 2 && (src_c + d / 2) % d >= target);
                int64_t next = right ? (my == d - 1 ? cur + prod - prod * d : cur + prod)
                                     : (my == 0 ? cur - prod + prod * d : cur - prod);
                if (n >= max)
                    return -1;
                if (right)
                    hops[n++] = (topo_hop){cur * t->ndims + j, 0};
                else
                    hops[n++] = (topo_hop){next * t->ndims + j, 1};
                cur = next;
                break;
            }
            prod *= d;
        }
    }
    return n;
}

int topo_route_generic(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max)
{
    if (src_host == dst_host)
        return 0;
    if (t->routing == TOPO_ROUTE_TORUS)
        return route_torus(t, src_host, dst_host, hops, max);
    return route_shortest(t, src_host, dst_host, hops, max);
}

int topo_route(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max)
{
    if (src_host == dst_host)
        return 0;
    if (t->route_fn)
        return t->route_fn(t, src_host, dst_host, hops, max);
    return topo_route_generic(t, src_host, dst_host, hops, max);
}
