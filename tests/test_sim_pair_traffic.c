/* test_sim_pair_traffic.c - the SimGrid run counts bytes per host pair and puts each
 * pair's sum on its route once, after the run (sim_pair_bytes.h). Its per-class byte
 * counts must equal the traffic model's, which walks every message along topo_route
 * (an independent route source): all-to-all patterns (every pair once), rings (the same
 * pairs again and again), several ranks per host (same-host messages on no link) and
 * eager sends, on direct, indirect and hierarchical topologies. Tagged channels (the
 * mailbox cache's chains) run in test_deps and tests/cli/goal_deps.sh. */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"

typedef struct pt_case {
    const char *topology;
    coll_kind coll;
    const char *alg;
    int32_t P, Q;
    int64_t eager_limit; /* SIM_EAGER_MODEL: none */
} pt_case;

static int run(const pt_case *k, sim_model model, sim_result *res, cs_error *err)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", k->topology);
    snprintf(c.algorithm, sizeof c.algorithm, "%s", k->alg);
    coll_spec_init(&c.spec, k->coll, k->P, 1 << 16);
    c.spec.ranks_per_node = k->Q;
    c.model = model;
    c.eager_limit = k->eager_limit;
    return sim_run_isolated(&c, res, err);
}

static void test_counts_equal_traffic_model(void)
{
    static const pt_case cases[] = {
        {"hyperx dims=4x4 T=2", COLL_ALLTOALL, "pairwise", 32, 1, SIM_EAGER_MODEL},
        {"hyperx dims=4x4 T=2", COLL_ALLREDUCE, "ring", 32, 2, SIM_EAGER_MODEL},
        {"dragonfly p=2 a=4 h=2", COLL_ALLREDUCE, "rabenseifner", 64, 1, SIM_EAGER_MODEL},
        {"fattree radix=8 leaves=4 hosts_per_leaf=4 oversub=2:1 spines=2", COLL_ALLTOALL,
         "pairwise", 16, 1, 1 << 20 /* every send eager */},
        {"torus dims=4x4", COLL_ALLGATHER, "ring", 16, 1, SIM_EAGER_MODEL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_result flow, traffic;
        cs_error err;
        if (run(&cases[i], SIM_MODEL_CM02, &flow, &err) < 0 ||
            run(&cases[i], SIM_MODEL_TRAFFIC, &traffic, &err) < 0) {
            fprintf(stderr, "\n%s %s: %s\n", cases[i].topology, cases[i].alg, err.msg);
            CU_FAIL("run");
            continue;
        }
        int same = flow.row.bytes_host == traffic.row.bytes_host &&
                   flow.row.bytes_local == traffic.row.bytes_local &&
                   flow.row.bytes_global == traffic.row.bytes_global &&
                   flow.row.max_link_bytes == traffic.row.max_link_bytes &&
                   flow.row.messages == traffic.row.messages;
        if (!same)
            fprintf(stderr,
                    "\n%s %s: flow %lld/%lld/%lld max %lld, traffic %lld/%lld/%lld max %lld\n",
                    cases[i].topology, cases[i].alg, (long long)flow.row.bytes_host,
                    (long long)flow.row.bytes_local, (long long)flow.row.bytes_global,
                    (long long)flow.row.max_link_bytes, (long long)traffic.row.bytes_host,
                    (long long)traffic.row.bytes_local, (long long)traffic.row.bytes_global,
                    (long long)traffic.row.max_link_bytes);
        CU_ASSERT(same);
        CU_ASSERT(flow.row.bytes_host + flow.row.bytes_local + flow.row.bytes_global > 0);
        sim_result_free(&flow);
        sim_result_free(&traffic);
    }
}

int main(void)
{
    char dir[256];
    if (test_cache_dir_create(dir, sizeof dir) < 0)
        return 1;
    CU_initialize_registry();
    static const test_case cases[] = {
        {"flow counts = traffic model", test_counts_equal_traffic_model}, {NULL, NULL}};
    test_add_suite("sim_pair_traffic", cases);
    int rc = test_run_suites();
    test_cache_dir_remove(dir);
    return rc;
}
