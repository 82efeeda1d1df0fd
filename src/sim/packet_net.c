/* packet_net.c - the packet model's ports and NICs: queues, credits, and the SimGrid
 * actors that serialize packets (see packet.h for the model, packet_internal.h for the
 * state).
 *
 * A port actor repeats: take the oldest packet that has arrived (its ready time: the
 * previous hop's latency) and has a credit of the downstream buffer on its virtual
 * channel (none needed when the far node is the packet's destination host), serialize
 * it (sleep bytes / bw), give back the credit it held upstream, and pass it on: arrived
 * at the far node lat seconds later, it is delivered or routed into the next port. A NIC
 * actor cuts its active messages into packets, one message after the other, as long as
 * its injection buffer has credits. Both kinds are SimGrid daemons: they end with the
 * last rank actor.
 */
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/packet_internal.h"

/* ---- credits ---------------------------------------------------------------------------- */

int64_t pk_inject_pool(const pk_net *n, int32_t host)
{
    return n->nports * n->nvc + host;
}

static void wake(sg_actor_t *actor, int *wait, int why)
{
    if (*wait == why) {
        *wait = PK_BUSY;
        sg_actor_resume(*actor);
    }
}

static void sleep_self(int *wait, int why)
{
    *wait = why;
    sg_actor_suspend(sg_actor_self());
}

static void credit_return(pk_net *n, int64_t pool, int64_t bytes)
{
    n->credit[pool] += (int32_t)bytes;
    if (pool >= n->nports * n->nvc) { /* a NIC's injection buffer */
        pk_nic *nic = &n->nics[pool - n->nports * n->nvc];
        wake(&nic->actor, &nic->wait, PK_CREDIT);
        return;
    }
    pk_port *pt = &n->ports[pool / n->nvc];
    pt->in_buffer -= bytes;
    wake(&pt->actor, &pt->wait, PK_CREDIT);
}

int64_t pk_port_occupancy(const pk_net *n, topo_hop h)
{
    const pk_port *pt = &n->ports[traffic_resource(n->t, h)];
    return pt->queued + pt->in_buffer;
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

/* Delivered packets are kept for the next ones: a large all-to-all cuts millions of
 * packets, and malloc spent 40 % of such a run on them. */
static pk_packet *packet_new(pk_net *n)
{
    pk_packet *p = n->spare;
    if (!p)
        return xcalloc(1, sizeof *p);
    n->spare = p->next;
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
        pk_msg_complete(n, m);
}

/* The packet left the port's queue and crossed its link (serialization done); it now
 * holds the credit of p->pool, the far buffer it entered (none: it is home). */
static void crossed(pk_net *n, pk_port *pt, pk_packet *p)
{
    if (++n->packet_hops == n->cfg.fault_resend) /* tests: the port sends it twice */
        pt->bytes_out += p->bytes;
    pt->bytes_out += p->bytes;
    traffic_tally_hop(n->tally, traffic_resource(n->t, p->hop), p->bytes);
    if (p->holding >= 0)
        credit_return(n, p->holding, p->bytes);
    p->holding = p->pool;
    p->at = topo_hop_head(n->t, p->hop);
    p->hops++;
    p->ready = simgrid_get_clock() + pt->lat;
    if (p->holding < 0)
        deliver(n, p);
    else {
        pk_route(n, p);
        pk_port_enqueue(n, p);
    }
}

/* The downstream credit pool a packet needs at its port: none (-1) into its destination
 * host, else its virtual channel (links crossed so far) of the port's far buffer. */
static int64_t needed_pool(const pk_net *n, const pk_packet *p)
{
    if (topo_hop_head(n->t, p->hop) == p->msg->dst_host)
        return -1;
    int vc = p->hops < n->nvc ? p->hops : n->nvc - 1;
    return traffic_resource(n->t, p->hop) * n->nvc + vc;
}

static void port_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_port *pt = sg_actor_self_get_data();
    pk_net *n = pt->net;
    for (;;) {
        if (pt->packets == 0) {
            sleep_self(&pt->wait, PK_IDLE);
            continue;
        }
        double now = simgrid_get_clock();
        pk_packet *p = pk_queue_take(n, pt, now);
        if (p) {
            if (p->bytes > 0)
                sg_actor_sleep_for((double)p->bytes / pt->bw);
            crossed(n, pt, p);
            continue;
        }
        if (pt->flying) /* a credit returned meanwhile is seen when it has arrived */
            sg_actor_sleep_for(pt->flying->ready - now);
        else /* every arrived packet waits for a credit: a credit or a packet wakes it */
            sleep_self(&pt->wait, PK_CREDIT);
    }
}

static sg_actor_t start_daemon(pk_net *n, const char *kind, int64_t id, void *data,
                               void (*code)(int, char **))
{
    char name[48];
    snprintf(name, sizeof name, "%s%lld", kind, (long long)id);
    sg_actor_t a = sg_actor_init(name, n->actor_host);
    sg_actor_set_data(a, data);
    sg_actor_start_(a, code, 0, NULL);
    sg_actor_daemonize(a);
    return a;
}

void pk_port_enqueue(pk_net *n, pk_packet *p)
{
    int64_t id = traffic_resource(n->t, p->hop);
    pk_port *pt = &n->ports[id];
    if (!pt->actor) {
        const topo_link *l = &n->t->links[p->hop.link];
        pt->net = n;
        pt->bw = l->bw;
        pt->lat = l->lat;
        pt->actor = start_daemon(n, "port", id, pt, port_main);
    }
    p->pool = needed_pool(n, p);
    pt->queued += p->bytes;
    pt->bytes_in += p->bytes;
    pk_queue_push(pt, p);
    wake(&pt->actor, &pt->wait, PK_IDLE);
    wake(&pt->actor, &pt->wait, PK_CREDIT); /* it may need no blocked channel */
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

static void nic_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_nic *nic = sg_actor_self_get_data();
    pk_net *n = nic->net;
    int64_t pool = pk_inject_pool(n, nic->host);
    for (;;) {
        pk_msg *m = nic->head;
        if (!m) {
            sleep_self(&nic->wait, PK_IDLE);
            continue;
        }
        int64_t bytes = next_packet_bytes(n, m);
        if (n->credit[pool] < bytes) {
            sleep_self(&nic->wait, PK_CREDIT);
            continue;
        }
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
        p->ready = simgrid_get_clock();
        p->holding = pool;
        pk_route(n, p);
        pk_port_enqueue(n, p);
    }
}

void pk_nic_add(pk_net *n, pk_msg *m)
{
    pk_nic *nic = &n->nics[m->src_host];
    if (!nic->actor) {
        nic->net = n;
        nic->host = m->src_host;
        nic->actor = start_daemon(n, "nic", m->src_host, nic, nic_main);
    }
    nic_append(nic, m);
    wake(&nic->actor, &nic->wait, PK_IDLE);
}

/* ---- the network ------------------------------------------------------------------------ */

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
    n->ports = xcalloc((size_t)n->nports, sizeof *n->ports);
    /* a channel per link crossed: a Valiant path is at most two minimal routes */
    n->nvc = c->fault_one_vc ? 1 : (c->routing == PK_ROUTE_UGAL ? 2 : 1) * t->max_route_hops + 1;
    int64_t pools = n->nports * n->nvc + t->nhosts;
    n->credit = xmalloc((size_t)pools * sizeof *n->credit);
    for (int64_t i = 0; i < pools; i++)
        n->credit[i] = (int32_t)c->buffer;
    n->nics = xcalloc((size_t)t->nhosts, sizeof *n->nics);
    n->ranks = xcalloc((size_t)P, sizeof *n->ranks);
    n->has_next_hops = t->next_hops != NULL;
    n->maxdeg = topo_max_degree(t);
    n->scratch = xmalloc((size_t)(n->maxdeg + 1) * sizeof *n->scratch);
    if (c->routing == PK_ROUTE_UGAL && t->ngroups > 0) {
        n->group_host = xmalloc((size_t)t->ngroups * sizeof *n->group_host);
        for (int32_t h = t->nhosts - 1; h >= 0; h--)
            if (t->group[h] >= 0)
                n->group_host[t->group[h]] = h;
    }
    n->rng = c->seed * 0x9E3779B97F4A7C15ull + 1;
    return n;
}

void pk_net_free(pk_net *n)
{
    if (!n)
        return;
    for (int64_t i = 0; i < n->nports; i++)
        pk_queue_free(&n->ports[i]);
    pk_packets_free(n->spare);
    free(n->ports);
    free(n->credit);
    free(n->nics);
    free(n->ranks);
    free(n->pairs);
    free(n->scratch);
    free(n->group_host);
    free(n);
}

int pk_net_check(const pk_net *n, cs_error *err)
{
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
