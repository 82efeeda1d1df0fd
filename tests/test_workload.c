/* test_workload.c - alltoallv workloads: parameters and their errors, determinism, the
 * distributions' shapes (checked against closed forms and the paper's numbers), and that
 * the cached table gives the same sizes as on-demand computation. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "traffic/workload.h"

static workload *make(const char *text, int32_t P)
{
    workload_params p;
    cs_error err;
    workload *w = NULL;
    if (workload_parse(text, &p, &err) < 0 || workload_create(&p, P, &w, &err) < 0) {
        fprintf(stderr, "\n  %s: %s\n", text, err.msg);
        return NULL;
    }
    return w;
}

/* The parse error of text, or NULL when it parses. */
static const char *parse_error(const char *text)
{
    static cs_error err;
    workload_params p;
    return workload_parse(text, &p, &err) < 0 ? err.msg : NULL;
}

static int contains(const char *s, const char *part)
{
    return s && strstr(s, part);
}

static void test_errors(void)
{
    CU_ASSERT(contains(parse_error("unifrom:S=1KiB"), "allowed: constant, uniform, normal"));
    CU_ASSERT(contains(parse_error("uniform"), "workload uniform: missing S"));
    CU_ASSERT(contains(parse_error("uniform:S=1KiB:sed=2"), "unknown key 'sed' (allowed: S, seed, unit)"));
    CU_ASSERT(contains(parse_error("uniform:S=1parsec"), "S"));
    CU_ASSERT(contains(parse_error("uniform:S=4GiB"), "outside 0..2147483647"));
    CU_ASSERT(contains(parse_error("uniform:S=1KiB:unit=0"), "unit"));
    CU_ASSERT(contains(parse_error("uniform:S"), "expected key=value"));
    CU_ASSERT(contains(parse_error(""), "empty workload"));
    CU_ASSERT(contains(parse_error("powerlaw:max=1KiB:x=0"), "x: must be in (0, 1]"));
    CU_ASSERT(contains(parse_error("powerlaw:max=1KiB:x=1.5"), "x"));
    CU_ASSERT(contains(parse_error("normal:mean=1000:max=1KiB"), "missing sd"));
    CU_ASSERT(contains(parse_error("normal:mean=5000:sd=100:max=1KiB"), "less than 5% of its mass"));
    CU_ASSERT(contains(parse_error("constant:S=1KiB:seed=3"), "unknown key 'seed' (allowed: S)"));
    CU_ASSERT(contains(parse_error("fft2:first=3"), "allowed: block, last"));
    workload_params p;
    cs_error err;
    workload *w;
    CU_ASSERT_EQUAL(workload_parse("constant:S=1", &p, &err), 0);
    CU_ASSERT_EQUAL(workload_create(&p, 0, &w, &err), -1);
    CU_ASSERT(contains(err.msg, "P >= 1"));
}

/* The canonical text reads back to the same sizes. */
static void test_format_round_trip(void)
{
    const char *texts[] = {"constant:S=1KiB", "uniform:S=1000:seed=9:unit=8B",
                           "normal:mean=1000:sd=240:max=1KiB:seed=4", "powerlaw:max=1KiB:x=0.95",
                           "fft1", "fft2:last=7B"};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        workload_params p, q;
        cs_error err;
        char buf[256];
        CU_ASSERT_EQUAL_FATAL(workload_parse(texts[i], &p, &err), 0);
        workload_format(&p, buf, sizeof buf);
        CU_ASSERT_EQUAL_FATAL(workload_parse(buf, &q, &err), 0);
        CU_ASSERT_EQUAL(memcmp(&p, &q, sizeof p), 0);
    }
    workload_params p;
    cs_error err;
    char buf[256];
    workload_parse("powerlaw:max=1KiB:x=0.95", &p, &err);
    workload_format(&p, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "powerlaw:max=1KiB:x=0.95:seed=1:unit=1B");
}

/* Same seed, same sizes (also through the table); another seed, other sizes. */
static void test_deterministic(void)
{
    const char *kinds[] = {"uniform:S=1KiB:seed=%d", "normal:mean=1000:sd=240:max=1KiB:seed=%d",
                           "powerlaw:max=1KiB:x=0.9:seed=%d"};
    for (size_t k = 0; k < 3; k++) {
        char t1[128], t2[128];
        snprintf(t1, sizeof t1, kinds[k], 7);
        snprintf(t2, sizeof t2, kinds[k], 8);
        workload *a = make(t1, 100), *b = make(t1, 100), *c = make(t2, 100);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_EQUAL(workload_materialize(b, 1 << 20), 1);
        int64_t differ = 0;
        for (int32_t s = 0; s < 100; s++)
            for (int32_t d = 0; d < 100; d++) {
                CU_ASSERT_EQUAL(workload_bytes(a, s, d), workload_bytes(b, s, d));
                differ += workload_bytes(a, s, d) != workload_bytes(c, s, d);
            }
        CU_ASSERT(differ > 5000); /* most of the 10^4 sizes change with the seed */
        CU_ASSERT_EQUAL(workload_block_bytes(a, 57 * 100 + 3), workload_bytes(a, 57, 3));
        workload_free(a);
        workload_free(b);
        workload_free(c);
    }
    workload *k = make("constant:S=5", 64);
    CU_ASSERT_EQUAL(workload_materialize(k, 1 << 30), 0); /* nothing to cache */
    workload_free(k);
    workload *big = make("uniform:S=5", 64);
    CU_ASSERT_EQUAL(workload_materialize(big, 100), 0); /* 64*64*4 bytes > 100 */
    workload_free(big);
}

/* uniform on [0, S]: every value hit, both ends included, mean S/2, unit multiples. */
static void test_uniform(void)
{
    int32_t P = 200;
    workload *w = make("uniform:S=10", P);
    int64_t hits[11] = {0};
    workload_stats st;
    workload_compute_stats(w, &st);
    for (int32_t s = 0; s < P; s++)
        for (int32_t d = 0; d < P; d++) {
            int64_t b = workload_bytes(w, s, d);
            CU_ASSERT_FATAL(b >= 0 && b <= 10);
            hits[b]++;
        }
    for (int i = 0; i <= 10; i++) /* 40000 draws, 3636 expected per value */
        CU_ASSERT(hits[i] > 3300 && hits[i] < 4000);
    CU_ASSERT(fabs((double)st.total / (P * P) - 5.0) < 0.1);
    CU_ASSERT_EQUAL(st.max, 10);
    workload_free(w);
    w = make("uniform:S=1KiB:unit=8B", P);
    workload_compute_stats(w, &st);
    for (int32_t s = 0; s < P; s++)
        CU_ASSERT_EQUAL(workload_bytes(w, s, (s * 7) % P) % 8, 0);
    CU_ASSERT(fabs((double)st.total / (P * P) - 512.0) < 8);
    CU_ASSERT_EQUAL(st.max, 1024);
    workload_free(w);
}

static double phi(double x) { return exp(-x * x / 2) / sqrt(2 * M_PI); }
static double Phi(double x) { return 0.5 * erfc(-x / sqrt(2)); }

/* The paper's normal (mean 1000, sd 240, max 1024): truncated-normal mean minus the
 * flooring's half byte, and the acceptance region. */
static void test_normal(void)
{
    int32_t P = 200;
    workload *w = make("normal:mean=1000:sd=240:max=1KiB:seed=3", P);
    workload_stats st;
    workload_compute_stats(w, &st);
    double a = (0 - 1000) / 240.0, b = (1024 - 1000) / 240.0;
    double expect = 1000 - 240 * (phi(b) - phi(a)) / (Phi(b) - Phi(a)) - 0.5;
    double mean = (double)st.total / (P * P);
    CU_ASSERT(fabs(mean - expect) < 3); /* sd of the sample mean ~ 0.9 */
    CU_ASSERT(st.max <= 1024 && st.max >= 1020);
    workload_free(w);
}

/* The paper's "power-law": each rank sends exactly the sizes floor(max x^k), k < P, in its
 * own order; with max 1024 and x 0.95, 136 of them are non-zero (the digest's count). */
static void test_powerlaw(void)
{
    int32_t P = 4096;
    workload *w = make("powerlaw:max=1KiB:x=0.95:seed=5", P);
    int64_t first_rank[3];
    for (int32_t s = 0; s < 3; s++) {
        int64_t nonzero = 0, top = 0, second = 0;
        first_rank[s] = -1;
        for (int32_t d = 0; d < P; d++) {
            int64_t b = workload_bytes(w, s, d);
            nonzero += b > 0;
            top += b == 1024;   /* k = 0 */
            second += b == 972; /* k = 1: floor(1024 * 0.95) */
            if (b == 1024 && first_rank[s] < 0)
                first_rank[s] = d;
        }
        CU_ASSERT_EQUAL(nonzero, 136);
        CU_ASSERT_EQUAL(top, 1);
        CU_ASSERT_EQUAL(second, 1);
    }
    /* ranks shuffle independently: the 1 KiB block goes to different destinations */
    CU_ASSERT(first_rank[0] != first_rank[1] || first_rank[1] != first_rank[2]);
    workload_free(w);
}

/* FFT N1 at P = 8192: 5120 workers each send to 6400 destinations (digest section 7.3);
 * N2: 512 B blocks, 128 B to the last rank. */
static void test_fft(void)
{
    int32_t P = 8192;
    workload *w = make("fft1", P);
    int64_t senders = 0, receivers = 0;
    for (int32_t s = 0; s < P; s++)
        senders += workload_bytes(w, s, 0) == 64;
    for (int32_t d = 0; d < P; d++)
        receivers += workload_bytes(w, 0, d) == 64;
    CU_ASSERT_EQUAL(senders, 5120);
    CU_ASSERT_EQUAL(receivers, 6400);
    CU_ASSERT_EQUAL(workload_bytes(w, 5120, 0), 0);
    CU_ASSERT_EQUAL(workload_bytes(w, 0, 6400), 0);
    workload_free(w);
    w = make("fft2", 100);
    workload_stats st;
    workload_compute_stats(w, &st);
    CU_ASSERT_EQUAL(st.total, 100 * (99 * 512 + 128));
    CU_ASSERT_EQUAL(workload_bytes(w, 3, 99), 128);
    workload_free(w);
    w = make("constant:S=0", 10);
    workload_compute_stats(w, &st);
    CU_ASSERT_EQUAL(st.zeros, 100);
    workload_free(w);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"parameter errors", test_errors},
                                      {"canonical text round trip", test_format_round_trip},
                                      {"deterministic by seed, table = on demand", test_deterministic},
                                      {"uniform on [0, S]", test_uniform},
                                      {"truncated normal", test_normal},
                                      {"power-law (geometric, shuffled)", test_powerlaw},
                                      {"FFT N1, N2, all-zero", test_fft},
                                      {NULL, NULL}};
    test_add_suite("workloads", cases);
    return test_run_suites();
}
