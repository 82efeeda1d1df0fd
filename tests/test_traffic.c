/* test_traffic.c - the traffic counter (no SimGrid) against hand-computed counts.
 *
 * Bine paper Fig. 1 (reference/bine.md 1.1), ring allreduce on a ring, recursive doubling
 * on a 2-D torus at large P (streaming), directions of full-duplex and shared links,
 * intra-node messages. COLLSIM_TEST_MAX_P lowers the largest P (sanitizer build).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "common/util.h"
#include "traffic/traffic.h"
#include "testutil.h"

static int64_t max_p(int64_t want)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    int64_t cap = e ? atoll(e) : want;
    return cap < want ? cap : want;
}

/* Counts `alg` of `coll` on `topo_spec` with ranks on hosts host_of_rank (NULL: linear). */
static int count(const char *topo_spec, coll_kind coll, const char *alg, int32_t P, int32_t Q,
                 int64_t bytes, const int32_t *host_of_rank, traffic_counts *tc,
                 traffic_tally *tally)
{
    topology *t = NULL;
    cs_error err;
    if (topo_build_spec(topo_spec, &t, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    coll_spec spec;
    coll_spec_init(&spec, coll, P, bytes);
    spec.ranks_per_node = Q;
    alg_run run;
    const alg_desc *a = registry_find(NULL, coll, alg, &err);
    int32_t *linear = malloc((size_t)P * sizeof *linear);
    for (int32_t r = 0; r < P; r++)
        linear[r] = r / Q;
    int rc = a && alg_run_prepare(&run, a, &spec, &err) == 0 ? 0 : -1;
    if (rc == 0) {
        rc = traffic_count(&run, t, host_of_rank ? host_of_rank : linear, tc, tally, &err);
        alg_run_release(&run);
    }
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    free(linear);
    if (tally)
        tally->t = NULL; /* the topology is gone; only resource_bytes stays valid */
    topo_free(t);
    return rc;
}

static void test_bine_figure1(void)
{
    const int64_t n = 1000;
    traffic_counts dd, dh, bine;
    const char *tree = "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1";
    CU_ASSERT_FATAL(count(tree, COLL_BCAST, "binomial_doubling", 8, 1, n, NULL, &dd, NULL) == 0);
    CU_ASSERT_FATAL(count(tree, COLL_BCAST, "binomial_halving", 8, 1, n, NULL, &dh, NULL) == 0);
    CU_ASSERT_FATAL(count(tree, COLL_BCAST, "bine", 8, 1, n, NULL, &bine, NULL) == 0);
    CU_ASSERT_EQUAL(dd.bytes_intergroup_msgs, 6 * n);
    CU_ASSERT_EQUAL(dh.bytes_intergroup_msgs, 3 * n);
    CU_ASSERT_EQUAL(bine.bytes_intergroup_msgs, 3 * n); /* the paper's Bine tree: 3n */
    CU_ASSERT_EQUAL(dd.bytes_class[LINK_GLOBAL], 12 * n);
    CU_ASSERT_EQUAL(dh.bytes_class[LINK_GLOBAL], 6 * n);
    CU_ASSERT_EQUAL(bine.bytes_class[LINK_GLOBAL], 6 * n);
    CU_ASSERT_EQUAL(bine.messages, 7);
    /* doubling, step 1: 0->2 and 1->3 both go up leaf 0's uplink */
    CU_ASSERT_EQUAL(dd.max_link_bytes, 4 * n); /* h0's host link carries 0->1, 0->2, 0->4 */
    CU_ASSERT_EQUAL(dd.messages, 7);
    CU_ASSERT_EQUAL(dd.steps, 3);
}

static void test_ring_on_a_ring(void)
{
    const int32_t P = 12;
    const int64_t n = 12 * 1000;
    traffic_counts tc;
    CU_ASSERT_FATAL(count("torus dims=12", COLL_ALLREDUCE, "ring", P, 1, n, NULL, &tc, NULL) == 0);
    /* 2(P-1) steps, every rank sends n/P to its neighbour over one link */
    CU_ASSERT_EQUAL(tc.messages, 2 * (P - 1) * P);
    CU_ASSERT_EQUAL(tc.bytes_class[LINK_LOCAL], 2 * (P - 1) * n);
    CU_ASSERT_EQUAL(tc.bytes_class[LINK_HOST] + tc.bytes_class[LINK_GLOBAL], 0);
    CU_ASSERT_EQUAL(tc.max_link_bytes, 2 * (P - 1) * n / P);
    CU_ASSERT_EQUAL(tc.bytes_intergroup_msgs, 0); /* a torus has no groups */
}

/* Recursive doubling on a side x side torus, linear placement: step k < log2(side) pairs
 * ranks 2^k apart in dimension 0 (2^k hops, at most side/2), the next log2(side) steps
 * likewise in dimension 1. Every rank sends n per step. */
static void test_recursive_doubling_on_torus_streaming(void)
{
    int side = 256;
    while ((int64_t)side * side > max_p(65536))
        side /= 2;
    int32_t P = side * side;
    int64_t hops_per_dim = 0;
    for (int d = 1; d < side; d *= 2)
        hops_per_dim += d;
    traffic_counts tc;
    char topo[64];
    snprintf(topo, sizeof topo, "torus dims=%dx%d", side, side);
    const int64_t n = 1024;
    CU_ASSERT_FATAL(count(topo, COLL_ALLREDUCE, "recursive_doubling", P, 1, n, NULL, &tc, NULL) == 0);
    CU_ASSERT_EQUAL(tc.bytes_class[LINK_LOCAL], (int64_t)P * n * 2 * hops_per_dim);
    CU_ASSERT_EQUAL(tc.messages, (int64_t)P * 2 * ilog2_floor((uint64_t)side));
    CU_ASSERT_EQUAL(tc.bytes_sent, tc.messages * n);
}

static int64_t tally_sum(const traffic_tally *x, int64_t nlinks, int dir)
{
    int64_t s = 0;
    for (int64_t l = 0; l < nlinks; l++)
        s += x->resource_bytes[2 * l + dir];
    return s;
}

/* Full-duplex links count each direction on its own resource; shared links on one. */
static void test_directions(void)
{
    traffic_counts full, shared;
    traffic_tally tf, ts;
    /* 2 ranks on a 4-ring exchange (alltoall xor, P=2): one message each way, one link */
    CU_ASSERT_FATAL(count("torus dims=4", COLL_ALLTOALL, "xor", 2, 1, 2000, NULL, &full, &tf) == 0);
    CU_ASSERT_FATAL(count("torus dims=4 sharing=shared", COLL_ALLTOALL, "xor", 2, 1, 2000, NULL,
                          &shared, &ts) == 0);
    CU_ASSERT_EQUAL(full.bytes_class[LINK_LOCAL], 2000); /* 1000 each way */
    CU_ASSERT_EQUAL(full.max_link_bytes, 1000);
    CU_ASSERT_EQUAL(tally_sum(&tf, 4, 0), 1000);
    CU_ASSERT_EQUAL(tally_sum(&tf, 4, 1), 1000);
    CU_ASSERT_EQUAL(shared.max_link_bytes, 2000);
    CU_ASSERT_EQUAL(tally_sum(&ts, 4, 1), 0);
    traffic_tally_free(&tf);
    traffic_tally_free(&ts);
}

/* Two ranks per host: messages between them count but use no link. */
static void test_intra_node(void)
{
    traffic_counts q1, q2;
    int32_t same[2] = {1, 1};
    CU_ASSERT_FATAL(count("torus dims=4", COLL_BCAST, "linear", 2, 1, 500, NULL, &q1, NULL) == 0);
    CU_ASSERT_FATAL(count("torus dims=4", COLL_BCAST, "linear", 2, 2, 500, same, &q2, NULL) == 0);
    CU_ASSERT_EQUAL(q1.bytes_class[LINK_LOCAL], 500);
    CU_ASSERT_EQUAL(q2.bytes_class[LINK_LOCAL], 0);
    CU_ASSERT_EQUAL(q2.messages, 1);
    CU_ASSERT_EQUAL(q2.bytes_sent, 500);
    CU_ASSERT_EQUAL(q2.max_link_bytes, 0);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"Bine Fig. 1", test_bine_figure1},
        {"ring allreduce on a ring", test_ring_on_a_ring},
        {"recursive doubling on a torus (streaming)", test_recursive_doubling_on_torus_streaming},
        {"full-duplex and shared directions", test_directions},
        {"intra-node messages", test_intra_node},
        {NULL, NULL}};
    test_add_suite("traffic", cases);
    return test_run_suites();
}
