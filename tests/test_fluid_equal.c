/* test_fluid_equal.c - the fluid network (`--flow-engine loop`, src/sim/fluid.h) against
 * SimGrid's network model (`--flow-engine simgrid`), both under cm02, on the battery:
 * every built-in algorithm (`collsim list`) at P = 8 and 12, on a torus, a Dragonfly, a fat
 * tree and a HyperX in turn, sizes 1 KiB, 64 KiB and 1 MiB in turn, without and with
 * endpoint costs (send overhead, rendezvous above an eager limit, an envelope). Points
 * whose algorithm refuses P (or the topology) must be refused by both engines.
 *
 * Checked: the bytes per link class, on the busiest link and of inter-group messages
 * are identical (each flow is counted on the route SimGrid takes); the messages and steps
 * too; times agree within FLUID_TIME_TOL. Why not 1e-6: SimGrid 3.32's lazy max-min update
 * recomputes, when several flows start at one instant, only the links reached from the
 * first link of each flow's route through flows already active (lmm::System::
 * update_modified_cnst_set), so its shares depend on the order its actors post messages in
 * and can exceed a link's bandwidth (its own debug check, --log=ker_lmm.thres:debug, aborts
 * on "Incorrect value" on some of these points); the fluid network recomputes every flow
 * sharing a link, transitively, and gets the max-min shares (SimGrid's network/optim:Full
 * gives its times on some of those points). The test prints the largest difference seen
 * and how many points differ by more than 1e-6.
 *
 * Every loop point runs with the fluid network's share check (fluid_config.verify: no
 * link above its bandwidth, every flow at its bound or at the largest weighted rate of a
 * saturated link of its route), as does a 256-rank pairwise all-to-all on a HyperX; the
 * check catches a planted wrong share (fault_share), and so does the comparison here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/sim.h"
#include "testutil.h"

#define FLUID_TIME_TOL 2e-2

static const char *const topologies[] = {"torus dims=2x2x3", "dragonfly p=1 a=4 h=2",
                                         "fattree leaves=4 hosts_per_leaf=4 spines=2",
                                         "hyperx dims=4x4 T=1"};
static const int64_t sizes[] = {1024, 65536, 1048576};

static double max_diff;
static int nbeyond, ncompared, nrefused;

static void config(sim_config *c, const char *topo, const alg_desc *a, int32_t P, int64_t bytes,
                   int ep, flow_engine e)
{
    cs_error err;
    test_sim_config(c, topo, a->name, a->coll, P, bytes);
    c->flow_engine = e;
    c->fluid.verify = e == FLOW_ENGINE_LOOP; /* every share checked */
    if (ep) {
        CU_ASSERT(endpoint_set(&c->endpoint, "send_overhead", "1us", &err) == 0);
        CU_ASSERT(endpoint_set(&c->endpoint, "eager_limit", "4KiB", &err) == 0);
        CU_ASSERT(endpoint_set(&c->endpoint, "envelope", "64B", &err) == 0);
    }
}

/* 1 if the two rows agree (exact counts, time within tol), else 0 naming the difference. */
static int rows_agree(const sim_row *x, const sim_row *y, double tol)
{
    if (x->bytes_host != y->bytes_host || x->bytes_local != y->bytes_local ||
        x->bytes_global != y->bytes_global || x->max_link_bytes != y->max_link_bytes ||
        x->bytes_intergroup_msgs != y->bytes_intergroup_msgs || x->messages != y->messages ||
        x->steps != y->steps) {
        fprintf(stderr, "counts differ: bytes host %lld/%lld local %lld/%lld global %lld/%lld\n",
                (long long)x->bytes_host, (long long)y->bytes_host, (long long)x->bytes_local,
                (long long)y->bytes_local, (long long)x->bytes_global, (long long)y->bytes_global);
        return 0;
    }
    double d = fabs(x->time_s - y->time_s) / x->time_s;
    if (!(d <= tol)) {
        fprintf(stderr, "times %.10g (simgrid) and %.10g (loop) differ by %.3g\n", x->time_s,
                y->time_s, d);
        return 0;
    }
    return 1;
}

static void compare_point(const char *topo, const alg_desc *a, int32_t P, int64_t bytes, int ep)
{
    sim_config c;
    sim_result r[2];
    cs_error err[2];
    int rc[2];
    for (int e = 0; e < 2; e++) {
        config(&c, topo, a, P, bytes, ep, (flow_engine)e);
        rc[e] = sim_run_isolated(&c, &r[e], &err[e]);
    }
    if (rc[0] < 0 || rc[1] < 0) {
        if (rc[0] != rc[1] || strcmp(err[0].msg, err[1].msg) != 0) {
            fprintf(stderr, "%s %s P=%d on %s: %s | %s\n", coll_name(a->coll), a->name, P, topo,
                    rc[0] < 0 ? err[0].msg : "ok", rc[1] < 0 ? err[1].msg : "ok");
            CU_FAIL("one engine refused a point the other ran");
        }
        nrefused++;
        for (int e = 0; e < 2; e++)
            if (rc[e] == 0)
                sim_result_free(&r[e]);
        return;
    }
    ncompared++;
    double d = fabs(r[0].row.time_s - r[1].row.time_s) / r[0].row.time_s;
    max_diff = fmax(max_diff, d);
    nbeyond += d > 1e-6;
    if (!rows_agree(&r[0].row, &r[1].row, FLUID_TIME_TOL)) {
        fprintf(stderr, "  at %s %s P=%d on %s, %lld bytes%s\n", coll_name(a->coll), a->name, P,
                topo, (long long)bytes, ep ? ", endpoint costs" : "");
        CU_FAIL("engines disagree");
    }
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
}

static void test_battery(void)
{
    size_t n = registry_builtin_count();
    int32_t Ps[] = {8, 12};
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 2; k++) {
            size_t turn = 2 * i + (size_t)k;
            const alg_desc *a = registry_builtin_at(i);
            compare_point(topologies[turn % 4], a, Ps[k], sizes[turn % 3], 0);
            compare_point(topologies[(turn + 1) % 4], a, Ps[k], sizes[(turn + 1) % 3], 1);
        }
    fprintf(stderr, "\n  %d points compared (%d refused by both engines): largest time "
                    "difference %.3g, %d beyond 1e-6\n", ncompared, nrefused, max_diff, nbeyond);
    CU_ASSERT(ncompared > 300);
}

static const alg_desc *find(coll_kind coll, const char *name)
{
    cs_error err;
    return registry_find(NULL, coll, name, &err);
}

/* The share check passes on correct runs, and catches a planted wrong share. */
static void test_verify_catches_wrong_share(void)
{
    const alg_desc *a = find(COLL_ALLTOALL, "pairwise");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    sim_config c;
    sim_result r;
    cs_error err;
    config(&c, "dragonfly p=1 a=4 h=2", a, 12, 65536, 0, FLOW_ENGINE_LOOP);
    c.fluid.verify = 1;
    CU_ASSERT_EQUAL_FATAL(sim_run_isolated(&c, &r, &err), 0);
    sim_result_free(&r);
    config(&c, "hyperx dims=16x16 T=4", a, 256, 1048576, 0, FLOW_ENGINE_LOOP);
    c.fluid.verify = 1; /* many flows sharing links */
    int rc = sim_run_isolated(&c, &r, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    sim_result_free(&r);
    config(&c, "dragonfly p=1 a=4 h=2", a, 12, 65536, 0, FLOW_ENGINE_LOOP);
    c.fluid.verify = 1;
    c.fluid.fault_share = 5;
    CU_ASSERT_EQUAL(sim_run_isolated(&c, &r, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "failed the max-min check"));
}

/* The comparison catches a wrong share too (no share check: the time of a lone message,
 * 1.5 times too fast, moves by a third). */
static void test_comparison_catches_wrong_share(void)
{
    const alg_desc *a = find(COLL_P2P, "direct");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    sim_config c;
    sim_result r[2];
    cs_error err;
    for (int e = 0; e < 2; e++) {
        config(&c, "torus dims=2x2x3", a, 2, 1048576, 0, (flow_engine)e);
        c.fluid.fault_share = e == 1 ? 1 : 0;
        c.fluid.verify = 0; /* the comparison alone must catch it */
        CU_ASSERT_EQUAL_FATAL(sim_run_isolated(&c, &r[e], &err), 0);
    }
    CU_ASSERT(!rows_agree(&r[0].row, &r[1].row, FLUID_TIME_TOL));
    sim_result_free(&r[1]);
    config(&c, "torus dims=2x2x3", a, 2, 1048576, 0, FLOW_ENGINE_LOOP);
    CU_ASSERT_EQUAL_FATAL(sim_run_isolated(&c, &r[1], &err), 0);
    CU_ASSERT(rows_agree(&r[0].row, &r[1].row, FLUID_TIME_TOL));
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
}

int main(void)
{
    static const test_case cases[] = {
        {"share check catches a wrong share", test_verify_catches_wrong_share},
        {"comparison catches a wrong share", test_comparison_catches_wrong_share},
        {"battery: loop = simgrid within tolerance", test_battery},
        {NULL, NULL}};
    static const test_suite suites[] = {{"fluid engine", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
