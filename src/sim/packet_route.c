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
 *
 * The next hops of a (node, destination host) do not change during a run (faults are
 * fixed before it), so they are asked of the family once and remembered as ports in a
 * direct-mapped table (pk_next_hops): a packet's routing then reads one cache line and
 * the candidate ports' occupancy, in the family's order, so the choices are the same.
 * A single next hop (every Dragonfly node's, most nodes' near the destination) goes to a
 * table of 16-byte entries, several next hops to one of 64-byte entries: under UGAL on a
 * Dragonfly every hop asks the memo, and a table four times smaller stays in the cache
 * with the packets and ports (a larger one evicted them).
 *
 * Where the family's next hops out of a switch depend on the destination's switch only
 * (topology.h: next_hops_by_switch; Dragonfly, Dragonfly+, fat tree, indirect HyperX and
 * 2D-FC, without failed links), the tables are keyed by (switch, destination switch):
 * every host of a switch shares one entry, so the keys a run uses are hosts-per-switch
 * times fewer and the table stays in the cache; a host's next hop (up its host link) and
 * a switch's toward a host below it (down that link) are read from a per-host array.
 */
#include <stdlib.h>

#include "common/util.h"
#include "sim/packet_internal.h"

/* The per-host hops when the memo is keyed by switch (see above), else nothing. */
static void host_hops_init(pk_net *n)
{
    const topology *t = n->t;
    if (t->direct || !t->next_hops_by_switch || t->next_hops != t->next_hops_by_switch)
        return;
    n->host_hops = xmalloc((size_t)(t->nhosts > 0 ? t->nhosts : 1) * sizeof *n->host_hops);
    for (int32_t h = 0; h < t->nhosts; h++) {
        int64_t l = t->host_link[h];
        if (l < 0) { /* not attached: keep the (node, host) keys */
            free(n->host_hops);
            n->host_hops = NULL;
            return;
        }
        pk_next up = pk_next_of(t, (topo_hop){l, 0}), down = pk_next_of(t, (topo_hop){l, 1});
        n->host_hops[h] = (pk_host_hops){.sw = up.to, .up = up.port, .down = down.port};
    }
}

void pk_route_init(pk_net *n, int memo_bits)
{
    n->next_scratch = xmalloc((size_t)(n->maxdeg + 1) * sizeof *n->next_scratch);
    if (n->cfg.routing == PK_ROUTE_MINIMAL || !n->t->next_hops)
        return;
    host_hops_init(n);
    if (memo_bits <= 0) { /* about 8 entries per node, 2^10 to 2^19 (32 MiB) */
        memo_bits = 10;
        while (memo_bits < 19 && ((int64_t)1 << memo_bits) < 8 * (int64_t)topo_nnodes(n->t))
            memo_bits++;
    }
    n->memo_mask = ((uint64_t)1 << memo_bits) - 1;
    n->memo_shift = 64 - memo_bits;
    n->memo = pk_alloc_hot((size_t)(n->memo_mask + 1) * sizeof *n->memo);
    for (uint64_t i = 0; i <= n->memo_mask; i++)
        n->memo[i].at = -1;
    uint64_t n1 = 2 * (n->memo_mask + 1);
    n->memo1 = pk_alloc_hot((size_t)n1 * sizeof *n->memo1);
    for (uint64_t i = 0; i < n1; i++)
        n->memo1[i].at = -1;
}

void pk_route_free(pk_net *n)
{
    free(n->memo);
    free(n->memo1);
    free(n->next_scratch);
    free(n->host_hops);
    n->host_hops = NULL;
    n->memo = NULL;
    n->memo1 = NULL;
    n->next_scratch = NULL;
}

int pk_next_hops(pk_net *n, int32_t at, int32_t dst, const pk_next **hops)
{
    pk_hop_memo *e = NULL;
    pk_hop_memo1 *e1 = NULL;
    int32_t to = dst; /* the key's destination: the host, or its switch */
    if (n->host_hops && at != dst) {
        const pk_host_hops *d = &n->host_hops[dst];
        if (topo_is_host(n->t, at) || d->sw == at) { /* up from a host, down into dst */
            n->next_scratch[0] = topo_is_host(n->t, at)
                                     ? (pk_next){n->host_hops[at].up, n->host_hops[at].sw}
                                     : (pk_next){d->down, dst};
            *hops = n->next_scratch;
            return 1;
        }
        to = d->sw; /* a switch id: never a host's key */
    }
    if (n->memo) { /* a (node, host) has one next hop or several: in one table only */
        uint64_t key = (uint64_t)(uint32_t)at << 32 | (uint32_t)to;
        uint64_t h = key * 0x9E3779B97F4A7C15ull;
        e1 = &n->memo1[h >> (n->memo_shift - 1)];
        if (e1->at == at && e1->dst == to) {
            *hops = &e1->hop;
            return 1;
        }
        e = &n->memo[h >> n->memo_shift];
        if (n->memo_wide && e->at == at && e->dst == to) {
            *hops = e->hops;
            return e->k;
        }
    }
    int k = topo_next_hops(n->t, at, dst, n->scratch, n->maxdeg);
    if (e1 && k == 1) {
        *e1 = (pk_hop_memo1){.at = at, .dst = to, .hop = pk_next_of(n->t, n->scratch[0])};
        *hops = &e1->hop;
        return 1;
    }
    pk_next *out = n->next_scratch;
    if (e && k >= 2 && k <= PK_MEMO_HOPS) {
        *e = (pk_hop_memo){.at = at, .dst = to, .k = k};
        n->memo_wide = 1;
        out = e->hops;
    }
    for (int i = 0; i < (k > 0 ? k : 1); i++) /* k < 1: the first entry, as before */
        out[i] = pk_next_of(n->t, n->scratch[i]);
    *hops = out;
    return k;
}

static int64_t occupancy(const pk_net *n, pk_next h)
{
    return pk_occupancy(n, h.port);
}

static uint64_t next_random(pk_net *n)
{
    uint64_t z = (n->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The least occupied of the minimal next hops from `at` toward host dst (*occ: its
 * occupancy, if asked). */
static pk_next least_occupied(pk_net *n, int32_t at, int32_t dst, int64_t *occ)
{
    const pk_next *h;
    int k = pk_next_hops(n, at, dst, &h);
    if (k <= 1 && !occ)
        return h[0];
    int best = 0;
    int64_t best_occ = k > 0 ? occupancy(n, h[0]) : 0;
    for (int i = 1; i < k; i++) {
        int64_t o = occupancy(n, h[i]);
        if (o < best_occ) {
            best = i;
            best_occ = o;
        }
    }
    if (occ)
        *occ = best_occ;
    return h[best];
}

/* Links of the deterministic route from node `at` until host dst, or (group >= 0) until
 * a node of that group (*reached: that node). */
static int walk(pk_net *n, int32_t at, int32_t dst, int32_t group, int32_t *reached)
{
    int len = 0;
    const pk_next *h;
    while (at != dst && (group < 0 || n->t->group[at] != group) &&
           len <= 2 * n->t->max_route_hops && pk_next_hops(n, at, dst, &h) > 0) {
        at = h[0].to;
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
    const pk_next *unused;
    if (pk_next_hops(n, p->at, n->group_host[gi], &unused) < 1)
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
static pk_next ecmp_hop(pk_net *n, const pk_packet *p)
{
    const pk_next *hops;
    int k = pk_next_hops(n, p->at, p->msg->dst_host, &hops);
    uint64_t h = p->msg->flow ^ ((uint64_t)(p->at + 1) * 0x9E3779B97F4A7C15ull);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return hops[k > 1 ? (int)(h % (uint64_t)k) : 0];
}

pk_next pk_route(pk_net *n, pk_packet *p)
{
    const topology *t = n->t;
    if (n->cfg.routing == PK_ROUTE_MINIMAL || !n->has_next_hops)
        return p->msg->route[p->hops];
    if (n->cfg.routing == PK_ROUTE_ECMP)
        return ecmp_hop(n, p);
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
    return least_occupied(n, p->at, dst, NULL);
}
