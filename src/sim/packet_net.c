/* packet_net.c - the packet model's ports and NICs: queues, credits, what a port or NIC
 * does next, and the final check (see packet.h for the model, packet_internal.h for the
 * state). Both engines drive these steps: the loop engine from its events
 * (packet_loop.c), the actors engine from a SimGrid actor per port and NIC
 * (packet_actors.c).
 *
 * A port repeats: take the oldest packet that has arrived (its ready time: the previous
 * hop's latency) and has a credit of the downstream buffer on its virtual channel (none
 * needed when the far node is the packet's destination host), serialize it (bytes / bw),
 * give back the credit it held upstream, and pass it on: arrived at the far node lat
 * seconds later, it is delivered or routed into the next port. A NIC cuts its active
 * messages into packets, one message after the other, as long as its injection buffer
 * has credits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/packet_internal.h"

/* ---- memory ----------------------------------------------------------------------------- */

void *pk_alloc_hot(size_t bytes)
{
    enum { HUGE = 2 << 20 };
    size_t align = bytes >= HUGE ? HUGE : 64;
    bytes = (bytes + align - 1) & ~(align - 1);
    void *p = aligned_alloc(align, bytes > 0 ? bytes : align);
    if (!p)
        return xmalloc(bytes); /* aborts: out of memory */
#ifdef MADV_HUGEPAGE
    if (align == HUGE) /* a hint: nothing depends on it */
        (void)madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

/* ---- credits ---------------------------------------------------------------------------- */

int64_t pk_inject_pool(const pk_net *n, int32_t host)
{
    return n->pool_base + host;
}

double pk_now(const pk_net *n)
{
    return n->cfg.engine == PK_ENGINE_ACTORS ? simgrid_get_clock() : n->now;
}

static void port_wake(pk_net *n, pk_port *pt, int why)
{
    if (pt->wait != why)
        return;
    pt->wait = PK_BUSY;
    if (n->cfg.engine == PK_ENGINE_ACTORS)
        sg_actor_resume(n->port_actor[pt - n->ports]);
    else
        pk_loop_port_wake(n, pt);
}

static void nic_wake(pk_net *n, pk_nic *nic, int why)
{
    if (nic->wait != why)
        return;
    nic->wait = PK_BUSY;
    if (n->cfg.engine == PK_ENGINE_ACTORS)
        sg_actor_resume(nic->actor);
    else
        pk_loop_nic_wake(n, nic->host);
}

static void credit_return(pk_net *n, int64_t pool, int64_t bytes)
{
    n->credit[pool] += (int32_t)bytes;
    if (pool >= n->pool_base) { /* a NIC's injection buffer */
        nic_wake(n, &n->nics[pool - n->pool_base], PK_CREDIT);
        return;
    }
    pk_port *pt = &n->ports[pk_pool_port(n, pool)];
    pt->in_buffer -= bytes;
    port_wake(n, pt, PK_CREDIT);
}

int64_t pk_port_occupancy(const pk_net *n, topo_hop h)
{
    return pk_occupancy(n, traffic_resource(n->t, h));
}

int64_t pk_occupancy(const pk_net *n, int64_t port)
{
    /* a port with no packet yet has no mult but nothing queued or held either */
    const pk_port *pt = &n->ports[port];
    int64_t bytes = pt->queued + pt->in_buffer;
    return pt->mult > 1 ? bytes / pt->mult : bytes; /* per physical link of a folded trunk */
}

/* The credits of a port's far buffer on one virtual channel: `buffer` per physical link,
 * so a trunk of m links folded into one (topo_link.mult) has m buffers, as the real links
 * do; capped at what a credit counter holds (2 GiB, far above any bandwidth-delay
 * product collsim models). */
static int32_t pool_credits(const pk_net *n, int64_t port)
{
    int64_t links = n->t->links[port >> 1].mult, bytes = n->cfg.buffer * (links > 0 ? links : 1);
    return bytes > INT32_MAX ? INT32_MAX : (int32_t)bytes;
}

static void nic_append(pk_nic *nic, pk_msg *m)
{
    m->next = NULL;
    if (nic->tail)
        nic->tail->next = m;
    else
        nic->head = m;
    nic->tail = m;
}

/* ---- packets ---------------------------------------------------------------------------- */

/* Delivered packets are kept for the next ones (a large all-to-all cuts millions of
 * packets, and malloc spent 40 % of such a run on them); new ones come from 64-byte
 * aligned slabs, so that a packet is one cache line. */
enum { PK_SLAB = 32768 }; /* 2 MiB: huge pages (pk_alloc_hot) */

static pk_packet *packet_new(pk_net *n)
{
    pk_packet *p = n->spare;
    if (p) {
        n->spare = p->next;
    } else {
        if (n->nslabs == 0 || n->slab_used == PK_SLAB) {
            n->slabs = xrealloc(n->slabs, (size_t)(n->nslabs + 1) * sizeof *n->slabs);
            n->slabs[n->nslabs] = pk_alloc_hot(PK_SLAB * sizeof(pk_packet));
            n->nslabs++;
            n->slab_used = 0;
        }
        p = &n->slabs[n->nslabs - 1][n->slab_used++];
    }
    *p = (pk_packet){0};
    return p;
}

static void packet_recycle(pk_net *n, pk_packet *p)
{
    p->next = n->spare;
    n->spare = p;
}

/* ---- ports ------------------------------------------------------------------------------ */

static void deliver(pk_net *n, pk_packet *p)
{
    pk_msg *m = p->msg;
    if (++n->delivered == n->cfg.fault_drop) { /* tests: lose this packet */
        packet_recycle(n, p);
        return;
    }
    m->delivered_bytes += p->bytes;
    if (n->delivered == n->cfg.fault_dup) /* tests: this packet arrives twice */
        m->delivered_bytes += p->bytes;
    if (p->ready > m->done_at)
        m->done_at = p->ready;
    packet_recycle(n, p);
    if (--m->to_deliver == 0)
        pk_msg_delivered(n, m);
}

/* The packet left the port's queue and crossed its link (serialization done); it now
 * holds the credit of p->pool, the far buffer it entered (none: it is home). */
void pk_port_crossed(pk_net *n, pk_port *pt, pk_packet *p)
{
    if (++n->packet_hops == n->cfg.fault_resend) /* tests: the port sends it twice */
        pt->bytes_out += p->bytes;
    pt->bytes_out += p->bytes;
    if (n->rank_tally) /* several jobs: each hop on its sending job's tally, else per port
                          when the network is freed (pk_net_free) */
        traffic_tally_hop(n->rank_tally[p->msg->src_rank], p->port, p->bytes);
    if (p->holding >= 0)
        credit_return(n, p->holding, p->bytes);
    p->holding = p->pool;
    p->at = p->to;
    p->hops++;
    p->ready = pk_now(n) + pt->lat;
    if (p->holding < 0)
        deliver(n, p);
    else
        pk_port_enqueue(n, p, pk_route(n, p));
}

/* The downstream credit pool a packet needs at its port: none (-1) into its destination
 * host, else its virtual channel (links crossed so far) of the port's far buffer. */
static int32_t needed_pool(const pk_net *n, const pk_packet *p)
{
    if (p->to == p->msg->dst_host)
        return -1;
    int vc = p->hops < n->nvc ? p->hops : n->nvc - 1;
    return pk_pool(n, p->port, vc);
}

int pk_port_next(pk_net *n, pk_port *pt, double now, pk_packet **p)
{
    if (pt->packets == 0)
        return PK_IDLE;
    *p = pk_queue_take(n, pt, now);
    if (*p)
        return PK_BUSY;
    *p = pt->flying; /* a credit returned meanwhile is seen when it has arrived */
    return *p ? PK_SLEEP : PK_CREDIT; /* PK_CREDIT: a credit or a packet wakes it */
}

void pk_port_enqueue(pk_net *n, pk_packet *p, pk_next h)
{
    p->port = h.port;
    p->to = h.to;
    pk_port *pt = &n->ports[p->port];
    if (!pt->net) {
        const topo_link *l = &n->t->links[h.port / 2];
        pt->net = n;
        pt->bw = l->bw;
        pt->lat = l->lat;
        pt->mult = l->mult;
        if (n->cfg.engine == PK_ENGINE_ACTORS)
            n->port_actor[p->port] = pka_port_start(n, pt, p->port);
        else
            pt->wait = PK_IDLE;
    }
    p->pool = needed_pool(n, p);
    pt->queued += p->bytes;
    pt->bytes_in += p->bytes;
    pk_queue_push(n, pt, p);
    port_wake(n, pt, PK_IDLE);
    port_wake(n, pt, PK_CREDIT); /* it may need no blocked channel */
}

/* ---- NICs ------------------------------------------------------------------------------- */

/* Bytes of the next packet of message m. An empty message still travels as one empty
 * packet (its arrival is what the receiver waits for), so it has one packet to cut. */
static int64_t next_packet_bytes(const pk_net *n, const pk_msg *m)
{
    if (m->bytes == 0)
        return 0;
    int64_t mtu = n->cfg.mtu, cut = (m->bytes + mtu - 1) / mtu - m->to_cut; /* cut so far */
    int64_t rest = m->bytes - cut * mtu;
    return rest < mtu ? rest : mtu;
}

int pk_nic_cut(pk_net *n, pk_nic *nic)
{
    pk_msg *m = nic->head;
    if (!m)
        return PK_IDLE;
    int64_t pool = pk_inject_pool(n, nic->host);
    int64_t bytes = next_packet_bytes(n, m);
    if (n->credit[pool] < bytes)
        return PK_CREDIT;
    n->credit[pool] -= (int32_t)bytes;
    nic->head = m->next; /* round robin: m goes to the back if it has more */
    if (!nic->head)
        nic->tail = NULL;
    if (--m->to_cut > 0)
        nic_append(nic, m);
    pk_packet *p = packet_new(n);
    p->msg = m;
    p->bytes = (int32_t)bytes;
    p->at = nic->host;
    p->via = -1;
    p->ready = pk_now(n);
    p->holding = (int32_t)pool;
    pk_port_enqueue(n, p, pk_route(n, p));
    return PK_BUSY;
}

void pk_nic_add(pk_net *n, pk_msg *m)
{
    pk_nic *nic = &n->nics[m->src_host];
    if (!nic->net) {
        nic->net = n;
        nic->host = m->src_host;
        if (n->cfg.engine == PK_ENGINE_ACTORS)
            nic->actor = pka_nic_start(n, nic);
        else
            nic->wait = PK_IDLE;
    }
    nic_append(nic, m);
    nic_wake(n, nic, PK_IDLE);
}

/* ---- the network ------------------------------------------------------------------------ */

void pk_pools_layout(pk_net *n)
{
    n->vc_shift = 0;
    while ((1 << n->vc_shift) < n->nvc && (1 << n->vc_shift) < PK_DENSE_VCS)
        n->vc_shift++;
    int dense = 1 << n->vc_shift;
    n->pool_over = n->nports << n->vc_shift;
    n->pool_base = n->pool_over + (n->nvc > dense ? (int64_t)(n->nvc - dense) * n->nports : 0);
}

void pk_net_rank_tallies(pk_net *n, traffic_tally *const *per_rank)
{
    n->rank_tally = per_rank;
}

pk_net *pk_net_new(const packet_config *c, topology *t, int32_t P, const int32_t *host_of_rank,
                   sg_host_t actor_host, traffic_tally *tally)
{
    pk_net *n = xcalloc(1, sizeof *n);
    n->cfg = *c;
    n->t = t;
    n->P = P;
    n->host_of_rank = host_of_rank;
    n->actor_host = actor_host;
    n->tally = tally;
    n->nports = 2 * t->nlinks;
    n->ports = pk_alloc_hot((size_t)(n->nports > 0 ? n->nports : 1) * sizeof *n->ports);
    memset(n->ports, 0, (size_t)n->nports * sizeof *n->ports);
    if (c->engine == PK_ENGINE_ACTORS)
        n->port_actor = xcalloc((size_t)(n->nports > 0 ? n->nports : 1), sizeof *n->port_actor);
    /* a channel per link crossed: a Valiant path is at most two minimal routes */
    n->nvc = c->fault_one_vc ? 1 : (c->routing == PK_ROUTE_UGAL ? 2 : 1) * t->max_route_hops + 1;
    pk_pools_layout(n);
    int64_t pools = n->pool_base + t->nhosts;
    n->credit = pk_alloc_hot((size_t)pools * sizeof *n->credit);
    for (int64_t i = 0; i < n->pool_base; i++)
        n->credit[i] = pool_credits(n, pk_pool_port(n, i));
    for (int64_t i = n->pool_base; i < pools; i++) /* a NIC's injection buffer */
        n->credit[i] = (int32_t)c->buffer;
    n->nics = xcalloc((size_t)t->nhosts, sizeof *n->nics);
    n->ranks = xcalloc((size_t)P, sizeof *n->ranks);
    n->has_next_hops = t->next_hops != NULL;
    n->maxdeg = topo_max_degree(t);
    n->scratch = xmalloc((size_t)(n->maxdeg + 1) * sizeof *n->scratch);
    n->route_scratch = xmalloc((size_t)(t->max_route_hops + 1) * sizeof *n->route_scratch);
    pk_route_init(n, 0);
    if (c->routing == PK_ROUTE_UGAL && t->ngroups > 0) {
        n->group_host = xmalloc((size_t)t->ngroups * sizeof *n->group_host);
        for (int32_t h = t->nhosts - 1; h >= 0; h--)
            if (t->group[h] >= 0)
                n->group_host[t->group[h]] = h;
    }
    n->rng = c->seed * 0x9E3779B97F4A7C15ull + 1;
    n->free_req = -1;
    n->now = simgrid_get_clock();
    if (c->engine == PK_ENGINE_LOOP)
        pk_loop_start(n);
    return n;
}

void pk_net_free(pk_net *n)
{
    if (!n)
        return;
    fl_net_free(n); /* the fluid network's part, if any */
    for (int64_t i = 0; i < n->nports; i++) {
        if (n->ports[i].bytes_in > 0 && !n->rank_tally) /* what the port took, which it sent
                                                           if the check passed */
            traffic_tally_hop(n->tally, i, n->ports[i].bytes_in);
        pk_queue_free(&n->ports[i]);
    }
    for (int64_t i = 0; i < n->nslabs; i++)
        free(n->slabs[i]);
    free(n->slabs);
    for (pk_msg *m = n->spare_msgs, *next; m; m = next) {
        next = m->next;
        free(m);
    }
    free(n->route_scratch);
    free(n->ports);
    free(n->port_actor);
    free(n->credit);
    free(n->nics);
    free(n->ranks);
    free(n->pairs);
    pk_route_free(n);
    free(n->scratch);
    free(n->group_host);
    free(n->reqs);
    free(n->woken);
    free(n->deferred);
    pk_heap_free(&n->heap);
    free(n);
}

int pk_net_check(const pk_net *n, cs_error *err)
{
    if (n->fluid && fl_net_check(n, err) < 0)
        return -1;
    for (int64_t i = 0; i < n->nports; i++) {
        const pk_port *pt = &n->ports[i];
        if (pt->queued != 0)
            return cs_fail(err, "packet model: network deadlock: %lld bytes stuck at port %lld "
                                "(link %lld), waiting for buffer credits",
                           (long long)pt->queued, (long long)i, (long long)(i / 2));
        if (pt->bytes_in != pt->bytes_out || pt->in_buffer != 0)
            return cs_fail(err, "packet model: port %lld (link %lld) took %lld bytes and sent "
                                "%lld (%lld still queued, %lld in its downstream buffer)",
                           (long long)i, (long long)(i / 2), (long long)pt->bytes_in,
                           (long long)pt->bytes_out, (long long)pt->queued,
                           (long long)pt->in_buffer);
    }
    if (n->bad_msgs != 0)
        return cs_fail(err, "packet model: %lld message(s) delivered other than their bytes",
                       (long long)n->bad_msgs);
    if (n->msgs_open != 0)
        return cs_fail(err, "packet model: %lld message(s) never completed (packets lost)",
                       (long long)n->msgs_open);
    return 0;
}

int64_t pk_net_packet_hops(const pk_net *n)
{
    return n->packet_hops;
}

void pk_net_stats(const pk_net *n, pk_run_stats *s)
{
    *s = (pk_run_stats){.packet_hops = n->packet_hops, .events = n->events,
                        .event_digest = n->event_digest,
                        .engine_cpu_s = n->engine_cpu_s, .ranks_cpu_s = n->ranks_cpu_s,
                        .first_event_cpu_s = n->first_event_cpu_s, .end_cpu_s = n->end_cpu_s};
}
