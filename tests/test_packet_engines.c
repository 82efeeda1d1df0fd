/* test_packet_engines.c - the packet model's loop engine (the default) against the actors
 * engine it replaces (`--packet-engine actors`), on every case of the packet model's
 * tests (test_sim_packet.c, tests/cli/packet.sh) plus ranks sharing a host and local
 * reduction work:
 *
 *   - deterministic (minimal, ECMP) routing: the same packet-hop count, the same bytes on every
 *     class of link and on the busiest link, and times within 0.5 %;
 *   - except on congested points where many packets compete at the same instants (an
 *     all-to-all with one-packet buffers, messages of two ranks sharing a NIC, round-robin
 *     ring traffic over one global link): there the order of simultaneous events decides
 *     which packet goes first, and the engines order them differently (the loop engine
 *     first come, first served; the actors engine as SimGrid schedules actors, which lets
 *     other ranks run while one starts a NIC actor, since creating an actor is a
 *     simcall); also ECMP on a fat tree where two flows share an uplink: the same hops and
 *     bytes, times within 10 % (measured: 0.6 % to 9.4 %);
 *   - adaptive and UGAL routing: both complete, every byte delivered (the conservation
 *     check passed) and the same host-link bytes (every packet injected and delivered
 *     once); their choices depend on the order of simultaneous events, so the paths may
 *     differ;
 *   - a planted difference (a wrong packet-hop count or a time off by 1 %) is reported by
 *     the comparison, so it can fail.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"

typedef struct point {
    const char *topology, *alg, *placement;
    coll_kind coll;
    int32_t P, dst, Q;
    int64_t bytes, mtu, buffer;
    pk_routing routing;
    int reduce; /* 1: the default reduction and copy rates, else free local work */
} point;

/* Runs p under one engine; 0, or -1 with the reason on stderr. */
static int run(const point *p, pk_engine engine, sim_result *res)
{
    sim_config c;
    cs_error err;
    test_sim_config(&c, p->topology, p->alg, p->coll, p->P, p->bytes);
    if (p->dst)
        c.spec.dst = p->dst;
    if (p->Q)
        c.spec.ranks_per_node = p->Q;
    if (!p->reduce)
        c.reduce_Bps = c.copy_Bps = 0;
    if (p->mtu)
        c.packet.mtu = p->mtu;
    if (p->buffer)
        c.packet.buffer = p->buffer;
    c.packet.routing = p->routing;
    c.packet.engine = engine;
    if (placement_parse(p->placement ? p->placement : "linear", &c.placement, &err) < 0 ||
        sim_model_parse("packet", &c.model, &err) < 0 || sim_run_isolated(&c, res, &err) < 0) {
        fprintf(stderr, "%s %s (%s engine): %s\n", p->topology, p->alg, pk_engine_name(engine),
                err.msg);
        return -1;
    }
    return 0;
}

/* The comparison: 1 if the loop engine's result `a` agrees with the actors engine's `b`
 * (exact: packet hops and bytes per link class; within 0.5 %: time), else 0 naming the
 * first difference. `deterministic` 0: only the host-link bytes must agree. */
static int engines_agree(const sim_result *a, const sim_result *b, int deterministic,
                         double time_tol)
{
    const sim_row *x = &a->row, *y = &b->row;
    if (x->bytes_host != y->bytes_host) {
        fprintf(stderr, "host-link bytes %lld vs %lld\n", (long long)x->bytes_host,
                (long long)y->bytes_host);
        return 0;
    }
    if (!deterministic)
        return 1;
    if (a->packet_hops != b->packet_hops || x->bytes_local != y->bytes_local ||
        x->bytes_global != y->bytes_global || x->max_link_bytes != y->max_link_bytes) {
        fprintf(stderr, "packet hops %lld vs %lld, local bytes %lld vs %lld, global %lld vs "
                        "%lld, busiest link %lld vs %lld\n",
                (long long)a->packet_hops, (long long)b->packet_hops,
                (long long)x->bytes_local, (long long)y->bytes_local,
                (long long)x->bytes_global, (long long)y->bytes_global,
                (long long)x->max_link_bytes, (long long)y->max_link_bytes);
        return 0;
    }
    if (!(fabs(x->time_s - y->time_s) <= time_tol * y->time_s) &&
        !(x->time_s == 0 && y->time_s == 0)) {
        fprintf(stderr, "time %.12g vs %.12g (%+.3f %%)\n", x->time_s, y->time_s,
                100 * (x->time_s / y->time_s - 1));
        return 0;
    }
    return 1;
}

static void compare(const point *p, int deterministic, double time_tol)
{
    sim_result loop, actors;
    int ok_loop = run(p, PK_ENGINE_LOOP, &loop) == 0;
    int ok_actors = run(p, PK_ENGINE_ACTORS, &actors) == 0;
    CU_ASSERT(ok_loop && ok_actors);
    if (!ok_loop || !ok_actors)
        return;
    int agree = engines_agree(&loop, &actors, deterministic, time_tol);
    if (!agree)
        fprintf(stderr, "  on %s %s P=%d\n", p->topology, p->alg, p->P);
    CU_ASSERT(agree);
    CU_ASSERT(loop.packet_hops > 0 || p->bytes == 0 || p->Q > 1);
    sim_result_free(&loop);
    sim_result_free(&actors);
}

#define LINE5 "torus dims=5 mesh=1 local_bw=1GBps local_lat=1us"
#define LINE4 "torus dims=4 local_bw=1GBps local_lat=1us"

/* test_sim_packet.c's and tests/cli/packet.sh's points, minimal routing */
static const point minimal_points[] = {
    {LINE5, "direct", NULL, COLL_P2P, 5, 4, 0, 4096, 4096, 1 << 20, 0, 0},
    {LINE5, "direct", NULL, COLL_P2P, 5, 4, 0, 64 * 4096, 4096, 1 << 20, 0, 0},
    {LINE5, "direct", NULL, COLL_P2P, 5, 4, 0, 65536, 1000, 1 << 20, 0, 0},
    {LINE5, "direct", NULL, COLL_P2P, 5, 4, 0, 0, 0, 0, 0, 0},
    {LINE5, "direct", NULL, COLL_P2P, 5, 4, 0, 10 * 4096 + 1, 0, 0, 0, 0},
    {"fattree leaves=2 hosts_per_leaf=1 spines=1 host_bw=1GBps host_lat=1us local_bw=1GBps "
     "local_lat=1us", "direct", NULL, COLL_P2P, 2, 1, 0, 16 * 4096, 4096, 0, 0, 0},
    {"torus dims=3 mesh=1 local_bw=1GBps local_lat=1us", "linear", NULL, COLL_GATHER, 3, 0, 0,
     3 << 21, 0, 0, 0, 0},
    {"torus dims=8", "ring", NULL, COLL_ALLREDUCE, 8, 0, 0, 8 << 20, 0, 0, 0, 0},
    {"torus dims=4x4", "direct", NULL, COLL_P2P, 16, 5, 0, 1 << 20, 0, 0, 0, 0},
    {"dragonfly p=1 a=4 h=2", "ring", "linear", COLL_ALLGATHER, 36, 0, 0, 36 * 32768, 0, 0, 0,
     0},
    {"fattree leaves=4 hosts_per_leaf=4 spines=4", "pairwise", NULL, COLL_ALLTOALL, 16, 0, 0,
     1 << 20, 0, 0, 0, 0},
    {"hyperx dims=4x4 T=1", "pairwise", NULL, COLL_ALLTOALL, 16, 0, 0, 1 << 20, 0, 0, 0, 0},
    {"dragonflyplus p=2 leaves=2 spines=2 h=2", "ring", "roundrobin", COLL_ALLGATHER, 20, 0, 0,
     5 << 20, 0, 0, 0, 0},
    {"torus dims=4x4", "ring", NULL, COLL_ALLREDUCE, 16, 0, 0, 8, 0, 0, 0, 0},
    {LINE4, "direct", NULL, COLL_P2P, 4, 2, 0, 16384, 4096, 65536, 0, 0},
    {"torus dims=4x4", "recursive_doubling", NULL, COLL_ALLREDUCE, 16, 0, 0, 256 << 10, 0, 0,
     0, 0},
    {"torus dims=4x4", "direct", NULL, COLL_P2P, 16, 5, 0, 256 << 10, 8192, 128 << 10, 0, 0},
    /* beyond those tests: local work, and loopback messages (two ranks per host) */
    {"dragonfly p=2 a=4 h=2", "ring", NULL, COLL_ALLREDUCE, 64, 0, 0, 4 << 20, 0, 0, 0, 1},
    {"torus dims=4x4", "ring", NULL, COLL_ALLREDUCE, 32, 0, 2, 1 << 20, 0, 0, 0, 1},
};

/* the congested points (see the top of the file) */
static const point order_points[] = {
    {"torus dims=8", "linear", NULL, COLL_ALLTOALL, 8, 0, 0, 8 * 16384, 1024, 1024, 0, 0},
    {"torus dims=6x6", "linear", NULL, COLL_ALLTOALL, 36, 0, 0, 36 * 16384, 1024, 1024, 0, 0},
    {"dragonfly p=1 a=4 h=2", "ring", "roundrobin", COLL_ALLGATHER, 36, 0, 0, 36 * 32768, 0,
     0, 0, 0},
    {"torus dims=4x4", "rabenseifner", NULL, COLL_ALLREDUCE, 32, 0, 2, 1 << 20, 0, 0, 0, 1},
    /* ECMP (per flow: its paths do not depend on the order of events) where hash
     * collisions make two flows share an uplink */
    {"fattree leaves=4 hosts_per_leaf=4 spines=4", "pairwise", NULL, COLL_ALLTOALL, 16, 0, 0,
     1 << 20, 0, 0, PK_ROUTE_ECMP, 0},
};

static void test_minimal_routing_agrees(void)
{
    for (size_t i = 0; i < sizeof minimal_points / sizeof minimal_points[0]; i++)
        compare(&minimal_points[i], 1, 0.005);
}

static void test_congested_points_agree(void)
{
    for (size_t i = 0; i < sizeof order_points / sizeof order_points[0]; i++)
        compare(&order_points[i], 1, 0.10);
}

static void test_adaptive_routing_completes(void)
{
    static const point adaptive[] = {
        {"torus dims=4x4", "direct", NULL, COLL_P2P, 16, 5, 0, 1 << 20, 0, 0, PK_ROUTE_ADAPTIVE, 0},
        {"torus dims=6x6", "linear", NULL, COLL_ALLTOALL, 36, 0, 0, 36 * 16384, 1024, 1024,
         PK_ROUTE_ADAPTIVE, 0},
        {"fattree leaves=4 hosts_per_leaf=4 spines=4", "pairwise", NULL, COLL_ALLTOALL, 16, 0,
         0, 1 << 20, 0, 0, PK_ROUTE_ADAPTIVE, 0},
        {"dragonfly p=1 a=4 h=2", "ring", "roundrobin", COLL_ALLGATHER, 36, 0, 0, 36 * 32768,
         0, 0, PK_ROUTE_UGAL, 0},
        {"dragonflyplus p=2 leaves=2 spines=2 h=2", "ring", "roundrobin", COLL_ALLGATHER, 20, 0,
         0, 5 << 20, 0, 0, PK_ROUTE_UGAL, 0},
    };
    for (size_t i = 0; i < sizeof adaptive / sizeof adaptive[0]; i++)
        compare(&adaptive[i], 0, 0);
}

/* The comparison fails on a planted difference: one packet-hop more, or 1 % more time. */
static void test_planted_difference_is_caught(void)
{
    sim_result a, b;
    CU_ASSERT_EQUAL_FATAL(run(&minimal_points[1], PK_ENGINE_LOOP, &a), 0);
    b = a;
    CU_ASSERT(engines_agree(&a, &b, 1, 0.005));
    b.packet_hops = a.packet_hops + 1;
    CU_ASSERT(!engines_agree(&a, &b, 1, 0.005));
    b.packet_hops = a.packet_hops;
    b.row.time_s = a.row.time_s * 1.01;
    CU_ASSERT(!engines_agree(&a, &b, 1, 0.005));
    b.row.time_s = a.row.time_s * 1.004; /* within 0.5 % */
    CU_ASSERT(engines_agree(&a, &b, 1, 0.005));
    b.row.bytes_host = a.row.bytes_host + 4096;
    CU_ASSERT(!engines_agree(&a, &b, 0, 0.005));
    sim_result_free(&a);
}

int main(void)
{
    static const test_case cases[] = {
        {"minimal routing: loop engine = actors engine", test_minimal_routing_agrees},
        {"congested points: same hops, times within 10 %", test_congested_points_agree},
        {"adaptive, ugal: both engines complete", test_adaptive_routing_completes},
        {"planted difference caught", test_planted_difference_is_caught},
        {NULL, NULL}};
    static const test_suite suites[] = {{"packet engines", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
