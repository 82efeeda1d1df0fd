/* test_sweep_eta.c - the time a sweep will take (src/sweep/point_cost.c, progress.c): a
 * point's work read from its schedule, the estimate growing with P and the vector size,
 * the ETA from the estimates (before any point finishes: their sum) scaled by the
 * measured / estimated ratio, and the announcement of a long point. Measured durations
 * are injected: nothing here depends on the machine's speed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/sweep_internal.h"
#include "testutil.h"

/* Ring allreduce and recursive doubling over P and sizes, on every model family. */
static const char sweep_text[] =
    "collsim.sweep{topology = 'torus dims=32x32', collective = 'allreduce',\n"
    "  ranks = {4, 8, 16, 64, 256, 1024}, algorithms = {'ring', 'recursive_doubling'},\n"
    "  model = {'cm02', 'packet', 'analytic', 'traffic'},\n"
    "  sizes = {'1KiB', '64KiB', '1MiB', '16MiB'}}\n";

/* The point of the plan with these fields (NULL if none). */
static const sweep_point *find_point(const sweep_plan *p, const char *alg, sim_model model,
                                     int32_t P, int64_t bytes)
{
    for (size_t i = 0; i < sweep_plan_count(p); i++) {
        const sweep_point *pt = sweep_plan_point(p, i);
        if (pt->model == model && pt->ranks == P && pt->bytes == bytes &&
            strcmp(sweep_plan_str(p, pt->algorithm), alg) == 0)
            return pt;
    }
    return NULL;
}

/* The ring allreduce: 2(P-1) steps of one send per rank (reduce-scatter, then allgather),
 * each of n/P bytes: 2(P-1)P messages, 2(P-1)n bytes. Recursive doubling: log2 P steps of
 * one send of n bytes. */
static void test_work_from_schedule(void)
{
    cs_error err;
    char path[64];
    sweep_plan *p = test_load_scenario(sweep_text, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    point_work w;
    point_work_of(p, find_point(p, "ring", SIM_MODEL_CM02, 16, 1 << 20), &w);
    CU_ASSERT_DOUBLE_EQUAL(w.messages, 2.0 * 15 * 16, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.steps, 30, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.bytes, 2.0 * 15 * (1 << 20), 1e-9);
    point_work_of(p, find_point(p, "recursive_doubling", SIM_MODEL_CM02, 64, 1024), &w);
    CU_ASSERT_DOUBLE_EQUAL(w.messages, 6.0 * 64, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.steps, 6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w.bytes, 6.0 * 64 * 1024, 1e-9);
    sweep_plan_free(p);
}

/* For a fixed algorithm and model: more ranks cost more (strictly), a larger vector never
 * less, and on the packet model (packets) strictly more. */
static void test_monotone(void)
{
    static const int32_t Ps[] = {4, 8, 16, 64, 256, 1024};
    static const int64_t sizes[] = {1024, 64 << 10, 1 << 20, 16 << 20};
    static const sim_model models[] = {SIM_MODEL_CM02, SIM_MODEL_PACKET, SIM_MODEL_ANALYTIC,
                                       SIM_MODEL_TRAFFIC};
    static const char *const algs[] = {"ring", "recursive_doubling"};
    cs_error err;
    char path[64];
    sweep_plan *p = test_load_scenario(sweep_text, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    for (int a = 0; a < 2; a++)
        for (int m = 0; m < 4; m++)
            for (int i = 0; i < 6; i++)
                for (int k = 0; k < 4; k++) {
                    double c = sweep_point_cost(p, find_point(p, algs[a], models[m], Ps[i], sizes[k]));
                    CU_ASSERT(c > 0 && isfinite(c));
                    if (i > 0)
                        CU_ASSERT(c > sweep_point_cost(p, find_point(p, algs[a], models[m],
                                                                     Ps[i - 1], sizes[k])));
                    if (k == 0)
                        continue;
                    double smaller = sweep_point_cost(p, find_point(p, algs[a], models[m],
                                                                    Ps[i], sizes[k - 1]));
                    CU_ASSERT(models[m] == SIM_MODEL_PACKET ? c > smaller : c >= smaller);
                }
    sweep_plan_free(p);
}

/* The formula used where the schedule is not generated (an alltoallv workload): monotone
 * in P and size too. */
static void test_formula_monotone(void)
{
    point_work w = {.model = SIM_MODEL_CM02, .ranks = 64, .messages = 1000, .steps = 10};
    double base = point_cost_seconds(&w);
    w.ranks = 128;
    CU_ASSERT(point_cost_seconds(&w) > base);
    w = (point_work){.model = SIM_MODEL_PACKET, .ranks = 64, .messages = 1000, .steps = 10,
                     .bytes = 1e6, .mtu = 4096};
    base = point_cost_seconds(&w);
    w.bytes = 2e6;
    CU_ASSERT(point_cost_seconds(&w) > base);
    const char *text =
        "collsim.sweep{topology = 'torus dims=8x8', collective = 'alltoallv',\n"
        "  ranks = {16, 64}, algorithm = 'linear', workload = collsim.workload('uniform', {S = '1KiB'}),\n"
        "  sizes = {'1KiB', '1MiB'}, model = 'packet'}\n";
    cs_error err;
    char path[64];
    sweep_plan *p = test_load_scenario(text, 1, &err, path, sizeof path);
    if (!p)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(sweep_plan_count(p), 4);
    double c[4];
    for (int i = 0; i < 4; i++) /* P=16 1KiB, 16 1MiB, 64 1KiB, 64 1MiB */
        c[i] = sweep_point_cost(p, sweep_plan_point(p, (size_t)i));
    CU_ASSERT(c[1] > c[0]);
    CU_ASSERT(c[3] > c[2]);
    CU_ASSERT(c[2] > c[0]);
    CU_ASSERT(c[3] > c[1]);
    sweep_plan_free(p);
}

/* Before any point finishes the ETA is the sum of the estimates (over the jobs); a point
 * finished ok scales the rest by measured / estimated; errors do not count. */
static void test_eta(void)
{
    progress pr;
    progress_init(&pr, PROGRESS_QUIET, 4, 0, 10.0 + 20.0 + 30.0 + 40.0, 1);
    CU_ASSERT_DOUBLE_EQUAL(progress_ratio(&pr), 1.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 100.0, 1e-9);
    /* running for 4 s (within its expected time): 4 s of the work are done */
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 4), 96.0, 1e-9);
    /* the first point (estimated 10 s) took 5 s: the other 90 s are worth 45 */
    progress_point(&pr, "a", "ok", 5.0, 10.0);
    CU_ASSERT_DOUBLE_EQUAL(progress_ratio(&pr), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 45.0, 1e-9);
    /* a point that failed after 0.01 s of its 20 is not a measurement of speed */
    progress_point(&pr, "b", "error: no", 0.01, 20.0);
    CU_ASSERT_DOUBLE_EQUAL(progress_ratio(&pr), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 35.0, 1e-9);
    /* the next took 90 s for 30 estimated: ratio (5 + 90) / (10 + 30) */
    progress_point(&pr, "c", "ok", 90.0, 30.0);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 40.0 * 95.0 / 40.0, 1e-9);
    progress_point(&pr, "d", "ok", 1.0, 40.0);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 0.0, 1e-12);
}

/* With -j 2 the work is shared by two jobs, not by more than the points left; a resumed
 * run starts from the points it has. */
static void test_eta_jobs(void)
{
    progress pr;
    progress_init(&pr, PROGRESS_QUIET, 5, 2, 60.0, 2);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 30.0, 1e-9);
    progress_point(&pr, "a", "ok", 10.0, 10.0);
    progress_point(&pr, "b", "ok", 20.0, 20.0);
    /* one point left (30 s): one job works on it */
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 0), 30.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(progress_eta(&pr, 50), 0.0, 1e-12); /* never negative */
}

/* Runs fn with stderr going to a file; returns what it wrote (malloc'ed). */
static char *capture_stderr(void (*fn)(progress *), progress *pr)
{
    char path[] = "/tmp/collsim-test-eta-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    fflush(stderr);
    dup2(fd, 2);
    fn(pr);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char *buf = calloc(1, 4096);
    ssize_t n = pread(fd, buf, 4095, 0);
    buf[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return buf;
}

static void announce_long(progress *pr)
{
    progress_announce(pr, 17, "allreduce ring P=4096 n=16MiB", 185.0);
}

static void test_announce(void)
{
    progress pr;
    progress_init(&pr, PROGRESS_LINES, 40, 0, 1000.0, 1);
    char *out = capture_stderr(announce_long, &pr);
    CU_ASSERT_STRING_EQUAL(out, "collsim run: point 17/40: allreduce ring P=4096 n=16MiB, "
                                "expect ~3 min\n");
    free(out);
    progress_init(&pr, PROGRESS_QUIET, 40, 0, 1000.0, 1); /* -q: nothing */
    out = capture_stderr(announce_long, &pr);
    CU_ASSERT_STRING_EQUAL(out, "");
    free(out);
    char buf[32];
    progress_format_rough(0.2, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "<1 s");
    progress_format_rough(45, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "~45 s");
    progress_format_rough(9000, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "~2.5 h");
    progress_format_rough(1e12, buf, sizeof buf); /* a point that will be refused, likely */
    CU_ASSERT_STRING_EQUAL(buf, "over 1000 h");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"a point's work read from its schedule", test_work_from_schedule},
        {"the estimate grows with P and size", test_monotone},
        {"the formula where no schedule is read grows too", test_formula_monotone},
        {"ETA: the sum of estimates, then scaled by measured/estimated", test_eta},
        {"ETA over the jobs, never negative", test_eta_jobs},
        {"a long point announced before it starts", test_announce},
        {NULL, NULL}};
    test_add_suite("sweep_eta", cases);
    return test_run_suites();
}
