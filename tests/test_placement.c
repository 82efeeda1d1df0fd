/* test_placement.c - ranks to hosts: every placement kind, determinism by seed, and the
 * errors (P too large, bad K, allocation files naming file:line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/placement.h"
#include "testutil.h"

static topology *build(const char *spec)
{
    topology *t = NULL;
    cs_error err;
    if (topo_build_spec(spec, &t, &err) < 0)
        fprintf(stderr, "%s: %s\n", spec, err.msg);
    return t;
}

static void test_parse_format(void)
{
    const char *good[] = {"linear", "roundrobin", "random:42", "fragmented:3:7",
                          "file:/tmp/alloc.txt"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        placement_spec p;
        cs_error err;
        char buf[1200];
        CU_ASSERT_EQUAL_FATAL(placement_parse(good[i], &p, &err), 0);
        placement_format(&p, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, good[i]);
    }
    const char *bad[] = {"block", "random:", "random:-1", "random:x", "fragmented:3",
                         "fragmented:0:1", "fragmented::1", "file:"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        placement_spec p;
        cs_error err;
        CU_ASSERT_EQUAL(placement_parse(bad[i], &p, &err), -1);
        CU_ASSERT(strlen(err.msg) > 0);
    }
    placement_spec p;
    cs_error err;
    placement_parse("block", &p, &err);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "allowed: linear, roundrobin, random:SEED"));
}

static void test_linear_and_ranks_per_node(void)
{
    topology *t = build("torus dims=8");
    int32_t h[16];
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(test_place("linear", t, 5, 1, h, &err), 0);
    for (int r = 0; r < 5; r++)
        CU_ASSERT_EQUAL(h[r], r);
    CU_ASSERT_EQUAL_FATAL(test_place("linear", t, 7, 2, h, &err), 0);
    for (int r = 0; r < 7; r++)
        CU_ASSERT_EQUAL(h[r], r / 2);
    CU_ASSERT_EQUAL(test_place("linear", t, 17, 2, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "P=17 ranks at 2 per node need 9 hosts, the "
                                           "topology has 8"));
    topo_free(t);
}

static void test_roundrobin(void)
{
    topology *t = build("fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1");
    int32_t h[8];
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(test_place("roundrobin", t, 8, 1, h, &err), 0);
    const int32_t want[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    for (int r = 0; r < 8; r++)
        CU_ASSERT_EQUAL(h[r], want[r]);
    topo_free(t);
    t = build("torus dims=6"); /* no groups: linear */
    CU_ASSERT_EQUAL_FATAL(test_place("roundrobin", t, 6, 1, h, &err), 0);
    for (int r = 0; r < 6; r++)
        CU_ASSERT_EQUAL(h[r], r);
    topo_free(t);
}

/* Hosts are distinct, in range, and the same seed gives the same list. */
static void test_random(void)
{
    topology *t = build("torus dims=16x16");
    int32_t a[200], b[200], c[200];
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(test_place("random:5", t, 200, 1, a, &err), 0);
    CU_ASSERT_EQUAL_FATAL(test_place("random:5", t, 200, 1, b, &err), 0);
    CU_ASSERT_EQUAL_FATAL(test_place("random:6", t, 200, 1, c, &err), 0);
    CU_ASSERT(memcmp(a, b, sizeof a) == 0);
    CU_ASSERT(memcmp(a, c, sizeof a) != 0);
    char seen[256] = {0};
    int in_order = 1;
    for (int r = 0; r < 200; r++) {
        CU_ASSERT(a[r] >= 0 && a[r] < 256);
        CU_ASSERT(!seen[a[r]]);
        seen[a[r]] = 1;
        in_order &= r == 0 || a[r] > a[r - 1];
    }
    CU_ASSERT(!in_order);
    topo_free(t);
}

/* Number of maximal runs of consecutive host ids in a sorted-by-rank list. */
static int count_chunks(const int32_t *h, int32_t n)
{
    int chunks = 1;
    for (int32_t r = 1; r < n; r++) {
        CU_ASSERT(h[r] > h[r - 1]); /* chunks are filled in host order */
        chunks += h[r] != h[r - 1] + 1;
    }
    return chunks;
}

static void test_fragmented(void)
{
    topology *t = build("torus dims=32x32");
    int32_t a[600], b[600];
    cs_error err;
    int sizes_differ = 0, first_size = -1;
    for (uint64_t seed = 0; seed < 20; seed++) {
        char text[64];
        snprintf(text, sizeof text, "fragmented:5:%llu", (unsigned long long)seed);
        CU_ASSERT_EQUAL_FATAL(test_place(text, t, 600, 1, a, &err), 0);
        CU_ASSERT_EQUAL_FATAL(test_place(text, t, 600, 1, b, &err), 0);
        CU_ASSERT(memcmp(a, b, sizeof a) == 0);
        CU_ASSERT_EQUAL(count_chunks(a, 600), 5);
        CU_ASSERT(a[0] >= 0 && a[599] < 1024);
        int size0 = 1;
        while (size0 < 600 && a[size0] == a[size0 - 1] + 1)
            size0++;
        if (first_size < 0)
            first_size = size0;
        sizes_differ |= size0 != first_size;
    }
    CU_ASSERT(sizes_differ); /* chunk sizes are random, not equal splits */
    /* ranks per node: 2 ranks per host, still 5 chunks of hosts */
    CU_ASSERT_EQUAL_FATAL(test_place("fragmented:5:1", t, 600, 2, a, &err), 0);
    int32_t nodes[300];
    for (int r = 0; r < 600; r++) {
        if (r % 2 == 1)
            CU_ASSERT_EQUAL(a[r], a[r - 1]);
        nodes[r / 2] = a[r];
    }
    CU_ASSERT_EQUAL(count_chunks(nodes, 300), 5);
    /* the extremes: one chunk; as many chunks as nodes with exactly one gap each */
    CU_ASSERT_EQUAL_FATAL(test_place("fragmented:1:3", t, 100, 1, a, &err), 0);
    CU_ASSERT_EQUAL(count_chunks(a, 100), 1);
    CU_ASSERT_EQUAL_FATAL(test_place("fragmented:512:3", t, 512, 1, a, &err), 0);
    CU_ASSERT_EQUAL(count_chunks(a, 512), 512);
    CU_ASSERT_EQUAL(test_place("fragmented:513:3", t, 512, 1, a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "K must be at most the number of nodes"));
    CU_ASSERT_EQUAL(test_place("fragmented:10:3", t, 1020, 1, a, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "need at least 1029 hosts"));
    topo_free(t);
}

/* Writes text to a fresh temporary file; returns its "file:PATH" placement in buf. */
static void temp_file(const char *text, char *path, char *buf, size_t n)
{
    strcpy(path, "/tmp/collsim-alloc-XXXXXX");
    FILE *f = fdopen(mkstemp(path), "w");
    fputs(text, f);
    fclose(f);
    snprintf(buf, n, "file:%s", path);
}

static void test_file(void)
{
    topology *t = build("torus dims=4x4");
    int32_t h[8];
    cs_error err;
    char path[64], spec[96];
    temp_file("# job 42\nh3\n\nh3  # two ranks on h3\n  h15\nh0\nh7\n", path, spec, sizeof spec);
    CU_ASSERT_EQUAL_FATAL(test_place(spec, t, 4, 2, h, &err), 0);
    const int32_t want[4] = {3, 3, 15, 0};
    for (int r = 0; r < 4; r++)
        CU_ASSERT_EQUAL(h[r], want[r]);
    /* h3 twice with one rank per node */
    CU_ASSERT_EQUAL(test_place(spec, t, 4, 1, h, &err), -1);
    char where[96];
    snprintf(where, sizeof where, "%s:4: host h3 gets rank 1, more than --ranks-per-node 1",
             path);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, where));
    /* too few ranks in the file */
    CU_ASSERT_EQUAL(test_place(spec, t, 8, 2, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "places 5 rank(s), 8 are needed"));
    unlink(path);
    /* unknown host names: out of range, other names, leading zeros */
    const char *bad[] = {"h0\nh16\n", "h0\nnode1\n", "h0\nh01\n"};
    for (int i = 0; i < 3; i++) {
        temp_file(bad[i], path, spec, sizeof spec);
        CU_ASSERT_EQUAL(test_place(spec, t, 2, 1, h, &err), -1);
        snprintf(where, sizeof where, "%s:2: unknown host", path);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, where));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "h0..h15"));
        unlink(path);
    }
    CU_ASSERT_EQUAL(test_place("file:/nonexistent/alloc", t, 2, 1, h, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/alloc: cannot open"));
    topo_free(t);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"parse and format", test_parse_format},
        {"linear, ranks per node, too many ranks", test_linear_and_ranks_per_node},
        {"round-robin over groups", test_roundrobin},
        {"random: distinct, seeded", test_random},
        {"fragmented: K chunks, seeded", test_fragmented},
        {"allocation files", test_file},
        {NULL, NULL}};
    test_add_suite("placement", cases);
    return test_run_suites();
}
