/* test_algorithms.c - every registered algorithm verifies for every P in 2..64 and every
 * power of two up to 4096 (and with a root that is not 0 for rooted collectives).
 *
 * The full engine (exact matching, deadlock simulation, exactly-once reductions) runs up
 * to P = 512; from 1024 on the stream engine checks matching, step alignment, holding and
 * the final blocks (exactly-once reductions only in the full engine; see verify.h).
 * COLLSIM_TEST_MAX_P lowers the largest P (the sanitizer build sets it).
 */
#include <stdio.h>
#include <stdlib.h>

#include "algorithms/registry.h"
#include "testutil.h"

static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 4096;
}

/* Verifies alg at P; unsupported P (constraint) is skipped. Returns 1 if it ran. */
static int check(const alg_desc *a, int32_t P, int32_t root, int64_t bytes)
{
    coll_spec spec;
    coll_spec_init(&spec, a->coll, P, bytes);
    spec.root = coll_has_root(a->coll) ? root : 0;
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, a, &spec, &err) < 0)
        return 0; /* a declared constraint: tested by test_registry */
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = P <= 512 ? VERIFY_FULL : VERIFY_STREAM;
    verify_result res;
    int rc = verify_run(&run, &opt, &res, &err);
    alg_run_release(&run);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc == 0 && !res.ok)
        fprintf(stderr, "\n  %s %s P=%d root=%d: %s\n", coll_name(a->coll), a->name, P, root,
                res.error);
    CU_ASSERT_TRUE(res.ok);
    CU_ASSERT_TRUE(res.deadlock_checked);
    return 1;
}

static void test_small_p(void)
{
    size_t ran = 0;
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *a = registry_builtin_at(i);
        for (int32_t P = 2; P <= 64; P++) {
            ran += check(a, P, 0, 1 << 20);
            if (coll_has_root(a->coll))
                ran += check(a, P, P / 3, 1000); /* odd sizes: uneven blocks */
        }
    }
    CU_ASSERT(ran > 1000);
}

/* Whether the algorithm takes P = 64 without a logical shape; the ones that do not are
 * bound to one (Kautz: P = d(d+1); 2dfc: dims) and have their own suites. */
static int takes_plain_pow2(const alg_desc *a)
{
    coll_spec spec;
    coll_spec_init(&spec, a->coll, 64, 1 << 20);
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, a, &spec, &err) < 0)
        return 0;
    alg_run_release(&run);
    return 1;
}

static void test_powers_of_two(void)
{
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *a = registry_builtin_at(i);
        if (!takes_plain_pow2(a))
            continue;
        for (int32_t P = 128; P <= max_p(); P *= 2)
            CU_ASSERT_EQUAL(check(a, P, coll_has_root(a->coll) ? P - 1 : 0, 1 << 20), 1);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"every algorithm, P = 2..64", test_small_p},
                                      {"every algorithm, P = 128..4096 powers of two",
                                       test_powers_of_two},
                                      {NULL, NULL}};
    test_add_suite("algorithms verify", cases);
    return test_run_suites();
}
