/* stats.c - figures of a topology for `collsim topo --stats` (see topology.h).
 *
 *   degree     links between routers (switches; hosts too in direct networks), per router:
 *              minimum and maximum (one-way links: out-degree);
 *   diameter   the longest route in links between two hosts, along topo_route(). Hosts of
 *              one switch route alike, so one host per router is a source / destination.
 *              Up to 1024 sources every pair is examined (exact); beyond, 64 evenly spaced
 *              sources (a lower bound, exact on vertex-transitive families);
 *   bisection  the capacity crossing the cut between hosts 0..N/2-1 and N/2..N-1 (a switch
 *              sits on the side of its first host; switches without hosts are split in
 *              half by id): per direction, full-duplex links count their bandwidth, shared
 *              links half of it, one-way links only in their direction; the smaller of the
 *              two directions. For the families' id layouts this is the natural cut
 *              (halves of the groups, pods, or of the last dimension).
 * Failed links (faults.h) count nowhere; the diameter is over the pairs that still reach
 * each other.
 */
#include <stdlib.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

static int is_router(const topology *t, int32_t node) { return t->direct || !topo_is_host(t, node); }

static void degrees(const topology *t, topo_stats *st)
{
    int32_t N = topo_nnodes(t);
    int *deg = xcalloc((size_t)N, sizeof *deg);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (!is_router(t, l->a) || !is_router(t, l->b) || topo_link_failed(t, i))
            continue;
        deg[l->a]++;
        if (l->sharing != LINK_ONE_WAY)
            deg[l->b]++;
    }
    st->min_degree = -1;
    st->max_degree = 0;
    for (int32_t v = 0; v < N; v++) {
        if (!is_router(t, v))
            continue;
        if (st->min_degree < 0 || deg[v] < st->min_degree)
            st->min_degree = deg[v];
        if (deg[v] > st->max_degree)
            st->max_degree = deg[v];
    }
    if (st->min_degree < 0)
        st->min_degree = 0;
    free(deg);
}

static int diameter(topology *t, topo_stats *st, cs_error *err)
{
    /* representatives: one host per router (every host in direct networks) */
    int32_t *rep = xmalloc((size_t)t->nhosts * sizeof *rep);
    int32_t nrep = 0;
    int shared_switch = 0;
    for (int32_t h = 0; h < t->nhosts; h++) {
        if (t->direct || h == 0 || topo_host_switch(t, h) != topo_host_switch(t, h - 1))
            rep[nrep++] = h;
        else
            shared_switch = 1;
    }
    int32_t nsrc = nrep <= 1024 ? nrep : 64;
    st->diameter = shared_switch ? 2 : 0;
    topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
    for (int32_t i = 0; i < nsrc; i++) {
        int32_t s = rep[nrep <= 1024 ? i : (int32_t)((int64_t)i * (nrep - 1) / (nsrc - 1))];
        for (int32_t j = 0; j < nrep; j++) {
            if (!topo_hosts_connected(t, s, rep[j])) /* cut off by failed links */
                continue;
            int n = topo_route(t, s, rep[j], hops, t->max_route_hops);
            if (n < 0) {
                int32_t d = rep[j];
                free(rep);
                free(hops);
                return cs_fail(err, "no route from host %d to host %d", s, d);
            }
            if (n > st->diameter)
                st->diameter = n;
        }
    }
    st->diameter_sources = nsrc;
    st->diameter_exact = nsrc == nrep;
    free(rep);
    free(hops);
    return 0;
}

static void bisection(const topology *t, topo_stats *st)
{
    int32_t N = topo_nnodes(t), half = t->nhosts / 2;
    uint8_t *side = xmalloc((size_t)N);
    int32_t hostless = 0, seen = 0;
    for (int32_t h = 0; h < t->nhosts; h++)
        side[h] = h >= half;
    for (int32_t v = t->nhosts; v < N; v++)
        side[v] = 2; /* unknown yet */
    for (int32_t h = t->nhosts - 1; h >= 0; h--) /* a switch takes its first host's side */
        if (!t->direct)
            side[topo_host_switch(t, h)] = side[h];
    for (int32_t v = t->nhosts; v < N; v++)
        hostless += side[v] == 2;
    for (int32_t v = t->nhosts; v < N; v++)
        if (side[v] == 2)
            side[v] = seen++ >= hostless / 2;
    double dir[2] = {0, 0}; /* capacity from side 0 to 1, and 1 to 0 */
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (side[l->a] == side[l->b] || topo_link_failed(t, i))
            continue;
        int from_a = side[l->a]; /* direction index of a -> b */
        if (l->sharing == LINK_ONE_WAY) {
            dir[from_a] += l->bw;
        } else {
            double c = l->sharing == LINK_SHARED ? l->bw / 2 : l->bw;
            dir[0] += c;
            dir[1] += c;
        }
    }
    st->bisection_Bps = dir[0] < dir[1] ? dir[0] : dir[1];
    free(side);
}

int topo_compute_stats(topology *t, topo_stats *st, cs_error *err)
{
    st->hosts = t->nhosts;
    st->switches = t->nswitches;
    st->groups = t->ngroups;
    for (int c = 0; c < LINK__COUNT; c++)
        st->links[c] = 0;
    for (int64_t i = 0; i < t->nlinks; i++)
        st->links[t->links[i].cls]++;
    degrees(t, st);
    bisection(t, st);
    return diameter(t, st, err);
}
