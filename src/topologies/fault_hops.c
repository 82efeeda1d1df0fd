/* fault_hops.c - the packet model's next hops around failed links (topology.h:
 * topo_next_hops; faults.h: topo_fault_hops_install).
 *
 * The families' next-hop rules (torus.c, grid.c, fattree.c, dragonfly.c, dragonflyplus.c)
 * know nothing of failed links: they would send packets into them, or toward paths that
 * no longer exist. On a network with failed links topo_fault_reroute installs
 * fault_next_hops instead. Its candidates out of a node are the hops over remaining links
 * that begin a minimal remaining path to the destination's router (its switch in
 * indirect networks, the host itself in direct ones):
 *
 *   - "minimal" counts links, except on Dragonfly and Dragonfly+, where it counts global
 *     links first, then links: their intact minimal routes cross one global link, and a
 *     failed link elsewhere must not turn routes into two-global-link ones because those
 *     happen to have fewer links; a pair whose global link failed goes through a third
 *     group (two global links), the shortest such way;
 *   - hops[0] is the family's deterministic hop when it is one of the candidates, else
 *     the first candidate in incidence order (neighbour id, then link id);
 *   - a host leaves by its host link and the destination's switch answers the host link
 *     down (none when that link failed: the host is cut off).
 *
 * The distances come from a search (Dijkstra; breadth-first in effect when every link
 * weighs 1) backward from each destination router over the remaining links, run the
 * first time that destination is asked for and kept: one entry per router and
 * destination router, only on networks with faults; the table is dropped as a whole
 * beyond ~256 MiB and rebuilt on demand (the same numbers).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "topologies/families.h"
#include "topologies/faults.h"

#define UNREACHED INT64_MAX
#define GLOBAL_WEIGHT (((int64_t)1 << 32) + 1) /* one global link, one link */
#define MAX_ENTRIES ((int64_t)32 << 20)          /* 256 MiB of distances */

typedef struct hop_heap {
    int64_t *key;
    int32_t *v;
    int64_t n, cap;
} hop_heap;

static void heap_push(hop_heap *h, int64_t key, int32_t v)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->key = xrealloc(h->key, (size_t)h->cap * sizeof *h->key);
        h->v = xrealloc(h->v, (size_t)h->cap * sizeof *h->v);
    }
    int64_t i = h->n++;
    while (i > 0 && h->key[(i - 1) / 2] > key) {
        h->key[i] = h->key[(i - 1) / 2];
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->key[i] = key;
    h->v[i] = v;
}

/* Removes the smallest key; 0 when empty. */
static int heap_pop(hop_heap *h, int64_t *key, int32_t *v)
{
    if (h->n == 0)
        return 0;
    *key = h->key[0];
    *v = h->v[0];
    int64_t last_key = h->key[--h->n], i = 0;
    int32_t last_v = h->v[h->n];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->key[c + 1] < h->key[c])
            c++;
        if (h->key[c] >= last_key)
            break;
        h->key[i] = h->key[c];
        h->v[i] = h->v[c];
        i = c;
    }
    h->key[i] = last_key;
    h->v[i] = last_v;
    return 1;
}

/* 1 if link l may carry a packet from node u to node v on a route: not failed, along its
 * direction, and v no host of an indirect network (routes never pass through one). */
static int usable(const topology *t, int32_t u, int32_t v, int64_t l)
{
    const topo_link *k = &t->links[l];
    return !t->faults->failed[l] && (t->direct || !topo_is_host(t, v)) &&
           (k->sharing != LINK_ONE_WAY || k->a == u);
}

static int64_t weight(const topology *t, int64_t l)
{
    return t->faults->hops_global_first && t->links[l].cls == LINK_GLOBAL ? GLOBAL_WEIGHT : 1;
}

/* The distance of every routing vertex to vertex `target` over the remaining links. */
static int64_t *distances_to(const topology *t, int32_t target)
{
    const topo_faults *f = t->faults;
    int64_t *dist = xmalloc((size_t)f->hops_nv * sizeof *dist);
    for (int32_t i = 0; i < f->hops_nv; i++)
        dist[i] = UNREACHED;
    hop_heap h = {0};
    dist[target] = 0;
    heap_push(&h, 0, target);
    int64_t d;
    int32_t x;
    while (heap_pop(&h, &d, &x)) {
        if (d > dist[x])
            continue; /* a stale entry */
        int32_t v = x + f->hops_base;
        for (int64_t k = t->inc_first[v]; k < t->inc_first[v + 1]; k++) {
            int32_t u = t->inc_node[k]; /* arc u -> v */
            if (!usable(t, u, v, t->inc_link[k]) || (!t->direct && topo_is_host(t, u)))
                continue;
            int64_t du = d + weight(t, t->inc_link[k]);
            if (du < dist[u - f->hops_base]) {
                dist[u - f->hops_base] = du;
                heap_push(&h, du, u - f->hops_base);
            }
        }
    }
    free(h.key);
    free(h.v);
    return dist;
}

/* The distances to router node `target`, computed on first use. The topology is const
 * for its users; the table is a cache of what its links determine. */
static const int64_t *distances(const topology *t, int32_t target)
{
    topo_faults *f = t->faults;
    int32_t x = target - f->hops_base;
    if (f->hops_dist[x])
        return f->hops_dist[x];
    if (f->hops_entries + f->hops_nv > MAX_ENTRIES) {
        for (int32_t i = 0; i < f->hops_nv; i++) {
            free(f->hops_dist[i]);
            f->hops_dist[i] = NULL;
        }
        f->hops_entries = 0;
    }
    f->hops_dist[x] = distances_to(t, x);
    f->hops_entries += f->hops_nv;
    return f->hops_dist[x];
}

/* The family's deterministic hop out of `at` (hops is scratch); 0 if it has none. */
static int family_hop(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max,
                      topo_hop *det)
{
    if (t->faults->hops_family(t, at, dst, hops, max) < 1)
        return 0;
    *det = hops[0];
    return 1;
}

static int fault_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    const topo_faults *f = t->faults;
    if (!t->direct && f->failed[t->host_link[dst]])
        return 0; /* the destination is cut off */
    const int64_t *dist = distances(t, t->direct ? dst : topo_host_switch(t, dst));
    if (!t->direct) {
        int n = next_hop_host_link(t, at, dst, hops, max);
        if (n != 0 && topo_is_host(t, at) &&
            (f->failed[hops[0].link] || dist[topo_host_switch(t, at) - f->hops_base] == UNREACHED))
            return 0; /* the source is cut off */
        if (n != 0)
            return n;
    }
    int64_t d = dist[at - f->hops_base];
    if (d == UNREACHED)
        return 0;
    topo_hop det = {-1, 0};
    int has_det = family_hop(t, at, dst, hops, max, &det), n = 0, first = -1;
    for (int64_t k = t->inc_first[at]; k < t->inc_first[at + 1]; k++) {
        int64_t l = t->inc_link[k];
        int32_t v = t->inc_node[k];
        if (!usable(t, at, v, l) || dist[v - f->hops_base] == UNREACHED ||
            dist[v - f->hops_base] + weight(t, l) != d)
            continue;
        if (n >= max)
            return -1;
        hops[n] = (topo_hop){l, (int8_t)(t->links[l].a != at)};
        if (has_det && det.link == l && det.reverse == hops[n].reverse)
            first = n;
        n++;
    }
    return first > 0 ? next_hops_put_first(hops, n, first) : n;
}

void topo_fault_hops_install(topology *t,
                             int (*family)(const topology *t, int32_t at, int32_t dst_host,
                                           topo_hop *hops, int max))
{
    topo_faults *f = t->faults;
    f->hops_family = family;
    /* the families whose minimal routes cross one global link (dragonfly.c,
     * dragonflyplus.c), whatever their length in links */
    f->hops_global_first = strcmp(t->family, "dragonfly") == 0 ||
                           strcmp(t->family, "dragonflyplus") == 0;
    f->hops_base = t->direct ? 0 : t->nhosts;
    f->hops_nv = topo_nnodes(t) - f->hops_base;
    f->hops_dist = xcalloc((size_t)(f->hops_nv > 0 ? f->hops_nv : 1), sizeof *f->hops_dist);
    t->next_hops = fault_next_hops;
}
