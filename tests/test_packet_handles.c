/* test_packet_handles.c - the packet model's per-message API (packet.h: pk_isend,
 * pk_irecv, pk_wait_any, pk_compute, pk_rank_exit, pk_isend_on / pk_irecv_on with
 * channels and payloads, pk_detach, pk_timer), under both engines, driven by two
 * rank actors of this test on a single link (1 GB/s, 1 us; 4 KiB packets, 64 KiB buffers):
 *
 *   rank 0 posts a send of 64 KiB (16 packets) and then one of 4 KiB (1 packet) to rank
 *   1, which posts two receives. The NIC cuts its two messages round robin, so the small
 *   message's packet is the link's second: it arrives at 1 us + 2 x 4.096 us = 9.192 us,
 *   the big one's last packet is the 17th: 1 us + 17 x 4.096 us = 70.632 us (pipelined
 *   store-and-forward on one link, test_sim_packet.c). Both ranks' first pk_wait_any
 *   returns index 1 (the small message) at 9.192 us, the second index 0 at 70.632 us;
 *   pk_wait_any on no handle returns -1 at once. (Under the actors engine the NIC actor,
 *   started by the first message, may cut a packet more of it before the second message
 *   joins - creating an actor is a simcall, during which rank 1 is suspended - so there
 *   the small packet is the second or the third: 9.192 us or 13.288 us);
 *   - then rank 0 computes for 5 us (pk_compute) and sends 0 bytes with pk_send / pk_wait
 *     (one empty packet: 1 us), which rank 1 receives with pk_recv / pk_wait: both wait
 *     until 70.632 + 5 + 1 = 76.632 us, and pk_wait does not wait for handles;
 *   - then (at T = 76.632 us) channels, payloads, pk_detach and pk_timer: rank 0 sends
 *     4 KiB on channel 0 (payload &m0) and 0 bytes on channel 7 (payload &m7, detached);
 *     rank 1 posts a receive on channel 7, waits for it or a 0.5 us timer: the timer
 *     first (index 1, T + 0.5 us); then posts a receive on channel 0 and waits for both:
 *     channel 7's empty packet arrives first (index 0, T + 1 us; its payload &m7, although
 *     channel 0's send was posted first), channel 0's 4 KiB, started at T + 0.5 us, at
 *     T + 0.5 + 4.096 + 1 us = T + 5.596 us (payload &m0), when rank 0's send completes
 *     (the actors engine: payloads only, see pk_timer in packet.h);
 *   - the network's conservation check passes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "sim/packet.h"
#include "sim/sim_internal.h"
#include "testutil.h"

typedef struct seen {
    int first, second, none;    /* pk_wait_any's indexes */
    double t_first, t_second, t_end;
    int timer_first, ch7_first, payloads_ok; /* the channel / timer phase (rank 1) */
    double t_timer, t_ch7, t_ch0;
} seen;

static char m0, m7; /* payload markers */

/* The channel, payload, detach and timer phase (see the top of the file). */
static void channels_phase(pk_net *n, int32_t r, seen *s)
{
    if (r == 0) {
        pk_handle h0 = pk_isend_on(n, 0, 1, 0, 4096, &m0);
        pk_detach(n, pk_isend_on(n, 0, 1, 7, 0, &m7));
        pk_wait_any(n, 0, &h0, 1);
        s->t_ch0 = simgrid_get_clock();
        return;
    }
    void *p7 = NULL, *p0 = NULL;
    pk_handle h[2] = {pk_irecv_on(n, 1, 0, 7, &p7), pk_timer(n, 1, 0.5e-6)};
    s->timer_first = pk_wait_any(n, 1, h, 2) == 1;
    s->t_timer = simgrid_get_clock();
    h[1] = pk_irecv_on(n, 1, 0, 0, &p0);
    s->ch7_first = pk_wait_any(n, 1, h, 2) == 0;
    s->t_ch7 = simgrid_get_clock();
    pk_wait_any(n, 1, &h[1], 1);
    s->t_ch0 = simgrid_get_clock();
    s->payloads_ok = p7 == &m7 && p0 == &m0;
}

typedef struct world {
    pk_net *net;
    seen rank[2];
} world;

static world *the_world(void)
{
    return sg_actor_self_get_data();
}

static void rank_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    int32_t r = sg_actor_get_name(sg_actor_self())[4] - '0'; /* "rank0", "rank1" */
    world *w = the_world();
    pk_net *n = w->net;
    seen *s = &w->rank[r];
    pk_handle h[2];
    if (r == 0) {
        h[0] = pk_isend(n, 0, 1, 65536);
        h[1] = pk_isend(n, 0, 1, 4096);
    } else {
        h[0] = pk_irecv(n, 1, 0);
        h[1] = pk_irecv(n, 1, 0);
    }
    s->none = pk_wait_any(n, r, h, 0);
    s->first = pk_wait_any(n, r, h, 2);
    s->t_first = simgrid_get_clock();
    pk_handle rest = h[1 - s->first];
    s->second = pk_wait_any(n, r, &rest, 1);
    s->t_second = simgrid_get_clock();
    if (r == 0) {
        pk_compute(n, 0, 5e-6);
        pk_send(n, 0, 1, 0);
    } else {
        pk_recv(n, 1, 0);
    }
    pk_wait(n, r);
    s->t_end = simgrid_get_clock();
    channels_phase(n, r, s);
    pk_rank_exit(n, r);
}

/* In the child: the two ranks on the line, under engine *arg; answers the world. */
static int work(const void *arg, void **payload, size_t *len, cs_error *err)
{
    topology *t = NULL;
    char platform[4096], name[2][64];
    if (topo_build_spec("torus dims=2 mesh=1 local_bw=1GBps local_lat=1us", &t, err) < 0 ||
        topo_platform_path(t, platform, sizeof platform, err) < 0)
        return -1;
    sim_simgrid_start(SIM_MODEL_CM02, platform);
    packet_config c;
    packet_config_init(&c);
    c.engine = *(const pk_engine *)arg;
    traffic_tally tally;
    traffic_tally_init(&tally, t);
    static const int32_t host_of_rank[2] = {0, 1};
    sg_host_t host[2];
    for (int i = 0; i < 2; i++) {
        topo_sg_host_name(t, i, name[i], sizeof name[i]);
        host[i] = sg_host_by_name(name[i]);
    }
    world *w = calloc(1, sizeof *w);
    w->net = pk_net_new(&c, t, 2, host_of_rank, host[0], &tally);
    for (int i = 0; i < 2; i++) {
        sg_actor_t a = sg_actor_init(i ? "rank1" : "rank0", host[i]);
        sg_actor_set_data(a, w);
        sg_actor_start_(a, rank_main, 0, NULL);
    }
    simgrid_run();
    int rc = pk_net_check(w->net, err);
    pk_net_free(w->net);
    traffic_tally_free(&tally);
    topo_free(t);
    *payload = w;
    *len = sizeof *w;
    return rc;
}

static int near(double got, double want)
{
    return test_close_rel(got, want, 1e-6);
}

static void check_engine(pk_engine e)
{
    void *payload = NULL;
    size_t len = 0;
    cs_error err;
    int rc = sim_run_in_child(work, &e, &payload, &len, &err);
    if (rc < 0)
        fprintf(stderr, "%s engine: %s\n", pk_engine_name(e), err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(len, sizeof(world));
    const world *w = payload;
    const double s = 4096 / 1e9, lat = 1e-6;
    for (int r = 0; r < 2; r++) {
        const seen *x = &w->rank[r];
        CU_ASSERT_EQUAL(x->none, -1);
        CU_ASSERT_EQUAL(x->first, 1);
        CU_ASSERT_EQUAL(x->second, 0);
        if (e == PK_ENGINE_LOOP)
            CU_ASSERT(near(x->t_first, lat + 2 * s));
        CU_ASSERT(near(x->t_first, lat + 2 * s) || near(x->t_first, lat + 3 * s));
        CU_ASSERT(near(x->t_second, lat + 17 * s));
        CU_ASSERT(near(x->t_end, lat + 17 * s + 5e-6 + lat));
    }
    const seen *y = &w->rank[1];
    double T = w->rank[1].t_end;
    CU_ASSERT(y->ch7_first || e == PK_ENGINE_ACTORS);
    CU_ASSERT(y->payloads_ok);
    if (e == PK_ENGINE_LOOP) { /* actors: packet.h, pk_timer */
        CU_ASSERT(y->timer_first);
        CU_ASSERT(near(y->t_timer, T + 0.5e-6));
        CU_ASSERT(near(y->t_ch7, T + lat));
        CU_ASSERT(near(y->t_ch0, T + 0.5e-6 + s + lat));
        CU_ASSERT(near(w->rank[0].t_ch0, T + 0.5e-6 + s + lat));
    }
    free(payload);
}

static void test_loop_engine(void)
{
    check_engine(PK_ENGINE_LOOP);
}

static void test_actors_engine(void)
{
    check_engine(PK_ENGINE_ACTORS);
}

int main(void)
{
    static const test_case cases[] = {
        {"isend / irecv / wait_any / compute, loop engine", test_loop_engine},
        {"isend / irecv / wait_any / compute, actors engine", test_actors_engine},
        {NULL, NULL}};
    static const test_suite suites[] = {{"packet handles", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
