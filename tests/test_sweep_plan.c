/* test_sweep_plan.c - Lua scenarios into plans (src/sweep): the cartesian product and its
 * order, sizes with units and collsim.sizes.geometric, parameter variants, filter, seeds
 * and stable ids, duplicates, load errors as file:line (also those raised in C code, which
 * get the position of the innermost scenario frame), and the progress line's text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep/sweep_internal.h"
#include "testutil.h"

/* Loads the scenario text from a temporary file; returns the plan or NULL (err set). */
static sweep_plan *load_text(const char *text, uint64_t seed, cs_error *err, char *path,
                             size_t n)
{
    return test_load_scenario(text, seed, err, path, n);
}

static const char two_algs[] =
    "collsim.sweep{topology = collsim.topology.torus{dims = '4x4'}, collective = 'allreduce',\n"
    "  ranks = {4, 16}, algorithms = {'ring', collsim.algorithm('bine_segmented',\n"
    "  {segment = {'16KiB', '64KiB'}})}, sizes = collsim.sizes.geometric('32B', '2KiB', 8),\n"
    "  filter = function(pt) return not (pt.ranks == 4 and pt.size == 2048) end}\n";

static void test_product_and_order(void)
{
    cs_error err;
    char path[64];
    sweep_plan *p = load_text(two_algs, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* 2 ranks x 3 variants x 3 sizes (32, 256, 2048) = 18, minus 3 filtered (P=4, 2 KiB) */
    CU_ASSERT_EQUAL(sweep_plan_count(p), 15);
    const sweep_point *a = sweep_plan_point(p, 0), *b = sweep_plan_point(p, 1);
    CU_ASSERT_EQUAL(a->ranks, 4);
    CU_ASSERT_EQUAL(a->bytes, 32);
    CU_ASSERT_EQUAL(b->bytes, 256); /* sizes vary fastest */
    CU_ASSERT_STRING_EQUAL(sweep_plan_str(p, a->algorithm), "ring");
    const sweep_point *c = sweep_plan_point(p, 2);
    CU_ASSERT_STRING_EQUAL(sweep_plan_str(p, c->algorithm), "bine_segmented");
    CU_ASSERT_STRING_EQUAL(sweep_plan_str(p, c->params), "segment=16KiB");
    const sweep_point *last = sweep_plan_point(p, 14);
    CU_ASSERT_EQUAL(last->ranks, 16);
    CU_ASSERT_EQUAL(last->bytes, 2048);
    CU_ASSERT_STRING_EQUAL(sweep_plan_str(p, last->params), "segment=64KiB");
    for (size_t i = 0; i < sweep_plan_count(p); i++) {
        CU_ASSERT_EQUAL(sweep_plan_find(p, sweep_plan_point(p, i)->id), (int64_t)i);
        CU_ASSERT_EQUAL(strlen(sweep_plan_point(p, i)->id), SWEEP_ID_LEN);
    }
    sweep_plan_free(p);
}

/* Ids depend on the parameters and the seed only. */
/* geometric() ends on its end point, also when from x factor^k misses it. */
static void test_geometric_end(void)
{
    static const char text[] =
        "collsim.sweep{topology = 'torus dims=4', collective = 'allreduce', ranks = 4,\n"
        "  algorithms = 'ring', model = 'traffic',\n"
        "  sizes = collsim.sizes.geometric('1KiB', '64MiB', 8)}\n";
    cs_error err;
    char path[64];
    sweep_plan *p = load_text(text, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* 2^10, 2^13, .., 2^25 (32 MiB): 6 sizes on the sequence, then 2^26 = 64 MiB */
    CU_ASSERT_EQUAL_FATAL(sweep_plan_count(p), 7);
    CU_ASSERT_EQUAL(sweep_plan_point(p, 5)->bytes, (int64_t)1 << 25);
    CU_ASSERT_EQUAL(sweep_plan_point(p, 6)->bytes, (int64_t)1 << 26);
    sweep_plan_free(p);
}

static void test_ids_stable(void)
{
    cs_error err;
    char path[64];
    sweep_plan *p1 = load_text(two_algs, 5, &err, path, sizeof path);
    sweep_plan *p2 = load_text(two_algs, 5, &err, path, sizeof path);
    sweep_plan *p3 = load_text(two_algs, 6, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p3);
    CU_ASSERT_STRING_EQUAL(sweep_plan_point(p1, 3)->id, sweep_plan_point(p2, 3)->id);
    CU_ASSERT_STRING_NOT_EQUAL(sweep_plan_point(p1, 3)->id, sweep_plan_point(p3, 3)->id);
    sweep_plan_free(p1);
    sweep_plan_free(p2);
    sweep_plan_free(p3);
}

static void test_duplicates_and_random_seed(void)
{
    static const char text[] =
        "for _ = 1, 2 do collsim.sweep{topology = 'torus dims=8', collective = 'bcast',\n"
        "  ranks = 8, algorithm = 'binomial_doubling', placement = 'random', repetitions = 2} end\n";
    cs_error err;
    char path[64];
    sweep_plan *p = load_text(text, 3, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(sweep_plan_count(p), 2); /* the second sweep repeats the first */
    CU_ASSERT_EQUAL(sweep_plan_facts(p)->duplicates, 2);
    const sweep_point *a = sweep_plan_point(p, 0), *b = sweep_plan_point(p, 1);
    CU_ASSERT_NOT_EQUAL(a->seed, b->seed);
    char want[64];
    snprintf(want, sizeof want, "random:%llu", (unsigned long long)a->seed);
    CU_ASSERT_STRING_EQUAL(sweep_plan_str(p, a->placement), want);
    sweep_plan_free(p);
}

/* Random workloads get the point's seed; constant and FFT workloads take none (a seed
 * would be an unknown key for them). */
static void test_workload_seeds(void)
{
    static const char text[] =
        "collsim.sweep{topology = 'torus dims=8', collective = 'alltoallv', ranks = 8,\n"
        "  algorithm = 'pairwise', workloads = {collsim.workload('uniform', {S = '1KiB'}),\n"
        "  collsim.workload('fft1', {}), collsim.workload('constant', {S = 64})}}\n";
    cs_error err;
    char path[64];
    sweep_plan *p = load_text(text, 3, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL_FATAL(sweep_plan_count(p), 3);
    const sweep_point *u = sweep_plan_point(p, 0);
    const char *got = sweep_plan_str(p, u->workload);
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "uniform:"));
    CU_ASSERT_PTR_NOT_NULL(strstr(got, "seed="));
    CU_ASSERT_PTR_NULL(strstr(sweep_plan_str(p, sweep_plan_point(p, 1)->workload), "seed="));
    CU_ASSERT_PTR_NULL(strstr(sweep_plan_str(p, sweep_plan_point(p, 2)->workload), "seed="));
    sweep_plan_free(p);
}

/* barrier = {false, true}: two points; the one without a barrier keeps the id it has in
 * a scenario without the key (existing results stay valid), the other gets its own; the
 * filter sees pt.barrier and the point's simulation gets it. */
static void test_barrier_key(void)
{
    static const char base[] =
        "collsim.sweep{topology = 'torus dims=8', collective = 'allreduce', ranks = 8,\n"
        "  algorithm = 'ring'%s}\n";
    char with[512], without[512];
    snprintf(with, sizeof with, base, ", barrier = {false, true},\n"
             "  filter = function(pt) return type(pt.barrier) == 'boolean' end");
    snprintf(without, sizeof without, base, "");
    cs_error err;
    char path[64];
    sweep_plan *p = load_text(with, 1, &err, path, sizeof path);
    sweep_plan *q = load_text(without, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL_FATAL(sweep_plan_count(p), 2);
    const sweep_point *off = sweep_plan_point(p, 0), *on = sweep_plan_point(p, 1);
    CU_ASSERT_EQUAL(off->barrier, 0);
    CU_ASSERT_EQUAL(on->barrier, 1);
    CU_ASSERT_STRING_EQUAL(off->id, sweep_plan_point(q, 0)->id);
    CU_ASSERT_STRING_NOT_EQUAL(on->id, off->id);
    sim_config c;
    workload *w;
    CU_ASSERT_FATAL(sweep_point_config(p, on, &c, &w, &err) == 0);
    CU_ASSERT_EQUAL(c.barrier, 1);
    CU_ASSERT_FATAL(sweep_point_config(p, off, &c, &w, &err) == 0);
    CU_ASSERT_EQUAL(c.barrier, 0);
    sweep_plan_free(p);
    sweep_plan_free(q);
}

/* Errors name the scenario file and the line of the offending call. */
static void expect_error(const char *text, const char *line, const char *words)
{
    cs_error err;
    char path[64], want[128];
    sweep_plan *p = load_text(text, 1, &err, path, sizeof path);
    CU_ASSERT_PTR_NULL(p);
    sweep_plan_free(p);
    if (line[0])
        snprintf(want, sizeof want, "%s:%s:", path, line);
    else
        snprintf(want, sizeof want, "%s:", path);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, words));
    if (!strstr(err.msg, want) || !strstr(err.msg, words))
        fprintf(stderr, "\n  got: %s\n  want: %s ... %s\n", err.msg, want, words);
}

static void test_errors(void)
{
    expect_error("\n\ncollsim.sweep{ topology = 'torus dims=4',, }\n", "3", "unexpected symbol");
    expect_error("collsim.sweep{topology = 'torus dims=4', collective = 'allreduce',\n"
                 "  ranks = 4, algorithm = 'rign'}\n", "1", "rign");
    expect_error("collsim.sweep{topology = 'torus dims=4', collective = 'allreduce',\n"
                 "  ranks = 4, algorithm = collsim.algorithm('bine_segmented', {sgment = 1})}\n",
                 "1", "sgment");
    expect_error("collsim.sweep{topology = 'torus dims=4', collective = 'allreduce',\n"
                 "  ranks = 4, algorithm = 'ring', sizes = {'1 KiB', '3 furlongs'}}\n", "1",
                 "furlongs");
    expect_error("local x = collsim.sizes.geometric('1KiB', '1B')\n", "1", "from <= to");
    expect_error("os.execute('true')\n", "1", "os.execute is not available");
    expect_error("print('nothing')\n", "", "defines no points");
    /* raised in C called from C (ipairs' iterator): the scenario line that looped */
    expect_error("local x = 1\nfor _ in ipairs(nil) do end\n", "2", "attempt to index a nil");
    expect_error("collsim.sweep{topology = 'torus dims=4', collective = 'allreduce',\n"
                 "  ranks = 4, algorithm = 'ring', filter = function(pt)\n"
                 "    for _ in ipairs(nil) do end end}\n", "3", "attempt to index a nil");
    expect_error("\nerror({})\n", "2", "error object is a table value");
    expect_error("collsim.sweep{topology = 'torus dims=4', collective = 'allreduce',\n"
                 "  ranks = 4, algorithm = 'ring', barrier = 'yes'}\n", "1",
                 "barrier: expected true or false");
    /* an error rethrown without position keeps its first one, not a second in front */
    expect_error("local ok, e = pcall(function() local t = nil; return t.x end)\n"
                 "error(e, 0)\n", "1", "attempt to index a nil value (local 't')");
}

static void test_progress_line(void)
{
    char line[256];
    progress_status st = {.done = 3, .total = 10, .running = "allreduce ring P=32 n=1MiB",
                          .running_s = 4, .more = 1, .eta_s = 200};
    progress_format(&st, 120, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "[3/10] ETA 3m20s | running allreduce ring P=32 n=1MiB (4 s) "
                                 "+1 more");
    progress_format(&st, 50, line, sizeof line); /* a narrow terminal: the label is cut */
    CU_ASSERT_EQUAL(strlen(line), 49);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, "running allre... (4 s) +1 more"));
    st = (progress_status){.done = 0, .total = 10, .eta_s = -1};
    progress_format(&st, 80, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "[0/10] ETA ?");
    st = (progress_status){.done = 1, .total = 2, .running = "x", .running_s = 7300,
                           .eta_s = 42};
    progress_format(&st, 80, line, sizeof line);
    CU_ASSERT_STRING_EQUAL(line, "[1/2] ETA 42 s | running x (2h01m)");
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"cartesian product, order, variants, filter", test_product_and_order},
        {"ids stable per parameters and seed", test_ids_stable},
        {"geometric sizes end on the end point", test_geometric_end},
        {"duplicates dropped, random placements seeded", test_duplicates_and_random_seed},
        {"load errors are file:line", test_errors},
        {"workload seeds only for random kinds", test_workload_seeds},
        {"barrier key: its own id only when true", test_barrier_key},
        {"progress line: done/total, ETA, points in flight", test_progress_line},
        {NULL, NULL}};
    test_add_suite("sweep_plan", cases);
    return test_run_suites();
}
