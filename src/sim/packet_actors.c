/* packet_actors.c - the packet model's earlier engine (`--packet-engine actors`): one
 * SimGrid actor per port and per NIC, sleeping for serialization times and suspending /
 * resuming one another (packet.h). Kept for one release so that the loop engine
 * (packet_loop.c) can be compared with it; the steps themselves are packet_net.c's.
 *
 * An actor with nothing to do records why in its `wait` field and suspends itself;
 * packet_net.c resumes it when that changes. Both kinds are SimGrid daemons: they end
 * with the last rank actor.
 */
#include <stdio.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "sim/packet_internal.h"

static void sleep_self(int *wait, int why)
{
    *wait = why;
    sg_actor_suspend(sg_actor_self());
}

static void port_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_port *pt = sg_actor_self_get_data();
    pk_net *n = pt->net;
    n->port_actor[pt - n->ports] = sg_actor_self(); /* see start_daemon */
    for (;;) {
        double now = simgrid_get_clock();
        pk_packet *p = NULL;
        int what = pk_port_next(n, pt, now, &p);
        if (what == PK_BUSY) {
            if (p->bytes > 0)
                sg_actor_sleep_for((double)p->bytes / pt->bw);
            pk_port_crossed(n, pt, p);
        } else if (what == PK_SLEEP) {
            sg_actor_sleep_for(p->ready - now);
        } else {
            sleep_self(&pt->wait, what);
        }
    }
}

static void nic_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    pk_nic *nic = sg_actor_self_get_data();
    nic->actor = sg_actor_self(); /* see start_daemon */
    for (;;) {
        int what = pk_nic_cut(nic->net, nic);
        if (what != PK_BUSY)
            sleep_self(&nic->wait, what);
    }
}

/* Creating an actor is a simcall: other actors run before it returns, and may find the
 * port or NIC created (its `net` set) but its actor not yet returned. So the actor records
 * itself first thing, before it can suspend; until it has run, its `wait` is PK_BUSY and
 * nobody resumes it (two ranks of one host used to start two NIC actors that way). */
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

sg_actor_t pka_port_start(pk_net *n, pk_port *pt, int64_t id)
{
    return start_daemon(n, "port", id, pt, port_main);
}

sg_actor_t pka_nic_start(pk_net *n, pk_nic *nic)
{
    return start_daemon(n, "nic", nic->host, nic, nic_main);
}
