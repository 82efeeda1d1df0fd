/* packet_ranks.c - the rank side of the packet model: sends meet their receives, messages
 * start, complete and wake the ranks waiting for them (packet.h).
 *
 * Each ordered pair of ranks (a, b) has a pk_pair, found by open addressing on a * P + b:
 * a queue of sends posted before their receive and a count of receives posted before
 * their send. Whichever comes second starts the message, so the k-th send a -> b meets
 * the k-th receive at b from a, and no packet leaves before the receiver is ready (the
 * flow models' rendezvous).
 */
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/packet_internal.h"

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

static void pairs_grow(pk_net *n)
{
    pk_pair *old = n->pairs;
    int64_t old_cap = n->cap_pairs;
    n->cap_pairs = old_cap ? 2 * old_cap : 64;
    n->pairs = xmalloc((size_t)n->cap_pairs * sizeof *n->pairs);
    for (int64_t i = 0; i < n->cap_pairs; i++)
        n->pairs[i] = (pk_pair){.key = -1};
    for (int64_t i = 0; i < old_cap; i++)
        if (old[i].key >= 0) {
            int64_t j = (int64_t)(mix((uint64_t)old[i].key) & (uint64_t)(n->cap_pairs - 1));
            while (n->pairs[j].key >= 0)
                j = (j + 1) & (n->cap_pairs - 1);
            n->pairs[j] = old[i];
        }
    free(old);
}

static pk_pair *pair_of(pk_net *n, int32_t from, int32_t to)
{
    if (2 * (n->npairs + 1) > n->cap_pairs)
        pairs_grow(n);
    int64_t key = (int64_t)from * n->P + to;
    int64_t j = (int64_t)(mix((uint64_t)key) & (uint64_t)(n->cap_pairs - 1));
    while (n->pairs[j].key >= 0 && n->pairs[j].key != key)
        j = (j + 1) & (n->cap_pairs - 1);
    if (n->pairs[j].key < 0) {
        n->pairs[j].key = key;
        n->npairs++;
    }
    return &n->pairs[j];
}

static void rank_done(pk_net *n, int32_t r, double at)
{
    pk_rank *k = &n->ranks[r];
    if (at > k->done_at)
        k->done_at = at;
    if (--k->pending == 0 && k->waiter)
        sg_actor_resume(k->waiter);
}

void pk_msg_complete(pk_net *n, pk_msg *m)
{
    n->msgs_open--;
    if (m->delivered_bytes != m->bytes)
        n->bad_msgs++; /* pk_net_check reports it */
    rank_done(n, m->src_rank, m->done_at);
    rank_done(n, m->dst_rank, m->done_at);
    free(m->route);
    free(m);
}

/* Both sides are posted: the message goes to its NIC (or over the host's loopback). */
static void msg_start(pk_net *n, pk_msg *m)
{
    n->msgs_open++;
    if (m->src_host == m->dst_host) {
        m->done_at = simgrid_get_clock() + n->t->intra_lat + (double)m->bytes / n->t->intra_bw;
        m->delivered_bytes = m->bytes;
        pk_msg_complete(n, m);
        return;
    }
    m->to_cut = m->to_deliver = m->bytes > 0 ? (m->bytes + n->cfg.mtu - 1) / n->cfg.mtu : 1;
    if (n->cfg.routing == PK_ROUTE_MINIMAL || !n->has_next_hops) {
        m->route = xmalloc((size_t)n->t->max_route_hops * sizeof *m->route);
        topo_route(n->t, m->src_host, m->dst_host, m->route, n->t->max_route_hops);
    }
    pk_nic_add(n, m);
}

void pk_send(pk_net *n, int32_t rank, int32_t peer, int64_t bytes)
{
    pk_msg *m = xcalloc(1, sizeof *m);
    m->src_rank = rank;
    m->dst_rank = peer;
    m->src_host = n->host_of_rank[rank];
    m->dst_host = n->host_of_rank[peer];
    m->bytes = bytes;
    n->ranks[rank].pending++;
    pk_pair *pr = pair_of(n, rank, peer);
    if (pr->recvs > 0) {
        pr->recvs--;
        msg_start(n, m);
        return;
    }
    if (pr->tail)
        pr->tail->next = m;
    else
        pr->head = m;
    pr->tail = m;
}

void pk_recv(pk_net *n, int32_t rank, int32_t peer)
{
    n->ranks[rank].pending++;
    pk_pair *pr = pair_of(n, peer, rank);
    pk_msg *m = pr->head;
    if (!m) {
        pr->recvs++;
        return;
    }
    pr->head = m->next;
    if (!pr->head)
        pr->tail = NULL;
    m->next = NULL;
    msg_start(n, m);
}

void pk_wait(pk_net *n, int32_t rank)
{
    pk_rank *k = &n->ranks[rank];
    k->waiter = sg_actor_self();
    while (k->pending > 0)
        sg_actor_suspend(k->waiter);
    k->waiter = NULL;
    double now = simgrid_get_clock();
    if (k->done_at > now) /* the last packets are still on their last link */
        sg_actor_sleep_for(k->done_at - now);
    k->done_at = 0;
}
