/* test_analytic.c - the analytic model (--model analytic) against closed forms, against the
 * cm02 flow model where it must be exact (contention-free or symmetric lock-step
 * schedules), against the traffic model's columns, and against itself with other windows.
 *
 * Closed forms (L: link latency, B: link bandwidth, n: vector bytes):
 *   ring (torus dims=P, one link per neighbour pair), allgather ring: P-1 steps of one
 *   block of n/P to the right neighbour, no link shared: (P-1)(L + n/(P B));
 *   crossbar (one switch, two host links per route), bcast binomial: log2 P steps, every
 *   sender's uplink and receiver's downlink used once: log2 P (2L + n/B); alltoall linear:
 *   every uplink and downlink carries P-1 messages of n/P at once: 2L + (P-1) n/(P B);
 *   ring allreduce with a reduction rate R: 2(P-1)(L + n/(P B)) + (P-1) n/(P R);
 *   two ranks of one host: intra_lat + n / intra_bw.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/analytic.h"
#include "sim/sim.h"
#include "topologies/topology.h"
#include "testutil.h"

#define RING8 "torus dims=8 local_bw=1GBps local_lat=1us router_lat=0s"
#define XBAR8                                                                              \
    "fattree levels=2 radix=16 leaves=1 hosts_per_leaf=8 host_bw=1GBps host_lat=1us "      \
    "router_lat=0s intra_bw=4GBps intra_lat=3us"
#define L 1e-6
#define B 1e9

typedef struct point {
    const char *topology;
    coll_kind coll;
    const char *alg;
    int32_t P, Q;
    int64_t bytes;
    double reduce_Bps; /* 0: free */
} point;

static int run_point(const point *p, const char *model, sim_result *res)
{
    sim_config c;
    test_sim_config(&c, p->topology, p->alg, p->coll, p->P, p->bytes);
    c.spec.ranks_per_node = p->Q ? p->Q : 1;
    c.reduce_Bps = p->reduce_Bps;
    c.copy_Bps = 0;
    c.per_rank = 1;
    cs_error err;
    if (sim_model_parse(model, &c.model, &err) < 0 || sim_run_isolated(&c, res, &err) < 0) {
        fprintf(stderr, "%s %s P=%d on %s: %s\n", model, p->alg, p->P, p->topology, err.msg);
        return -1;
    }
    return 0;
}

static double time_of(const point *p, const char *model)
{
    sim_result res;
    if (run_point(p, model, &res) < 0)
        return NAN;
    double t = res.row.time_s;
    sim_result_free(&res);
    return t;
}

static int close_rel(double got, double want, double rel)
{
    return test_close_rel(got, want, rel);
}

/* The closed form, the analytic model and cm02 agree. */
static void expect_exact(const point *p, double want)
{
    CU_ASSERT(close_rel(time_of(p, "analytic"), want, 1e-12));
    CU_ASSERT(close_rel(time_of(p, "cm02"), want, 1e-6));
}

static void test_ring_allgather(void)
{
    point p = {RING8, COLL_ALLGATHER, "ring", 8, 1, 8000000, 0};
    expect_exact(&p, 7 * (L + 1e6 / B));
}

static void test_crossbar_binomial_bcast(void)
{
    point p = {XBAR8, COLL_BCAST, "binomial_halving", 8, 1, 1000000, 0};
    expect_exact(&p, 3 * (2 * L + 1e6 / B));
}

static void test_crossbar_linear_alltoall_shares(void)
{
    point p = {XBAR8, COLL_ALLTOALL, "linear", 8, 1, 8000000, 0};
    expect_exact(&p, 2 * L + 7 * 1e6 / B);
}

static void test_ring_allreduce_reduce_rate(void)
{
    point p = {RING8, COLL_ALLREDUCE, "ring", 8, 1, 8000000, 2e9};
    expect_exact(&p, 14 * (L + 1e6 / B) + 7 * 1e6 / 2e9);
}

static void test_intra_node_loopback(void)
{
    point p = {XBAR8, COLL_BCAST, "linear", 2, 2, 1000000, 0};
    expect_exact(&p, 3e-6 + 1e6 / 4e9);
}

/* Per-rank finish times: a binomial bcast's ranks finish when they last send. */
static void test_per_rank_equals_cm02(void)
{
    point p = {XBAR8, COLL_BCAST, "binomial_halving", 8, 1, 1000000, 0};
    sim_result a, f;
    CU_ASSERT_FATAL(run_point(&p, "analytic", &a) == 0);
    CU_ASSERT_FATAL(run_point(&p, "cm02", &f) == 0);
    CU_ASSERT_FATAL(a.rank_finish_s != NULL);
    for (int r = 0; r < 8; r++)
        CU_ASSERT(close_rel(a.rank_finish_s[r], f.rank_finish_s[r], 1e-6));
    sim_result_free(&a);
    sim_result_free(&f);
}

/* One message's cost: latencies add up, the most shared link's share limits it. */
static void test_message_cost(void)
{
    topology *t = NULL;
    cs_error err;
    CU_ASSERT_FATAL(topo_build_spec(RING8, &t, &err) == 0);
    topo_hop hops[8];
    int n = topo_route(t, 0, 3, hops, 8);
    CU_ASSERT_FATAL(n == 3);
    uint32_t *counts = calloc((size_t)(2 * t->nlinks + 1), sizeof *counts);
    CU_ASSERT(close_rel(analytic_message_cost(t, hops, n, 1000000, counts), 3 * L + 1e6 / B,
                        1e-15)); /* zero counts: alone */
    counts[traffic_resource(t, hops[0])] = 2;
    counts[traffic_resource(t, hops[1])] = 4;
    CU_ASSERT(close_rel(analytic_message_cost(t, hops, n, 1000000, counts),
                        3 * L + 1e6 / (B / 4), 1e-15));
    CU_ASSERT(close_rel(analytic_message_cost(t, hops, 0, 1000000, counts),
                        t->intra_lat + 1e6 / t->intra_bw, 1e-15));
    free(counts);
    topo_free(t);
}

/* The traffic columns are the traffic model's. */
static void test_traffic_columns(void)
{
    point p = {"dragonfly p=2 a=4 h=2", COLL_ALLREDUCE, "rabenseifner", 64, 1, 1 << 20, 0};
    sim_result a, tr;
    CU_ASSERT_FATAL(run_point(&p, "analytic", &a) == 0);
    CU_ASSERT_FATAL(run_point(&p, "traffic", &tr) == 0);
    CU_ASSERT(a.row.bytes_host == tr.row.bytes_host);
    CU_ASSERT(a.row.bytes_local == tr.row.bytes_local);
    CU_ASSERT(a.row.bytes_global == tr.row.bytes_global);
    CU_ASSERT(a.row.bytes_intergroup_msgs == tr.row.bytes_intergroup_msgs);
    CU_ASSERT(a.row.max_link_bytes == tr.row.max_link_bytes);
    CU_ASSERT(a.row.messages == tr.row.messages);
    CU_ASSERT(a.row.steps == tr.row.steps);
    sim_result_free(&a);
    sim_result_free(&tr);
}

/* analytic_run on a prepared point with a given window. */
static int analytic_with_window(const char *topo, coll_kind coll, const char *alg, int32_t P,
                                double window, double *time_s, double *finish)
{
    topology *t = NULL;
    cs_error err;
    alg_run run;
    coll_spec spec;
    coll_spec_init(&spec, coll, P, 1 << 20);
    const alg_desc *d = registry_find(NULL, coll, alg, &err);
    int32_t *hosts = malloc((size_t)P * sizeof *hosts);
    int rc = d && topo_build_spec(topo, &t, &err) == 0 &&
                     test_place("linear", t, P, 1, hosts, &err) == 0 &&
                     alg_run_prepare(&run, d, &spec, &err) == 0
                 ? 0
                 : -1;
    if (rc == 0) {
        analytic_opts o;
        analytic_opts_init(&o);
        o.window_bytes = window;
        traffic_counts tc;
        rc = analytic_run(&run, t, hosts, &o, &tc, time_s, finish, &err);
        alg_run_release(&run);
    }
    if (rc < 0)
        fprintf(stderr, "analytic %s: %s\n", alg, err.msg);
    free(hosts);
    topo_free(t);
    return rc;
}

/* Buffered windows of every size and streamed steps give the very same numbers. */
static void test_windows_do_not_change_results(void)
{
    static const char *const algs[] = {"rabenseifner", "ring", "recursive_doubling"};
    const double windows[] = {0, 1, 200e3}; /* 0, 1: every step streamed */
    for (int a = 0; a < 3; a++) {
        double ref_t, t, ref_f[64], f[64];
        CU_ASSERT_FATAL(analytic_with_window("dragonfly p=2 a=4 h=2", COLL_ALLREDUCE, algs[a],
                                             64, 1e12, &ref_t, ref_f) == 0);
        for (int w = 0; w < 3; w++) {
            CU_ASSERT_FATAL(analytic_with_window("dragonfly p=2 a=4 h=2", COLL_ALLREDUCE,
                                                 algs[a], 64, windows[w], &t, f) == 0);
            CU_ASSERT(t == ref_t);
            CU_ASSERT(memcmp(f, ref_f, sizeof f) == 0);
        }
    }
}

/* Where links are shared unequally the model is an estimate: equal shares never beat
 * max-min fairness when a step's messages start together, so here it is no faster than
 * cm02 (Rabenseifner on a Dragonfly: global links shared), and within 10 %. */
static void test_contention_estimate(void)
{
    point p = {"dragonfly p=2 a=4 h=2", COLL_ALLREDUCE, "rabenseifner", 64, 1, 1 << 20, 0};
    double a = time_of(&p, "analytic"), f = time_of(&p, "cm02");
    CU_ASSERT(a >= f * (1 - 1e-9));
    CU_ASSERT(a <= f * 1.10);
}

int main(void)
{
    static const test_case exact[] = {
        {"ring allgather = (P-1)(L + n/(P B))", test_ring_allgather},
        {"crossbar binomial bcast = log2 P (2L + n/B)", test_crossbar_binomial_bcast},
        {"crossbar linear alltoall shares host links", test_crossbar_linear_alltoall_shares},
        {"ring allreduce with a reduce rate", test_ring_allreduce_reduce_rate},
        {"two ranks of one host use the loopback", test_intra_node_loopback},
        {"per-rank finish times equal cm02's", test_per_rank_equals_cm02},
        {"message cost", test_message_cost},
        {NULL, NULL}};
    static const test_case model[] = {
        {"traffic columns are the traffic model's", test_traffic_columns},
        {"windows do not change results", test_windows_do_not_change_results},
        {"contention: an estimate, not below cm02", test_contention_estimate},
        {NULL, NULL}};
    static const test_suite suites[] = {
        {"analytic exact cases", exact},
        {"analytic model", model},
        {NULL, NULL}};
    return test_main_cached(suites);
}
