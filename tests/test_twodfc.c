/* test_twodfc.c - 2dfc collectives (twodfc.c) against the thesis' closed forms
 * (shared/reference/kautz-2dfc.md, Ch. 4): DO's total volume (2*m1*m2 - (m1+m2))*b per
 * node, equal to the minimum sum of hop distances; DO and MD per-step message sizes and
 * Table 4.1 / 4.2 / Eq. 4.6 costs under the per-step alpha-beta model; MULTITREE's step
 * count against Eq. 4.4; row/column-only messages; and the verifier accepting every 2dfc
 * algorithm on square and rectangular shapes from 2x2 to 16x16 (and the 16x17 DF-C).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/lgraph.h"
#include "algorithms/registry.h"
#include "testutil.h"

/* The sweeps go up to P = 272 (K(16,2), 17x16). COLLSIM_TEST_MAX_P (512 in the sanitizer
 * build) shrinks them to P <= COLLSIM_TEST_MAX_P / 4, enough to exercise every code path. */
static int32_t sweep_max_p(void) { return test_max_p(4096) / 4; }

static const int32_t shapes[][2] = { /* {m1, m2} */
    {2, 2},  {3, 3},  {4, 4},  {5, 5},  {6, 6},  {7, 7},  {8, 8},  {9, 9},  {10, 10},
    {11, 11}, {12, 12}, {13, 13}, {14, 14}, {15, 15}, {16, 16}, {2, 3},  {3, 2},  {2, 16},
    {16, 2}, {3, 7},  {7, 3},  {4, 8},  {8, 4},  {5, 16}, {16, 5}, {12, 9}, {17, 16}, {16, 17}};
enum { NSHAPES = sizeof shapes / sizeof shapes[0] };

static int prepare(alg_run *run, coll_kind c, const char *name, int32_t m1, int32_t m2,
                   int64_t bytes, const char *split)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, c, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, c, m1 * m2, bytes);
    spec.ndims = 2;
    spec.dims[0] = m1;
    spec.dims[1] = m2;
    if (split)
        coll_spec_set_param(&spec, "split", split, &err);
    int rc = alg_run_prepare(run, a, &spec, &err);
    if (rc < 0)
        fprintf(stderr, "\n  prepare: %s\n", err.msg);
    return rc;
}

/* Per step and dimension: the largest message; per rank: bytes sent. */
#define MAX_STEPS 64
typedef struct stats {
    dfc_shape sh;
    int steps;
    int64_t max_bytes[MAX_STEPS][2]; /* [step][0: X link, 1: Y link] */
    int64_t min_bytes[MAX_STEPS][2];
    int64_t *sent;                   /* per rank */
    int off_graph;                   /* messages to a rank that is not a row/column peer */
    int pair_twice;                  /* a (src, dst) pair used twice in one step */
    int32_t last_r;
    uint32_t last_s;
    char *used;                      /* peers messaged by last_r in step last_s */
} stats;

static void collect(void *ctx, int32_t r, uint32_t s, const sched_op *o, const blk_range *rg)
{
    (void)rg;
    stats *st = ctx;
    if (o->kind != OP_SEND || s >= MAX_STEPS)
        return;
    if (r != st->last_r || s != st->last_s) {
        memset(st->used, 0, (size_t)dfc_ranks(&st->sh));
        st->last_r = r;
        st->last_s = s;
    }
    st->pair_twice += st->used[o->peer];
    st->used[o->peer] = 1;
    if ((int)s + 1 > st->steps)
        st->steps = (int)s + 1;
    int same_row = dfc_coord(&st->sh, r, 1) == dfc_coord(&st->sh, o->peer, 1);
    int same_col = dfc_coord(&st->sh, r, 0) == dfc_coord(&st->sh, o->peer, 0);
    st->off_graph += !same_row && !same_col;
    int dim = same_row ? 0 : 1;
    if (o->bytes > st->max_bytes[s][dim])
        st->max_bytes[s][dim] = o->bytes;
    if (st->min_bytes[s][dim] == 0 || o->bytes < st->min_bytes[s][dim])
        st->min_bytes[s][dim] = o->bytes;
    st->sent[r] += o->bytes;
}

static stats gather_stats(const alg_run *run)
{
    stats st;
    memset(&st, 0, sizeof st);
    st.sh.m[0] = run->spec.dims[0];
    st.sh.m[1] = run->spec.dims[1];
    st.sent = calloc((size_t)run->spec.P, sizeof *st.sent);
    st.used = calloc((size_t)run->spec.P, 1);
    st.last_r = -1;
    test_walk_ops(run, collect, &st);
    free(st.used);
    return st;
}

static double step_time(const stats *st, double alpha, double beta)
{
    double t = 0;
    for (int s = 0; s < st->steps; s++) {
        int64_t m = st->max_bytes[s][0] > st->max_bytes[s][1] ? st->max_bytes[s][0]
                                                               : st->max_bytes[s][1];
        t += alpha + beta * (double)m;
    }
    return t;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-15; }

/* ---- shape ------------------------------------------------------------------------------- */

static void test_shape_errors(void)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLTOALL, "2dfc_do", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    alg_run run;
    coll_spec_init(&spec, COLL_ALLTOALL, 16, 1024);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "alltoall 2dfc_do: requires the 2dfc shape"));
    spec.ndims = 2;
    spec.dims[0] = 4;
    spec.dims[1] = 5;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "m1*m2 = P"));
    /* the rank numbering: rank = a2*m1 + a1, dims = {m1, m2} */
    dfc_shape sh = {{4, 3}};
    CU_ASSERT_EQUAL(dfc_coord(&sh, 9, 0), 1);
    CU_ASSERT_EQUAL(dfc_coord(&sh, 9, 1), 2);
    CU_ASSERT_EQUAL(dfc_with(&sh, 9, 0, 3), 11);
    CU_ASSERT_EQUAL(dfc_with(&sh, 9, 1, 0), 1);
}

/* ---- DO: the minimum volume ---------------------------------------------------------------- */

static void test_do_volume(void)
{
    for (int i = 0; i < NSHAPES; i++) {
        int32_t m1 = shapes[i][0], m2 = shapes[i][1], P = m1 * m2;
        if (P > sweep_max_p())
            continue;
        int64_t b = 96; /* bytes per destination block */
        alg_run run;
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "2dfc_do", m1, m2, b * P, NULL), 0);
        stats st = gather_stats(&run);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.off_graph, 0);
        CU_ASSERT_EQUAL(st.pair_twice, 0);
        /* step 1 on X links with m2 blocks, step 2 on Y links with m1 blocks */
        CU_ASSERT_EQUAL(st.max_bytes[0][0], m2 * b);
        CU_ASSERT_EQUAL(st.max_bytes[0][1], 0);
        CU_ASSERT_EQUAL(st.max_bytes[1][1], m1 * b);
        CU_ASSERT_EQUAL(st.max_bytes[1][0], 0);
        for (int32_t r = 0; r < P; r++) {
            int64_t hops = 0; /* the minimum: every block travels its hop distance */
            for (int32_t x = 0; x < P; x++)
                hops += (dfc_coord(&st.sh, r, 0) != dfc_coord(&st.sh, x, 0)) +
                        (dfc_coord(&st.sh, r, 1) != dfc_coord(&st.sh, x, 1));
            CU_ASSERT_EQUAL(st.sent[r], hops * b);
            CU_ASSERT_EQUAL(st.sent[r], (2LL * m1 * m2 - (m1 + m2)) * b);
        }
        /* Table 4.2: t_DO = 2 alpha + (m1 + m2) b beta */
        CU_ASSERT_TRUE(close_to(step_time(&st, 1e-6, 8e-11), 2e-6 + (m1 + m2) * b * 8e-11));
        free(st.sent);
        alg_run_release(&run);
        /* DF-C sends the same volume, its second step as single blocks */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "df_c", m1, m2, b * P, NULL), 0);
        st = gather_stats(&run);
        CU_ASSERT_EQUAL(st.sent[0], (2LL * m1 * m2 - (m1 + m2)) * b);
        CU_ASSERT_EQUAL(st.max_bytes[1][1], b);
        free(st.sent);
        alg_run_release(&run);
    }
}

/* ---- MD: Table 4.1 per-step sizes, Eq. 4.6 ------------------------------------------------ */

static void test_md_steps(void)
{
    for (int i = 0; i < NSHAPES; i++) {
        int32_t m1 = shapes[i][0], m2 = shapes[i][1], P = m1 * m2;
        if (P > sweep_max_p())
            continue;
        int64_t b = 60LL * (m1 + m2); /* x * b is a whole number of bytes */
        double x = (double)m2 / (m1 + m2), B = (double)b;
        alg_run run;
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "2dfc_md", m1, m2, b * P, NULL), 0);
        stats st = gather_stats(&run);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.off_graph, 0);
        CU_ASSERT_EQUAL(st.pair_twice, 0);
        /* step 1: D1 on X (x m2 b), D2 on Y ((1-x) m1 b); step 2: D1 on Y, D2 on X */
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[0][0], x * m2 * B));
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[0][1], (1 - x) * m1 * B));
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[1][1], x * m1 * B));
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[1][0], (1 - x) * m2 * B));
        CU_ASSERT_EQUAL(st.min_bytes[0][0], st.max_bytes[0][0]);
        CU_ASSERT_EQUAL(st.sent[0], (2LL * m1 * m2 - (m1 + m2)) * b); /* still the minimum */
        /* Eq. 4.6: 2 alpha + max(m1, m2) b beta */
        int32_t mx = m1 > m2 ? m1 : m2;
        CU_ASSERT_TRUE(close_to(step_time(&st, 1e-6, 8e-11), 2e-6 + mx * B * 8e-11));
        free(st.sent);
        alg_run_release(&run);
        /* allgather: step 1 x b on X, step 2 x m1 b on Y and (1-x) m2 b on X */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLGATHER, "2dfc_md", m1, m2, b * P, NULL), 0);
        st = gather_stats(&run);
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[0][0], x * B));
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[1][1], x * m1 * B));
        CU_ASSERT_TRUE(close_to((double)st.max_bytes[1][0], (1 - x) * m2 * B));
        free(st.sent);
        alg_run_release(&run);
    }
    /* square: MD halves DO's bandwidth term; split m1 / half on a rectangle */
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "2dfc_md", 4, 6, 1200 * 24, "m1"), 0);
    stats st = gather_stats(&run);
    CU_ASSERT_EQUAL(st.max_bytes[0][0], 1200 * 6 * 4 / 10); /* x = m1/(m1+m2) = 0.4 */
    free(st.sent);
    alg_run_release(&run);
    CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "2dfc_md", 4, 6, 1200 * 24, "half"), 0);
    st = gather_stats(&run);
    CU_ASSERT_EQUAL(st.max_bytes[0][0], 1200 * 6 / 2);
    free(st.sent);
    alg_run_release(&run);
}

/* ---- MULTITREE ---------------------------------------------------------------------------- */

static void test_multitree_steps(void)
{
    for (int i = 0; i < NSHAPES; i++) {
        int32_t m1 = shapes[i][0], m2 = shapes[i][1], P = m1 * m2;
        if (P > sweep_max_p())
            continue;
        alg_run run;
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLGATHER, "2dfc_multitree", m1, m2, 8 * P, NULL),
                              0);
        stats st = gather_stats(&run);
        int bound = (P - 1 + m1 + m2 - 3) / (m1 + m2 - 2); /* Eq. 4.4 */
        CU_ASSERT_TRUE(st.steps >= bound && st.steps <= bound + 1);
        if (m1 == m2 && (m1 == 4 || m1 == 8 || m1 == 16)) /* 3, 5, 9 (m/2 + 1) */
            CU_ASSERT_EQUAL(st.steps, m1 / 2 + 1);
        CU_ASSERT_EQUAL(st.off_graph, 0);
        CU_ASSERT_EQUAL(st.pair_twice, 0); /* contention-free */
        free(st.sent);
        alg_run_release(&run);
    }
}

/* ---- every algorithm verifies --------------------------------------------------------------- */

static int is_2dfc_alg(const alg_desc *a)
{
    return strncmp(a->name, "2dfc_", 5) == 0 || strcmp(a->name, "df_c") == 0;
}

static void test_verify_all(void)
{
    size_t checked = 0;
    for (int i = 0; i < NSHAPES; i++) {
        int32_t m1 = shapes[i][0], m2 = shapes[i][1], P = m1 * m2;
        if (P > sweep_max_p())
            continue;
        for (size_t k = 0; k < registry_builtin_count(); k++) {
            const alg_desc *a = registry_builtin_at(k);
            if (!is_2dfc_alg(a))
                continue;
            coll_spec spec;
            coll_spec_init(&spec, a->coll, P, (1 << 20) + 7); /* uneven block sizes */
            spec.ndims = 2;
            spec.dims[0] = m1;
            spec.dims[1] = m2;
            test_verify_expect_ok(a, &spec);
            checked++;
        }
    }
    CU_ASSERT_TRUE(checked >= 16);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"2dfc shape and numbering", test_shape_errors},
        {"DO: (2 m1 m2 - (m1+m2)) b per node, the minimum", test_do_volume},
        {"MD: Table 4.1 step sizes, Eq. 4.6", test_md_steps},
        {"MULTITREE steps against Eq. 4.4, contention-free", test_multitree_steps},
        {"every 2dfc algorithm verifies, 2x2 .. 16x16 and rectangles", test_verify_all},
        {NULL, NULL}};
    test_add_suite("twodfc", cases);
    return test_run_suites();
}
