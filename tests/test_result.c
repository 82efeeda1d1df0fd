/* test_result.c - result rows: the NCCL-tests bus bandwidth factors (DESIGN.md "Metrics"),
 * the derived metrics, empty fields for metrics a model does not produce, and byte columns
 * written exactly (no rounding to significant digits) in CSV and JSON. */
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

/* The text of column `name` in a CSV header + row written to f (rewound), into out. */
static void csv_field_of(FILE *f, const char *name, char *out, size_t n)
{
    char header[4096], row[4096];
    rewind(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(header, sizeof header, f));
    CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(row, sizeof row, f));
    out[0] = '\0';
    char *hs = NULL;
    char *h = strtok_r(header, ",\n", &hs);
    /* a row field may be empty: walk it by hand */
    char *field = row;
    while (h) {
        char *comma = strpbrk(field, ",\n");
        size_t len = comma ? (size_t)(comma - field) : strlen(field);
        if (strcmp(h, name) == 0) {
            snprintf(out, n, "%.*s", (int)len, field);
            return;
        }
        field = comma ? comma + 1 : field + len;
        h = strtok_r(NULL, ",\n", &hs);
    }
}

/* Byte counts above 2^24 (where a float, or 6-7 significant digits, lose the low digits)
 * and above 2^53 (where a double does) come back exactly from the CSV and JSON text. */
static void test_exact_bytes(void)
{
    sim_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.topology, sizeof r.topology, "t");
    r.ranks = 8;
    r.size_bytes = 16777217;              /* 2^24 + 1 */
    r.bytes_host = 234881038;             /* 14 x (2^24 + 1) */
    r.bytes_global = 100663302;           /* 6 x (2^24 + 1) */
    r.bytes_local = 9007199254740993LL;   /* 2^53 + 1: not a double */
    r.bytes_intergroup_msgs = 50331651;
    r.max_link_bytes = 123456789012345LL;
    r.time_s = r.algbw_Bps = r.busbw_Bps = NAN;
    static const struct { const char *name; long long want; } cols[] = {
        {"size_bytes", 16777217},           {"bytes_host", 234881038},
        {"bytes_global", 100663302},        {"bytes_local", 9007199254740993LL},
        {"bytes_intergroup_msgs", 50331651}, {"max_link_bytes", 123456789012345LL},
    };
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sim_row_csv_header(f, 0);
    sim_row_csv(f, &r, NULL, 0);
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        char text[64];
        csv_field_of(f, cols[i].name, text, sizeof text);
        char *end;
        long long got = strtoll(text, &end, 10);
        if (got != cols[i].want || *end || !text[0]) {
            fprintf(stderr, "\nCSV %s: '%s', expected %lld\n", cols[i].name, text, cols[i].want);
            CU_FAIL("csv bytes");
        }
    }
    fclose(f);
    f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    sim_row_json(f, &r, NULL, 0);
    rewind(f);
    char line[4096];
    CU_ASSERT_PTR_NOT_NULL_FATAL(fgets(line, sizeof line, f));
    for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++) {
        char key[96];
        snprintf(key, sizeof key, "\"%s\":%lld,", cols[i].name, cols[i].want);
        if (!strstr(line, key)) {
            fprintf(stderr, "\nJSON lacks %s in %s\n", key, line);
            CU_FAIL("json bytes");
        }
    }
    fclose(f);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"busbw factors", test_busbw_factors},
        {"derived metrics", test_metrics},
        {"byte columns exact in CSV and JSON", test_exact_bytes},
        {NULL, NULL}};
    test_add_suite("result", cases);
    return test_run_suites();
}
