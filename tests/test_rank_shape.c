/* test_rank_shape.c - the one dimension convention (dimension 0 fastest) between topologies
 * and topology-aware algorithms: the job's shape, default dims, the mismatch error, and
 * that every torus algorithm then talks to physical neighbours. */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "algorithms/torus_shape.h"
#include "cli/cli.h"
#include "algorithms/schedule.h"
#include "sim/rank_shape.h"
#include "testutil.h"
#include "topologies/topology.h"

/* The job's shape of P ranks at Q per node placed by `placement` on `topo`, into dims. */
static int job_shape(const char *topo, const char *placement, int32_t P, int32_t Q,
                     int32_t *dims)
{
    topology *t;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(topo_build_spec(topo, &t, &err), 0);
    int32_t *hosts = malloc((size_t)P * sizeof *hosts);
    CU_ASSERT_EQUAL_FATAL(test_place(placement, t, P, Q, hosts, &err), 0);
    int nd = rank_shape_of_job(t, hosts, P, Q, dims);
    free(hosts);
    topo_free(t);
    return nd;
}

static void expect_shape(const char *topo, const char *placement, int32_t P, int32_t Q, int nd,
                         const int32_t *want)
{
    int32_t got[SPEC_MAX_DIMS];
    int n = job_shape(topo, placement, P, Q, got);
    CU_ASSERT_EQUAL(n, nd);
    if (n == nd && nd > 0)
        CU_ASSERT_EQUAL(memcmp(got, want, (size_t)nd * sizeof *want), 0);
    if (n != nd)
        fprintf(stderr, "\n  %s, %s, P=%d Q=%d: %d dimensions, want %d\n", topo, placement, P,
                Q, n, nd);
}

static void test_job_shapes(void)
{
    /* a whole torus, linearly: its dims, dimension 0 first */
    expect_shape("torus dims=4x8", "linear", 32, 1, 2, (int32_t[]){4, 8});
    expect_shape("torus dims=8x4", "linear", 32, 1, 2, (int32_t[]){8, 4});
    /* part of a torus: the filled box, size-1 dimensions dropped */
    expect_shape("torus dims=8x8x8", "linear", 64, 1, 2, (int32_t[]){8, 8});
    expect_shape("torus dims=8x8", "linear", 32, 1, 2, (int32_t[]){8, 4});
    expect_shape("torus dims=8x8", "linear", 8, 1, 1, (int32_t[]){8});
    /* ranks sharing a node: the slot is dimension 0 */
    expect_shape("torus dims=4x4", "linear", 32, 2, 3, (int32_t[]){2, 4, 4});
    /* HyperX with 2 hosts per switch, HammingMesh's node grid, 2dfc m1 x m2 */
    expect_shape("hyperx dims=4x4 T=2", "linear", 32, 1, 3, (int32_t[]){2, 4, 4});
    expect_shape("hammingmesh a=2 x=2 y=3", "linear", 24, 1, 2, (int32_t[]){4, 6});
    expect_shape("2dfc m1=4 m2=3", "linear", 12, 1, 2, (int32_t[]){4, 3});
    /* no shape: a ragged box, a scattered placement, hosts that form no grid */
    expect_shape("torus dims=8x8", "linear", 12, 1, 0, NULL);
    expect_shape("torus dims=4x4", "random:7", 16, 1, 0, NULL);
    expect_shape("torus dims=4x4", "linear order=cyclic", 16, 2, 0, NULL);
    expect_shape("fattree leaves=4 hosts_per_leaf=4 spines=2", "linear", 16, 1, 0, NULL);
}

/* rank_shape_resolve for `alg` on the linear placement of a whole topology. */
static int resolve(const char *topo, coll_kind coll, const char *alg, const char *dims,
                   coll_spec *spec, cs_error *err)
{
    topology *t;
    CU_ASSERT_EQUAL_FATAL(topo_build_spec(topo, &t, err), 0);
    int32_t *hosts = malloc((size_t)t->nhosts * sizeof *hosts);
    CU_ASSERT_EQUAL_FATAL(test_place("linear", t, t->nhosts, 1, hosts, err), 0);
    coll_spec_init(spec, coll, t->nhosts, 1 << 20);
    if (dims)
        CU_ASSERT_EQUAL_FATAL(cli_parse_dims(dims, spec, err), 0);
    const alg_desc *a = registry_find(NULL, coll, alg, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    int rc = rank_shape_resolve(a, spec, t, hosts, err);
    free(hosts);
    topo_free(t);
    return rc;
}

static void test_default_and_mismatch(void)
{
    coll_spec s;
    cs_error err;
    /* no dims: the topology's shape */
    const char *t48 = "torus dims=4x8";
    CU_ASSERT_EQUAL(resolve(t48, COLL_ALLREDUCE, "swing_bandwidth", NULL, &s, &err), 0);
    CU_ASSERT_EQUAL(s.ndims, 2);
    CU_ASSERT_EQUAL(s.dims[0], 4);
    CU_ASSERT_EQUAL(s.dims[1], 8);
    /* the same shape given, with a size-1 dimension: accepted as given */
    CU_ASSERT_EQUAL(resolve("torus dims=4x8", COLL_ALLREDUCE, "bucket", "4x1x8", &s, &err), 0);
    CU_ASSERT_EQUAL(s.ndims, 3);
    /* the old mistake (scenarios/bine_fugaku.lua before the fix): a shape written slowest
     * dimension first for a torus numbered fastest first; the error names both shapes */
    CU_ASSERT_EQUAL(resolve(t48, COLL_ALLREDUCE, "swing_bandwidth", "8x4", &s, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "dims=8x4"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "4x8 grid"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "swing_bandwidth"));
    CU_ASSERT_EQUAL(resolve("torus dims=2x4x4", COLL_BCAST, "bine_torus", "4x4x2", &s, &err), -1);
    CU_ASSERT_EQUAL(resolve("torus dims=4x8", COLL_ALLREDUCE, "bucket", "32", &s, &err), -1);
    /* an algorithm that reads no dims is left alone */
    CU_ASSERT_EQUAL(resolve("torus dims=4x8", COLL_ALLREDUCE, "ring", "8x4", &s, &err), 0);
    CU_ASSERT_EQUAL(s.dims[0], 8);
    /* a topology whose hosts form no grid: dims as given, none without */
    CU_ASSERT_EQUAL(resolve("fattree leaves=4 hosts_per_leaf=4 spines=2", COLL_ALLREDUCE,
                            "swing_bandwidth", NULL, &s, &err), 0);
    CU_ASSERT_EQUAL(s.ndims, 0);
}

/* Logical torus distance of a and b in the spec's shape (dimension 0 fastest). */
static int torus_distance(const torus_shape *t, int32_t a, int32_t b)
{
    int hops = 0;
    for (int k = 0; k < t->ndims; k++) {
        int32_t diff = abs(torus_coord(t, a, k) - torus_coord(t, b, k));
        hops += diff < t->dims[k] - diff ? diff : t->dims[k] - diff;
    }
    return hops;
}

/* Every send of `alg` on the linear placement of a torus, with default dims, crosses as
 * many physical links as the logical torus distance between its ranks: the property a
 * dimension-order mix-up breaks (with 4x8 read slowest-first, logical neighbours along
 * the 4 are ranks 8 apart, two hops on the 4x8 torus numbered fastest-first). */
static void check_physical_distance(const char *topo, coll_kind coll, const char *alg,
                                    const char *ports)
{
    topology *t;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(topo_build_spec(topo, &t, &err), 0);
    int32_t P = t->nhosts, *hosts = malloc((size_t)P * sizeof *hosts);
    CU_ASSERT_EQUAL_FATAL(test_place("linear", t, P, 1, hosts, &err), 0);
    coll_spec spec;
    coll_spec_init(&spec, coll, P, 1 << 20);
    if (ports)
        coll_spec_set_param(&spec, "ports", ports, &err);
    const alg_desc *a = registry_find(NULL, coll, alg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_EQUAL_FATAL(rank_shape_resolve(a, &spec, t, hosts, &err), 0);
    torus_shape shape;
    CU_ASSERT_EQUAL_FATAL(torus_shape_from_spec(&shape, &spec, &err), 0);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, &spec, &err), 0);
    sched_builder b;
    sb_init(&b, &run.layout);
    topo_hop hops[64];
    int64_t sends = 0, wrong = 0;
    for (int32_t r = 0; r < P; r++) {
        alg_run_gen(&run, r, &b);
        for (uint32_t o = 0; o < b.rs.nops; o++)
            if (b.rs.ops[o].kind == OP_SEND) {
                int32_t peer = b.rs.ops[o].peer;
                sends++;
                wrong += topo_route(t, hosts[r], hosts[peer], hops, 64) !=
                         torus_distance(&shape, r, peer);
            }
    }
    if (wrong)
        fprintf(stderr, "\n  %s ports=%s on %s: %lld of %lld sends off their logical distance\n",
                alg, ports ? ports : "-", topo, (long long)wrong, (long long)sends);
    CU_ASSERT(sends > 0);
    CU_ASSERT_EQUAL(wrong, 0);
    sb_free(&b);
    alg_run_release(&run);
    free(hosts);
    topo_free(t);
}

static void test_torus_algorithms_on_the_torus(void)
{
    static const char *const tori[] = {"torus dims=4x8", "torus dims=8x4", "torus dims=2x4x8"};
    static const char *const allreduce[] = {"bucket", "swing_bandwidth", "swing_latency",
                                            "recursive_doubling_torus", "rabenseifner_torus",
                                            "bine_torus", "bine_torus_latency"};
    static const coll_kind bine_colls[] = {COLL_BCAST, COLL_REDUCE, COLL_GATHER, COLL_SCATTER,
                                           COLL_ALLGATHER, COLL_REDUCE_SCATTER};
    static const char *const ports[] = {"1", "multi"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++)
        for (int p = 0; p < 2; p++) {
            for (size_t k = 0; k < sizeof allreduce / sizeof allreduce[0]; k++)
                check_physical_distance(tori[i], COLL_ALLREDUCE, allreduce[k], ports[p]);
            for (size_t k = 0; k < sizeof bine_colls / sizeof bine_colls[0]; k++)
                check_physical_distance(tori[i], bine_colls[k], "bine_torus", ports[p]);
            check_physical_distance(tori[i], COLL_ALLGATHER, "swing", ports[p]);
            check_physical_distance(tori[i], COLL_REDUCE_SCATTER, "swing", ports[p]);
        }
    /* Hamiltonian rings: the rows along dimension 1 (4x8, 3x9) or dimension 0 (8x4) */
    check_physical_distance("torus dims=4x8", COLL_ALLREDUCE, "hamiltonian_rings", NULL);
    check_physical_distance("torus dims=8x4", COLL_ALLREDUCE, "hamiltonian_rings", NULL);
    check_physical_distance("torus dims=3x9", COLL_ALLREDUCE, "hamiltonian_rings", NULL);
    check_physical_distance("torus dims=9x3", COLL_ALLREDUCE, "hamiltonian_rings", NULL);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"job shapes: torus, part of one, Q > 1, HyperX, HammingMesh, 2dfc, none",
         test_job_shapes},
        {"default dims; mismatched dims refused naming both shapes (planted old mistake)",
         test_default_and_mismatch},
        {"torus algorithms with default dims: hops = logical torus distance",
         test_torus_algorithms_on_the_torus},
        {NULL, NULL},
    };
    test_add_suite("rank shape", cases);
    return test_run_suites();
}
