/* test_torus_linkload.c - link loads on the logical torus and the Swing paper's
 * congestion deficiency computed from them.
 *
 * Vectors: the digest's closed form Xi = sum_s delta(floor(s/D)) / 2^(s+1) (swing.md
 * Sec. 3.3; 64x64 = 1.184, limits 1.19 / 1.03 / 1.008 for D = 2 / 3 / 4), the values of
 * models/swing_linkload.py for the recursive doubling baselines, and two loads small
 * enough to count by hand.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "algorithms/torus_linkload.h"
#include "testutil.h"

/* COLLSIM_TEST_MAX_P (the sanitizer build) skips the large tori. */
static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 1 << 30;
}

/* Psi * Xi of `name` on a torus, with 1 KiB in each of the layout's blocks so that
 * every message is a whole number of equal blocks. */
static double factor(const char *name, int nd, const int32_t *dims, const char *ports)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    int32_t P = 1;
    for (int i = 0; i < nd; i++)
        P *= dims[i];
    coll_spec_init(&spec, COLL_ALLREDUCE, P, 0);
    spec.ndims = nd;
    memcpy(spec.dims, dims, sizeof(int32_t) * (size_t)nd);
    if (ports)
        coll_spec_set_param(&spec, "ports", ports, &err);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, &spec, &err), 0);
    int64_t nblocks = run.layout.nblocks;
    alg_run_release(&run);
    spec.bytes = nblocks * 1024; /* equal blocks */
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, &spec, &err), 0);
    torus_load load;
    CU_ASSERT_EQUAL_FATAL(torus_linkload(&run, &load, &err), 0);
    double f = torus_load_bandwidth_factor(&load, spec.bytes);
    torus_load_free(&load);
    alg_run_release(&run);
    return f;
}

/* The digest's Xi for Swing-B on a d^D torus. */
static double swing_xi(int D, int log2d)
{
    double xi = 0;
    for (int s = 0; s < D * log2d; s++) {
        int k = s / D;
        double delta = (ldexp(1, k + 1) - ((k + 1) % 2 ? -1 : 1)) / 3;
        xi += delta / ldexp(1, s + 1);
    }
    return xi;
}

static void test_hand_counted(void)
{
    /* ring allreduce on a ring of 8: 2(P-1) steps of n/P on every link: 2(P-1)/P */
    int32_t ring8[1] = {8};
    CU_ASSERT_DOUBLE_EQUAL(factor("ring", 1, ring8, NULL), 1.75, 1e-12);
    /* recursive doubling on a ring of 8, whole vector n per step: distance 1 (one flow per
     * link), 2 (two flows share a link), 4 = d/2 (split both ways: four half flows) */
    CU_ASSERT_DOUBLE_EQUAL(factor("recursive_doubling_torus", 1, ring8, "1"), 1 + 2 + 2, 1e-12);
}

static void test_swing_congestion(void)
{
    static const struct {
        int D, log2d;
        double digest; /* swing.md Sec. 3.3 table, 3 decimals */
    } cases[] = {{2, 3, 1.078}, {2, 4, 1.137}, {2, 5, 1.169}, {2, 6, 1.184}, {2, 7, 1.192},
                 {3, 3, 1.025}, {3, 4, 1.034}, {4, 3, 1.0071}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int32_t dims[4];
        for (int k = 0; k < cases[i].D; k++)
            dims[k] = 1 << cases[i].log2d;
        if (cases[i].D * cases[i].log2d > 9 && (1 << (cases[i].D * cases[i].log2d)) > max_p())
            continue;
        double f = factor("swing_bandwidth", cases[i].D, dims, NULL);
        CU_ASSERT_DOUBLE_EQUAL(f, swing_xi(cases[i].D, cases[i].log2d), 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(f, cases[i].digest, 0.0006);
        if (cases[i].D == 2 && cases[i].log2d == 6) /* must show: 64x64 */
            CU_ASSERT_DOUBLE_EQUAL(f, 1.184, 0.005);
    }
    /* the limits: 1.19 / 1.03 / 1.008 (Table 2) */
    CU_ASSERT_DOUBLE_EQUAL(swing_xi(2, 30), 1.19, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(swing_xi(3, 20), 1.03, 0.01);
    CU_ASSERT_DOUBLE_EQUAL(swing_xi(4, 15), 1.008, 0.001);
}

static void test_rd_congestion(void)
{
    /* models/swing_linkload.py: mirrored RD-B = sum 2^floor(s/D) / 2^(s+1); single-port
     * RD-B (Psi = 2D included); latency-optimal sums of hops */
    int32_t d88[2] = {8, 8}, d6464[2] = {64, 64}, d888[3] = {8, 8, 8};
    CU_ASSERT_DOUBLE_EQUAL(factor("rabenseifner_torus", 3, d888, "multi"), 1.1484375, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(factor("rabenseifner_torus", 3, d888, "1"), 6.7265625, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(factor("recursive_doubling_torus", 2, d88, "1"), 20, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(factor("swing_latency", 2, d88, NULL), 5, 1e-9);
    if (max_p() >= 4096) {
        CU_ASSERT_DOUBLE_EQUAL(factor("rabenseifner_torus", 2, d6464, "multi"), 1.4765625, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(factor("rabenseifner_torus", 2, d6464, "1"), 5.859375, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(factor("swing_latency", 2, d6464, NULL), 42, 1e-9);
    }
    /* bucket and Hamiltonian rings: one message per link direction and step; bucket on
     * d x d: 2 (d-1) (n/4d + n/4d^2) per phase pair over n/2 = (d^2-1)/d^2 = (P-1)/P */
    CU_ASSERT_DOUBLE_EQUAL(factor("bucket", 2, d88, NULL), 63.0 / 64, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(factor("hamiltonian_rings", 2, d88, NULL), 63.0 / 64, 1e-9);
}

static void test_bad_shape(void)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, "swing_bandwidth", &err);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 16, 1 << 20);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, &spec, &err), 0);
    run.spec.ndims = 2; /* a shape that does not hold P ranks */
    run.spec.dims[0] = 4;
    run.spec.dims[1] = 8;
    torus_load load;
    CU_ASSERT_EQUAL(torus_linkload(&run, &load, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "product"));
    alg_run_release(&run);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"loads counted by hand (ring, recursive doubling on a ring of 8)", test_hand_counted},
        {"Swing-B congestion deficiency: 64x64 = 1.184, -> 1.19 / 1.03 / 1.008",
         test_swing_congestion},
        {"recursive doubling, bucket, Hamiltonian rings (models)", test_rd_congestion},
        {"a shape that does not hold P ranks is refused", test_bad_shape},
        {NULL, NULL}};
    test_add_suite("torus link loads", cases);
    return test_run_suites();
}
