/* test_sim_loop_fast.c - the loop engine's shortcuts (issue 28: the loop flow engine's and
 * the packet model's cost per rank and step) change no result:
 *
 *   - the CPU split of `--verbose` (sim_config.cpu_split) is measured only when asked:
 *     without it its four fields are 0, with it they are positive and add up to the
 *     run's CPU time; the rows and every rank's finish time are the same either way
 *     (fluid network and packet model);
 *   - under the fluid network SimGrid's clock stays at 0 (the engine no longer moves it)
 *     and the ranks read the engine's: a point whose last waiting rank is woken at the
 *     instant it resumed the engine (Rabenseifner, every pair at one distance) runs to the
 *     end with the closed-form time of its messages;
 *   - under the fluid network the rank side's table of channels drops a pair of ranks
 *     once no message waits on it (backward-shift deletion): all-to-alls that keep
 *     thousands of pairs waiting at once (linear: every send and receive posted at once;
 *     spread_out; pairwise with two ranks per host) give the rows of SimGrid's network
 *     model (bytes identical, times within test_fluid_equal.c's tolerance): a pair lost
 *     or duplicated by a wrong deletion would leave messages unmatched (a deadlock) or
 *     matched out of order.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"

static int run(const char *topo, const char *alg, coll_kind coll, int32_t P, int64_t bytes,
               sim_model model, int cpu_split, sim_result *res)
{
    sim_config c;
    cs_error err;
    test_sim_config(&c, topo, alg, coll, P, bytes);
    c.model = model;
    c.flow_engine = FLOW_ENGINE_LOOP; /* ignored by the packet model */
    c.per_rank = 1;
    c.cpu_split = cpu_split;
    int rc = sim_run_isolated(&c, res, &err);
    if (rc < 0)
        fprintf(stderr, "%s on %s: %s\n", alg, topo, err.msg);
    return rc;
}

static void split_only_when_asked(sim_model model)
{
    sim_result r[2];
    const char *topo = "hyperx dims=4x4 T=2";
    for (int split = 0; split < 2; split++)
        CU_ASSERT_FATAL(run(topo, "rabenseifner", COLL_ALLREDUCE, 32, 1 << 20, model, split,
                            &r[split]) == 0);
    CU_ASSERT(r[0].packet_engine_cpu_s == 0 && r[0].packet_ranks_cpu_s == 0);
    CU_ASSERT(r[0].packet_setup_cpu_s == 0 && r[0].packet_teardown_cpu_s == 0);
    CU_ASSERT(r[1].packet_engine_cpu_s > 0 && r[1].packet_setup_cpu_s > 0);
    double sum = r[1].packet_setup_cpu_s + r[1].packet_engine_cpu_s +
                 r[1].packet_ranks_cpu_s + r[1].packet_teardown_cpu_s;
    CU_ASSERT(fabs(sum - r[1].cpu_s) < 1e-9);
    CU_ASSERT(r[0].row.time_s == r[1].row.time_s && r[0].row.messages == r[1].row.messages);
    CU_ASSERT(r[0].row.max_link_bytes == r[1].row.max_link_bytes);
    CU_ASSERT(memcmp(r[0].rank_finish_s, r[1].rank_finish_s, 32 * sizeof(double)) == 0);
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
}

static void test_cpu_split_fluid(void)
{
    split_only_when_asked(SIM_MODEL_CM02);
}

static void test_cpu_split_packet(void)
{
    split_only_when_asked(SIM_MODEL_PACKET);
}

/* Four ranks on a line of 4 hosts h0 - h1 - h2 - h3 (1 GB/s links of L = 1 us, no router
 * latency, reductions free). Rabenseifner (farthest first) exchanges 512 KiB with the rank
 * at distance 2: h0 -> h2 and h1 -> h3 share h1 -> h2 (and the reverse flows h2 -> h1),
 * equal weights, half the bandwidth each: 2 L + 2 x 512 KiB / bw; then 256 KiB at distance
 * 1 on disjoint links: L + 256 KiB / bw; the allgather the same in reverse. Every rank
 * waits at the same instants, so the last rank to wait, which resumes the engine, is
 * woken by it at once. */
static void test_fluid_ranks_read_engine_clock(void)
{
    sim_config c;
    sim_result r;
    cs_error err;
    test_sim_config(&c, "torus dims=4 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns",
                    "rabenseifner", COLL_ALLREDUCE, 4, 1 << 20);
    c.flow_engine = FLOW_ENGINE_LOOP;
    c.reduce_Bps = c.copy_Bps = 0;
    int rc = sim_run_isolated(&c, &r, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_FATAL(rc == 0);
    double bw = 1e9, L = 1e-6;
    double want = 2 * (2 * L + 2 * 524288 / bw) + 2 * (L + 262144 / bw);
    CU_ASSERT(test_close_rel(r.row.time_s, want, 1e-9));
    sim_result_free(&r);
}

static void engines_agree(const char *alg, int32_t P, int32_t Q)
{
    sim_result r[2];
    for (int e = 0; e < 2; e++) {
        sim_config c;
        cs_error err;
        test_sim_config(&c, "dragonfly p=2 a=4 h=2", alg, COLL_ALLTOALL, P, 256 << 10);
        c.spec.ranks_per_node = Q;
        c.flow_engine = (flow_engine)e;
        int rc = sim_run_isolated(&c, &r[e], &err);
        if (rc < 0)
            fprintf(stderr, "%s P=%d: %s\n", alg, P, err.msg);
        CU_ASSERT_FATAL(rc == 0);
    }
    CU_ASSERT(r[0].row.bytes_global == r[1].row.bytes_global);
    CU_ASSERT(r[0].row.bytes_local == r[1].row.bytes_local);
    CU_ASSERT(r[0].row.messages == r[1].row.messages);
    CU_ASSERT(test_close_rel(r[1].row.time_s, r[0].row.time_s, 2e-2));
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
}

static void test_pairs_dropped_alltoall(void)
{
    engines_agree("linear", 64, 1);
    engines_agree("spread_out", 72, 1);
    engines_agree("pairwise", 128, 2);
}

int main(void)
{
    static const test_case cases[] = {
        {"cpu split measured only when asked (fluid)", test_cpu_split_fluid},
        {"cpu split measured only when asked (packet)", test_cpu_split_packet},
        {"fluid ranks read the engine's clock", test_fluid_ranks_read_engine_clock},
        {"fluid: pairs of ranks dropped, all-to-alls agree", test_pairs_dropped_alltoall},
        {NULL, NULL},
    };
    static const test_suite suites[] = {{"loop engine shortcuts", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
