/* test_sim_multiport.c - multiport hosts of the direct networks (issue 7, deliverable 3).
 *
 * A torus / HammingMesh / HyperX node has 2D NIC ports, one per link direction, so the 2D
 * concurrent sends of a multiport collective proceed at full rate. In the SimGrid platforms
 * the hosts ARE the routers (torus: SimGrid's TORUS cluster with SPLITDUPLEX links and no
 * limiter link; HammingMesh / HyperX: one link per board edge), so this holds without any
 * option; these closed forms prove it.
 *
 * Swing-L on a 4x4 logical torus has L = 4 steps, each with every peer at distance 1
 * (rho = +1, -1 in each dimension), and with ports=multi each of the 2D = 4 ports carries
 * n/4 on its own directed link, every directed link used by one message per step (CM02,
 * exact max-min). So T_multi = 4 (alpha + n / (4 B)) and, with one port, T_1 = 4 (alpha +
 * n / B): four concurrent sends take the time of one send of n/4, not four. alpha is the
 * longest route of a step: torus 1 hop of 100 ns + 300 ns; HammingMesh / HyperX 2 hops
 * (node -> row / column switch -> node) of 400 ns.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/sim.h"
#include "testutil.h"

#define BW 50e9                 /* 400 Gb/s in bytes per second */
#define N (64.0 * 1024 * 1024)  /* vector bytes */
#define HOP 400e-9              /* 100 ns link + 300 ns per hop */

/* Swing-L allreduce of 64 MiB, 16 ranks on dims 4x4, ports = "multi" or "1"; -1 on error. */
static double swing_latency_time(const char *topology, const char *ports)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", topology);
    snprintf(c.algorithm, sizeof c.algorithm, "swing_latency");
    coll_spec_init(&c.spec, COLL_ALLREDUCE, 16, (int64_t)N);
    c.spec.ndims = 2;
    c.spec.dims[0] = c.spec.dims[1] = 4;
    c.spec.nparams = 1;
    snprintf(c.spec.params[0].name, sizeof c.spec.params[0].name, "ports");
    snprintf(c.spec.params[0].value, sizeof c.spec.params[0].value, "%s", ports);
    c.reduce_Bps = c.copy_Bps = 0; /* network only */
    cs_error err;
    sim_result res;
    if (sim_run_isolated(&c, &res, &err) < 0) {
        fprintf(stderr, "%s: %s\n", topology, err.msg);
        return -1;
    }
    double t = res.row.time_s;
    sim_result_free(&res);
    return t;
}

static int close_rel(double got, double want)
{
    return test_close_rel(got, want, 1e-6);
}

static void test_torus_ports(void)
{
    const char *t = "platforms/swing-torus.yaml dims=4x4";
    double multi = swing_latency_time(t, "multi"), one = swing_latency_time(t, "1");
    CU_ASSERT(close_rel(multi, 4 * (HOP + N / 4 / BW)));
    CU_ASSERT(close_rel(one, 4 * (HOP + N / BW)));
}

static void test_hammingmesh_ports(void)
{
    /* 2x2 boards of 2x2 nodes: the 4x4 logical torus crosses boards through the switches */
    double multi = swing_latency_time("platforms/swing-hx2mesh.yaml x=2 y=2", "multi");
    CU_ASSERT(close_rel(multi, 4 * (2 * HOP + N / 4 / BW)));
}

static void test_hyperx_ports(void)
{
    /* 1x1 boards: every peer is 2 hops away, through its row or column switch */
    double multi = swing_latency_time("platforms/swing-hyperx.yaml x=4 y=4", "multi");
    CU_ASSERT(close_rel(multi, 4 * (2 * HOP + N / 4 / BW)));
}

int main(void)
{
    static const test_case cases[] = {
        {"torus: 4 concurrent sends take the time of one", test_torus_ports},
        {"HammingMesh: 2D ports at full rate", test_hammingmesh_ports},
        {"HyperX: 2D ports at full rate", test_hyperx_ports},
        {NULL, NULL}};
    static const test_suite suites[] = {{"multiport hosts", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
