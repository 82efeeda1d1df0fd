/* cmd_verify.c - `collsim verify`: check schedules symbolically over many rank counts.
 *
 *   collsim verify --collective C --algorithm A[,B..|all] --ranks SPEC [--size S]
 *                  [--root R] [--dst D] [--param name=value].. [--dims AxB..]
 *                  [--ranks-per-node Q] [--workload KIND:key=value..]
 *                  [--engine auto|full|stream] [--threads N] [--max-memory SIZE] [--quiet]
 *                  [--lua FILE.lua]
 *
 * One line per case (ok / FAIL / skip), then a summary. Exit 0 when nothing failed, 1 when
 * a schedule failed verification, 2 on bad usage or when every case was unsupported.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "algorithms/verify.h"
#include "cli/cli.h"
#include "common/rankspec.h"
#include "common/units.h"
#include "schedio/user_alg.h"
#include "sim/estimate.h"
#include "sim/sim.h"
#include "traffic/workload.h"

static const char usage[] =
    "usage: collsim verify --collective C --algorithm A[,B...|all] --ranks SPEC [options]\n"
    "  --collective C        bcast reduce gather scatter allgather reduce_scatter allreduce\n"
    "                        alltoall alltoallv p2p\n"
    "  --algorithm A         one or more names (comma separated) or 'all' (see collsim list)\n"
    "  --ranks SPEC          64 | 2,4,6 | 2..64 | pow2:2..65536 | even:2..128, comma separated\n"
    "  --size S              vector size (default 1MiB): 32B, 4KiB, 1MiB, ...\n"
    "  --root R              root of rooted collectives (default 0); p2p: the source\n"
    "  --dst D               p2p: the destination rank (default 1)\n"
    "  --param name=value    algorithm parameter (repeatable)\n"
    "  --dims AxB..          logical torus dimensions for topology-aware algorithms\n"
    "  --ranks-per-node Q    ranks sharing a node (default 1)\n"
    "  --workload W          alltoallv block sizes, e.g. uniform:S=1KiB:seed=1 (see\n"
    "                        docs/workloads.md; default: --size split evenly)\n"
    "  --engine E            auto (default), full or stream (see docs/verify.md)\n"
    "  --threads N           threads of the stream engine (default: all CPUs)\n"
    "  --max-memory SIZE     memory the full engine may use (default 4GiB); a case whose\n"
    "                        streaming engine needs more is refused (default limit: half\n"
    "                        of the physical memory; docs/robustness.md)\n"
    "  --quiet               print failures and the summary only\n"
    "  --import FILE         verify a GOAL schedule file (docs/schedule-files.md) instead of\n"
    "                        --algorithm/--ranks; --collective/--size apply to plain GOAL\n"
    "  --calc ns|bytes       a plain GOAL file's `calc N`: N nanoseconds (default) or bytes\n"
    "  --eager-limit S|none  schedules with dependencies: sends of at most S bytes do not\n"
    "                        wait for their receive (default none; a plain GOAL file: 65535)\n"
    "  --lua FILE            also the algorithms FILE defines with collsim.define_algorithm\n"
    "                        (docs/custom-algorithms.md); 'all' includes them\n"
    CLI_LUA_LIMIT_USAGE;

typedef struct verify_cli {
    coll_spec base;
    char algorithms[1024];
    int64_t *ranks;
    size_t nranks;
    verify_options opt;
    int quiet;
    cli_workload workload;    /* alltoallv sizes, made for each P */
    const char *import;       /* --import FILE */
    const char *lua;          /* --lua FILE */
    cli_lua_limits lua_limits;
    int have_coll, have_size;
    int calc_bytes;           /* --calc bytes */
    int have_eager;           /* --eager-limit given */
    int64_t refuse_above;     /* estimate.h: --max-memory, else half the physical memory */
} verify_cli;

static int parse_args(int argc, char **argv, verify_cli *v)
{
    static const struct option opts[] = {
        {"collective", required_argument, 0, 'c'}, {"algorithm", required_argument, 0, 'a'},
        {"ranks", required_argument, 0, 'n'},      {"size", required_argument, 0, 's'},
        {"root", required_argument, 0, 'r'},       {"param", required_argument, 0, 'p'},
        {"dims", required_argument, 0, 'd'},       {"ranks-per-node", required_argument, 0, 'q'},
        {"engine", required_argument, 0, 'e'},     {"threads", required_argument, 0, 't'},
        {"max-memory", required_argument, 0, 'm'}, {"quiet", no_argument, 0, 'Q'},
        {"help", no_argument, 0, 'h'},             {"dst", required_argument, 0, 'D'},
        {"workload", required_argument, 0, 'w'},   {"import", required_argument, 0, 'i'},
        {"lua", required_argument, 0, 'L'},        {"calc", required_argument, 0, 'K'},
        {"eager-limit", required_argument, 0, 'E'}, CLI_LUA_LIMIT_OPTIONS,
        {0, 0, 0, 0}};
    cs_error err;
    int have_coll = 0;
    const char *ranks = NULL;
    coll_spec_init(&v->base, COLL_ALLREDUCE, 2, 1 << 20);
    verify_options_default(&v->opt);
    v->refuse_above = estimate_default_max_memory();
    int prc = cli_check_options("verify", argc, argv, "", opts);
    if (prc != 0)
        return prc;
    optind = 0;
    opterr = 0;
    int c;
    int64_t x;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        int rc = 0;
        switch (c) {
        case 'c': rc = coll_from_name(optarg, &v->base.coll, &err); have_coll = 1; break;
        case 'a':
            snprintf(v->algorithms, sizeof v->algorithms, "%s", optarg);
            rc = cli_check_list(optarg, &err);
            break;
        case 'n': ranks = optarg; break;
        case 's': rc = parse_size(optarg, &v->base.bytes, &err); v->have_size = 1; break;
        case 'i': v->import = optarg; break;
        case 'L': v->lua = optarg; break;
        case 'K': rc = cli_parse_calc(optarg, &v->calc_bytes, &err); break;
        case 'E': rc = cli_parse_eager_limit(optarg, &v->opt.eager_limit, &err); v->have_eager = 1; break;
        case CLI_OPT_LUA_TIMEOUT:
        case CLI_OPT_LUA_MEMORY: rc = cli_lua_limit_option(c, optarg, &v->lua_limits, &err); break;
        case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, &err); v->base.root = (int32_t)x; break;
        case 'D': rc = parse_int_in(optarg, 0, INT32_MAX, "dst", &x, &err); v->base.dst = (int32_t)x; break;
        case 'p': rc = cli_parse_param(optarg, &v->base, &err); break;
        case 'd': rc = cli_parse_dims(optarg, &v->base, &err); break;
        case 'q': rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, &err); v->base.ranks_per_node = (int32_t)x; break;
        case 'e':
            if (strcmp(optarg, "auto") == 0) v->opt.mode = VERIFY_AUTO;
            else if (strcmp(optarg, "full") == 0) v->opt.mode = VERIFY_FULL;
            else if (strcmp(optarg, "stream") == 0) v->opt.mode = VERIFY_STREAM;
            else rc = cs_fail(&err, "unknown engine '%s' (allowed: auto, full, stream)", optarg);
            break;
        case 't': rc = parse_int_in(optarg, 1, 1024, "threads", &x, &err); v->opt.threads = (int)x; break;
        case 'm': rc = parse_size(optarg, &v->opt.max_memory, &err); v->refuse_above = v->opt.max_memory; break;
        case 'Q': v->quiet = 1; break;
        case 'w': rc = cli_workload_parse(&v->workload, optarg, &err); break;
        case 'h': fputs(usage, stdout); exit(0);
        default:
            return cli_usage_error("verify", "unknown or incomplete option '%s'\n%s",
                                   argv[optind - 1], usage);
        }
        if (rc < 0) {
            return cli_usage_error("verify", "--%s: %s", cli_option_name(opts, c), err.msg);
        }
    }
    if (optind < argc)
        return cli_usage_error("verify", "unexpected argument '%s'\n%s", argv[optind], usage);
    v->have_coll = have_coll;
    if (v->import && !v->algorithms[0] && !ranks)
        return 0;
    if (!have_coll || !v->algorithms[0] || !ranks)
        return cli_usage_error("verify", "--collective, --algorithm and --ranks are required\n%s",
                               usage);
    if (cli_workload_check(&v->workload, "verify", v->base.coll) != 0)
        return EXIT_USAGE;
    if (rankspec_parse(ranks, 2, INT32_MAX, &v->ranks, &v->nranks, &err) < 0)
        return cli_usage_error("verify", "--ranks: %s", err.msg);
    return 0;
}

/* Verifies one (algorithm, P) case; returns 0 ok, 1 failed, 2 unsupported, 3 refused
 * (estimated over the memory limit). */
static int verify_case(const verify_cli *v, const alg_desc *alg, int32_t P)
{
    coll_spec spec = v->base;
    spec.P = P;
    char size[600] = "size=";
    cs_error err;
    run_estimate est; /* refusal before work: even the streaming engine would not fit */
    estimate_verify_ranks(P, v->opt.threads, &est);
    if (estimate_check(&est, v->refuse_above, &err) < 0) {
        printf("refused %s %s P=%d: %s\n", coll_name(alg->coll), alg->name, P, err.msg);
        return 3;
    }
    workload *w = NULL;
    if (cli_workload_bind(&v->workload, &spec, &w, &err) < 0) {
        printf("FAIL %s %s P=%d: %s\n", coll_name(alg->coll), alg->name, P, err.msg);
        return 1;
    }
    if (w) {
        strcpy(size, "workload=");
        workload_format(&v->workload.params, size + strlen(size), sizeof size - strlen(size));
    } else {
        format_size(spec.bytes, size + strlen(size), sizeof size - strlen(size));
    }
    alg_run run;
    if (alg_run_prepare(&run, alg, &spec, &err) < 0) {
        workload_free(w);
        if (!v->quiet)
            printf("skip %s P=%d: %s\n", alg->name, P, err.msg);
        return 2;
    }
    verify_result res;
    int rc = verify_run(&run, &v->opt, &res, &err);
    if (rc == 0 && user_alg_run_error(&run, &err) < 0) /* a Lua algorithm failed */
        rc = -1;
    alg_run_release(&run);
    workload_free(w);
    if (rc < 0) {
        printf("FAIL %s %s P=%d %s: %s\n", coll_name(alg->coll), alg->name, P, size, err.msg);
        return 1;
    }
    if (!res.ok) {
        printf("FAIL %s %s P=%d %s: %s\n", coll_name(alg->coll), alg->name, P, size, res.error);
        return 1;
    }
    if (!v->quiet) {
        printf("ok   %s %s P=%d %s engine=%s messages=%lld steps=%d wall=%.2fs rss=%ldMiB%s%s\n",
               coll_name(alg->coll), alg->name, P, size, verify_mode_name(res.engine),
               (long long)res.messages, res.steps, res.wall_s, res.peak_rss_kb / 1024,
               res.semantics_checked ? "" : " (reduction semantics not checked: stream engine)",
               res.deadlock_checked ? "" : " (warning: not step-aligned, deadlock not checked)");
    }
    return 0;
}

/* --import FILE: verifies the file's schedule at its own P. */
static int verify_import(verify_cli *v)
{
    file_alg *fa;
    cs_error err;
    coll_spec spec;
    if (cli_import(v->import, &v->base, v->have_coll, v->have_size, v->calc_bytes, &fa, &spec, &err) < 0)
        return cli_usage_error("verify", "--import: %s", err.msg);
    v->base = spec;
    if (!fa->sched.annotated && !v->have_eager)
        v->opt.eager_limit = SIM_GOAL_EAGER_LIMIT; /* as LogGOPSim runs a plain file */
    if (!fa->sched.has_blocks && !v->quiet)
        printf("note %s: a plain GOAL file (no collsim blocks): matching, bytes and deadlock "
               "freedom are checked, the data semantics is not\n", fa->desc.name);
    int r = verify_case(v, &fa->desc, spec.P);
    printf("verified 1 case(s): %d ok, %d failed, %d unsupported%s\n", r == 0, r == 1, r == 2,
           r == 3 ? ", 1 refused" : "");
    file_alg_free(fa);
    return r == 0 ? 0 : r == 1 ? EXIT_CHECK_FAILED : EXIT_USAGE;
}

int cmd_verify(int argc, char **argv)
{
    verify_cli v;
    memset(&v, 0, sizeof v);
    int rc = parse_args(argc, argv, &v);
    if (rc != 0) {
        free(v.ranks);
        return rc;
    }
    if (v.import) /* a schedule file: one case */
        return verify_import(&v);
    cs_error err;
    struct sweep_plan *lua = NULL;
    const alg_registry *user = NULL;
    if (v.lua && cli_lua_load(v.lua, &v.lua_limits, &lua, &user, &err) < 0) {
        free(v.ranks);
        return cli_usage_error("verify", "--lua: %s", err.msg);
    }
    /* The algorithms to run. */
    const alg_desc *algs[256];
    size_t nalgs = 0;
    if (strcmp(v.algorithms, "all") == 0) {
        for (size_t i = 0; i < registry_builtin_count() && nalgs < 256; i++)
            if (registry_builtin_at(i)->coll == v.base.coll)
                algs[nalgs++] = registry_builtin_at(i);
        for (size_t i = 0; user && i < user->n && nalgs < 256; i++)
            if (user->algs[i]->coll == v.base.coll)
                algs[nalgs++] = user->algs[i];
    } else {
        for (char *tok = strtok(v.algorithms, ","); tok && nalgs < 256; tok = strtok(NULL, ",")) {
            algs[nalgs] = registry_find(user, v.base.coll, tok, &err);
            if (!algs[nalgs]) {
                free(v.ranks);
                cli_lua_free(lua);
                return cli_usage_error("verify", "--algorithm: %s", err.msg);
            }
            nalgs++;
        }
    }
    size_t count[4] = {0, 0, 0, 0}; /* ok, failed, unsupported, refused */
    for (size_t a = 0; a < nalgs; a++)
        for (size_t i = 0; i < v.nranks; i++) {
            count[verify_case(&v, algs[a], (int32_t)v.ranks[i])]++;
            fflush(stdout);
        }
    printf("verified %zu case(s): %zu ok, %zu failed, %zu unsupported",
           count[0] + count[1] + count[2] + count[3], count[0], count[1], count[2]);
    if (count[3])
        printf(", %zu refused", count[3]);
    printf("\n");
    free(v.ranks);
    cli_lua_free(lua);
    if (count[1])
        return EXIT_CHECK_FAILED;
    return count[3] || count[0] == 0 ? EXIT_USAGE : 0; /* refused, or nothing could run */
}
