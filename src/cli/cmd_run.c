/* cmd_run.c - `collsim run SCENARIO.lua`: loads a Lua scenario into a plan, runs it into
 * OUTDIR (results.csv, manifest.json), then draws the plots (src/sweep/sweep.h,
 * docs/scenarios.md). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/units.h"
#include "sim/estimate.h"
#include "sweep/sweep.h"

static const char usage[] =
    "usage: collsim run SCENARIO.lua [options]\n"
    "  -o, --output DIR   output directory (default results/<scenario name>)\n"
    "  -j, --jobs N       points simulated at once, each in its own process (default 1)\n"
    "  --resume           keep the rows already in DIR/results.csv, run the other points\n"
    "  --overwrite        move the results of an earlier run in DIR (results.csv,\n"
    "                     manifest.json, timings.csv, plots) into DIR/previous-<time>/\n"
    "                     first; without it or --resume such a DIR is refused\n"
    "  --shard K/N        run only the points i with i mod N = K-1\n"
    "  --seed S           scenario seed (overrides collsim.seed in the file)\n"
    "  --unsafe-lua       no sandbox (os.execute, io.popen, writes anywhere)\n"
    "  --model M          run every point on model M (cm02, lv08, smpi, packet,\n"
    "                     analytic, traffic, or auto: analytic first, then cm02 for\n"
    "                     the points within auto_factor of the best) instead of the\n"
    "                     scenario's; traffic-model points stay traffic. A different\n"
    "                     plan: give it its own -o DIR\n"
    "  --no-plot          do not call scripts/plot.py\n"
    "  --dry-run          print the plan (a line per point: number, id, topology, model,\n"
    "                     label) and run nothing\n"
    "  --point-timeout S  kill a point after S seconds of wall time; its row gets\n"
    "                     status=timeout and the sweep goes on (default: none)\n"
    "  --lua-timeout S    wall-time limit of the scenario's evaluation and of each\n"
    "                     on_result call, in seconds (default 60; 0 = none)\n"
    "  --lua-memory SIZE  memory limit of the scenario's Lua state (default 1GiB; 0 = none)\n"
    "  --force            with --resume: run even if the scenario file or seed changed;\n"
    "                     rows that are not points of this run go to results.foreign.csv\n"
    "  --retry            with --resume: run again the points whose rows are not ok\n"
    "                     (timeout, error), e.g. under a larger --point-timeout\n"
    "  --max-memory SIZE  refuse a topology (before building it) and points estimated to\n"
    "                     need more memory (default: half of the physical memory; 0: none)\n"
    "  --announce-over S  announce, before it starts, a point expected to run longer\n"
    "                     than S seconds (its rough time estimate; default 60; 0: every\n"
    "                     point)\n"
    "  -q, --quiet        nothing on stderr but errors (no progress, summary, plot notes)\n"
    "docs/scenarios.md describes scenario files; docs/results.md the outputs.\n";

static const struct option opts[] = {
    {"output", required_argument, 0, 'o'}, {"jobs", required_argument, 0, 'j'},
    {"resume", no_argument, 0, 'r'},       {"shard", required_argument, 0, 'S'},
    {"seed", required_argument, 0, 's'},   {"unsafe-lua", no_argument, 0, 'U'},
    {"no-plot", no_argument, 0, 'N'},      {"quiet", no_argument, 0, 'q'},
    {"point-timeout", required_argument, 0, 't'}, {"lua-timeout", required_argument, 0, 'L'},
    {"lua-memory", required_argument, 0, 'M'},   {"force", no_argument, 0, 'F'},
    {"max-memory", required_argument, 0, 'X'}, {"model", required_argument, 0, 'm'},
    {"dry-run", no_argument, 0, 'D'},      {"retry", no_argument, 0, 'R'},
    {"overwrite", no_argument, 0, 'W'},    {"help", no_argument, 0, 'h'},
    {"announce-over", required_argument, 0, 'A'},
    {0, 0, 0, 0}};

typedef struct run_cli {
    const char *scenario;
    char outdir[4096];
    scenario_opts load;
    sweep_run_opts run;
    int no_plot;
    int dry_run;
    int overwrite;
    char command[8192];
} run_cli;

static int parse_shard(const char *text, int *k, int *n, cs_error *err)
{
    char extra;
    if (sscanf(text, "%d/%d%c", k, n, &extra) != 2 || *n < 1 || *k < 1 || *k > *n)
        return cs_fail(err, "'%s' is not K/N with 1 <= K <= N", text);
    return 0;
}

/* --announce-over S: seconds (a number or a time with its unit), >= 0. */
static int parse_announce(const char *text, double *out, cs_error *err)
{
    char *end;
    double v = strtod(text, &end);
    if ((end == text || *end != '\0') && parse_time(text, &v, err) < 0)
        return cs_fail(err, "'%s' is not a time (expected seconds >= 0, "
                            "e.g. 60 or 90s; 0 announces every point)", text);
    if (!(v >= 0))
        return cs_fail(err, "'%s' is negative (expected seconds >= 0; 0 "
                            "announces every point)", text);
    *out = v;
    return 0;
}

static int parse_option(int c, void *arg, cs_error *err)
{
    run_cli *v = arg;
    int64_t x;
    switch (c) {
    case 'o': snprintf(v->outdir, sizeof v->outdir, "%s", optarg); return 0;
    case 'j':
        if (parse_int_in(optarg, 1, 1024, "jobs", &x, err) < 0)
            return -1;
        v->run.jobs = (int)x;
        return 0;
    case 'r': v->run.resume = 1; return 0;
    case 'W': v->overwrite = 1; return 0;
    case 'S': return parse_shard(optarg, &v->run.shard_k, &v->run.shard_n, err);
    case 's':
        if (parse_int_in(optarg, 0, INT64_MAX, "seed", &x, err) < 0)
            return -1;
        v->load.seed = (uint64_t)x;
        v->load.have_seed = 1;
        return 0;
    case 'U': v->load.unsafe_lua = 1; return 0;
    case 'N': v->no_plot = 1; return 0;
    case 'q': v->run.progress = PROGRESS_QUIET; return 0;
    case 't': return cli_parse_timeout(optarg, &v->run.point_timeout_s, err);
    case 'L': return cli_parse_timeout(optarg, &v->load.lua_timeout_s, err);
    case 'M':
        if (parse_size(optarg, &x, err) < 0)
            return -1;
        v->load.lua_memory = (size_t)x;
        return 0;
    case 'F': v->run.force = 1; return 0;
    case 'R': v->run.retry = 1; return 0;
    case 'X': return parse_size(optarg, &v->load.max_memory, err);
    case 'A': return parse_announce(optarg, &v->run.announce_over_s, err);
    case 'D': v->dry_run = v->load.dry_run = 1; return 0;
    case 'm':
        v->load.have_model = 1;
        if (strcmp(optarg, "auto") == 0) { /* sweeps only: two passes (sweep.h) */
            v->load.model = (sim_model)SWEEP_MODEL_AUTO;
            return 0;
        }
        if (sim_model_parse(optarg, &v->load.model, err) < 0)
            return cs_fail(err, "unknown model '%s' (allowed: cm02 (default, alias "
                                "flow), lv08, smpi, traffic, packet, analytic, auto)", optarg);
        return 0;
    default: return 1; /* --help */
    }
}

static int parse_args(int argc, char **argv, run_cli *v)
{
    memset(v, 0, sizeof *v);
    v->run = (sweep_run_opts){.jobs = 1, .shard_k = 1, .shard_n = 1,
                              .progress = isatty(2) ? PROGRESS_TTY : PROGRESS_LINES,
                              .announce_over_s = 60};
    v->load.lua_timeout_s = SCENARIO_LUA_TIMEOUT_S;
    v->load.lua_memory = SCENARIO_LUA_MEMORY;
    v->load.max_memory = estimate_default_max_memory();
    int prc = cli_parse_options("run", argc, argv, "o:j:q", opts, usage, parse_option, v);
    if (prc != 0)
        return prc;
    if (v->run.force && !v->run.resume)
        return cli_usage_error("run", "--force goes with --resume\n%s", usage);
    if (v->overwrite && v->run.resume)
        return cli_usage_error("run", "--overwrite and --resume exclude each other (--resume "
                                      "keeps the rows in the output directory, --overwrite "
                                      "moves them aside)\n%s", usage);
    if (v->run.retry && !v->run.resume)
        return cli_usage_error("run", "--retry goes with --resume\n%s", usage);
    if (optind != argc - 1)
        return cli_usage_error("run", "expected one scenario file\n%s", usage);
    v->scenario = argv[optind];
    if (!v->outdir[0]) {
        char name[256];
        scenario_name_of(v->scenario, name, sizeof name);
        snprintf(v->outdir, sizeof v->outdir, "results/%s", name);
    }
    v->load.outdir = v->outdir;
    v->run.outdir = v->outdir;
    size_t len = 0;
    for (int i = 0; i < argc && len < sizeof v->command; i++)
        len += (size_t)snprintf(v->command + len, sizeof v->command - len, "%s%s",
                                i ? " " : "collsim ", argv[i]);
    v->run.command = v->command;
    return 0;
}

/* After the run: the summary line and the plots. */
static int finish(run_cli *v, sweep_plan *plan, const sweep_outcome *out)
{
    int quiet = v->run.progress == PROGRESS_QUIET;
    if (!quiet)
        fprintf(stderr, "collsim run: %zu points (%zu resumed): %zu ok, %zu error -> %s/results.csv\n",
                out->total, out->resumed, out->ok, out->failed, v->outdir);
    if (out->signal) {
        fprintf(stderr, "collsim run: interrupted (signal %d); --resume goes on from here\n",
                out->signal);
        return 128 + out->signal;
    }
    cs_error err;
    if (!v->no_plot && sweep_plot(v->outdir, sweep_plan_facts(plan)->plot_baseline, quiet, &err) < 0)
        fprintf(stderr, "collsim run: plots: %s\n", err.msg);
    return 0;
}

/* algorithms = "all": the algorithms left out where the point misses their constraints,
 * once each with the reason (not one error row per point). */
static void print_skipped(const sweep_plan *plan)
{
    char buf[8192];
    size_t n = sweep_plan_skipped(plan, buf, sizeof buf);
    if (n)
        fprintf(stderr, "collsim run: algorithms = \"all\": %zu algorithm(s) left out of the "
                        "points whose constraints they do not meet:\n%s", n, buf);
}

/* Claims the output directory (sweep.h: outdir_claim): before the scenario is loaded, so
 * that nothing it writes then (collsim.draw, io.open) lands in a directory another run
 * holds, or over the results of an earlier run not yet moved aside. */
static int claim(const run_cli *v, outdir_lock *lock)
{
    char moved[4200];
    cs_error err;
    outdir_mode mode = v->run.resume ? OUTDIR_RESUME : v->overwrite ? OUTDIR_OVERWRITE : OUTDIR_NEW;
    if (outdir_claim(v->outdir, mode, lock, moved, sizeof moved, &err) < 0) {
        fprintf(stderr, "collsim run: %s\n", err.msg);
        return -1;
    }
    if (moved[0] && v->run.progress != PROGRESS_QUIET)
        fprintf(stderr, "collsim run: --overwrite: the earlier results moved to %s/\n", moved);
    return 0;
}

/* The scenario must be a readable file before the output directory is claimed, so that a
 * run that cannot start leaves no directory behind. */
static int scenario_readable(const char *path)
{
    struct stat st;
    FILE *f = fopen(path, "r");
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        f = NULL;
        errno = EISDIR;
    }
    if (!f) {
        fprintf(stderr, "collsim run: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}

int cmd_run(int argc, char **argv)
{
    run_cli v;
    int rc = parse_args(argc, argv, &v);
    if (rc != 0)
        return rc == -1 ? 0 : rc; /* -1: --help was printed */
    outdir_lock lock = {.fd = -1};
    if (scenario_readable(v.scenario) < 0)
        return EXIT_USAGE;
    if (!v.dry_run && claim(&v, &lock) < 0) /* --dry-run creates no output directory */
        return EXIT_USAGE;
    sweep_plan *plan;
    cs_error err;
    if (scenario_load(v.scenario, &v.load, &plan, &err) < 0) {
        fprintf(stderr, "%s\n", err.msg); /* "file:line: message" */
        outdir_abandon(v.outdir, &lock);
        return EXIT_USAGE;
    }
    if (v.run.progress != PROGRESS_QUIET)
        print_skipped(plan);
    if (v.dry_run) {
        rc = run_dry(plan);
        sweep_plan_free(plan);
        return rc;
    }
    sweep_outcome out;
    if (sweep_run(plan, &v.run, &out, &err) < 0) {
        fprintf(stderr, "collsim run: %s\n", err.msg);
        outdir_release(&lock);
        sweep_plan_free(plan);
        return out.refused ? EXIT_USAGE : EXIT_CHECK_FAILED;
    }
    rc = finish(&v, plan, &out);
    outdir_release(&lock);
    sweep_plan_free(plan);
    return rc;
}
