/* packet_loop.c - the packet model's loop engine (the default; packet.h): the network as
 * its own discrete-event simulation, driven from one SimGrid actor.
 *
 * Ports and NICs are plain structures (packet_internal.h); what they do next is
 * packet_net.c's. Their events wait in one heap (packet_heap.c), at most one per port
 * (its serialization ends, or its next packet arrives, or it has work again) and per NIC
 * (it has work again), plus one per message completing and per rank's local work ending.
 *
 * Rank actors stay SimGrid actors. `running` counts those not waiting in the model: the
 * engine actor sleeps (suspended) while any runs; the last one to wait or end resumes it.
 * It then runs events in time order until one wakes ranks, finishes the events of that
 * instant, moves SimGrid's clock to it (sg_actor_sleep_until: nothing else runs, so the
 * clock jumps) and resumes those ranks. Under the fluid network SimGrid's clock does not
 * move (moving it costs a sleep activity and a solve of SimGrid's models at every
 * wake-up): its ranks read the engine's clock (pk_rank_clock). The packet model keeps
 * SimGrid's clock, which differs from the engine's by up to SimGrid's surf/precision
 * (1 ns: SimGrid rounds a shorter sleep up to it) where two wake-ups are closer than
 * that; its results were computed with it. (The fluid network's instants are at least
 * surf/precision apart, so both clocks agree there.) With no event left and ranks still waiting the
 * network is stuck (a deadlock): the engine actor ends, SimGrid ends the run, and
 * pk_net_check names the stuck port.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/fluid.h"
#include "sim/packet_internal.h"

/* The port runs now, or, when every packet it has is still crossing the previous link,
 * when the first one arrives: what the actor engine's port does (wakes up now, finds
 * nothing arrived, sleeps until then), one event fewer. */
/* An event for port id when packet p, now on its way, arrives: p->ready is now plus the
 * latency of the link it is crossing (that of the port holding p's credit pool) when it
 * has just been sent, and then the event joins that delay's lane (packet_heap.c). */
static void push_at_arrival(pk_net *n, int64_t id, const pk_packet *p)
{
    if (p->holding >= 0 && p->holding < n->pool_base) {
        double d = n->ports[pk_pool_port(n, p->holding)].lat;
        if (n->now + d == p->ready) {
            pk_heap_push_after(&n->heap, n->now, d, PK_EV_PORT, id);
            return;
        }
    }
    pk_heap_push(&n->heap, p->ready, PK_EV_PORT, id, NULL);
}

void pk_loop_port_wake(pk_net *n, pk_port *pt)
{
    if (pt->nactive == 0 && pt->flying && pt->flying->ready > n->now)
        push_at_arrival(n, pt - n->ports, pt->flying);
    else
        pk_heap_push(&n->heap, n->now, PK_EV_PORT, pt - n->ports, NULL);
}

void pk_loop_nic_wake(pk_net *n, int32_t host)
{
    pk_heap_push(&n->heap, n->now, PK_EV_NIC, host, NULL);
}

/* The port does what it can now: serializes its next packet (an event when that ends),
 * or waits for the next arrival (an event then), or for a packet or a credit (no event:
 * packet_net.c wakes it). Empty packets cross at once. */
static void port_run(pk_net *n, pk_port *pt)
{
    int64_t id = pt - n->ports;
    for (;;) {
        pk_packet *p = NULL;
        int what = pk_port_next(n, pt, n->now, &p);
        if (what == PK_BUSY && p->bytes == 0) {
            pk_port_crossed(n, pt, p);
            continue;
        }
        if (what == PK_BUSY) {
            pt->current = p;
            pt->wait = PK_BUSY;
            pk_heap_push_after(&n->heap, n->now, (double)p->bytes / pt->bw, PK_EV_PORT_DONE, id);
        } else if (what == PK_SLEEP) {
            pt->wait = PK_BUSY; /* as the actor asleep: a credit does not wake it */
            push_at_arrival(n, id, p);
        } else {
            pt->wait = what;
        }
        return;
    }
}

static void run_event(pk_net *n, const pk_event *e)
{
    switch (e->kind) {
    case PK_EV_PORT: port_run(n, &n->ports[e->id]); break;
    case PK_EV_PORT_DONE: {
        pk_port *pt = &n->ports[e->id];
        pk_packet *p = pt->current;
        pt->current = NULL;
        pk_port_crossed(n, pt, p);
        port_run(n, pt);
        break;
    }
    case PK_EV_NIC: {
        pk_nic *nic = &n->nics[e->id];
        int what;
        while ((what = pk_nic_cut(n, nic)) == PK_BUSY)
            ;
        nic->wait = what;
        break;
    }
    case PK_EV_MSG_DONE: pk_msg_complete(n, e->msg); break;
    case PK_EV_RANK: pk_loop_wake_rank(n, (int32_t)e->id); break;
    case PK_EV_TIMER: pk_timer_fire(n, e->id); break;
    case PK_EV_FLUID: fl_run(n); break;
    }
}

/* Asks the memory for the port of the next event while this one runs: a port's two
 * cache lines are mostly out of the cache when its event comes (a large network has
 * thousands of ports), and an event takes about as long as fetching them. A hint only:
 * nothing depends on it. */
static void prefetch_next(const pk_net *n)
{
    int kind;
    int64_t id;
    if (pk_heap_peek(&n->heap, &kind, &id) && (kind == PK_EV_PORT || kind == PK_EV_PORT_DONE)) {
        const char *pt = (const char *)&n->ports[id];
        __builtin_prefetch(pt, 1);
        __builtin_prefetch(pt + 64, 1);
    }
}

/* ---- local work queued for the ranks (pk_wait_compute) ------------------------------
 * A rank that waits for its messages and then computes (a reduce step) would be woken at
 * the instant its messages end, resumed, and queue its local work (pk_compute: an event
 * at now + seconds) before suspending again. Under the fluid network the engine queues
 * that event for it instead, and the rank sleeps on: one suspension instead of two. The
 * event is pushed where the rank's own push would have been, so that every event keeps
 * its place among the others: the ranks of an instant run, once resumed, in the order
 * they were woken (pk_actors_resume), so a deferred rank's push comes after the pushes of
 * the ranks woken before it, which each flush the deferred pushes that precede them when
 * they resume (pk_loop_block), and before those woken after it; the engine pushes the
 * rest once the ranks have all run (or at once when none was woken in the instant). A
 * rank still handing over to the engine (not suspended) runs before the others: it is
 * woken as before and queues its work itself. */
static void push_deferred_reversed(pk_net *n);

/* The local work queued for rank r, now. */
static void push_work(pk_net *n, int32_t r)
{
    pk_rank *k = &n->ranks[r];
    pk_heap_push(&n->heap, n->now + k->compute_s * n->defer_compute, PK_EV_RANK, r, NULL);
    k->compute_s = 0;
}

static void push_deferred(pk_net *n, int32_t before)
{
    if (n->defer_late && before == INT32_MAX) { /* a test's planted fault */
        push_deferred_reversed(n);
        return;
    }
    while (n->deferred_next < n->ndeferred && n->deferred[n->deferred_next].pos < before)
        push_work(n, n->deferred[n->deferred_next++].rank);
    if (n->deferred_next == n->ndeferred)
        n->ndeferred = n->deferred_next = 0;
}

/* The planted fault of fluid_config.fault_defer = 2: the instant's deferrals pushed only
 * once its ranks have all run, and last first. */
static void push_deferred_reversed(pk_net *n)
{
    for (int32_t i = n->ndeferred - 1; i >= n->deferred_next; i--)
        push_work(n, n->deferred[i].rank);
    n->ndeferred = n->deferred_next = 0;
}

int pk_loop_defer_compute(pk_net *n, int32_t r)
{
    pk_rank *k = &n->ranks[r];
    if (!n->defer_compute || !k->suspended)
        return 0;
    k->waiting = PK_WAIT_TIMER;
    n->deferred[n->ndeferred++] = (pk_deferred){.pos = n->batch_n++, .rank = r};
    return 1;
}

/* The event digest (tests: two runs that must run the same events in the same order)
 * folds each event's time, kind and id; a message's completion by time and kind only,
 * its id being an address. FNV-1a's multiply over the three words. */
static uint64_t digest_event(uint64_t h, const pk_event *e)
{
    uint64_t t;
    memcpy(&t, &e->t, sizeof t);
    uint64_t w[3] = {t, (uint64_t)e->kind,
                     e->kind == PK_EV_MSG_DONE ? 0 : (uint64_t)e->id};
    for (int i = 0; i < 3; i++)
        h = (h ^ w[i]) * 0x100000001b3ull;
    return h;
}

/* Runs events until some ranks are woken and the events of that instant are done: 1,
 * or 0 when no event is left and no rank was woken. */
static int run_until_wake(pk_net *n)
{
    pk_event e;
    push_deferred(n, INT32_MAX); /* the ranks resumed last time have all run */
    n->batch_n = 0;
    for (;;) {
        double t = pk_heap_top(&n->heap);
        /* the fluid network: as SimGrid, what is due within surf/precision happens now */
        int now_too = n->fluid && t < n->now + FL_SURF_PRECISION;
        if ((n->nwoken > 0 || n->ndeferred > 0) && t > n->now && !now_too)
            return 1; /* (t = INFINITY too) */
        if (t == INFINITY)
            break;
        pk_heap_pop(&n->heap, &e);
        if (!now_too)
            n->now = e.t;
        n->events++;
        if (n->digest_events)
            n->event_digest = digest_event(n->event_digest, &e);
        prefetch_next(n);
        run_event(n, &e);
    }
    return n->nwoken > 0;
}

/* run_until_wake with the CPU split (pk_net_measure_cpu): two system calls per wake-up,
 * not per event; what came before the first run is setup, what runs between two runs
 * the ranks, what follows the last teardown. */
static int run_measured(pk_net *n)
{
    double cpu0 = cpu_seconds();
    if (n->first_event_cpu_s == 0)
        n->first_event_cpu_s = cpu0;
    else
        n->ranks_cpu_s += cpu0 - n->handoff_cpu_s;
    int more = run_until_wake(n);
    n->handoff_cpu_s = cpu_seconds();
    n->engine_cpu_s += n->handoff_cpu_s - cpu0;
    if (!more)
        n->end_cpu_s = n->handoff_cpu_s;
    return more;
}

double pk_rank_clock(const pk_net *n)
{
    return n->fluid ? n->now : simgrid_get_clock();
}

void pk_net_measure_cpu(pk_net *n)
{
    n->measure_cpu = 1;
}

static void engine_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_net *n = sg_actor_self_get_data();
    for (;;) {
        while (n->running > 0) {
            n->engine_waiting = 1;
            sg_actor_suspend(sg_actor_self());
        }
        int more = n->measure_cpu ? run_measured(n) : run_until_wake(n);
        if (!more)
            return; /* every rank ended, or the network is stuck */
        if (n->nwoken == 0) { /* deferrals only: their work is queued at the next run */
            if (n->handover) { /* as a resume would: the rank handing over suspends */
                n->resume_batches++;
                pk_actors_resume(n->woken, 0);
            }
            continue;
        }
        if (!n->fluid && n->now > simgrid_get_clock())
            sg_actor_sleep_until(n->now);
        int32_t k = n->nwoken;
        n->nwoken = 0;
        n->resume_batches++;
        n->running += k;
        pk_actors_resume(n->woken, k); /* one simcall for all of them */
    }
}

void pk_loop_start(pk_net *n)
{
    n->sg_clock0 = simgrid_get_clock();
    n->running = n->P;
    n->woken = xmalloc((size_t)(n->P > 0 ? n->P : 1) * sizeof *n->woken);
    n->deferred = xmalloc((size_t)(n->P > 0 ? n->P : 1) * sizeof *n->deferred);
    n->engine_actor = sg_actor_init("packet-engine", n->actor_host);
    sg_actor_set_data(n->engine_actor, n);
    sg_actor_start_(n->engine_actor, engine_main, 0, NULL);
    sg_actor_daemonize(n->engine_actor);
}

static void one_less_running(pk_net *n)
{
    if (--n->running == 0 && n->engine_waiting) {
        n->engine_waiting = 0;
        n->handover = 1;
        sg_actor_resume(n->engine_actor);
    }
}

void pk_loop_block(pk_net *n, int32_t r)
{
    /* a rank that slept in SimGrid (sg_actor_sleep_for) moved the clock past events the
     * engine has not run (under the fluid network, at all): a programming error, caught
     * here rather than silently wrong */
    double clock = simgrid_get_clock();
    if (clock > (n->fluid ? n->sg_clock0 : n->now + 1e-9 * (1 + n->now))) {
        fprintf(stderr, "collsim: internal: rank %d reached time %.9g in SimGrid, past the "
                        "packet engine's %.9g: under --packet-engine loop a rank's local work "
                        "must go through pk_compute\n", r, clock, n->fluid ? n->sg_clock0 : n->now);
        abort();
    }
    pk_rank *k = &n->ranks[r];
    if (!k->waiter)
        k->waiter = sg_actor_self();
    uint64_t batch = n->resume_batches;
    one_less_running(n);
    n->handover = 0;
    /* The last rank to wait resumed the engine, a simcall: other actors ran meanwhile. If
     * the engine woke this rank and resumed it then (a resume of an actor that is not
     * suspended does nothing), it must go on; the packet model's engine sleeps in
     * SimGrid between the two (sg_actor_sleep_until), and resumes it after. */
    if (k->waiting != PK_WAIT_NONE || n->resume_batches == batch) {
        k->suspended = 1;
        sg_actor_suspend(k->waiter);
        k->suspended = 0;
        if (!n->defer_late)
            push_deferred(n, k->pos); /* those woken before it have run */
    }
}

void pk_loop_wake_rank(pk_net *n, int32_t r)
{
    n->ranks[r].waiting = PK_WAIT_NONE;
    n->ranks[r].pos = n->batch_n++;
    n->woken[n->nwoken++] = n->ranks[r].waiter;
}

void pk_loop_rank_exit(pk_net *n, int32_t r)
{
    (void)r;
    one_less_running(n);
    n->handover = 0;
}
