/* test_sim_run.c - the SimGrid simulator against closed forms, the traffic model, and its
 * own error handling.
 *
 * Closed forms (CM02, exact max-min): one message alone on a route takes the sum of the
 * route's latencies plus size / bandwidth; two messages sharing the bottleneck take twice
 * the transfer time; ring allreduce on a ring of P hosts takes 2(P-1)(alpha + n/(P beta)).
 * LV08 and SMPI must apply their documented factors (SIMGRID-NOTES.md,
 * reference/kautz-2dfc.md 3.2). Every point runs in a child process (sim_run_isolated).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "sim/sim.h"
#include "traffic/workload.h"
#include "testutil.h"

/* Runs one point with Q ranks per node; placement text and model name as on the command
 * line. */
static int run_q(const char *topology, coll_kind coll, const char *alg, int32_t P, int32_t Q,
                 int64_t bytes, const char *placement, const char *model, sim_result *res,
                 cs_error *err)
{
    sim_config c;
    test_sim_config(&c, topology, alg, coll, P, bytes);
    c.spec.ranks_per_node = Q;
    c.reduce_Bps = c.copy_Bps = 0; /* closed forms below are network-only */
    c.per_rank = 1;
    if (placement_parse(placement, &c.placement, err) < 0 ||
        sim_model_parse(model, &c.model, err) < 0)
        return -1;
    return sim_run_isolated(&c, res, err);
}

static int run(const char *topology, coll_kind coll, const char *alg, int32_t P, int64_t bytes,
               const char *placement, const char *model, sim_result *res, cs_error *err)
{
    return run_q(topology, coll, alg, P, 1, bytes, placement, model, res, err);
}

static double run_time(const char *topology, coll_kind coll, const char *alg, int32_t P,
                       int64_t bytes, const char *placement, const char *model)
{
    sim_result res;
    cs_error err;
    if (run(topology, coll, alg, P, bytes, placement, model, &res, &err) < 0) {
        fprintf(stderr, "run failed: %s\n", err.msg);
        return -1;
    }
    double t = res.row.time_s;
    sim_result_free(&res);
    return t;
}

static int close_rel(double got, double want, double rel)
{
    return test_close_rel(got, want, rel);
}

/* Two neighbouring hosts of a ring: link 1 GB/s, 10 us. */
#define RING4 "torus dims=4 local_bw=1GBps local_lat=10us"

static void test_one_message_one_link(void)
{
    /* bcast linear on 2 ranks = one message h0 -> h1 over one link */
    double t = run_time(RING4, COLL_BCAST, "linear", 2, 1000000, "linear", "cm02");
    CU_ASSERT(close_rel(t, 10e-6 + 1e6 / 1e9, 1e-9));
    t = run_time(RING4, COLL_BCAST, "linear", 2, 1000, "linear", "cm02");
    CU_ASSERT(close_rel(t, 10e-6 + 1e3 / 1e9, 1e-9));
}

/* Two leaves of two hosts, one spine, no latency: h0 -> h2 and h0 -> h3 share h0's host
 * link and leaf 0's uplink. */
#define TREE2 "fattree leaves=2 hosts_per_leaf=2 oversub=2:1 spines=1 host_bw=1GBps " \
              "global_bw=1GBps host_lat=0ns global_lat=0ns"

static void test_two_messages_share_a_link(void)
{
    char one[] = "/tmp/collsim-test-one-XXXXXX", two[] = "/tmp/collsim-test-two-XXXXXX";
    FILE *f1 = fdopen(mkstemp(one), "w"), *f2 = fdopen(mkstemp(two), "w");
    fputs("h0\nh2\n", f1);
    fputs("h0\nh2\nh3\n", f2);
    fclose(f1);
    fclose(f2);
    char p1[64], p2[64];
    snprintf(p1, sizeof p1, "file:%s", one);
    snprintf(p2, sizeof p2, "file:%s", two);
    double t1 = run_time(TREE2, COLL_BCAST, "linear", 2, 1000000, p1, "cm02");
    double t2 = run_time(TREE2, COLL_BCAST, "linear", 3, 1000000, p2, "cm02");
    CU_ASSERT(close_rel(t1, 1e6 / 1e9, 1e-9));
    CU_ASSERT(close_rel(t2, 2 * t1, 1e-9));
    unlink(one);
    unlink(two);
}

static void test_ring_allreduce_alpha_beta(void)
{
    const int32_t Ps[] = {4, 8, 16};
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        int32_t P = Ps[i];
        char topo[128];
        snprintf(topo, sizeof topo, "torus dims=%d local_bw=25GBps local_lat=1us", P);
        int64_t n = 1 << 24;
        double alpha = 1e-6, beta = 25e9;
        double want = 2.0 * (P - 1) * (alpha + (double)n / P / beta);
        double t = run_time(topo, COLL_ALLREDUCE, "ring", P, n, "linear", "cm02");
        CU_ASSERT(close_rel(t, want, 0.01));
    }
}

static void test_local_op_rates(void)
{
    /* ring allreduce reduces n/P bytes in each of its P-1 reduce-scatter steps */
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "torus dims=8 local_bw=25GBps local_lat=1us");
    snprintf(c.algorithm, sizeof c.algorithm, "ring");
    coll_spec_init(&c.spec, COLL_ALLREDUCE, 8, 1 << 24);
    c.copy_Bps = 0;
    c.reduce_Bps = 5e9;
    sim_result res;
    cs_error err;
    CU_ASSERT_FATAL(sim_run_isolated(&c, &res, &err) == 0);
    double net = 2.0 * 7 * (1e-6 + (double)(1 << 24) / 8 / 25e9);
    CU_ASSERT(close_rel(res.row.time_s, net + 7.0 * (1 << 24) / 8 / 5e9, 1e-6));
}

static void test_lv08_factors(void)
{
    double t = run_time(RING4, COLL_BCAST, "linear", 2, 1000000, "linear", "lv08");
    CU_ASSERT(close_rel(t, 13.01 * 10e-6 + 1e6 / (0.97 * 1e9), 1e-6));
}

static void test_smpi_factors(void)
{
    /* SMPI's default tables: >= 65472 B: lat x11.6436, bw x0.940694; < 257 B: lat
     * x2.01467, bw x0.812084 */
    double big = run_time(RING4, COLL_BCAST, "linear", 2, 1000000, "linear", "smpi");
    CU_ASSERT(close_rel(big, 11.6436 * 10e-6 + 1e6 / (0.940694 * 1e9), 1e-6));
    double small = run_time(RING4, COLL_BCAST, "linear", 2, 100, "linear", "smpi");
    CU_ASSERT(close_rel(small, 2.01467 * 10e-6 + 100 / (0.812084 * 1e9), 1e-6));
}

/* ---- traffic ------------------------------------------------------------------------- */

/* 8 hosts, 2 per leaf, one uplink per leaf (2:1): the leaves are the groups */
#define BINE_TREE "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1"

/* Bine paper, Fig. 1: broadcast of n bytes on 8 hosts, 2 per leaf, leaf uplinks global.
 * Distance-doubling (0 -> 1 first): 2n at step 1 and 4n at step 2 cross groups = 6n;
 * distance-halving (0 -> 4 first): n + 2n = 3n; Bine's broadcast (0 -> 3, then 0 -> 7 and
 * 3 -> 4, then inside the leaves): n + 2n = 3n. Each such message crosses two global
 * links (up to the spine and down). */
static void test_bine_figure1(void)
{
    const int64_t n = 1 << 20;
    const struct { const char *alg; int64_t intergroup; } cases[] = {
        {"binomial_doubling", 6 * n}, {"binomial_halving", 3 * n}, {"bine", 3 * n}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_result res;
        cs_error err;
        CU_ASSERT_FATAL(run(BINE_TREE, COLL_BCAST, cases[i].alg, 8, n, "linear", "cm02", &res,
                            &err) == 0);
        CU_ASSERT_EQUAL(res.row.bytes_intergroup_msgs, cases[i].intergroup);
        CU_ASSERT_EQUAL(res.row.bytes_global, 2 * cases[i].intergroup);
        CU_ASSERT_EQUAL(res.row.bytes_host, 2 * 7 * n); /* 7 messages, 2 host links each */
        CU_ASSERT_EQUAL(res.row.messages, 7);
        sim_result_free(&res);
    }
}

/* The traffic model and the SimGrid run count the same bytes, on every family's platform
 * layout (SimGrid link names come from the topology module: a wrong name fails the run,
 * a wrong direction or class shows up here), with one and with two ranks per host. */
static void test_traffic_model_equals_simgrid(void)
{
    const struct {
        const char *topo;
        coll_kind coll;
        const char *alg;
        int32_t P, Q;
        const char *placement;
    } cases[] = {
        {BINE_TREE, COLL_ALLREDUCE, "recursive_doubling", 8, 1, "random:3"},
        {"fattree radix=8 leaves=8 hosts_per_leaf=4 oversub=2:1 spines=2", COLL_ALLTOALL, "bruck",
         24, 1, "fragmented:3:11"},
        {"fattree radix=12 leaves=6 hosts_per_leaf=4 spines=2", COLL_ALLGATHER, "ring", 20, 2,
         "roundrobin"},
        {"fattree levels=3 radix=8 oversub=1:1,2:1", COLL_ALLREDUCE, "rabenseifner", 32, 1,
         "random:5"},
        {"dragonfly p=2 a=4 h=2", COLL_ALLREDUCE, "recursive_doubling", 64, 2, "random:2"},
        {"dragonfly p=40 a=7 h=1 g=4", COLL_BCAST, "binomial_halving", 32, 1, "roundrobin"},
        {"dragonflyplus p=2 leaves=3 spines=2 h=2", COLL_ALLTOALL, "pairwise", 24, 1, "linear"},
        {"torus dims=4x4", COLL_ALLREDUCE, "rabenseifner", 16, 1, "random:9"},
        {"torus dims=3x3x2", COLL_BCAST, "binomial_halving", 18, 1, "linear"},
        {"torus dims=5x3 sharing=shared", COLL_ALLTOALL, "pairwise", 15, 1, "random:1"},
        {"torus dims=4x3 mesh=1", COLL_ALLGATHER, "ring", 24, 2, "linear"},
        {"hyperx dims=4x4 T=2", COLL_ALLREDUCE, "ring", 32, 1, "random:4"},
        {"hyperx dims=3x4 T=0", COLL_REDUCE_SCATTER, "recursive_halving", 8, 1, "linear"},
        {"kautz d=3 k=2", COLL_ALLTOALL, "pairwise", 12, 1, "linear"},
        {"kautz d=2 k=3 T=2", COLL_BCAST, "binomial_doubling", 24, 2, "random:8"},
        {"2dfc m1=4 m2=3 sharing=full", COLL_ALLREDUCE, "ring", 12, 1, "linear"},
        {"hammingmesh a=2 x=3 y=2", COLL_ALLGATHER, "recursive_doubling", 16, 1, "random:6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_result a, b;
        cs_error err;
        int ra = run_q(cases[i].topo, cases[i].coll, cases[i].alg, cases[i].P, cases[i].Q,
                       1 << 20, cases[i].placement, "cm02", &a, &err);
        if (ra < 0)
            fprintf(stderr, "%s: %s\n", cases[i].topo, err.msg);
        int rb = run_q(cases[i].topo, cases[i].coll, cases[i].alg, cases[i].P, cases[i].Q,
                       1 << 20, cases[i].placement, "traffic", &b, &err);
        if (rb < 0)
            fprintf(stderr, "%s (traffic): %s\n", cases[i].topo, err.msg);
        CU_ASSERT_FATAL(ra == 0 && rb == 0);
        CU_ASSERT(!isnan(a.row.time_s) && isnan(b.row.time_s));
        CU_ASSERT(a.row.bytes_host + a.row.bytes_local + a.row.bytes_global > 0);
        int same = a.row.bytes_host == b.row.bytes_host && a.row.bytes_local == b.row.bytes_local &&
                   a.row.bytes_global == b.row.bytes_global &&
                   a.row.bytes_intergroup_msgs == b.row.bytes_intergroup_msgs &&
                   a.row.max_link_bytes == b.row.max_link_bytes &&
                   a.row.messages == b.row.messages && a.row.steps == b.row.steps;
        if (!same)
            fprintf(stderr, "%s: SimGrid and traffic counts differ\n", cases[i].topo);
        CU_ASSERT(same);
        sim_result_free(&a);
        sim_result_free(&b);
    }
}

/* Two ranks on one host: the message goes over the host's loopback (intra_bw, intra_lat),
 * on every family's platform layout (per-host loopback links, the torus cluster's, and
 * SimGrid's shared loopback in Dijkstra zones and flat Dragonfly groups), and counts on
 * no link class. */
static void test_intra_node_loopback(void)
{
    static const char *const families[] = {
        "torus dims=4",
        "torus dims=4x3 mesh=1",
        "fattree radix=8",
        "fattree levels=3 radix=8 oversub=1:1,2:1",
        "dragonfly p=2 a=4 h=2",       /* flat groups */
        "dragonfly p=40 a=7 h=1 g=4",  /* a zone per router */
        "dragonflyplus p=2 leaves=3 spines=2 h=2",
        "hyperx dims=4x4 T=2",
        "hyperx dims=3x4 T=0",
        "kautz d=3 k=2",
        "2dfc m1=4 m2=3",
        "hammingmesh a=2 x=3 y=2",
    };
    const double bw = 5e9, lat = 3e-6;
    const int64_t n = 1000000;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        char topo[256];
        snprintf(topo, sizeof topo, "%s intra_bw=5GBps intra_lat=3us", families[i]);
        sim_result res;
        cs_error err;
        int rc = run_q(topo, COLL_BCAST, "linear", 2, 2, n, "linear", "cm02", &res, &err);
        if (rc < 0)
            fprintf(stderr, "%s: %s\n", topo, err.msg);
        CU_ASSERT_FATAL(rc == 0);
        if (!close_rel(res.row.time_s, lat + (double)n / bw, 1e-9))
            fprintf(stderr, "  on %s\n", topo);
        CU_ASSERT(close_rel(res.row.time_s, lat + (double)n / bw, 1e-9));
        CU_ASSERT_EQUAL(res.row.messages, 1);
        CU_ASSERT_EQUAL(res.row.bytes_host + res.row.bytes_local + res.row.bytes_global, 0);
        CU_ASSERT_EQUAL(res.row.max_link_bytes, 0);
        sim_result_free(&res);
    }
}

static void test_per_rank_finish(void)
{
    sim_result res;
    cs_error err;
    /* P=5: 0 -> 4 in step 0, then 0 -> 2, then 0 -> 1 and 2 -> 3: rank 4 is done after
     * one message over 4 links (host, up, down, host) of 100 ns and 25 GB/s */
    CU_ASSERT_FATAL(run(BINE_TREE, COLL_BCAST, "binomial_halving", 5, 1 << 20, "linear",
                        "cm02", &res, &err) == 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(res.rank_finish_s);
    double max = 0;
    for (int r = 0; r < 5; r++)
        max = fmax(max, res.rank_finish_s[r]);
    CU_ASSERT_DOUBLE_EQUAL(max, res.row.time_s, 0);
    CU_ASSERT(close_rel(res.rank_finish_s[4], 4 * 100e-9 + (1 << 20) / 25e9, 1e-9));
    CU_ASSERT(res.rank_finish_s[4] < res.row.time_s);
    sim_result_free(&res);
}

/* ---- errors ------------------------------------------------------------------------------ */

/* A schedule that deadlocks: both ranks receive from each other, nobody sends. */
static int dead_prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    layout_init(l, s->coll, s->P, s->root, s->bytes, 1);
    *ctx = NULL;
    return 0;
}
static void dead_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    sb_step(b);
    sb_recv_bytes(b, (r + 1) % s->P, 64, NULL, 0, 0);
}
static void crash_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s, (void)ctx, (void)b;
    if (r == 1)
        abort();
}

static int run_user_alg(const alg_desc *alg, cs_error *err)
{
    alg_registry reg;
    alg_registry_init(&reg);
    alg_registry_add(&reg, alg, err);
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "torus dims=4");
    snprintf(c.algorithm, sizeof c.algorithm, "%s", alg->name);
    coll_spec_init(&c.spec, COLL_BCAST, 2, 64);
    c.algorithms = &reg;
    sim_result res;
    int rc = sim_run_isolated(&c, &res, err);
    if (rc == 0)
        sim_result_free(&res);
    alg_registry_free(&reg);
    return rc;
}

static void test_deadlock_is_an_error(void)
{
    const alg_desc dead = {COLL_BCAST, "dead", "test", "any", NULL, dead_prepare, dead_gen, NULL,
                           0};
    cs_error err;
    CU_ASSERT_EQUAL(run_user_alg(&dead, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "deadlock"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 0 in step 0"));
}

static void test_crash_is_an_error(void)
{
    const alg_desc crash = {COLL_BCAST, "crash", "test", "any", NULL, dead_prepare, crash_gen,
                            NULL, 0};
    cs_error err;
    CU_ASSERT_EQUAL(run_user_alg(&crash, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "died (signal 6"));
}

static void test_bad_points(void)
{
    sim_result res;
    cs_error err;
    CU_ASSERT_EQUAL(run("torus dims=4", COLL_ALLREDUCE, "ring", 8, 1024, "linear", "cm02", &res,
                        &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "need 8 hosts, the topology has 4"));
    CU_ASSERT_EQUAL(run("torus dims=4", COLL_ALLREDUCE, "nope", 4, 1024, "linear", "cm02", &res,
                        &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ring"));
    CU_ASSERT_EQUAL(run("mesh dims=4", COLL_ALLREDUCE, "ring", 4, 1024, "linear", "cm02", &res,
                        &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown topology family 'mesh'"));
    CU_ASSERT_EQUAL(run("torus dims=4", COLL_ALLREDUCE, "ring", 4, 1024, "linear", "ns3", &res,
                        &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "allowed: cm02"));
    CU_ASSERT_EQUAL(run("platforms/nope.yaml", COLL_ALLREDUCE, "ring", 4, 1024, "linear",
                        "cm02", &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "platforms/nope.yaml"));
    CU_ASSERT_EQUAL(run("platforms/2dfc-4x4.yaml m1=x", COLL_ALLREDUCE, "ring", 4, 1024,
                        "linear", "cm02", &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "m1"));
}

/* A machine preset (and one with an override) as --topology: its link parameters reach
 * the simulation. 2dfc-4x4: h0 - h1 is one shared row link of 12.5 GB/s and 1 us. */
static void test_presets(void)
{
    const int64_t n = 1000000;
    double t = run_time("platforms/2dfc-4x4.yaml", COLL_BCAST, "linear", 2, n, "linear", "cm02");
    CU_ASSERT(close_rel(t, 1e-6 + n / 12.5e9, 1e-9));
    t = run_time("platforms/2dfc-4x4.yaml local_lat=5us", COLL_BCAST, "linear", 2, n, "linear",
                 "cm02");
    CU_ASSERT(close_rel(t, 5e-6 + n / 12.5e9, 1e-9));
    sim_result res;
    cs_error err;
    CU_ASSERT_FATAL(run("platforms/lumi.yaml", COLL_ALLREDUCE, "rabenseifner", 64, n, "roundrobin",
                        "traffic", &res, &err) == 0);
    CU_ASSERT_STRING_EQUAL(res.row.topology, "platforms/lumi.yaml");
    CU_ASSERT(res.row.bytes_global > 0);
    CU_ASSERT_EQUAL(res.row.bytes_intergroup_msgs > 0, 1);
    sim_result_free(&res);
}

/* p2p: one message of n bytes; its bus bandwidth is its algorithm bandwidth. */
static void test_p2p(void)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", RING4);
    snprintf(c.algorithm, sizeof c.algorithm, "direct");
    coll_spec_init(&c.spec, COLL_P2P, 4, 1000000);
    c.spec.root = 1;
    c.spec.dst = 3; /* two hops on the 4-ring */
    sim_result res;
    cs_error err;
    CU_ASSERT_FATAL(sim_run_isolated(&c, &res, &err) == 0);
    CU_ASSERT(close_rel(res.row.time_s, 2 * 10e-6 + 1e6 / 1e9, 1e-9));
    CU_ASSERT_DOUBLE_EQUAL(res.row.busbw_Bps, res.row.algbw_Bps, 0);
    CU_ASSERT_EQUAL(res.row.bytes_local, 2 * 1000000);
    CU_ASSERT_EQUAL(res.row.messages, 1);
    sim_result_free(&res);
}

/* --barrier: every rank first runs ceil(log2 P) rounds of 0-byte messages to r + 2^k. A
 * 0-byte message takes its route's latency only (test_p2p: n bytes over h hops take
 * h * alpha + n / beta), and on a ring of P hosts r + 2^k is min(2^k, P - 2^k) hops away;
 * every rank leaves round k at the same time (the ring is symmetric), so the barrier adds
 * alpha * sum_k min(2^k, P - 2^k) to time_s and nothing to the byte counts. Messages and
 * steps count the barrier's P * ceil(log2 P) messages and ceil(log2 P) steps. */
static void test_barrier_adds_dissemination_rounds(void)
{
    const int32_t Ps[] = {8, 6, 5}; /* a power of two and two that are not */
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        int32_t P = Ps[i], rounds = 0;
        double alpha = 1e-6, want = 0;
        for (int32_t d = 1; d < P; d *= 2, rounds++)
            want += alpha * (d < P - d ? d : P - d);
        sim_config c;
        sim_config_init(&c);
        snprintf(c.topology, sizeof c.topology, "torus dims=%d local_bw=25GBps local_lat=1us", P);
        snprintf(c.algorithm, sizeof c.algorithm, "ring");
        coll_spec_init(&c.spec, COLL_ALLREDUCE, P, 1 << 20);
        sim_result plain, barrier;
        cs_error err;
        CU_ASSERT_FATAL(sim_run_isolated(&c, &plain, &err) == 0);
        c.barrier = 1;
        CU_ASSERT_FATAL(sim_run_isolated(&c, &barrier, &err) == 0);
        CU_ASSERT(close_rel(barrier.row.time_s - plain.row.time_s, want, 1e-6));
        CU_ASSERT_EQUAL(barrier.row.bytes_local, plain.row.bytes_local);
        CU_ASSERT_EQUAL(barrier.row.max_link_bytes, plain.row.max_link_bytes);
        CU_ASSERT_EQUAL(barrier.row.messages, plain.row.messages + (int64_t)P * rounds);
        CU_ASSERT_EQUAL(barrier.row.steps, plain.row.steps + rounds);
        CU_ASSERT_STRING_EQUAL(plain.row.model, "cm02");
        CU_ASSERT_STRING_EQUAL(barrier.row.model, "cm02 barrier=true");
        /* the traffic model counts the same prefixed schedule */
        c.model = SIM_MODEL_TRAFFIC;
        sim_result traffic;
        CU_ASSERT_FATAL(sim_run_isolated(&c, &traffic, &err) == 0);
        CU_ASSERT_EQUAL(traffic.row.messages, barrier.row.messages);
        CU_ASSERT_EQUAL(traffic.row.steps, barrier.row.steps);
        CU_ASSERT_EQUAL(traffic.row.bytes_local, barrier.row.bytes_local);
        sim_result_free(&plain);
        sim_result_free(&barrier);
        sim_result_free(&traffic);
    }
}

/* algbw of an alltoallv with a workload: the mean bytes a rank sends (all blocks / P) per
 * second. A constant workload of S-byte blocks is the uniform alltoallv of --size P * S:
 * same time, same algbw; a non-uniform one gives algbw * time = total / P. */
static void test_alltoallv_workload_algbw(void)
{
    const int32_t P = 4;
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", RING4);
    snprintf(c.algorithm, sizeof c.algorithm, "pairwise");
    coll_spec_init(&c.spec, COLL_ALLTOALLV, P, P * 1000);
    sim_result even, constant, uneven;
    cs_error err;
    CU_ASSERT_FATAL(sim_run_isolated(&c, &even, &err) == 0);
    workload_params wp;
    workload *w;
    CU_ASSERT_FATAL(workload_parse("constant:S=1000", &wp, &err) == 0);
    CU_ASSERT_FATAL(workload_create(&wp, P, &w, &err) == 0);
    c.spec.workload = w;
    c.spec.bytes = 1 << 20; /* not used with a workload */
    CU_ASSERT_FATAL(sim_run_isolated(&c, &constant, &err) == 0);
    CU_ASSERT(close_rel(constant.row.time_s, even.row.time_s, 1e-9));
    CU_ASSERT(close_rel(constant.row.algbw_Bps, even.row.algbw_Bps, 1e-9));
    workload_free(w);
    CU_ASSERT_FATAL(workload_parse("uniform:S=3000:seed=5", &wp, &err) == 0);
    CU_ASSERT_FATAL(workload_create(&wp, P, &w, &err) == 0);
    c.spec.workload = w;
    CU_ASSERT_FATAL(sim_run_isolated(&c, &uneven, &err) == 0);
    workload_stats st;
    workload_compute_stats(w, &st);
    CU_ASSERT(close_rel(uneven.row.algbw_Bps * uneven.row.time_s, (double)st.total / P, 1e-9));
    CU_ASSERT(close_rel(uneven.row.busbw_Bps, uneven.row.algbw_Bps * (P - 1) / P, 1e-12));
    workload_free(w);
    sim_result_free(&even);
    sim_result_free(&constant);
    sim_result_free(&uneven);
}

int main(void)
{
    static const test_case closed_forms[] = {
        {"one message on one link", test_one_message_one_link},
        {"two messages share a link", test_two_messages_share_a_link},
        {"ring allreduce = 2(P-1)(alpha + n/(P beta))", test_ring_allreduce_alpha_beta},
        {"reduce rate adds bytes/rate", test_local_op_rates},
        {"lv08 factors", test_lv08_factors},
        {"smpi factors", test_smpi_factors},
        {"machine presets", test_presets},
        {"p2p: one message, busbw = algbw", test_p2p},
        {"barrier adds its 0-byte rounds", test_barrier_adds_dissemination_rounds},
        {"alltoallv workload: algbw = mean bytes per rank / time", test_alltoallv_workload_algbw},
        {NULL, NULL}};
    static const test_case traffic[] = {
        {"Bine Fig. 1 global traffic", test_bine_figure1},
        {"traffic model equals SimGrid", test_traffic_model_equals_simgrid},
        {"intra-node messages use the loopback", test_intra_node_loopback},
        {"per-rank finish times", test_per_rank_finish},
        {NULL, NULL}};
    static const test_case errors[] = {
        {"deadlock", test_deadlock_is_an_error},
        {"crash", test_crash_is_an_error},
        {"bad points", test_bad_points},
        {NULL, NULL}};
    static const test_suite suites[] = {
        {"sim closed forms", closed_forms},
        {"sim traffic", traffic},
        {"sim errors", errors},
        {NULL, NULL}};
    return test_main_cached(suites);
}
