/* test_sim_faults.c - simulated points with failed and degraded links, against closed
 * forms (CM02, exact max-min; docs/topologies.md "Faults"):
 *
 *   ring allreduce on a ring of P hosts whose link h0-h1 failed: every step's message
 *   h0 -> h1 goes the long way round, P-1 links, alone on the reverse direction of each
 *   (the other messages go h_i -> h_i+1), so each of the 2(P-1) steps takes
 *   (P-1) alpha + n/(P beta) instead of alpha + n/(P beta); the traffic model counts
 *   those P-1 links per message;
 *   one message over one link degraded by 0.5: alpha + S/(0.5 beta);
 *   ranks on two parts of a cut ring: an error naming two ranks, in every model;
 *   the packet model (minimal) takes the long way too;
 *   adaptive routing and ECMP where failed links leave one shortest path: the packet
 *   model's closed form on that path, as minimal routing.
 * Every point runs in a child process (sim_run_isolated).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/sim.h"
#include "testutil.h"

static int run(const char *topology, coll_kind coll, const char *alg, int32_t P, int64_t bytes,
               const char *model, sim_result *res, cs_error *err)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", topology);
    snprintf(c.algorithm, sizeof c.algorithm, "%s", alg);
    coll_spec_init(&c.spec, coll, P, bytes);
    c.reduce_Bps = c.copy_Bps = 0; /* network only */
    if (sim_model_parse(model, &c.model, err) < 0)
        return -1;
    return sim_run_isolated(&c, res, err);
}

static int close_rel(double got, double want, double rel)
{
    if (fabs(got - want) <= rel * fabs(want))
        return 1;
    fprintf(stderr, "got %.12g, expected %.12g (rel %.3g)\n", got, want, fabs(got - want) / want);
    return 0;
}

#define RING "torus dims=%d local_bw=1GBps local_lat=10us"

static void test_ring_allreduce_long_way(void)
{
    const int32_t Ps[] = {4, 8};
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        int32_t P = Ps[i];
        char intact[128], cut[160];
        snprintf(intact, sizeof intact, RING, P);
        snprintf(cut, sizeof cut, RING " fail_links=h0-h1", P);
        int64_t n = 8 << 20;
        double alpha = 10e-6, beta = 1e9, chunk = (double)n / P;
        sim_result a, b, tr;
        cs_error err;
        CU_ASSERT_FATAL(run(intact, COLL_ALLREDUCE, "ring", P, n, "cm02", &a, &err) == 0);
        CU_ASSERT_FATAL(run(cut, COLL_ALLREDUCE, "ring", P, n, "cm02", &b, &err) == 0);
        CU_ASSERT(close_rel(a.row.time_s, 2.0 * (P - 1) * (alpha + chunk / beta), 1e-9));
        CU_ASSERT(close_rel(b.row.time_s, 2.0 * (P - 1) * ((P - 1) * alpha + chunk / beta), 1e-9));
        /* traffic: 2(P-1) steps of P messages of n/P bytes; h0 -> h1 crosses P-1 links */
        CU_ASSERT_FATAL(run(cut, COLL_ALLREDUCE, "ring", P, n, "traffic", &tr, &err) == 0);
        double want = 2.0 * (P - 1) * chunk * ((P - 1) + (P - 1));
        CU_ASSERT(close_rel((double)tr.row.bytes_local, want, 0));
        CU_ASSERT(strstr(b.row.topology, "fail_links=h0-h1") != NULL);
        sim_result_free(&a);
        sim_result_free(&b);
        sim_result_free(&tr);
    }
}

/* A degraded link: half the bandwidth, twice the transfer time (latency unchanged). */
static void test_degraded_link_halves_bandwidth(void)
{
    char intact[128], slow[160];
    snprintf(intact, sizeof intact, RING, 4);
    snprintf(slow, sizeof slow, RING " degrade_links=h0-h1:0.5", 4);
    int64_t S = 100000000;
    sim_result a, b;
    cs_error err;
    CU_ASSERT_FATAL(run(intact, COLL_BCAST, "linear", 2, S, "cm02", &a, &err) == 0);
    CU_ASSERT_FATAL(run(slow, COLL_BCAST, "linear", 2, S, "cm02", &b, &err) == 0);
    CU_ASSERT(close_rel(a.row.time_s, 10e-6 + S / 1e9, 1e-9));
    CU_ASSERT(close_rel(b.row.time_s, 10e-6 + S / 0.5e9, 1e-9));
    CU_ASSERT(close_rel(b.row.time_s / a.row.time_s, 2.0, 1e-3)); /* large: about twice */
    sim_result_free(&a);
    sim_result_free(&b);
}

static void test_disconnected_point_is_an_error(void)
{
    char cut[160]; /* parts h0..h3 and h4..h7 */
    snprintf(cut, sizeof cut, RING " fail_links=l3,l7", 8);
    const char *models[] = {"cm02", "traffic", "analytic", "packet"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        sim_result r;
        cs_error err;
        CU_ASSERT(run(cut, COLL_ALLREDUCE, "ring", 8, 1 << 16, models[m], &r, &err) < 0);
        CU_ASSERT(strstr(err.msg, "rank 0 (host h0) and rank 4 (host h4) cannot reach each "
                                  "other") != NULL);
    }
    sim_result r; /* ranks inside one part are fine: h0..h3, a line */
    cs_error err;
    CU_ASSERT(run(cut, COLL_ALLREDUCE, "ring", 4, 1 << 16, "cm02", &r, &err) == 0);
    sim_result_free(&r);
}

/* The packet model follows the remaining shortest route (minimal). */
static void test_packet_model(void)
{
    char intact[128], cut[160];
    snprintf(intact, sizeof intact, RING, 8);
    snprintf(cut, sizeof cut, RING " fail_links=h0-h1", 8);
    sim_result a, b;
    cs_error err;
    CU_ASSERT_FATAL(run(intact, COLL_BCAST, "linear", 2, 1 << 20, "packet", &a, &err) == 0);
    CU_ASSERT_FATAL(run(cut, COLL_BCAST, "linear", 2, 1 << 20, "packet", &b, &err) == 0);
    /* 6 more links of 10 us each on the way; the stream itself pipelines */
    CU_ASSERT(b.row.time_s >= a.row.time_s + 6 * 10e-6 * 0.999);
    CU_ASSERT(b.row.bytes_local == 7 * a.row.bytes_local);
    sim_result_free(&a);
    sim_result_free(&b);
}

/* Adaptive routing and ECMP around failed links (fault_hops.c), where one shortest path
 * remains: on an 8x8 torus without h0-h1 and h0-h56, the only 3-link path from h0 to h1
 * is y+, x+, y- (h0 h8 h9 h1: three hops that add up to x+1 are x+ with y+ and y-, or
 * x+ with x+ and x- on a ring of 8; every order but y+, x+, y- starts or ends with a
 * failed hop out of or into h0, or crosses h0-h1). One message of N packets of s bytes on that idle path of H = 3
 * links arrives at H lat + (N + H - 1) s / bw (test_sim_packet.c's closed form), as
 * under minimal routing, which takes the same path. */
static void test_packet_adaptive_single_path(void)
{
    const char *topo = "torus dims=8x8 local_bw=1GBps local_lat=1us fail_links=h0-h1,h0-h56";
    const int64_t N = 16, s = 4096;
    const double want = 3 * 1e-6 + (double)(N + 2) * s / 1e9;
    static const pk_routing routings[] = {PK_ROUTE_MINIMAL, PK_ROUTE_ADAPTIVE, PK_ROUTE_ECMP};
    for (size_t i = 0; i < 3; i++) {
        sim_config c;
        sim_config_init(&c);
        snprintf(c.topology, sizeof c.topology, "%s", topo);
        snprintf(c.algorithm, sizeof c.algorithm, "direct");
        coll_spec_init(&c.spec, COLL_P2P, 64, N * s);
        c.spec.dst = 1;
        c.reduce_Bps = c.copy_Bps = 0;
        c.model = SIM_MODEL_PACKET;
        c.packet.routing = routings[i];
        sim_result r;
        cs_error err;
        int rc = sim_run_isolated(&c, &r, &err);
        if (rc < 0)
            fprintf(stderr, "%s: %s\n", pk_routing_name(routings[i]), err.msg);
        CU_ASSERT_FATAL(rc == 0);
        CU_ASSERT(close_rel(r.row.time_s, want, 1e-6));
        CU_ASSERT_EQUAL(r.row.bytes_local, 3 * N * s); /* 3 links, none failed */
        sim_result_free(&r);
    }
}

int main(void)
{
    char dir[64];
    if (test_cache_dir_create(dir, sizeof dir) < 0)
        return 1;
    CU_initialize_registry();
    static const test_case cases[] = {
        {"ring allreduce goes the long way round", test_ring_allreduce_long_way},
        {"degrade 0.5 doubles the transfer time", test_degraded_link_halves_bandwidth},
        {"disconnected ranks are an error", test_disconnected_point_is_an_error},
        {"packet model", test_packet_model},
        {"packet model: adaptive and ecmp on the one remaining path", test_packet_adaptive_single_path},
        {NULL, NULL}};
    test_add_suite("sim faults", cases);
    int rc = test_run_suites();
    test_cache_dir_remove(dir);
    return rc;
}
