/* test_sweep_jobs.c - several jobs in a scenario (collsim.sweep{jobs = {...}}, src/sweep/
 * lua_jobs.c): the points of the jobs' listed values, their ids (every job's spec, not the
 * order of a table's keys), the job set of a point, and the results.csv rows with the job
 * columns (well-formed rows pass, planted bad ones are refused). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/jobs.h"
#include "sweep/sweep_internal.h"
#include "testutil.h"

static sweep_plan *load(const char *text, cs_error *err)
{
    char path[64];
    return test_load_scenario(text, 1, err, path, sizeof path);
}

#define TOPO "topology = 'torus dims=4 mesh=1', "

/* 2 algorithms x 3 sizes of the first job, 2 loads of the second: 12 points in odometer
 * order (the first job's first key, alg, turns slowest; the second job's load fastest). */
static void test_points(void)
{
    static const char text[] =
        "collsim.sweep{" TOPO "jobs = {\n"
        "  {name = 'v', coll = 'allreduce', alg = {'ring', 'rabenseifner'}, ranks = 2,\n"
        "   hosts = {0, 1}, size = {'1KiB', '2KiB', '4KiB'}},\n"
        "  {name = 'b', pattern = 'uniform', ranks = 2, hosts = '2-3', load = {0.5, 1}}}}\n";
    cs_error err;
    sweep_plan *p = load(text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(sweep_plan_count(p), 12);
    CU_ASSERT_TRUE(sweep_plan_has_jobs(p));
    job_set *js = calloc(1, sizeof *js);
    for (size_t i = 0; i < sweep_plan_count(p); i++) {
        const sweep_point *pt = sweep_plan_point(p, i);
        CU_ASSERT_TRUE(sweep_point_has_jobs(p, pt));
        CU_ASSERT_FATAL(sweep_point_jobs(p, pt, js, &err) == 0);
        CU_ASSERT_EQUAL(js->njobs, 2);
        CU_ASSERT_STRING_EQUAL(js->jobs[0].name, "v");
        CU_ASSERT_STRING_EQUAL(js->jobs[0].algorithm, i < 6 ? "ring" : "rabenseifner");
        CU_ASSERT_EQUAL(js->jobs[0].spec.bytes, (int64_t)1024 << ((i / 2) % 3));
        CU_ASSERT_EQUAL(js->jobs[1].pattern, JOB_UNIFORM);
        CU_ASSERT_DOUBLE_EQUAL(js->jobs[1].load, i % 2 ? 1.0 : 0.5, 1e-12);
        CU_ASSERT_EQUAL(js->jobs[0].spec.P, 2);
        CU_ASSERT_FALSE(js->jobs[0].hosts_auto);
        CU_ASSERT_EQUAL(sweep_plan_find(p, pt->id), (int64_t)i);
    }
    free(js);
    sweep_plan_free(p);
}

/* The same jobs written with the keys in another order give the same id; another value
 * of any job, or another order of the jobs, another id. */
static void test_ids(void)
{
    static const char *const texts[] = {
        "collsim.sweep{" TOPO "jobs = {{coll = 'p2p', alg = 'direct', ranks = 2, hosts = '0-1'},"
        " {coll = 'bcast', alg = 'linear', ranks = 2, hosts = '2-3'}}}\n",
        "collsim.sweep{" TOPO "jobs = {{hosts = '0-1', ranks = 2, alg = 'direct', coll = 'p2p'},"
        " {hosts = '2-3', ranks = 2, alg = 'linear', coll = 'bcast'}}}\n",
        "collsim.sweep{" TOPO "jobs = {{coll = 'p2p', alg = 'direct', ranks = 2, hosts = '0-1'},"
        " {coll = 'bcast', alg = 'linear', ranks = 2, hosts = '2-3', start = '1us'}}}\n",
        "collsim.sweep{" TOPO "jobs = {{coll = 'bcast', alg = 'linear', ranks = 2, hosts = '2-3'},"
        " {coll = 'p2p', alg = 'direct', ranks = 2, hosts = '0-1'}}}\n",
    };
    char ids[4][SWEEP_ID_LEN + 1];
    for (int k = 0; k < 4; k++) {
        cs_error err;
        sweep_plan *p = load(texts[k], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        CU_ASSERT_EQUAL(sweep_plan_count(p), 1);
        snprintf(ids[k], sizeof ids[k], "%s", sweep_plan_point(p, 0)->id);
        sweep_plan_free(p);
    }
    CU_ASSERT_STRING_EQUAL(ids[0], ids[1]);
    CU_ASSERT_STRING_NOT_EQUAL(ids[0], ids[2]);
    CU_ASSERT_STRING_NOT_EQUAL(ids[0], ids[3]);
}

/* Bad job tables stop the scenario with its file:line and the job's name. */
static void test_errors(void)
{
    static const struct {
        const char *jobs, *want;
    } cases[] = {
        {"{{name = 'x', coll = 'p2p', alg = 'direct'}}", "jobs[1] (x): ranks= is required"},
        {"{{coll = 'p2p', alg = 'direct', ranks = 2, colour = 'red'}}",
         "jobs[1]: unknown key 'colour'"},
        {"{{name = 'a', coll = 'p2p', alg = 'direct', ranks = 2, hosts = '0-1'},"
         " {name = 'b', coll = 'p2p', alg = 'direct', ranks = 2, hosts = '1-2'}}",
         "jobs a and b both use host h1"},
        {"{{name = {'a', 'b'}, coll = 'p2p', alg = 'direct', ranks = 2}}", "name is one string"},
        {"{{coll = 'p2p', alg = 'direct', ranks = 2, size = {}}}", "size: an empty list"},
        {"{}", "a list of 1 to 16 job tables"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "\ncollsim.sweep{" TOPO "jobs = %s}\n", cases[i].jobs);
        cs_error err;
        sweep_plan *p = load(text, &err);
        CU_ASSERT_PTR_NULL(p);
        if (p) {
            sweep_plan_free(p);
            continue;
        }
        if (!strstr(err.msg, cases[i].want) || !strstr(err.msg, ".lua:2: "))
            fprintf(stderr, "\n  case %zu: %s\n", i, err.msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].want));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, ".lua:2: "));
    }
}

/* A job row: the sweep columns, then job start_s reps alone_time_s slowdown; the checker
 * takes it with the job columns and refuses it without, and refuses planted faults. */
static void test_rows(void)
{
    sweep_fields f = {.point = 3, .id = "0123456789abcdef", .status = "ok"};
    job_result jr;
    memset(&jr, 0, sizeof jr);
    snprintf(jr.row.topology, sizeof jr.row.topology, "torus dims=4");
    snprintf(jr.row.collective, sizeof jr.row.collective, "p2p");
    snprintf(jr.row.model, sizeof jr.row.model, "cm02");
    jr.row.time_s = 2e-3;
    jr.row.algbw_Bps = jr.row.busbw_Bps = 1e9;
    snprintf(jr.job, sizeof jr.job, "victim");
    jr.start_s = 1e-4;
    jr.reps = 2;
    jr.alone_s = 1e-3;
    jr.slowdown = 2;
    size_t len;
    char *line = csv_row_text(&f, &jr.row, &jr, 1, &len);
    CU_ASSERT_EQUAL(line[len - 1], '\n');
    line[--len] = '\0';
    CU_ASSERT_PTR_NOT_NULL(strstr(line, ",victim,0.0001,2,0.001,2"));
    char why[128];
    CU_ASSERT_EQUAL(csv_row_check(line, 1, why, sizeof why), 0);
    CU_ASSERT_EQUAL(csv_row_check(line, 0, why, sizeof why), -1); /* extra columns */
    char **fields;
    int n = csv_split(line, len, &fields);
    CU_ASSERT_EQUAL(n, csv_ncolumns(1));
    CU_ASSERT_STRING_EQUAL(fields[n - 5], "victim");
    CU_ASSERT_STRING_EQUAL(csv_column_name(n - 1, 1, NULL), "slowdown");
    CU_ASSERT_PTR_NULL(csv_column_name(n - 1, 0, NULL));
    free(fields);
    /* planted: a slowdown that is no number */
    char *bad = strdup(line);
    bad[strlen(bad) - 1] = 'x'; /* the slowdown "2" becomes "x" */
    CU_ASSERT_EQUAL(csv_row_check(bad, 1, why, sizeof why), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(why, "column slowdown is not a number"));
    free(bad);
    free(line);
    /* a row of no job in a plan with jobs: the job columns empty; without jobs: none */
    line = csv_row_text(&f, &jr.row, NULL, 1, &len);
    CU_ASSERT_PTR_NOT_NULL(strstr(line, ",,,,,\n"));
    free(line);
    line = csv_row_text(&f, &jr.row, NULL, 0, &len);
    line[--len] = '\0';
    CU_ASSERT_EQUAL(csv_row_check(line, 0, why, sizeof why), 0);
    CU_ASSERT_EQUAL(csv_row_check(line, 1, why, sizeof why), -1);
    free(line);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"jobs' listed values multiply into points", test_points},
        {"ids: every job's spec, not the key order", test_ids},
        {"bad job tables: file:line and the job", test_errors},
        {"rows with the job columns, planted faults", test_rows},
        {NULL, NULL}};
    test_add_suite("sweep_jobs", cases);
    return test_run_suites();
}
