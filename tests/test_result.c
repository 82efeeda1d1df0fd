/* test_result.c - result rows: the NCCL-tests bus bandwidth factors (DESIGN.md "Metrics"),
 * the derived metrics, and empty fields for metrics a model does not produce. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/result.h"
#include "testutil.h"

static void test_busbw_factors(void)
{
    const int32_t P = 8;
    CU_ASSERT_DOUBLE_EQUAL(busbw_factor(COLL_ALLREDUCE, P), 2.0 * 7 / 8, 1e-15);
    const coll_kind partitioned[] = {COLL_ALLGATHER, COLL_REDUCE_SCATTER, COLL_ALLTOALL,
                                     COLL_ALLTOALLV, COLL_GATHER, COLL_SCATTER};
    for (size_t i = 0; i < sizeof partitioned / sizeof partitioned[0]; i++)
        CU_ASSERT_DOUBLE_EQUAL(busbw_factor(partitioned[i], P), 7.0 / 8, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(busbw_factor(COLL_BCAST, P), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(busbw_factor(COLL_REDUCE, P), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(busbw_factor(COLL_P2P, P), 1, 0);
    /* every collective kind has a factor (a new kind without one gives NAN) */
    for (int c = 0; c < COLL__COUNT; c++) {
        double f = busbw_factor((coll_kind)c, P);
        if (!(f > 0 && f <= 2))
            fprintf(stderr, "\n%s: busbw factor %g\n", coll_name((coll_kind)c), f);
        CU_ASSERT(f > 0 && f <= 2);
    }
    CU_ASSERT(isnan(busbw_factor(COLL__COUNT, P)));
}

static void test_metrics(void)
{
    sim_row r;
    memset(&r, 0, sizeof r);
    r.ranks = 4;
    r.size_bytes = 1000;
    traffic_counts tc;
    memset(&tc, 0, sizeof tc);
    tc.bytes_class[LINK_GLOBAL] = 77;
    tc.messages = 3;
    sim_row_set_metrics(&r, COLL_ALLREDUCE, &tc, 2e-6, (double)r.size_bytes);
    CU_ASSERT_DOUBLE_EQUAL(r.algbw_Bps, 5e8, 1e-3);
    CU_ASSERT_DOUBLE_EQUAL(r.busbw_Bps, 5e8 * 1.5, 1e-3);
    CU_ASSERT_EQUAL(r.bytes_global, 77);
    CU_ASSERT_EQUAL(r.messages, 3);
    /* no time (traffic model): the time columns are empty in CSV, null in JSON */
    sim_row_set_metrics(&r, COLL_ALLREDUCE, &tc, NAN, NAN);
    CU_ASSERT(isnan(r.algbw_Bps) && isnan(r.busbw_Bps));
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    sim_row_json(f, &r, NULL, 0);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "\"time_s\":null,\"algbw_Bps\":null,\"busbw_Bps\":null"));
    free(buf);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"busbw factors", test_busbw_factors},
        {"derived metrics", test_metrics},
        {NULL, NULL}};
    test_add_suite("result", cases);
    return test_run_suites();
}
