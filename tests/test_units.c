/* test_units.c - size / bandwidth / time strings and rank lists. */
#include <stdlib.h>
#include <string.h>

#include "common/rankspec.h"
#include "common/units.h"
#include "testutil.h"

static void test_sizes(void)
{
    int64_t b;
    cs_error err;
    CU_ASSERT_EQUAL(parse_size("32B", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 32);
    CU_ASSERT_EQUAL(parse_size("4KiB", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 4096);
    CU_ASSERT_EQUAL(parse_size("512MiB", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 512LL << 20);
    CU_ASSERT_EQUAL(parse_size("1.5KiB", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 1536);
    CU_ASSERT_EQUAL(parse_size("1GB", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 1000000000);
    CU_ASSERT_EQUAL(parse_size("100", &b, &err), 0);
    CU_ASSERT_EQUAL(b, 100);
    CU_ASSERT_EQUAL(parse_size("12parsecs", &b, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "KiB"));
    CU_ASSERT_EQUAL(parse_size("-4KiB", &b, &err), -1);
    CU_ASSERT_EQUAL(parse_size("0.3B", &b, &err), -1);
    CU_ASSERT_EQUAL(parse_size("9000000TiB", &b, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "too large"));
}

static void test_bandwidth_time(void)
{
    double v;
    cs_error err;
    CU_ASSERT_EQUAL(parse_bandwidth("200Gbps", &v, &err), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 25e9, 1);
    CU_ASSERT_EQUAL(parse_bandwidth("25GBps", &v, &err), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 25e9, 1);
    CU_ASSERT_EQUAL(parse_bandwidth("12.5GB/s", &v, &err), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 12.5e9, 1);
    CU_ASSERT_EQUAL(parse_bandwidth("200", &v, &err), -1);
    CU_ASSERT_EQUAL(parse_time("1us", &v, &err), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 1e-6, 1e-15);
    CU_ASSERT_EQUAL(parse_time("100ns", &v, &err), 0);
    CU_ASSERT_DOUBLE_EQUAL(v, 1e-7, 1e-15);
    CU_ASSERT_EQUAL(parse_time("3 fortnights", &v, &err), -1);
}

static void test_format(void)
{
    char buf[32];
    format_size(1 << 20, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "1MiB");
    format_size(1536, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "1536B");
    format_size(3 * 1024, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "3KiB");
}

static void test_rankspec(void)
{
    int64_t *v;
    size_t n;
    cs_error err;
    CU_ASSERT_EQUAL(rankspec_parse("2..5,pow2:4..64,3", 2, 1 << 30, &v, &n, &err), 0);
    int64_t expect[] = {2, 3, 4, 5, 8, 16, 32, 64};
    CU_ASSERT_EQUAL(n, 8);
    for (size_t i = 0; i < n && i < 8; i++)
        CU_ASSERT_EQUAL(v[i], expect[i]);
    free(v);
    CU_ASSERT_EQUAL(rankspec_parse("pow2:..16", 2, 1 << 30, &v, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(v[0], 2);
    free(v);
    CU_ASSERT_EQUAL(rankspec_parse("even:3..9", 2, 1 << 30, &v, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 3);
    free(v);
    CU_ASSERT_EQUAL(rankspec_parse("1..4", 2, 100, &v, &n, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "2..100"));
    CU_ASSERT_EQUAL(rankspec_parse("4..x", 2, 100, &v, &n, &err), -1);
    CU_ASSERT_EQUAL(rankspec_parse("9..4", 2, 100, &v, &n, &err), -1);
    CU_ASSERT_EQUAL(rankspec_parse("", 2, 100, &v, &n, &err), -1);
    /* too many values: refused before expanding (this was 16 GiB for 2..2147483647) */
    CU_ASSERT_EQUAL(rankspec_parse("2..2147483647", 2, INT32_MAX, &v, &n, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "more than 1048576 values"));
    CU_ASSERT_EQUAL(rankspec_parse("2..1000000,even:2..200000", 2, INT32_MAX, &v, &n, &err), -1);
    CU_ASSERT_EQUAL(rankspec_parse("2..1048577", 2, INT32_MAX, &v, &n, &err), 0);
    CU_ASSERT_EQUAL(n, 1048576);
    free(v);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"sizes", test_sizes},
                                      {"bandwidth and time", test_bandwidth_time},
                                      {"format_size", test_format},
                                      {"rank lists", test_rankspec},
                                      {NULL, NULL}};
    test_add_suite("units", cases);
    return test_run_suites();
}
