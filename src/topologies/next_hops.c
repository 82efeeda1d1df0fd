/* next_hops.c - minimal next hops for the packet model's adaptive routing (topology.h:
 * topo_next_hops), and the helpers the families' next-hop functions share.
 *
 * Each family that routes adaptively installs t->next_hops (torus.c, grid.c, fattree.c,
 * dragonfly.c, dragonflyplus.c). The contract is the one of topo_next_hops: every hop
 * listed starts a minimal route, and hops[0] is the deterministic route's hop.
 */
#include "topologies/families.h"

int topo_next_hops(const topology *t, int32_t at, int32_t dst_host, topo_hop *hops, int max)
{
    if (!t->next_hops)
        return -1;
    if (at == dst_host)
        return 0;
    return t->next_hops(t, at, dst_host, hops, max);
}

int topo_max_degree(const topology *t)
{
    int64_t most = 0;
    for (int32_t v = 0; v < topo_nnodes(t); v++)
        if (t->inc_first[v + 1] - t->inc_first[v] > most)
            most = t->inc_first[v + 1] - t->inc_first[v];
    return (int)most;
}

int next_hop_add(const topology *t, int32_t u, int32_t v, topo_hop *hops, int *n, int max)
{
    if (*n >= max || topo_hop_between(t, u, v, &hops[*n]) < 0)
        return -1;
    (*n)++;
    return 0;
}

int next_hop_host_link(const topology *t, int32_t at, int32_t dst_host, topo_hop *hops, int max)
{
    if (max < 1)
        return -1;
    if (topo_is_host(t, at)) { /* leaving the source host */
        hops[0] = (topo_hop){t->host_link[at], 0};
        return 1;
    }
    if (topo_host_switch(t, dst_host) == at) { /* arriving: down to the destination */
        hops[0] = (topo_hop){t->host_link[dst_host], 1};
        return 1;
    }
    return 0;
}

int next_hops_put_first(topo_hop *hops, int n, int det)
{
    if (det < 0 || det >= n)
        return -1;
    topo_hop h = hops[0];
    hops[0] = hops[det];
    hops[det] = h;
    return n;
}
