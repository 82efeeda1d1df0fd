/* exec_net.c - the rank executor's transport (sim_exec.c; declared in sim_internal.h):
 * posting a message's put or get on a channel and waiting for the first of them to end,
 * over SimGrid's mailboxes (flow models) or the packet network (pk_*, packet.h).
 *
 * A channel names one stream of matched messages: the data direction a -> b, the tag, and
 * the kind (the data or a rendezvous request; a rendezvous reply; rendezvous data). The
 * flow models use mailbox "a>b", "a>b#tag", with ":c" (replies) or ":d" (rendezvous data)
 * appended, "Jk:" prepended for job k of several (sim_mailbox.h); SimGrid matches a mailbox's puts and gets in FIFO order, as the packet model
 * matches sends and receives of one channel (pk_isend_on / pk_irecv_on).
 */
#include <stdio.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "sim/sim_internal.h"

static sg_mailbox_t mailbox(sim_state *st, xn_chan c)
{
    return sim_mailbox(&st->mailboxes, st->job, c.a, c.b, c.tag, c.kind);
}

/* The packet model's channel number: 0 for the untagged data, as pk_isend's. */
static int64_t pk_channel(xn_chan c)
{
    return (int64_t)c.tag * 3 + c.kind;
}

int xn_put(sim_state *st, int32_t rank, int32_t to, xn_chan c, int64_t bytes, void *payload,
           int detached, sim_exec_scratch *x, size_t k)
{
    if (st->net) {
        pk_handle h = pk_isend_on(st->net, st->rank0 + rank, st->rank0 + to, pk_channel(c), bytes, payload);
        if (detached) {
            pk_detach(st->net, h);
            return 0;
        }
        x->pks[k] = h;
        return 1;
    }
    if (detached) {
        sg_comm_detach(sg_mailbox_put_init(mailbox(st, c), payload, bytes), NULL);
        return 0;
    }
    x->comms[k] = sg_mailbox_put_async(mailbox(st, c), payload, bytes);
    return 1;
}

void xn_get(sim_state *st, int32_t rank, int32_t from, xn_chan c, void **payload_out,
            sim_exec_scratch *x, size_t k)
{
    if (st->net)
        x->pks[k] = pk_irecv_on(st->net, st->rank0 + rank, st->rank0 + from, pk_channel(c), payload_out);
    else
        x->comms[k] = sg_mailbox_get_async(mailbox(st, c), payload_out);
}

void xn_move(sim_exec_scratch *x, size_t from, size_t to)
{
    x->comms[to] = x->comms[from];
    x->pks[to] = x->pks[from];
}

double sim_clock(const sim_state *st)
{
    return st->net ? pk_rank_clock(st->net) : simgrid_get_clock();
}

void xn_sleep(sim_state *st, int32_t rank, double seconds)
{
    if (st->net) /* the loop engine keeps the ranks' clock (packet.h) */
        pk_compute(st->net, st->rank0 + rank, seconds);
    else if (seconds > 0)
        sg_actor_sleep_for(seconds);
}

/* The packet model: the first of the n handles, or of the timer (-1) for local work. */
static long pk_wait_first(sim_state *st, int32_t rank, sim_exec_scratch *x, size_t n,
                    double rest, pk_handle *timer)
{
    if (rest >= 0 && *timer < 0)
        *timer = pk_timer(st->net, st->rank0 + rank, rest);
    if (*timer >= 0)
        x->pks[n] = *timer; /* the scratch has room for one more */
    int k = pk_wait_any(st->net, st->rank0 + rank, x->pks, (int)n + (*timer >= 0));
    if (*timer >= 0 && (size_t)k == n) {
        *timer = -1;
        return -1;
    }
    return k;
}

long xn_wait(sim_state *st, int32_t rank, sim_exec_scratch *x, size_t n, double rest,
             pk_handle *timer)
{
    if (st->net)
        return pk_wait_first(st, rank, x, n, rest, timer);
    if (rest >= 0)
        return sim_wait_any_for(x->comms, n, rest > 0 ? rest : 0);
    return (long)sg_comm_wait_any(x->comms, n);
}
