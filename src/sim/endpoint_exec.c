/* endpoint_exec.c - a step's messages with endpoint costs, in SimGrid (endpoint_exec.h). */
#include "sim/endpoint_exec.h"

#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "common/util.h"
#include "sim/sim_internal.h"

/* What a pending communication of the step is. */
enum {
    EK_SEND_DATA,  /* the sender waits for its data to arrive */
    EK_SEND_REPLY, /* a rendezvous sender waits for the reply, then sends the data */
    EK_RECV_FIRST, /* a receive: eager data or a rendezvous request */
    EK_RECV_DATA,  /* the data of a rendezvous */
    EK_DONE
};

void endpoint_step_free(endpoint_step *s)
{
    free(s->msgs);
    free(s->sends);
    free(s->comms);
    free(s->slot);
    *s = (endpoint_step){0};
}

/* "a>b", "a>b:c" (rendezvous replies), "a>b:d" (rendezvous data). */
static sg_mailbox_t mailbox(int32_t from, int32_t to, const char *suffix)
{
    char name[48];
    snprintf(name, sizeof name, "%d>%d%s", from, to, suffix);
    return sg_mailbox_by_name(name);
}

void endpoint_step_reserve(endpoint_step *s, size_t nops)
{
    if (nops > s->cap) {
        s->cap = nops;
        s->msgs = xrealloc(s->msgs, s->cap * sizeof *s->msgs);
        s->sends = xrealloc(s->sends, s->cap * sizeof *s->sends);
    }
}

/* Never moves msgs: posted receives point SimGrid at their payload field. */
static endpoint_msg *add_msg(endpoint_step *s, int kind, int32_t peer, int64_t bytes)
{
    if (s->n == s->cap)
        abort(); /* internal: endpoint_step_reserve was not called for this step's ops */
    endpoint_msg *m = &s->msgs[s->n++];
    *m = (endpoint_msg){.comm = NULL, .kind = kind, .peer = peer, .bytes = bytes};
    return m;
}

void endpoint_step_recv(sim_state *st, int32_t rank, endpoint_step *s, int32_t peer)
{
    endpoint_msg *m = add_msg(s, EK_RECV_FIRST, peer, 0);
    if (st->net) {
        pk_recv(st->net, rank, peer);
        m->kind = EK_DONE; /* the packet model's pk_wait waits for it */
        return;
    }
    m->comm = sg_mailbox_get_async(mailbox(peer, rank, ""), &m->payload);
}

void endpoint_step_send(endpoint_step *s, int32_t peer, int64_t bytes)
{
    s->sends[s->nsends++] = (int32_t)s->n;
    add_msg(s, EK_DONE, peer, bytes);
}

/* A message on the wire from rank `from` to rank `to`: its bytes on the route's links. */
static void count_wire(sim_state *st, int32_t from, int32_t to, int64_t bytes, void *route)
{
    sg_host_t src = st->rank_host[from], dst = st->rank_host[to];
    (void)route;
    if (src != dst)
        sim_pair_bytes_add(&st->pairs, &st->tally, st->host_of_rank[from], st->host_of_rank[to],
                           src, dst, bytes);
}

/* The rank is busy for `seconds`. Under the packet model's loop engine the engine owns the
 * clock while ranks wait, so the rank hands its busy time to it (pk_compute, packet.h). */
static void busy_for(sim_state *st, int32_t rank, double seconds)
{
    if (seconds <= 0)
        return;
    if (st->net)
        pk_compute(st->net, rank, seconds);
    else
        sg_actor_sleep_for(seconds);
}

/* The send overhead, then the wait for a free port: the rank is busy until the message
 * is injected. */
static void before_injection(sim_state *st, int32_t rank, int32_t peer)
{
    endpoint_sim *ep = st->ep;
    busy_for(st, rank, ep->cfg.send_overhead_s);
    double now = simgrid_get_clock();
    double at = endpoint_inject_at(&ep->cfg, &ep->ports, st->host_of_rank[rank],
                                   st->host_of_rank[peer], now);
    busy_for(st, rank, at - now);
}

static void inject(sim_state *st, int32_t rank, endpoint_msg *m, void *route)
{
    endpoint_sim *ep = st->ep;
    int64_t wire = endpoint_wire_bytes(&ep->cfg, m->bytes);
    before_injection(st, rank, m->peer);
    traffic_tally_message(&st->tally, st->host_of_rank[rank], st->host_of_rank[m->peer], wire);
    if (st->net) { /* the packet model counts its packets' own paths */
        pk_send(st->net, rank, m->peer, wire);
        return;
    }
    if (endpoint_rendezvous(&ep->cfg, m->bytes)) { /* the request takes the data's place */
        count_wire(st, rank, m->peer, ep->cfg.envelope_B, route);
        sg_comm_detach(sg_mailbox_put_init(mailbox(rank, m->peer, ""), &ep->request_tag,
                                           ep->cfg.envelope_B), NULL);
        m->kind = EK_SEND_REPLY;
        m->comm = sg_mailbox_get_async(mailbox(rank, m->peer, ":c"), &m->payload);
        return;
    }
    count_wire(st, rank, m->peer, wire, route);
    sg_mailbox_t mb = mailbox(rank, m->peer, "");
    int detached = ep->cfg.eager_set ? 1 : m->bytes <= st->eager_limit; /* smpi: < 64 KiB */
    if (detached) /* eager: complete for the sender once injected */
        sg_comm_detach(sg_mailbox_put_init(mb, st, wire), NULL);
    else {
        m->kind = EK_SEND_DATA;
        m->comm = sg_mailbox_put_async(mb, st, wire);
    }
}

/* A message has arrived: the receiver's overhead (the rank is busy). */
static void arrived(const endpoint_sim *ep)
{
    if (ep->cfg.recv_overhead_s > 0)
        sg_actor_sleep_for(ep->cfg.recv_overhead_s);
}

/* A communication of message m completed: the protocol's next move; returns 1 when the
 * message is done. */
static int advance(sim_state *st, int32_t rank, endpoint_msg *m, void *route)
{
    endpoint_sim *ep = st->ep;
    switch (m->kind) {
    case EK_SEND_REPLY: /* the receiver is ready: the data moves */
        count_wire(st, rank, m->peer, endpoint_wire_bytes(&ep->cfg, m->bytes), route);
        m->kind = EK_SEND_DATA;
        m->comm = sg_mailbox_put_async(mailbox(rank, m->peer, ":d"), st,
                                       endpoint_wire_bytes(&ep->cfg, m->bytes));
        return 0;
    case EK_RECV_FIRST:
        if (m->payload == &ep->request_tag) { /* a rendezvous: reply, then take the data */
            count_wire(st, rank, m->peer, ep->cfg.envelope_B, route);
            sg_comm_detach(sg_mailbox_put_init(mailbox(m->peer, rank, ":c"), st,
                                               ep->cfg.envelope_B), NULL);
            m->kind = EK_RECV_DATA;
            m->comm = sg_mailbox_get_async(mailbox(m->peer, rank, ":d"), &m->payload);
            return 0;
        }
        arrived(ep); /* eager data */
        return 1;
    case EK_RECV_DATA: arrived(ep); return 1;
    default: return 1;
    }
}

/* Waits until every pending communication of the step has ended and its message is done. */
static void wait_step(sim_state *st, int32_t rank, endpoint_step *s, void *route)
{
    if (s->n > 0) {
        s->comms = xrealloc(s->comms, s->n * sizeof *s->comms);
        s->slot = xrealloc(s->slot, s->n * sizeof *s->slot);
    }
    size_t k = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->msgs[i].kind != EK_DONE) {
            s->comms[k] = s->msgs[i].comm;
            s->slot[k++] = i;
        }
    while (k > 0) {
        ssize_t at = sg_comm_wait_any(s->comms, k);
        if (at < 0)
            break; /* cannot happen without a timeout; a deadlock ends the run instead */
        endpoint_msg *m = &s->msgs[s->slot[at]];
        if (advance(st, rank, m, route)) { /* remove it: the last one takes its place */
            s->comms[at] = s->comms[k - 1];
            s->slot[at] = s->slot[k - 1];
            k--;
        } else {
            s->comms[at] = m->comm;
        }
    }
}

void endpoint_step_run(sim_state *st, int32_t rank, endpoint_step *s, void *route)
{
    for (size_t i = 0; i < s->nsends; i++)
        inject(st, rank, &s->msgs[s->sends[i]], route);
    if (st->net) {
        pk_wait(st->net, rank);
        size_t nrecv = s->n - s->nsends; /* processed in turn once all have arrived */
        busy_for(st, rank, (double)nrecv * st->ep->cfg.recv_overhead_s);
    } else {
        wait_step(st, rank, s, route);
    }
    s->n = s->nsends = 0;
}
