/* cmd_sim_jobs.c - `collsim sim --job SPEC ...`: several jobs on one topology (sim/jobs.h);
 * one row per job, with its time alone and its slowdown unless --no-alone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/util.h"
#include "sim/jobs.h"

int cli_sim_jobs_check(int njobs, int have_topology, int point_options)
{
    if (njobs == 0)
        return cli_usage_error("sim", "--no-alone goes with --job");
    if (!have_topology)
        return cli_usage_error("sim", "--job needs --topology (a generated topology or a "
                                      "preset)");
    if (point_options)
        return cli_usage_error("sim", "--job gives every job's collective, algorithm, ranks, "
                                      "size, parameters and hosts (keys coll, alg, ranks, "
                                      "size, params, q, hosts): drop --collective, "
                                      "--algorithm, --ranks, --size, --param, --placement, "
                                      "--hostfile, --alloc, --ranks-per-node, --workload, "
                                      "--import, --barrier and --per-rank");
    return 0;
}

static void print_rows(const job_result *r, int n, const char *format, int no_header)
{
    if (strcmp(format, "csv") == 0 && !no_header)
        job_result_csv_header(stdout);
    for (int k = 0; k < n; k++) {
        if (strcmp(format, "json") == 0)
            job_result_json(stdout, &r[k]);
        else if (strcmp(format, "text") == 0)
            job_result_text(stdout, &r[k]);
        else
            job_result_csv(stdout, &r[k]);
    }
}

int cmd_sim_jobs(const struct sim_config *base, const char *const *specs, int n, int alone,
                 const char *format, int no_header, const char *lua,
                 const cli_lua_limits *lim)
{
    job_set *js = xcalloc(1, sizeof *js); /* large: JOBS_MAX specs */
    job_result *out = xcalloc(JOBS_MAX, sizeof *out);
    js->base = *base;
    js->njobs = n;
    cs_error err;
    struct sweep_plan *plan = NULL;
    int rc = 0;
    for (int k = 0; k < n && rc == 0; k++)
        rc = job_spec_parse(specs[k], k, &js->jobs[k], &err);
    if (rc == 0 && lua && cli_lua_load(lua, lim, &plan, &js->algorithms, &err) < 0) {
        cs_error_prefix(&err, "--lua");
        rc = -1;
    }
    if (rc == 0)
        rc = jobs_run_isolated(js, alone, out, &err);
    if (rc == 0) {
        print_rows(out, n, format, no_header);
    } else if (strncmp(err.msg, "timeout:", 8) == 0) { /* --point-timeout, as a point */
        fprintf(stderr, "collsim sim: %s\n", err.msg);
        rc = EXIT_CHECK_FAILED;
    } else {
        rc = cli_usage_error("sim", "%s", err.msg);
    }
    cli_lua_free(plan);
    free(js);
    free(out);
    return rc;
}
