/* packet_ranks.c - the rank side of the packet model: sends meet their receives, messages
 * start, complete and wake the ranks waiting for them (packet.h).
 *
 * Every posted send or receive is a request (pk_req: a handle of pk_isend / pk_irecv, or
 * anonymous for pk_send / pk_recv, counted in the rank's `pending`; a timer of pk_timer
 * is a request that no message completes). Each ordered pair of ranks (a, b) and channel
 * c has a pk_pair, found by open addressing on (a * P + b, c): a queue of sends posted
 * before their receive and a queue of receives posted before their send.
 * Whichever comes second starts the message, so the k-th send a -> b meets the k-th
 * receive at b from a, and no packet leaves before the receiver is ready (the flow
 * models' rendezvous).
 *
 * A rank waits (pk_wait, pk_wait_any, pk_compute) by suspending its actor; under the loop
 * engine the engine resumes it (packet_loop.c), under the actors engine the completion
 * does, and the rank then sleeps until the last packet's arrival.
 */
#include <stdlib.h>
#include <string.h>

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

static uint64_t pair_hash(int64_t key, int64_t channel)
{
    return mix((uint64_t)key) ^ (channel ? mix((uint64_t)channel * 0x9e3779b97f4a7c15ull) : 0);
}

static void pairs_grow(pk_net *n)
{
    pk_pair *old = n->pairs;
    int64_t old_cap = n->cap_pairs;
    n->cap_pairs = old_cap ? 2 * old_cap : 64;
    n->pairs = xmalloc((size_t)n->cap_pairs * sizeof *n->pairs);
    for (int64_t i = 0; i < n->cap_pairs; i++)
        n->pairs[i] = (pk_pair){.key = -1, .rhead = -1, .rtail = -1};
    for (int64_t i = 0; i < old_cap; i++)
        if (old[i].key >= 0) {
            int64_t j = (int64_t)(pair_hash(old[i].key, old[i].channel) &
                                  (uint64_t)(n->cap_pairs - 1));
            while (n->pairs[j].key >= 0)
                j = (j + 1) & (n->cap_pairs - 1);
            n->pairs[j] = old[i];
        }
    free(old);
}

static pk_pair *pair_of(pk_net *n, int32_t from, int32_t to, int64_t channel)
{
    if (2 * (n->npairs + 1) > n->cap_pairs)
        pairs_grow(n);
    int64_t key = (int64_t)from * n->P + to;
    int64_t j = (int64_t)(pair_hash(key, channel) & (uint64_t)(n->cap_pairs - 1));
    while (n->pairs[j].key >= 0 && (n->pairs[j].key != key || n->pairs[j].channel != channel))
        j = (j + 1) & (n->cap_pairs - 1);
    if (n->pairs[j].key < 0) {
        n->pairs[j].key = key;
        n->pairs[j].channel = channel;
        n->npairs++;
    }
    return &n->pairs[j];
}

/* Under the fluid network, whose messages need no flow number (pk_pair.sent: ECMP's), a
 * pair whose queues are empty again leaves the table (backward-shift deletion: the
 * entries after it in its probe run move back), so that the table holds the pairs with
 * messages waiting, not every pair that ever met (an all-to-all's P^2). */
static void pair_done(pk_net *n, pk_pair *pr)
{
    if (!n->fluid || pr->head || pr->rhead >= 0)
        return;
    uint64_t mask = (uint64_t)n->cap_pairs - 1;
    uint64_t i = (uint64_t)(pr - n->pairs);
    for (uint64_t j = (i + 1) & mask; n->pairs[j].key >= 0; j = (j + 1) & mask) {
        uint64_t home = pair_hash(n->pairs[j].key, n->pairs[j].channel) & mask;
        if (((j - home) & mask) >= ((j - i) & mask)) { /* i lies on j's probe run */
            n->pairs[i] = n->pairs[j];
            i = j;
        }
    }
    n->pairs[i] = (pk_pair){.key = -1, .rhead = -1, .rtail = -1};
    n->npairs--;
}

/* ---- requests ----------------------------------------------------------------------- */

static int64_t req_new(pk_net *n, int32_t rank, int anonymous)
{
    int64_t h = n->free_req;
    if (h >= 0) {
        n->free_req = n->reqs[h].next;
    } else {
        if (n->nreqs == n->cap_reqs) {
            n->cap_reqs = n->cap_reqs ? 2 * n->cap_reqs : 256;
            n->reqs = xrealloc(n->reqs, (size_t)n->cap_reqs * sizeof *n->reqs);
        }
        h = n->nreqs++;
    }
    n->reqs[h] = (pk_req){.rank = rank, .anonymous = (int8_t)anonymous, .next = -1};
    if (anonymous)
        n->ranks[rank].pending++;
    return h;
}

static void req_release(pk_net *n, int64_t h)
{
    n->reqs[h].next = n->free_req;
    n->free_req = h;
}

static void rank_wake(pk_net *n, int32_t r)
{
    pk_rank *k = &n->ranks[r];
    if (n->cfg.engine == PK_ENGINE_LOOP) {
        pk_loop_wake_rank(n, r);
        return;
    }
    k->waiting = PK_WAIT_NONE;
    sg_actor_resume(k->waiter);
}

/* Request h's message completed (its last packet arrived at `at`). */
static void req_done(pk_net *n, int64_t h, double at)
{
    pk_req *q = &n->reqs[h];
    pk_rank *k = &n->ranks[q->rank];
    int32_t r = q->rank;
    if (q->anonymous) {
        if (at > k->done_at)
            k->done_at = at;
        req_release(n, h);
        if (--k->pending == 0 && k->waiting == PK_WAIT_ALL &&
            !(k->compute_s > 0 && pk_loop_defer_compute(n, r)))
            rank_wake(n, r);
        return;
    }
    if (q->detached) {
        req_release(n, h);
        return;
    }
    q->done = 1;
    q->done_at = at;
    if (k->waiting == PK_WAIT_ANY) /* it looks at its handles again */
        rank_wake(n, r);
}

void pk_msg_complete(pk_net *n, pk_msg *m)
{
    n->msgs_open--;
    if (m->delivered_bytes != m->bytes)
        n->bad_msgs++; /* pk_net_check reports it */
    req_done(n, m->sreq, m->done_at);
    req_done(n, m->rreq, m->done_at);
    m->next = n->spare_msgs;
    n->spare_msgs = m;
}

size_t pk_msg_size(const pk_net *n)
{
    size_t ugal = n->cfg.routing == PK_ROUTE_UGAL ? (size_t)(n->t->ngroups + 1) : 0;
    return sizeof(pk_msg) + (size_t)n->t->max_route_hops * sizeof(pk_next) +
           ugal * sizeof(int32_t);
}

/* A message, reused if one completed: a large all-to-all posts millions. Room for a
 * minimal route of max_route_hops hops follows it, and UGAL's path lengths. */
static pk_msg *msg_new(pk_net *n)
{
    pk_msg *m = n->spare_msgs;
    if (m)
        n->spare_msgs = m->next;
    else
        m = xmalloc(pk_msg_size(n));
    memset(m, 0, sizeof *m);
    m->ugal_at = -1;
    if (n->cfg.routing == PK_ROUTE_UGAL)
        memset(pk_msg_ugal_len(n, m), 0, (size_t)(n->t->ngroups + 1) * sizeof(int32_t));
    return m;
}

void pk_msg_delivered(pk_net *n, pk_msg *m)
{
    if (n->cfg.engine == PK_ENGINE_ACTORS) /* the ranks sleep until done_at */
        pk_msg_complete(n, m);
    else
        pk_heap_push(&n->heap, m->done_at, PK_EV_MSG_DONE, 0, m);
}

/* Both sides are posted: the message goes to its NIC (or over the host's loopback). */
static void msg_start(pk_net *n, pk_msg *m)
{
    n->msgs_open++;
    if (n->fluid) { /* the fluid network: a flow, not packets (fluid_net.c) */
        fl_msg_start(n, m);
        return;
    }
    if (m->src_host == m->dst_host) {
        m->done_at = pk_now(n) + n->t->intra_lat + (double)m->bytes / n->t->intra_bw;
        m->delivered_bytes = m->bytes;
        pk_msg_delivered(n, m);
        return;
    }
    m->to_cut = m->to_deliver = m->bytes > 0 ? (m->bytes + n->cfg.mtu - 1) / n->cfg.mtu : 1;
    if (n->cfg.routing == PK_ROUTE_MINIMAL || !n->has_next_hops) {
        int len = topo_route(n->t, m->src_host, m->dst_host, n->route_scratch,
                             n->t->max_route_hops);
        for (int i = 0; i < len; i++)
            m->route[i] = pk_next_of(n->t, n->route_scratch[i]);
    }
    pk_nic_add(n, m);
}

/* The receive request h meets message m: the send's payload is handed over. */
static void hand_payload(pk_net *n, int64_t h, const pk_msg *m)
{
    if (n->reqs[h].payload_out)
        *n->reqs[h].payload_out = m->payload;
}

static int64_t post_send(pk_net *n, int32_t rank, int32_t peer, int64_t channel, int64_t bytes,
                         void *payload, int anonymous)
{
    pk_msg *m = msg_new(n);
    m->src_rank = rank;
    m->dst_rank = peer;
    m->src_host = n->host_of_rank[rank];
    m->dst_host = n->host_of_rank[peer];
    m->bytes = bytes;
    m->payload = payload;
    m->sreq = req_new(n, rank, anonymous);
    pk_pair *pr = pair_of(n, rank, peer, channel);
    m->flow = mix(mix((uint64_t)pr->key + 1) + (uint64_t)pr->sent++);
    if (channel)
        m->flow = mix(m->flow ^ (uint64_t)channel);
    if (pr->rhead >= 0) {
        m->rreq = pr->rhead;
        pr->rhead = n->reqs[m->rreq].next;
        hand_payload(n, m->rreq, m);
        if (pr->rhead < 0)
            pr->rtail = -1;
        pair_done(n, pr);
        int64_t sreq = m->sreq; /* msg_start may complete and free m (the actors engine runs
                                   other actors when it starts one; the loopback ends at once) */
        msg_start(n, m);
        return sreq;
    }
    if (pr->tail)
        pr->tail->next = m;
    else
        pr->head = m;
    pr->tail = m;
    return m->sreq;
}

static int64_t post_recv(pk_net *n, int32_t rank, int32_t peer, int64_t channel,
                         void **payload_out, int anonymous)
{
    int64_t h = req_new(n, rank, anonymous);
    n->reqs[h].payload_out = payload_out;
    pk_pair *pr = pair_of(n, peer, rank, channel);
    pk_msg *m = pr->head;
    if (!m) {
        if (pr->rtail >= 0)
            n->reqs[pr->rtail].next = h;
        else
            pr->rhead = h;
        pr->rtail = h;
        return h;
    }
    pr->head = m->next;
    if (!pr->head)
        pr->tail = NULL;
    pair_done(n, pr);
    m->next = NULL;
    m->rreq = h;
    hand_payload(n, h, m);
    msg_start(n, m);
    return h;
}

void pk_send(pk_net *n, int32_t rank, int32_t peer, int64_t bytes)
{
    post_send(n, rank, peer, 0, bytes, NULL, 1);
}

void pk_recv(pk_net *n, int32_t rank, int32_t peer)
{
    post_recv(n, rank, peer, 0, NULL, 1);
}

pk_handle pk_isend(pk_net *n, int32_t rank, int32_t peer, int64_t bytes)
{
    return post_send(n, rank, peer, 0, bytes, NULL, 0);
}

pk_handle pk_irecv(pk_net *n, int32_t rank, int32_t peer)
{
    return post_recv(n, rank, peer, 0, NULL, 0);
}

pk_handle pk_isend_on(pk_net *n, int32_t rank, int32_t peer, int64_t channel, int64_t bytes,
                      void *payload)
{
    return post_send(n, rank, peer, channel, bytes, payload, 0);
}

pk_handle pk_irecv_on(pk_net *n, int32_t rank, int32_t peer, int64_t channel,
                      void **payload_out)
{
    return post_recv(n, rank, peer, channel, payload_out, 0);
}

void pk_detach(pk_net *n, pk_handle h)
{
    if (n->reqs[h].done)
        req_release(n, h);
    else
        n->reqs[h].detached = 1;
}

void pk_timer_fire(pk_net *n, int64_t h)
{
    req_done(n, h, pk_now(n));
}

/* Actors engine: a timer is an actor that sleeps, then completes its request. */
typedef struct pk_timer_arg {
    pk_net *n;
    int64_t h;
    double seconds;
} pk_timer_arg;

static void timer_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_timer_arg *t = sg_actor_self_get_data();
    pk_net *n = t->n;
    int64_t h = t->h;
    double seconds = t->seconds;
    free(t);
    if (seconds > 0)
        sg_actor_sleep_for(seconds);
    req_done(n, h, simgrid_get_clock());
}

pk_handle pk_timer(pk_net *n, int32_t rank, double seconds)
{
    int64_t h = req_new(n, rank, 0);
    if (n->cfg.engine == PK_ENGINE_LOOP) {
        pk_heap_push(&n->heap, n->now + (seconds > 0 ? seconds : 0), PK_EV_TIMER, h, NULL);
        return h;
    }
    pk_timer_arg *t = xmalloc(sizeof *t);
    *t = (pk_timer_arg){.n = n, .h = h, .seconds = seconds};
    sg_actor_t a = sg_actor_init("packet-timer", n->actor_host);
    sg_actor_set_data(a, t);
    sg_actor_start_(a, timer_main, 0, NULL);
    return h;
}

/* The calling rank actor waits until woken (k->waiting set by the caller). */
static void block(pk_net *n, int32_t rank)
{
    pk_rank *k = &n->ranks[rank];
    if (n->cfg.engine == PK_ENGINE_LOOP) {
        pk_loop_block(n, rank);
        return;
    }
    k->waiter = sg_actor_self();
    sg_actor_suspend(k->waiter);
}

/* Actors engine: the rank sleeps until the arrival of the last packet at `at`. */
static void sleep_until_arrival(const pk_net *n, double at)
{
    double now = simgrid_get_clock();
    if (n->cfg.engine == PK_ENGINE_ACTORS && at > now)
        sg_actor_sleep_for(at - now);
}

void pk_wait(pk_net *n, int32_t rank)
{
    pk_rank *k = &n->ranks[rank];
    while (k->pending > 0) {
        k->waiting = PK_WAIT_ALL;
        block(n, rank);
    }
    sleep_until_arrival(n, k->done_at);
    k->done_at = 0;
}

void pk_wait_compute(pk_net *n, int32_t rank, double seconds)
{
    pk_rank *k = &n->ranks[rank];
    if (!n->fluid || k->pending == 0 || !(seconds > 0)) {
        pk_wait(n, rank);
        pk_compute(n, rank, seconds);
        return;
    }
    k->compute_s = seconds; /* the engine may queue the work for the rank */
    k->waiting = PK_WAIT_ALL;
    block(n, rank);
    k->done_at = 0;
    if (k->compute_s > 0) { /* woken when its messages ended: it queues the work itself */
        k->compute_s = 0;
        pk_compute(n, rank, seconds);
    }
}

int pk_wait_any(pk_net *n, int32_t rank, const pk_handle *handles, int count)
{
    pk_rank *k = &n->ranks[rank];
    for (;;) {
        int best = -1;
        for (int i = 0; i < count; i++) {
            const pk_req *q = &n->reqs[handles[i]];
            if (q->done && (best < 0 || q->done_at < n->reqs[handles[best]].done_at))
                best = i;
        }
        if (best >= 0 || count == 0) {
            if (best >= 0) {
                sleep_until_arrival(n, n->reqs[handles[best]].done_at);
                req_release(n, handles[best]);
            }
            return best;
        }
        k->waiting = PK_WAIT_ANY;
        block(n, rank);
    }
}

void pk_compute(pk_net *n, int32_t rank, double seconds)
{
    if (!(seconds > 0))
        return;
    if (n->cfg.engine == PK_ENGINE_ACTORS) {
        sg_actor_sleep_for(seconds);
        return;
    }
    n->ranks[rank].waiting = PK_WAIT_TIMER;
    pk_heap_push(&n->heap, n->now + seconds, PK_EV_RANK, rank, NULL);
    block(n, rank);
}

void pk_rank_exit(pk_net *n, int32_t rank)
{
    if (n->cfg.engine == PK_ENGINE_LOOP)
        pk_loop_rank_exit(n, rank);
}
