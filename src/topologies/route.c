/* route.c - routing that reproduces SimGrid's route choice exactly (see topology.h).
 *
 * Shortest paths (DijkstraCache zone): SimGrid's DijkstraZone pops nodes by (cost, graph
 * id) and sets a node's predecessor on the first strict improvement. Each route we emit
 * holds one link, so every edge costs 1 and Dijkstra settles nodes layer by layer, within
 * a layer in increasing graph id. A node's predecessor is therefore its neighbour of
 * lowest graph id in the previous layer. Graph ids are given in the order nodes first
 * appear in the emitted routes (links in id order, source before destination).
 *
 * Zones (Full zones, hierarchical): SimGrid's NetZoneImpl::get_global_route finds the
 * lowest common zone of the two netpoints, takes that zone's route between the two
 * children holding them (gateways gw_src, gw_dst), and recurses: route(src, gw_src) +
 * zone route + route(gw_dst, dst). Inside one switch cluster a host goes up its host link
 * and down the other host's one. zone_route_between() does the same.
 *
 * Torus: SimGrid's TorusZone routes dimension 0 first; in each dimension it goes "right"
 * (+1) when the target is at most d/2 ahead, or when going right wraps around to it
 * within d/2 from a coordinate above d/2; otherwise left.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/external.h"
#include "topologies/families.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

/* Cached shortest-path trees are dropped as a whole beyond this many entries (128 MiB). */
#define PRED_CACHE_MAX_ENTRIES (32LL << 20)

/* Incidence lists of every node, sorted by neighbour then link id. */
static void build_incidence(topology *t)
{
    int32_t N = topo_nnodes(t);
    t->inc_first = xcalloc((size_t)N + 1, sizeof *t->inc_first);
    for (int64_t i = 0; i < t->nlinks; i++) {
        t->inc_first[t->links[i].a + 1]++;
        t->inc_first[t->links[i].b + 1]++;
    }
    for (int32_t v = 0; v < N; v++)
        t->inc_first[v + 1] += t->inc_first[v];
    size_t m = (size_t)t->inc_first[N] + 1;
    t->inc_node = xmalloc(m * sizeof *t->inc_node);
    t->inc_link = xmalloc(m * sizeof *t->inc_link);
    int64_t *fill = xmalloc(((size_t)N + 1) * sizeof *fill);
    memcpy(fill, t->inc_first, ((size_t)N + 1) * sizeof *fill);
    for (int64_t i = 0; i < t->nlinks; i++) { /* link ids ascend within each list */
        const topo_link *l = &t->links[i];
        t->inc_node[fill[l->a]] = l->b;
        t->inc_link[fill[l->a]++] = i;
        t->inc_node[fill[l->b]] = l->a;
        t->inc_link[fill[l->b]++] = i;
    }
    free(fill);
    for (int32_t v = 0; v < N; v++) { /* stable insertion sort by neighbour */
        for (int64_t i = t->inc_first[v] + 1; i < t->inc_first[v + 1]; i++) {
            int32_t nb = t->inc_node[i];
            int64_t lk = t->inc_link[i], j = i;
            while (j > t->inc_first[v] && t->inc_node[j - 1] > nb) {
                t->inc_node[j] = t->inc_node[j - 1];
                t->inc_link[j] = t->inc_link[j - 1];
                j--;
            }
            t->inc_node[j] = nb;
            t->inc_link[j] = lk;
        }
    }
}

static int is_vertex(const topology *t, int32_t node) { return node >= t->vbase; }

/* Arcs of the routing graph (links between vertices, both directions unless one-way). */
static void build_adjacency(topology *t)
{
    int32_t V = t->nvert;
    t->adj_first = xcalloc((size_t)V + 1, sizeof *t->adj_first);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (!is_vertex(t, l->a) || !is_vertex(t, l->b) || topo_fault_skips(t, i))
            continue;
        t->adj_first[l->a - t->vbase + 1]++;
        if (l->sharing != LINK_ONE_WAY)
            t->adj_first[l->b - t->vbase + 1]++;
    }
    for (int32_t v = 0; v < V; v++)
        t->adj_first[v + 1] += t->adj_first[v];
    int64_t narcs = t->adj_first[V];
    t->adj_link = xmalloc((size_t)(narcs ? narcs : 1) * sizeof *t->adj_link);
    t->adj_rev = xmalloc((size_t)(narcs ? narcs : 1) * sizeof *t->adj_rev);
    int64_t *fill = xmalloc(((size_t)V + 1) * sizeof *fill);
    memcpy(fill, t->adj_first, ((size_t)V + 1) * sizeof *fill);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (!is_vertex(t, l->a) || !is_vertex(t, l->b) || topo_fault_skips(t, i))
            continue;
        int64_t k = fill[l->a - t->vbase]++;
        t->adj_link[k] = i;
        t->adj_rev[k] = 0;
        if (l->sharing != LINK_ONE_WAY) {
            k = fill[l->b - t->vbase]++;
            t->adj_link[k] = i;
            t->adj_rev[k] = 1;
        }
    }
    free(fill);
}

/* SimGrid graph ids: order of first appearance in the emitted routes (emit.c writes one
 * route per link between vertices, in link id order, src = a). */
static void build_sg_order(topology *t)
{
    t->sg_order = xmalloc((size_t)(t->nvert ? t->nvert : 1) * sizeof *t->sg_order);
    for (int32_t v = 0; v < t->nvert; v++)
        t->sg_order[v] = -1;
    int32_t next = 0;
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (!is_vertex(t, l->a) || !is_vertex(t, l->b) || topo_fault_skips(t, i))
            continue;
        if (t->sg_order[l->a - t->vbase] < 0)
            t->sg_order[l->a - t->vbase] = next++;
        if (t->sg_order[l->b - t->vbase] < 0)
            t->sg_order[l->b - t->vbase] = next++;
    }
    for (int32_t v = 0; v < t->nvert; v++) /* isolated vertices: after all others */
        if (t->sg_order[v] < 0)
            t->sg_order[v] = next++;
}

static int check_torus(const topology *t, cs_error *err)
{
    int64_t n = 1;
    for (int d = 0; d < t->ndims; d++)
        n *= t->dims[d];
    if (t->nswitches != 0 || n != t->nhosts || !t->direct)
        return cs_fail(err, "internal: torus routing needs nhosts = product of dims (%lld vs %d)",
                       (long long)n, t->nhosts);
    if (t->nlinks != (int64_t)t->nhosts * t->ndims)
        return cs_fail(err, "internal: torus needs one link per node and dimension");
    return 0;
}

static int check_zones(const topology *t, cs_error *err)
{
    if (!t->zone || !t->zone_route || t->direct || (t->flat_groups && t->nzones == 0))
        return cs_fail(err, "internal: zone routing needs t->zone, t->zone_route, host links");
    for (int32_t h = 0; h < t->nhosts; h++) {
        int32_t z = t->zone[topo_host_switch(t, h) - t->nhosts];
        if (z == TOPO_ZONE_NONE || (t->nzones > 0 && z < 0) || z >= t->nzones)
            return cs_fail(err, "internal: host %d's switch has no valid zone", h);
    }
    return 0;
}

/* ---- reachability ------------------------------------------------------------------------ */

/* Breadth-first search from host 0 over every node, along the links' directions
 * (forward) or against them (backward: who reaches host 0). Fills dist (-1: unreached)
 * and returns the largest distance to a host, or -1 naming an unreached host in *missed. */
static int reach_from_host0(const topology *t, int backward, int32_t *dist, int32_t *queue,
                            int32_t *missed)
{
    int32_t N = topo_nnodes(t), head = 0, tail = 0;
    for (int32_t v = 0; v < N; v++)
        dist[v] = -1;
    dist[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int32_t u = queue[head++];
        for (int64_t k = t->inc_first[u]; k < t->inc_first[u + 1]; k++) {
            const topo_link *l = &t->links[t->inc_link[k]];
            int32_t v = t->inc_node[k];
            /* the arc used is u -> v (forward) or v -> u (backward) */
            if (l->sharing == LINK_ONE_WAY && l->a != (backward ? v : u))
                continue;
            if (dist[v] < 0) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
    int far = 0;
    for (int32_t h = 0; h < t->nhosts; h++) {
        if (dist[h] < 0) {
            *missed = h;
            return -1;
        }
        if (dist[h] > far)
            far = dist[h];
    }
    return far;
}

/* Every host must reach every other one (SimGrid searches forever for a route that does
 * not exist). Reaching host 0 and being reached from it is enough; the two distances
 * also bound every shortest route: d(s, d) <= d(s, h0) + d(h0, d). */
static int check_reach(topology *t, cs_error *err)
{
    int32_t N = topo_nnodes(t), missed = -1;
    int32_t *dist = xmalloc((size_t)N * sizeof *dist), *queue = xmalloc((size_t)N * sizeof *queue);
    int out = reach_from_host0(t, 0, dist, queue, &missed), in = -1;
    int rc = 0;
    if (out < 0)
        rc = cs_fail(err, "the network is not connected: no path from host h0 to host h%d "
                          "(check the parameters)", missed);
    else if ((in = reach_from_host0(t, 1, dist, queue, &missed)) < 0)
        rc = cs_fail(err, "the network is not connected: no path from host h%d to host h0 "
                          "(check the parameters)", missed);
    else
        t->max_route_hops = out + in > 0 ? out + in : 1;
    free(dist);
    free(queue);
    return rc;
}

static int finish_shortest(topology *t, cs_error *err);

int topo_finish(topology *t, cs_error *err)
{
    if (t->nhosts < 1)
        return cs_fail(err, "the topology has no host");
    build_incidence(t);
    if (t->routing == TOPO_ROUTE_TABLE) /* SimGrid's routes, read from the platform */
        return topo_external_finish(t, err);
    if (t->routing != TOPO_ROUTE_TORUS && !t->direct)
        for (int32_t h = 0; h < t->nhosts; h++)
            if (t->host_link[h] < 0 || topo_is_host(t, t->links[t->host_link[h]].b))
                return cs_fail(err, "internal: host %d is not attached to a switch", h);
    if (check_reach(t, err) < 0) /* the intact network (faults come later: faults.h) */
        return -1;
    int rc;
    if (t->routing == TOPO_ROUTE_TORUS) {
        rc = check_torus(t, err);
    } else if (t->routing == TOPO_ROUTE_ZONES) {
        t->max_route_hops = TOPO_MAX_HOPS; /* not shortest paths: the zone routes' cap */
        rc = check_zones(t, err);
    } else {
        rc = finish_shortest(t, err);
    }
    /* failed links may cut hosts off (points check their ranks) and lengthen routes */
    if (rc == 0 && t->faults && t->faults->nfailed)
        rc = topo_fault_components(t, err);
    return rc;
}

/* The routing graph of TOPO_ROUTE_SHORTEST and SimGrid's graph ids. */
static int finish_shortest(topology *t, cs_error *err)
{
    t->vbase = t->direct ? 0 : t->nhosts;
    t->nvert = topo_nnodes(t) - t->vbase;
    build_adjacency(t);
    if (t->adj_first[t->nvert] >= INT32_MAX)
        return cs_fail(err, "too many links for the route cache (%lld arcs)",
                       (long long)t->adj_first[t->nvert]);
    build_sg_order(t);
    t->pred_cache = xcalloc((size_t)(t->nvert ? t->nvert : 1), sizeof *t->pred_cache);
    return 0;
}

/* ---- shortest paths --------------------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return (a > b) - (a < b);
}

/* Predecessor arc of every vertex on the shortest-path tree from vertex src, as SimGrid
 * settles it (-1: none / unreachable). Layers are visited in SimGrid graph id order: each
 * layer is sorted by the key (graph id << 32 | vertex). */
static int32_t *shortest_tree(const topology *t, int32_t src)
{
    int32_t V = t->nvert;
    int32_t *pred = xmalloc((size_t)V * sizeof *pred);
    int64_t *layer = xmalloc((size_t)V * sizeof *layer), *next = xmalloc((size_t)V * sizeof *next);
    uint8_t *seen = xcalloc((size_t)V, 1);
    for (int32_t v = 0; v < V; v++)
        pred[v] = -1;
    seen[src] = 1;
    layer[0] = src;
    int32_t nlayer = 1;
    while (nlayer > 0) {
        int32_t nnext = 0;
        for (int32_t i = 0; i < nlayer; i++) {
            int32_t v = (int32_t)(layer[i] & 0xffffffff);
            for (int64_t k = t->adj_first[v]; k < t->adj_first[v + 1]; k++) {
                const topo_link *l = &t->links[t->adj_link[k]];
                int32_t u = (t->adj_rev[k] ? l->a : l->b) - t->vbase;
                if (seen[u])
                    continue;
                seen[u] = 1;
                pred[u] = (int32_t)k;
                next[nnext++] = ((int64_t)t->sg_order[u] << 32) | u;
            }
        }
        qsort(next, (size_t)nnext, sizeof *next, cmp_i64);
        int64_t *tmp = layer;
        layer = next;
        next = tmp;
        nlayer = nnext;
    }
    free(seen);
    free(layer);
    free(next);
    return pred;
}

static const int32_t *tree_from(topology *t, int32_t v)
{
    if (!t->pred_cache[v]) {
        if (t->pred_cached + t->nvert > PRED_CACHE_MAX_ENTRIES) {
            for (int32_t u = 0; u < t->nvert; u++) {
                free(t->pred_cache[u]);
                t->pred_cache[u] = NULL;
            }
            t->pred_cached = 0;
        }
        t->pred_cache[v] = shortest_tree(t, v);
        t->pred_cached += t->nvert;
    }
    return t->pred_cache[v];
}

static int route_shortest(topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int32_t n1 = t->direct ? src : topo_host_switch(t, src);
    int32_t n2 = t->direct ? dst : topo_host_switch(t, dst);
    int32_t s1 = n1 - t->vbase, s2 = n2 - t->vbase;
    const int32_t *pred = tree_from(t, s1);
    /* walk the tree back from s2 twice: to count the hops, then to write them in order */
    int n = 0;
    for (int32_t v = s2; v != s1; n++) {
        int32_t k = pred[v];
        if (k < 0 || n >= t->nvert)
            return -1;
        const topo_link *l = &t->links[t->adj_link[k]];
        v = (t->adj_rev[k] ? l->b : l->a) - t->vbase;
    }
    int ends = t->direct ? 0 : 2;
    if (n + ends > max)
        return -1;
    if (!t->direct) {
        hops[0] = (topo_hop){t->host_link[src], 0};
        hops[n + 1] = (topo_hop){t->host_link[dst], 1};
    }
    int i = n - 1 + (t->direct ? 0 : 1);
    for (int32_t v = s2; v != s1; i--) {
        int32_t k = pred[v];
        hops[i] = (topo_hop){t->adj_link[k], t->adj_rev[k]};
        const topo_link *l = &t->links[t->adj_link[k]];
        v = (t->adj_rev[k] ? l->b : l->a) - t->vbase;
    }
    return n + ends;
}

/* ---- zones ------------------------------------------------------------------------------- */

/* The switch zone holding a netpoint (a host's switch, or the switch itself). */
static int32_t leaf_switch(const topology *t, int32_t np)
{
    return topo_is_host(t, np) ? topo_host_switch(t, np) : np;
}

static int append(topo_hop *hops, int *n, int max, topo_hop h)
{
    if (*n >= max)
        return -1;
    hops[(*n)++] = h;
    return 0;
}

/* The route b -> a of zone_route(zone, a, b), or a -> b: gateways and hops in order. */
static int zone_path(const topology *t, int32_t zone, int32_t a, int32_t b, topo_zone_path *p)
{
    int swapped = a > b;
    if (t->zone_route(t, zone, swapped ? b : a, swapped ? a : b, p) != 1)
        return -1;
    if (swapped) {
        int32_t g = p->gw_src;
        p->gw_src = p->gw_dst;
        p->gw_dst = g;
        for (int i = 0; i < p->n / 2; i++) {
            topo_hop h = p->hops[i];
            p->hops[i] = p->hops[p->n - 1 - i];
            p->hops[p->n - 1 - i] = h;
        }
        for (int i = 0; i < p->n; i++)
            p->hops[i].reverse = (int8_t)!p->hops[i].reverse;
    }
    return 0;
}

/* Inside one flat group zone: the unique shortest path, host link, the group's route
 * between the two switches, host link. */
static int flat_group_route(const topology *t, int32_t src, int32_t dst, int32_t ss, int32_t sd,
                            topo_hop *hops, int *n, int max)
{
    if (topo_is_host(t, src) && append(hops, n, max, (topo_hop){t->host_link[src], 0}) < 0)
        return -1;
    if (ss != sd) {
        topo_zone_path p;
        if (zone_path(t, t->zone[ss - t->nhosts], ss, sd, &p) < 0)
            return -1;
        for (int i = 0; i < p.n; i++)
            if (append(hops, n, max, p.hops[i]) < 0)
                return -1;
    }
    if (topo_is_host(t, dst) && append(hops, n, max, (topo_hop){t->host_link[dst], 1}) < 0)
        return -1;
    return 0;
}

/* SimGrid's recursive route between two netpoints (hosts or switch routers). */
static int zone_route_between(const topology *t, int32_t src, int32_t dst, topo_hop *hops,
                              int *n, int max, int depth)
{
    int32_t ss = leaf_switch(t, src), sd = leaf_switch(t, dst);
    if (depth > 8)
        return -1;
    if (t->flat_groups && t->zone[ss - t->nhosts] == t->zone[sd - t->nhosts])
        return flat_group_route(t, src, dst, ss, sd, hops, n, max);
    if (ss == sd) { /* same cluster: up the source's host link, down the destination's */
        if (topo_is_host(t, src) && append(hops, n, max, (topo_hop){t->host_link[src], 0}) < 0)
            return -1;
        if (topo_is_host(t, dst) && append(hops, n, max, (topo_hop){t->host_link[dst], 1}) < 0)
            return -1;
        return 0;
    }
    int32_t zs = t->zone[ss - t->nhosts], zd = t->zone[sd - t->nhosts];
    int32_t zone = TOPO_ZONE_TOP, a = ss, b = sd;
    if (zs >= 0 && zs == zd)
        zone = zs;
    else if (t->nzones > 0) {
        a = zs;
        b = zd;
    }
    topo_zone_path p;
    if (zone_path(t, zone, a, b, &p) < 0)
        return -1;
    if (src != p.gw_src && zone_route_between(t, src, p.gw_src, hops, n, max, depth + 1) < 0)
        return -1;
    for (int i = 0; i < p.n; i++)
        if (append(hops, n, max, p.hops[i]) < 0)
            return -1;
    if (p.gw_dst != dst && zone_route_between(t, p.gw_dst, dst, hops, n, max, depth + 1) < 0)
        return -1;
    return 0;
}

static int route_zones(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    int n = 0;
    return zone_route_between(t, src, dst, hops, &n, max, 0) < 0 ? -1 : n;
}

/* ---- torus ------------------------------------------------------------------------------- */

/* SimGrid TorusZone: see the file comment. Link (node i, dim j) has id i*ndims + j and goes
 * from i to its +1 neighbour in dimension j. */
int torus_goes_up(int64_t from, int64_t to, int64_t d)
{
    return (to > from && to <= from + d / 2) || (from > d / 2 && (from + d / 2) % d >= to);
}

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
                int right = torus_goes_up(src_c, target, d);
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
    if (!topo_hosts_connected(t, src_host, dst_host))
        return -1;
    switch (t->routing) {
    case TOPO_ROUTE_TORUS: return route_torus(t, src_host, dst_host, hops, max);
    case TOPO_ROUTE_ZONES: return route_zones(t, src_host, dst_host, hops, max);
    case TOPO_ROUTE_TABLE: return topo_external_route(t, src_host, dst_host, hops, max);
    default: return route_shortest(t, src_host, dst_host, hops, max);
    }
}

int topo_route_base(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max)
{
    if (src_host == dst_host)
        return 0;
    if (t->route_fn)
        return t->route_fn(t, src_host, dst_host, hops, max);
    return topo_route_generic(t, src_host, dst_host, hops, max);
}

int topo_route(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max)
{
    if (t->faults && t->faults->table) /* the family's route unless it crosses a failed link */
        return topo_fault_route(t, src_host, dst_host, hops, max);
    return topo_route_base(t, src_host, dst_host, hops, max);
}
