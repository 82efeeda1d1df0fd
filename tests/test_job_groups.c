/* test_job_groups.c - ranks' groups from an allocation + group map (job_groups.h) and the
 * PICO tracer's internal / external count (traffic_count_groups): the Bine paper's
 * Figure 1 numbers (bine.md 1.1: 8 nodes, 2 per group; bcast distance-doubling 6n on
 * global links, distance-halving 3n), ranks of no group, errors. */
#include <CUnit/CUnit.h>
#include <string.h>

#include "sim/job_groups.h"
#include "testutil.h"

#define MAP "tests/data/ft8_groups.txt"

static void fig1(const char *alg, int64_t want_external_n, int64_t want_internal_n)
{
    job_groups_spec s = {.alloc = "h[0-7]", .groups = MAP, .ranks_per_node = 1};
    job_groups g;
    cs_error err = {""};
    CU_ASSERT_EQUAL_FATAL(job_groups_compute(&s, &g, &err), 0);
    CU_ASSERT(g.P == 8 && g.nodes == 8 && g.ngroups == 4 && g.ungrouped_ranks == 0);
    coll_spec spec;
    coll_spec_init(&spec, COLL_BCAST, 8, 1000);
    group_traffic t;
    CU_ASSERT_EQUAL_FATAL(job_groups_traffic(&g, 1, NULL, &spec, alg, &t, &err), 0);
    CU_ASSERT_EQUAL(t.external, want_external_n * 1000);
    CU_ASSERT_EQUAL(t.internal, want_internal_n * 1000);
    CU_ASSERT_EQUAL(t.messages, 7);
    job_groups_free(&g);
}

static void test_figure1(void)
{
    job_groups_spec s = {.alloc = "h[0-7]", .groups = MAP, .ranks_per_node = 1};
    job_groups g;
    cs_error err = {""};
    CU_ASSERT_EQUAL_FATAL(job_groups_compute(&s, &g, &err), 0);
    CU_ASSERT_STRING_EQUAL(g.warning, ""); /* every host matched */
    job_groups_free(&g);
    fig1("binomial_doubling", 6, 1);
    fig1("binomial_halving", 3, 4);
}

static void test_ungrouped_and_order(void)
{
    /* h8, h9 are in no group of the map; cyclic order, 2 ranks per node */
    job_groups_spec s = {.alloc = "h[6-9]", .groups = MAP, .ranks_per_node = 2,
                         .order = ALLOC_ORDER_CYCLIC};
    job_groups g;
    cs_error err = {""};
    CU_ASSERT_EQUAL_FATAL(job_groups_compute(&s, &g, &err), 0);
    CU_ASSERT(g.P == 8 && g.nodes == 4 && g.ngroups == 1 && g.ungrouped_ranks == 4);
    /* h8, h9 in no group: a partial match, one warning line for the CLI to print */
    CU_ASSERT_PTR_NOT_NULL(strstr(g.warning, "warning: " MAP ": 2 of 4 hosts of the job are in "
                                             "no group of the map (e.g. 'h8'); 2 matched"));
    CU_ASSERT_STRING_EQUAL(g.rank_host[1], "h7");
    CU_ASSERT_STRING_EQUAL(g.rank_host[4], "h6");
    CU_ASSERT(g.group_of_rank[2] == -1 && g.group_of_rank[0] == g.group_of_rank[1]);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, 8, 800);
    group_traffic t;
    CU_ASSERT_EQUAL_FATAL(job_groups_traffic(&g, 2, NULL, &spec, "ring", &t, &err), 0);
    /* ring: rank r sends 7 blocks of n/8 to r+1; only 0->1 and 4->5 (h6->h7) are grouped */
    CU_ASSERT_EQUAL(t.internal + t.external + t.ungrouped, 8 * 7 * 100);
    CU_ASSERT_EQUAL(t.internal, 2 * 7 * 100);
    CU_ASSERT_EQUAL(t.external, 0);
    job_groups_free(&g);
}

static void test_errors(void)
{
    job_groups g;
    cs_error err = {""};
    job_groups_spec both = {.alloc = "h0", .groups = MAP, .topology = "torus dims=4",
                            .ranks_per_node = 1};
    CU_ASSERT_EQUAL(job_groups_compute(&both, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "exactly one"));
    job_groups_spec bad = {.alloc = "h[3-1]", .groups = MAP, .ranks_per_node = 1};
    CU_ASSERT_EQUAL(job_groups_compute(&bad, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "column 5: range 3-1 goes down"));
    job_groups_spec big = {.alloc = "h[0-3]", .groups = MAP, .ranks = 9, .ranks_per_node = 2};
    CU_ASSERT_EQUAL(job_groups_compute(&big, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "need 5 nodes, the allocation has 4"));
    /* a map matching no host of the allocation: an error, not "0 groups" */
    job_groups_spec none = {.alloc = "x[0-3]", .groups = MAP, .ranks_per_node = 1};
    CU_ASSERT_EQUAL(job_groups_compute(&none, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, MAP ": no host of the job is in the group map "
                                           "(4 hosts, e.g. 'x0'"));
    job_groups_spec topo = {.alloc = "h[0-4]", .topology = "torus dims=4", .ranks_per_node = 1};
    CU_ASSERT_EQUAL(job_groups_compute(&topo, &g, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "the topology has no host 'h4'"));
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"Bine Figure 1 through a group map", test_figure1},
                                      {"ungrouped hosts, cyclic order", test_ungrouped_and_order},
                                      {"errors", test_errors},
                                      {NULL, NULL}};
    test_add_suite("job_groups", cases);
    return test_run_suites();
}
