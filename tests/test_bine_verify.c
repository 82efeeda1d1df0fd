/* test_bine_verify.c - every Bine variant (every algorithm with every value of its
 * parameters) verifies for every P it supports: 2..64, even P up to 512, powers of two up
 * to 4096, and the torus shapes of the Fugaku study plus non-power-of-two even ones.
 *
 * tests/test_algorithms.c already sweeps 2..64 and the powers of two with the default
 * parameters; here the other parameter values get the same sweep, and every variant the
 * even P (App. C pruning) and the torus shapes. The full engine (exact matching, deadlock
 * simulation, exactly-once reductions) runs up to P = 512 (and on the large torus shapes
 * when they fit in memory), the stream engine above. COLLSIM_TEST_MAX_P lowers the
 * largest power of two; below 4096 (the sanitizer build sets 512) the even-P and torus
 * sweeps also stop at P = 128, to keep the instrumented run short.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "testutil.h"

typedef struct variant {
    coll_kind coll;
    const char *alg;
    const char *param, *value; /* NULL: defaults */
    int is_default;            /* covered by test_algorithms.c */
} variant;

static const variant variants[] = {
    {COLL_BCAST, "bine", NULL, NULL, 1},
    {COLL_BCAST, "bine_scatter_allgather", NULL, NULL, 1},
    {COLL_REDUCE, "bine", NULL, NULL, 1},
    {COLL_REDUCE, "bine_rs_gather", NULL, NULL, 1},
    {COLL_GATHER, "bine", NULL, NULL, 1},
    {COLL_SCATTER, "bine", NULL, NULL, 1},
    {COLL_ALLGATHER, "bine", "strategy", "block", 1},
    {COLL_ALLGATHER, "bine", "strategy", "permute", 0},
    {COLL_ALLGATHER, "bine", "strategy", "send", 0},
    {COLL_ALLGATHER, "bine", "strategy", "two", 0},
    {COLL_REDUCE_SCATTER, "bine", "strategy", "block", 1},
    {COLL_REDUCE_SCATTER, "bine", "strategy", "permute", 0},
    {COLL_REDUCE_SCATTER, "bine", "strategy", "send", 0},
    {COLL_REDUCE_SCATTER, "bine", "strategy", "two", 0},
    {COLL_ALLREDUCE, "bine_latency", NULL, NULL, 1},
    {COLL_ALLREDUCE, "bine_bandwidth", "strategy", "block", 0},
    {COLL_ALLREDUCE, "bine_bandwidth", "strategy", "permute", 0},
    {COLL_ALLREDUCE, "bine_bandwidth", "strategy", "send", 1},
    {COLL_ALLREDUCE, "bine_bandwidth", "strategy", "two", 0},
    {COLL_ALLREDUCE, "bine_segmented", "segment", "64KiB", 1},
    {COLL_ALLREDUCE, "bine_segmented", "segment", "1000B", 0},
    {COLL_ALLTOALL, "bine", NULL, NULL, 1},
    {COLL_ALLREDUCE, "bine_torus", "ports", "1", 1},
    {COLL_ALLREDUCE, "bine_torus", "ports", "multi", 0},
    {COLL_ALLREDUCE, "bine_torus_latency", "ports", "1", 1},
    {COLL_ALLREDUCE, "bine_torus_latency", "ports", "multi", 0},
    {COLL_REDUCE_SCATTER, "bine_torus", "ports", "1", 1},
    {COLL_REDUCE_SCATTER, "bine_torus", "ports", "multi", 0},
    {COLL_ALLGATHER, "bine_torus", "ports", "1", 1},
    {COLL_ALLGATHER, "bine_torus", "ports", "multi", 0},
    {COLL_BCAST, "bine_torus", "ports", "1", 1},
    {COLL_BCAST, "bine_torus", "ports", "multi", 0},
    {COLL_REDUCE, "bine_torus", "ports", "1", 1},
    {COLL_REDUCE, "bine_torus", "ports", "multi", 0},
    {COLL_GATHER, "bine_torus", "ports", "1", 1},
    {COLL_GATHER, "bine_torus", "ports", "multi", 0},
    {COLL_SCATTER, "bine_torus", "ports", "1", 1},
    {COLL_SCATTER, "bine_torus", "ports", "multi", 0},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 4096;
}

/* The sanitizer build: even and torus sweeps stop at P = 128. */
static int reduced(void)
{
    return max_p() < 4096;
}

static int is_torus(const variant *v)
{
    return strstr(v->alg, "torus") != NULL;
}

/* Verifies v at P (with dims when ndims > 0); a declared constraint is a skip. Returns 1
 * if it ran. */
static int check(const variant *v, int32_t P, int ndims, const int32_t *dims, int64_t bytes,
                 verify_mode mode)
{
    const alg_desc *alg = registry_find(NULL, v->coll, v->alg, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alg);
    coll_spec spec;
    coll_spec_init(&spec, v->coll, P, bytes);
    spec.root = coll_has_root(v->coll) ? P / 3 : 0;
    spec.ndims = ndims;
    for (int k = 0; k < ndims; k++)
        spec.dims[k] = dims[k];
    cs_error err;
    if (v->param)
        CU_ASSERT_FATAL(coll_spec_set_param(&spec, v->param, v->value, &err) == 0);
    alg_run run;
    if (alg_run_prepare(&run, alg, &spec, &err) < 0)
        return 0;
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = mode;
    verify_result res;
    int rc = verify_run(&run, &opt, &res, &err);
    alg_run_release(&run);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc == 0 && !res.ok)
        fprintf(stderr, "\n  %s %s %s=%s P=%d: %s\n", coll_name(v->coll), v->alg,
                v->param ? v->param : "", v->value ? v->value : "", P, res.error);
    CU_ASSERT_TRUE(res.ok);
    CU_ASSERT_TRUE(res.deadlock_checked);
    return 1;
}

static verify_mode engine_for(int32_t P)
{
    return P <= 512 ? VERIFY_FULL : VERIFY_STREAM;
}

/* The non-default parameter values over P = 2..64 (odd sizes: uneven blocks). */
static void test_small_p(void)
{
    int ran = 0;
    for (int i = 0; i < NVARIANTS; i++)
        for (int32_t P = 2; P <= 64 && !variants[i].is_default; P++)
            ran += check(&variants[i], P, 0, NULL, 1000 + P, VERIFY_FULL);
    CU_ASSERT(ran > 700);
}

/* Every variant on even P up to 512 (App. C pruning where supported): every fourth even
 * P to 130, then a sample (the block strategy costs O(P^2) messages at these P). */
static void test_even_p(void)
{
    int ran = 0;
    for (int i = 0; i < NVARIANTS; i++)
        for (int32_t P = 66; P <= (reduced() ? 128 : 512); P += (P < 130 ? 4 : 46))
            ran += check(&variants[i], P, 0, NULL, 1 << 16, VERIFY_FULL);
    CU_ASSERT(ran > 200);
}

/* The non-default parameter values on the powers of two up to 4096 (every supported P
 * must verify: a power of two is always supported). */
static void test_powers_of_two(void)
{
    for (int i = 0; i < NVARIANTS; i++)
        for (int32_t P = 128; P <= max_p() && !variants[i].is_default; P *= 2)
            CU_ASSERT_EQUAL(check(&variants[i], P, 0, NULL, 1 << 20, engine_for(P)), 1);
}

typedef struct shape {
    int ndims;
    int32_t dims[3];
} shape;

static int pow2_shape(const shape *s)
{
    for (int k = 0; k < s->ndims; k++)
        if (s->dims[k] & (s->dims[k] - 1))
            return 0;
    return 1;
}

/* The Fugaku job shapes and non-power-of-two even ones; every torus variant, single- and
 * multi-port, on every shape (the multiport allgather / reduce-scatter on 32x256 take
 * ~10 s each with the stream engine). */
static void test_torus_shapes(void)
{
    static const shape shapes[] = {{3, {2, 2, 2}}, {3, {4, 4, 4}}, {3, {8, 8, 8}}, {2, {2, 6}},
                                   {2, {6, 10}},   {3, {4, 6, 2}}, {2, {12, 4}},  {2, {64, 64}},
                                   {2, {32, 256}}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int32_t P = 1;
        for (int k = 0; k < shapes[s].ndims; k++)
            P *= shapes[s].dims[k];
        if (reduced() && P > 128)
            continue;
        for (int i = 0; i < NVARIANTS; i++) {
            const variant *v = &variants[i];
            if (!is_torus(v))
                continue;
            /* AUTO: the full engine where it fits in memory (the multiport allgather and
             * reduce-scatter on 64x64 would need ~10 GiB), the stream engine above */
            int ran = check(v, P, shapes[s].ndims, shapes[s].dims, 1 << 20,
                            P <= 4096 ? VERIFY_AUTO : VERIFY_STREAM);
            /* only the latency variant needs power-of-two dimensions */
            int supported = strcmp(v->alg, "bine_torus_latency") != 0 || pow2_shape(&shapes[s]);
            CU_ASSERT_EQUAL(ran, supported);
        }
    }
}

/* Declared constraints reject what they must, with a message naming the constraint. */
static void expect_error(coll_kind coll, const char *name, int32_t P, int ndims, int32_t d0,
                         int32_t d1, const char *param, const char *value, const char *want)
{
    const alg_desc *alg = registry_find(NULL, coll, name, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alg);
    coll_spec spec;
    coll_spec_init(&spec, coll, P, 1 << 20);
    spec.ndims = ndims;
    spec.dims[0] = d0;
    spec.dims[1] = d1;
    cs_error err;
    if (param)
        CU_ASSERT_FATAL(coll_spec_set_param(&spec, param, value, &err) == 0);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, alg, &spec, &err), -1);
    if (!strstr(err.msg, want))
        fprintf(stderr, "\n  expected '%s' in '%s'\n", want, err.msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
}

static void test_constraints(void)
{
    expect_error(COLL_ALLTOALL, "bine", 6, 0, 0, 0, NULL, NULL, "power of two (got P=6)");
    expect_error(COLL_ALLREDUCE, "bine_torus", 12, 2, 3, 4, NULL, NULL,
                 "every torus dimension to be even or 1 (dimension 0 has size 3)");
    expect_error(COLL_ALLREDUCE, "bine_torus", 16, 2, 4, 2, NULL, NULL,
                 "product of the dimensions (8) to equal P=16");
    expect_error(COLL_ALLREDUCE, "bine_torus_latency", 12, 2, 2, 6, NULL, NULL,
                 "power of two (dimension 1 has size 6)");
    expect_error(COLL_ALLGATHER, "bine", 8, 0, 0, 0, "strategy", "shuffle",
                 "'shuffle' is not allowed (allowed: block|permute|send|two)");
    expect_error(COLL_BCAST, "bine_torus", 8, 0, 0, 0, "ports", "6", "allowed: 1|multi");
    expect_error(COLL_ALLREDUCE, "bine_segmented", 8, 0, 0, 0, "segment", "0B",
                 "segment must be at least 1 byte");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"non-default parameters, P = 2..64", test_small_p},
        {"every variant, even P up to 512", test_even_p},
        {"non-default parameters, powers of two up to 4096", test_powers_of_two},
        {"torus shapes", test_torus_shapes},
        {"constraints", test_constraints},
        {NULL, NULL}};
    test_add_suite("bine verify", cases);
    return test_run_suites();
}
