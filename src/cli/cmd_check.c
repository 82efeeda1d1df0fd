/* cmd_check.c - `collsim check`: verify (and optionally simulate) one algorithm over many
 * cases for CI, with a summary table, JUnit XML and a baseline regression mode.
 *
 *   collsim check [--spec FILE.yaml] [--collective C] [--algorithm A | --import F.goal]
 *                 [--lua FILE.lua]
 *                 [--ranks SPEC] [--sizes S,S..] [--full-up-to N] [--param k=v].. [--dims ..]
 *                 [--root R] [--dst D] [--ranks-per-node Q] [--topology T].. [--sim-ranks P,..]
 *                 [--model M] [--junit FILE] [--baseline FILE --tolerance 5%]
 *                 [--write-baseline FILE] [--threads N] [--max-memory SIZE] [--quiet]
 *
 * Exit 0 when every case passed or was skipped (and at least one ran), 1 when a case
 * failed, 2 on bad usage. docs/check.md describes the cases and files.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "algorithms/verify.h"
#include "check/check.h"
#include "cli/cli.h"
#include "common/rankspec.h"
#include "common/units.h"
#include "schedio/user_alg.h"
#include "sim/estimate.h"
#include "sim/sim.h"

static const char usage[] =
    "usage: collsim check [--spec FILE.yaml] --collective C (--algorithm A | --import FILE)\n"
    "                     --ranks SPEC [options]\n"
    "  --spec FILE           YAML check spec (docs/check.md); options override it\n"
    "  --collective C        the collective (see collsim list)\n"
    "  --algorithm A         a built-in algorithm, or one --lua FILE defines\n"
    "  --lua FILE            a Lua file defining algorithms (collsim.define_algorithm,\n"
    "                        docs/custom-algorithms.md)\n"
    "  --import FILE         a GOAL schedule file (its P replaces --ranks)\n"
    "  --ranks SPEC          e.g. 2..1024,pow2:..1048576 (verify cases)\n"
    "  --sizes S,S..         vector sizes (default 1MiB)\n"
    "  --full-up-to N        full semantic verification up to N ranks, streaming above\n"
    "                        (default 65536)\n"
    "  --param k=v, --dims AxB.., --root R, --dst D, --ranks-per-node Q   as in verify\n"
    "  --topology T          simulate on T too (repeatable; see collsim sim)\n"
    "  --sim-ranks P,P..     rank counts of the simulate cases (required with --topology)\n"
    "  --model M             traffic (default), cm02, lv08, smpi, packet, analytic\n"
    "  --junit FILE          write a JUnit XML report\n"
    "  --baseline FILE       compare simulate cases with a baseline CSV ...\n"
    "  --tolerance T         ... allowing this relative difference (default 5%)\n"
    "  --write-baseline FILE write the simulate cases as a baseline CSV\n"
    "  --threads N           threads of the streaming engine (default: all CPUs)\n"
    "  --max-memory SIZE     a case estimated to need more memory fails at once, refused\n"
    "                        (default: half of the physical memory; 0: no limit)\n"
    "  --quiet               print failures and the summary only\n"
    CLI_LUA_LIMIT_USAGE;

typedef struct check_cli {
    check_spec spec;
    const char *junit, *baseline, *write_baseline;
    double tolerance;
    int quiet;
    cli_lua_limits lua_limits; /* --lua-timeout, --lua-memory */
    int64_t max_memory;
} check_cli;

static const struct option opts[] = {
    {"spec", required_argument, 0, 'S'},       {"collective", required_argument, 0, 'c'},
    {"algorithm", required_argument, 0, 'a'},  {"import", required_argument, 0, 'i'},
    {"ranks", required_argument, 0, 'n'},      {"sizes", required_argument, 0, 's'},
    {"full-up-to", required_argument, 0, 'F'}, {"param", required_argument, 0, 'p'},
    {"dims", required_argument, 0, 'd'},       {"root", required_argument, 0, 'r'},
    {"dst", required_argument, 0, 'D'},        {"ranks-per-node", required_argument, 0, 'q'},
    {"topology", required_argument, 0, 'T'},   {"sim-ranks", required_argument, 0, 'R'},
    {"model", required_argument, 0, 'm'},      {"junit", required_argument, 0, 'j'},
    {"baseline", required_argument, 0, 'b'},   {"tolerance", required_argument, 0, 't'},
    {"write-baseline", required_argument, 0, 'w'}, {"threads", required_argument, 0, 'N'},
    {"quiet", no_argument, 0, 'Q'},            {"help", no_argument, 0, 'h'},
    {"lua", required_argument, 0, 'L'},        {"max-memory", required_argument, 0, 'M'},
    CLI_LUA_LIMIT_OPTIONS,
    {0, 0, 0, 0}};

/* "5%" or "0.05" */
static int parse_tolerance(const char *text, double *out, cs_error *err)
{
    char *end;
    double v = strtod(text, &end);
    if (end != text && *end == '%' && !end[1])
        v /= 100;
    else if (end == text || *end)
        return cs_fail(err, "invalid tolerance '%s' (e.g. 5%% or 0.05)", text);
    if (v < 0 || !isfinite(v))
        return cs_fail(err, "tolerance must be >= 0");
    *out = v;
    return 0;
}

/* A comma-separated list of values through a per-value parser. */
static int parse_list(const char *text, int64_t *vals, int *n, int max,
                      int (*one)(const char *, int64_t *, cs_error *), cs_error *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    *n = 0;
    if (cli_check_list(text, err) < 0)
        return -1;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (*n == max)
            return cs_fail(err, "at most %d values", max);
        if (one(tok, &vals[(*n)++], err) < 0)
            return -1;
    }
    return *n ? 0 : cs_fail(err, "empty list");
}

static int one_rank_count(const char *t, int64_t *v, cs_error *err)
{
    return parse_int_in(t, 2, INT32_MAX, "ranks", v, err);
}

static int parse_option(int c, void *arg, cs_error *err)
{
    check_cli *v = arg;
    if (c == 'h')
        return 1;
    check_spec *s = &v->spec;
    int64_t x;
    int rc = 0;
    switch (c) {
    case 'S': break; /* read first, see parse_args */
    case 'c': rc = coll_from_name(optarg, &s->base.coll, err); s->have_coll = 1; break;
    case 'a': snprintf(s->algorithm, sizeof s->algorithm, "%s", optarg); break;
    case 'i': snprintf(s->import, sizeof s->import, "%s", optarg); break;
    case 'L': snprintf(s->lua, sizeof s->lua, "%s", optarg); break;
    case CLI_OPT_LUA_TIMEOUT:
    case CLI_OPT_LUA_MEMORY: rc = cli_lua_limit_option(c, optarg, &v->lua_limits, err); break;
    case 'n': snprintf(s->ranks, sizeof s->ranks, "%s", optarg); break;
    case 's':
        rc = parse_list(optarg, s->sizes, &s->nsizes, CHECK_MAX_SIZES, parse_size, err);
        s->have_size = 1;
        break;
    case 'F': rc = parse_int_in(optarg, 0, INT32_MAX, "full-up-to", &s->full_up_to, err); break;
    case 'p': rc = cli_parse_param(optarg, &s->base, err); break;
    case 'd': rc = cli_parse_dims(optarg, &s->base, err); break;
    case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, err); s->base.root = (int32_t)x; break;
    case 'D': rc = parse_int_in(optarg, 0, INT32_MAX, "dst", &x, err); s->base.dst = (int32_t)x; break;
    case 'q':
        rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, err);
        s->base.ranks_per_node = (int32_t)x;
        break;
    case 'T':
        if (s->ntopologies == CHECK_MAX_TOPOS)
            return cs_fail(err, "at most %d topologies", CHECK_MAX_TOPOS);
        snprintf(s->topologies[s->ntopologies++], sizeof s->topologies[0], "%s", optarg);
        break;
    case 'R':
        rc = parse_list(optarg, s->sim_ranks, &s->nsim_ranks, CHECK_MAX_SIM_RANKS,
                        one_rank_count, err);
        break;
    case 'm': snprintf(s->model, sizeof s->model, "%s", optarg); break;
    case 'j': v->junit = optarg; break;
    case 'b': v->baseline = optarg; break;
    case 't': rc = parse_tolerance(optarg, &v->tolerance, err); break;
    case 'w': v->write_baseline = optarg; break;
    case 'N': rc = parse_int_in(optarg, 1, 1024, "threads", &x, err); s->threads = (int)x; break;
    case 'Q': v->quiet = 1; break;
    case 'M': rc = parse_size(optarg, &v->max_memory, err); break;
    }
    return rc;
}

static int parse_args(int argc, char **argv, check_cli *v)
{
    cs_error err;
    check_spec_init(&v->spec);
    v->tolerance = 0.05;
    v->max_memory = estimate_default_max_memory();
    for (int i = 1; i + 1 < argc; i++) /* the spec file first: options override it */
        if (strcmp(argv[i], "--spec") == 0 && check_spec_load(argv[i + 1], &v->spec, &err) < 0)
            return cli_usage_error("check", "--spec: %s", err.msg);
    int prc = cli_parse_options("check", argc, argv, "", opts, usage, parse_option, v);
    if (prc != 0)
        return prc;
    if (optind < argc)
        return cli_usage_error("check", "unexpected argument '%s'\n%s", argv[optind], usage);
    check_spec *s = &v->spec;
    if (!s->import[0] && (!s->have_coll || !s->algorithm[0] || !s->ranks[0]))
        return cli_usage_error("check", "a collective, an algorithm (or an import file) and "
                                        "ranks are required (options or --spec)\n%s", usage);
    if (s->import[0] && s->algorithm[0])
        return cli_usage_error("check", "give --algorithm or --import, not both");
    if (s->ntopologies && !s->nsim_ranks && !s->import[0])
        return cli_usage_error("check", "--topology needs --sim-ranks (the P of the simulate "
                                        "cases)");
    return 0;
}

/* ---- running the cases ------------------------------------------------------------------ */

typedef struct check_run {
    const check_cli *cli;
    const alg_desc *alg;
    file_alg *file;       /* --import */
    struct sweep_plan *lua;    /* --lua: the file's state ... */
    const alg_registry *user;  /* ... and the algorithms it defines */
    coll_spec base;
    check_report report;
} check_run;

static void print_case(const check_run *k, const check_case *c, const char *detail)
{
    static const char *status[] = {"ok  ", "FAIL", "skip"};
    if (k->cli->quiet && c->status != CASE_FAIL)
        return;
    printf("%s %-8s %s %s%s%s\n", status[c->status], c->kind, k->report.suite, c->name,
           c->status == CASE_OK ? detail : ": ", c->status == CASE_OK ? "" : c->message);
    fflush(stdout);
}

static void verify_one(check_run *k, int32_t P, int64_t size)
{
    coll_spec spec = k->base;
    spec.P = P;
    spec.bytes = size;
    check_case *c = check_report_add(&k->report);
    snprintf(c->kind, sizeof c->kind, "verify");
    char sz[32], detail[256] = "";
    format_size(size, sz, sizeof sz);
    snprintf(c->name, sizeof c->name, "P=%d size=%s", P, sz);
    alg_run run;
    cs_error err;
    run_estimate est; /* refusal before work, as in collsim verify */
    estimate_verify_ranks(P, k->cli->spec.threads, &est);
    if (estimate_check(&est, k->cli->max_memory, &err) < 0) {
        c->status = CASE_FAIL;
        snprintf(c->message, sizeof c->message, "%s", err.msg);
        print_case(k, c, "");
        return;
    }
    if (alg_run_prepare(&run, k->alg, &spec, &err) < 0) {
        c->status = CASE_SKIP;
        snprintf(c->message, sizeof c->message, "%s", err.msg);
        print_case(k, c, "");
        return;
    }
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = P <= k->cli->spec.full_up_to ? VERIFY_FULL : VERIFY_STREAM;
    opt.threads = k->cli->spec.threads;
    verify_result res;
    int rc = verify_run(&run, &opt, &res, &err);
    if (rc == 0 && user_alg_run_error(&run, &err) < 0) /* a Lua algorithm failed */
        rc = -1;
    alg_run_release(&run);
    c->wall_s = res.wall_s;
    if (rc < 0 || !res.ok) {
        c->status = CASE_FAIL;
        snprintf(c->message, sizeof c->message, "%s", rc < 0 ? err.msg : res.error);
    } else {
        snprintf(detail, sizeof detail, " engine=%s%s messages=%lld steps=%d wall=%.2fs",
                 verify_mode_name(res.engine),
                 res.semantics_checked ? "" : " (reductions: structure only)",
                 (long long)res.messages, res.steps, res.wall_s);
    }
    print_case(k, c, detail);
}

static void simulate_one(check_run *k, const char *topology, int32_t P, int64_t size,
                         const alg_registry *reg)
{
    check_case *c = check_report_add(&k->report);
    snprintf(c->kind, sizeof c->kind, "simulate");
    char sz[32];
    format_size(size, sz, sizeof sz);
    snprintf(c->name, sizeof c->name, "%s P=%d size=%s", topology, P, sz);
    sim_config cfg;
    sim_config_init(&cfg);
    snprintf(cfg.topology, sizeof cfg.topology, "%s", topology);
    snprintf(cfg.algorithm, sizeof cfg.algorithm, "%s", k->alg->name);
    cfg.spec = k->base;
    cfg.spec.P = P;
    cfg.spec.bytes = size;
    cfg.algorithms = reg;
    cfg.max_memory = k->cli->max_memory;
    cs_error err;
    sim_result res;
    if (sim_model_parse(k->cli->spec.model, &cfg.model, &err) < 0 ||
        sim_run_isolated(&cfg, &res, &err) < 0) {
        c->status = CASE_FAIL;
        snprintf(c->message, sizeof c->message, "%s", err.msg);
    } else {
        c->time_s = res.row.time_s;
        c->bytes_global = (double)res.row.bytes_global;
        c->wall_s = res.row.sim_wall_s;
        sim_result_free(&res);
    }
}

static int run_cases(check_run *k, const int64_t *ranks, size_t nranks, const int64_t *sizes,
                     int nsizes)
{
    const check_spec *s = &k->cli->spec;
    for (int z = 0; z < nsizes; z++)
        for (size_t i = 0; i < nranks; i++)
            verify_one(k, (int32_t)ranks[i], sizes[z]);
    alg_registry reg;
    alg_registry_init(&reg);
    cs_error err;
    if (k->file && alg_registry_add(&reg, &k->file->desc, &err) < 0)
        return cli_usage_error("check", "%s", err.msg);
    int64_t file_P = k->file ? k->base.P : 0;
    for (int t = 0; t < s->ntopologies; t++)
        for (int z = 0; z < nsizes; z++)
            for (int i = 0; i < (k->file ? 1 : s->nsim_ranks); i++)
                simulate_one(k, s->topologies[t], (int32_t)(k->file ? file_P : s->sim_ranks[i]),
                             sizes[z], k->file ? &reg : k->user);
    alg_registry_free(&reg);
    return 0;
}

/* Simulate cases are printed once the baseline has judged them. */
static void print_simulate_cases(const check_run *k)
{
    for (size_t i = 0; i < k->report.n; i++) {
        const check_case *c = &k->report.cases[i];
        if (strcmp(c->kind, "simulate") != 0)
            continue;
        char detail[128];
        snprintf(detail, sizeof detail, " time_s=%.6g bytes_global=%.0f", c->time_s,
                 c->bytes_global);
        print_case(k, c, detail);
    }
}

/* The summary table; returns the number of failed cases. */
static size_t print_summary(const check_run *k)
{
    static const char *kinds[] = {"verify", "simulate"};
    size_t failed = 0;
    printf("\n%-9s %7s %7s %7s %7s %9s\n", "cases", "total", "ok", "failed", "skipped", "wall_s");
    for (int i = 0; i < 2; i++) {
        size_t n[3] = {0, 0, 0};
        double wall = 0;
        for (size_t j = 0; j < k->report.n; j++)
            if (strcmp(k->report.cases[j].kind, kinds[i]) == 0) {
                n[k->report.cases[j].status]++;
                wall += k->report.cases[j].wall_s;
            }
        if (n[0] + n[1] + n[2])
            printf("%-9s %7zu %7zu %7zu %7zu %9.2f\n", kinds[i], n[0] + n[1] + n[2], n[0],
                   n[1], n[2], wall);
        failed += n[1];
    }
    return failed;
}

/* The algorithm, the base spec, the ranks and sizes of the check. */
static int resolve(check_cli *v, check_run *k, int64_t **ranks, size_t *nranks, int64_t *sizes,
                   int *nsizes)
{
    check_spec *s = &v->spec;
    cs_error err;
    k->base = s->base;
    if (s->import[0]) {
        coll_spec given = s->base;
        given.bytes = s->nsizes ? s->sizes[0] : given.bytes;
        if (cli_import(s->import, &given, s->have_coll, s->have_size, 0, &k->file, &k->base,
                       &err) < 0)
            return cli_usage_error("check", "--import: %s", err.msg);
        k->alg = &k->file->desc;
        *ranks = xmalloc(sizeof **ranks);
        (*ranks)[0] = k->base.P;
        *nranks = 1;
        sizes[0] = k->base.bytes; /* a file holds one size */
        *nsizes = 1;
        return 0;
    }
    if (s->lua[0] && cli_lua_load(s->lua, &k->cli->lua_limits, &k->lua, &k->user, &err) < 0)
        return cli_usage_error("check", "--lua: %s", err.msg);
    if (!(k->alg = registry_find(k->user, s->base.coll, s->algorithm, &err)))
        return cli_usage_error("check", "--algorithm: %s", err.msg);
    if (rankspec_parse(s->ranks, 2, INT32_MAX, ranks, nranks, &err) < 0)
        return cli_usage_error("check", "--ranks: %s", err.msg);
    *nsizes = s->nsizes ? s->nsizes : 1;
    for (int i = 0; i < *nsizes; i++)
        sizes[i] = s->nsizes ? s->sizes[i] : ((int64_t)1 << 20);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    check_cli v;
    memset(&v, 0, sizeof v);
    int rc = parse_args(argc, argv, &v);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    check_run k;
    memset(&k, 0, sizeof k);
    k.cli = &v;
    int64_t *ranks = NULL, sizes[CHECK_MAX_SIZES];
    size_t nranks = 0;
    int nsizes = 0;
    rc = resolve(&v, &k, &ranks, &nranks, sizes, &nsizes);
    if (rc == 0) {
        snprintf(k.report.suite, sizeof k.report.suite, "%s %s", coll_name(k.alg->coll),
                 k.alg->name);
        rc = run_cases(&k, ranks, nranks, sizes, nsizes);
    }
    cs_error err;
    if (rc == 0 && v.baseline && check_baseline_compare(&k.report, v.baseline, v.tolerance, &err) < 0)
        rc = cli_usage_error("check", "--baseline: %s", err.msg);
    if (rc == 0) {
        print_simulate_cases(&k);
        size_t failed = print_summary(&k);
        if (v.write_baseline && check_baseline_write(&k.report, v.write_baseline, &err) < 0)
            rc = cli_usage_error("check", "--write-baseline: %s", err.msg);
        else if (v.junit && check_write_junit(&k.report, v.junit, &err) < 0)
            rc = cli_usage_error("check", "--junit: %s", err.msg);
        else if (failed)
            rc = EXIT_CHECK_FAILED;
        else
            rc = 0;
    }
    free(ranks);
    check_report_free(&k.report);
    file_alg_free(k.file);
    cli_lua_free(k.lua);
    return rc;
}
