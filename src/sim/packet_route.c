/* packet_route.c - the hop a packet takes out of the node it has reached (packet.h:
 * minimal, adaptive, UGAL-L).
 *
 * Minimal routing follows the message's topo_route, hop by hop. Adaptive routing asks the
 * family for the minimal next hops (topo_next_hops) and takes the least occupied output:
 * bytes queued at the port plus bytes it holds in its downstream buffer, the local
 * knowledge a switch has from its queues and credit counters; ties keep the
 * deterministic hop. UGAL-L decides once per packet, at its source router: the minimal
 * route, or a Valiant route through a random intermediate group, comparing the
 * occupancy of each route's first output weighted by its length in links (Valiant when
 * q_min H_min > q_val H_val + buffer H_min: the minimal output holds more than a full
 * downstream buffer beyond the Valiant one, so that one uncongested flow, whose own
 * packets fill part of a buffer, stays minimal); the packet
 * then routes adaptively toward any host of that group until it enters the group, and
 * toward its destination from there. ECMP hashes the message's flow (packet_ranks.c) with
 * the node to pick one of the minimal next hops: per flow, not per packet.
 */
#include "sim/packet_internal.h"

static uint64_t next_random(pk_net *n)
{
    uint64_t z = (n->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The least occupied of the minimal next hops from `at` toward host dst. */
static topo_hop least_occupied(pk_net *n, int32_t at, int32_t dst, int64_t *occupancy)
{
    int k = topo_next_hops(n->t, at, dst, n->scratch, n->maxdeg);
    int best = 0;
    int64_t best_occ = k > 0 ? pk_port_occupancy(n, n->scratch[0]) : 0;
    for (int i = 1; i < k; i++) {
        int64_t occ = pk_port_occupancy(n, n->scratch[i]);
        if (occ < best_occ) {
            best = i;
            best_occ = occ;
        }
    }
    if (occupancy)
        *occupancy = best_occ;
    return n->scratch[best];
}

/* Links of the deterministic route from node `at` until host dst, or (group >= 0) until
 * a node of that group (*reached: that node). */
static int walk(pk_net *n, int32_t at, int32_t dst, int32_t group, int32_t *reached)
{
    int len = 0;
    while (at != dst && (group < 0 || n->t->group[at] != group) &&
           len <= 2 * n->t->max_route_hops &&
           topo_next_hops(n->t, at, dst, n->scratch, n->maxdeg) > 0) {
        at = topo_hop_head(n->t, n->scratch[0]);
        len++;
    }
    if (reached)
        *reached = at;
    return len;
}

/* Links from node `at` to host dst, first to a node of group gi if gi >= 0 (the Valiant
 * path), remembered in *memo as length + 1 (0: not known yet). */
static int64_t ugal_len(pk_net *n, int32_t at, int32_t dst, int32_t gi, int32_t *memo)
{
    if (*memo > 0)
        return *memo - 1;
    int64_t len;
    if (gi < 0) {
        len = walk(n, at, dst, -1, NULL);
    } else {
        int32_t mid;
        len = walk(n, at, n->group_host[gi], gi, &mid);
        len += walk(n, mid, dst, -1, NULL);
    }
    *memo = (int32_t)(len + 1);
    return len;
}

/* UGAL-L at the source router: sets p->via to a Valiant group or leaves it -1. */
static void ugal_decide(pk_net *n, pk_packet *p)
{
    const topology *t = n->t;
    int32_t dst = p->msg->dst_host, gs = t->group[p->at], gd = t->group[dst];
    if (t->ngroups < 3 || gs < 0 || gd < 0 || gs == gd)
        return;
    int32_t gi = (int32_t)(next_random(n) % (uint64_t)(t->ngroups - 2));
    int32_t lo = gs < gd ? gs : gd, hi = gs < gd ? gd : gs;
    gi += gi >= lo; /* skip the source and destination groups */
    gi += gi >= hi;
    int64_t q_min, q_val;
    least_occupied(n, p->at, dst, &q_min);
    if (q_min <= n->cfg.buffer) /* q_min H_min <= buffer H_min: minimal, whatever the rest */
        return;
    if (topo_next_hops(t, p->at, n->group_host[gi], n->scratch, n->maxdeg) < 1)
        return; /* failed links cut that group off from here: minimal */
    least_occupied(n, p->at, n->group_host[gi], &q_val);
    /* the path lengths depend on the router, the destination and gi only: walked once
     * per message (its packets decide at the same router; another one walks each time) */
    pk_msg *m = p->msg;
    int32_t none[2] = {0, 0}, *len_min = &none[0], *len_val = &none[1];
    if (m->ugal_at < 0)
        m->ugal_at = p->at;
    if (m->ugal_at == p->at) {
        int32_t *len = pk_msg_ugal_len(n, m);
        len_min = &len[t->ngroups];
        len_val = &len[gi];
    }
    int64_t h_min = ugal_len(n, p->at, dst, -1, len_min);
    int64_t h_val = ugal_len(n, p->at, dst, gi, len_val);
    if (q_min * h_min > q_val * h_val + n->cfg.buffer * h_min)
        p->via = gi;
}

/* ECMP: the next hop the flow's hash picks at p->at. */
static topo_hop ecmp_hop(pk_net *n, const pk_packet *p)
{
    int k = topo_next_hops(n->t, p->at, p->msg->dst_host, n->scratch, n->maxdeg);
    uint64_t h = p->msg->flow ^ ((uint64_t)(p->at + 1) * 0x9E3779B97F4A7C15ull);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return n->scratch[k > 1 ? (int)(h % (uint64_t)k) : 0];
}

pk_next pk_route(pk_net *n, pk_packet *p)
{
    const topology *t = n->t;
    if (n->cfg.routing == PK_ROUTE_MINIMAL || !n->has_next_hops)
        return p->msg->route[p->hops];
    if (n->cfg.routing == PK_ROUTE_ECMP)
        return pk_next_of(t, ecmp_hop(n, p));
    int32_t dst = p->msg->dst_host;
    if (n->cfg.routing == PK_ROUTE_UGAL) {
        if (!p->decided && !topo_is_host(t, p->at)) {
            p->decided = 1;
            ugal_decide(n, p);
        }
        if (p->via >= 0 && t->group[p->at] == p->via)
            p->via = -1; /* reached the intermediate group */
        if (p->via >= 0)
            dst = n->group_host[p->via];
    }
    return pk_next_of(t, least_occupied(n, p->at, dst, NULL));
}
