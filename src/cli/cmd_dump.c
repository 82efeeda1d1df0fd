/* cmd_dump.c - `collsim dump`: write one schedule as GOAL text or JSON lines.
 *
 *   collsim dump --collective C --algorithm A --ranks P [--size S] [--root R] [--dst D]
 *                [--param name=value].. [--dims AxB..] [--ranks-per-node Q]
 *                [--format jsonl|goal] [--plain] [--output FILE] [--max-output SIZE]
 *                [--lua FILE.lua]
 *   collsim dump --import FILE.goal [--collective C] [--size S] [--format ..]
 *
 * Formats: docs/schedule-files.md. The output is written to a temporary file next to
 * FILE and renamed at the end, so a failed dump leaves no partial file behind.
 */
#include <getopt.h>
#include <libgen.h>
#include <sys/statvfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "cli/cli.h"
#include "common/atomic_file.h"
#include "common/units.h"
#include "schedio/goal.h"
#include "schedio/jsonl.h"
#include "schedio/user_alg.h"
#include "sim/estimate.h"

static const char usage[] =
    "usage: collsim dump --collective C --algorithm A --ranks P [options]\n"
    "       collsim dump --import FILE.goal [options]\n"
    "  --collective C        bcast reduce gather scatter allgather reduce_scatter allreduce\n"
    "                        alltoall alltoallv p2p (with --import: for a plain GOAL file)\n"
    "  --algorithm A         see collsim list\n"
    "  --ranks P             number of ranks\n"
    "  --import FILE         a GOAL schedule file instead of --algorithm/--ranks\n"
    "  --calc ns|bytes       a plain GOAL file's `calc N`: N nanoseconds (default) or bytes\n"
    "  --size S              vector size (default 1MiB)\n"
    "  --root R, --dst D     root of rooted collectives / p2p destination\n"
    "  --param name=value    algorithm parameter (repeatable)\n"
    "  --dims AxB..          logical shape for topology-aware algorithms\n"
    "  --ranks-per-node Q    ranks sharing a node (default 1)\n"
    "  --workload W          alltoallv block sizes, e.g. uniform:S=1KiB:seed=1\n"
    "                        (docs/workloads.md; default: --size split evenly)\n"
    "  --format F            jsonl (default) or goal\n"
    "  --plain               goal without collsim's annotations (blocks are lost)\n"
    "  --output FILE         write to FILE instead of standard output\n"
    "  --lua FILE            also the algorithms FILE defines with collsim.define_algorithm\n"
    "                        (docs/custom-algorithms.md)\n"
    "  --max-output SIZE     refuse a dump estimated to be larger (default with --output:\n"
    "                        the free space of FILE's file system; 0: no limit)\n"
    CLI_LUA_LIMIT_USAGE;

typedef struct dump_cli {
    coll_spec spec;
    char algorithm[64];
    const char *import, *output, *lua;
    int goal, plain, have_coll, have_size, have_ranks;
    int calc_bytes; /* --calc bytes */
    int64_t max_output; /* -1: not given */
    cli_workload workload; /* --workload: alltoallv block sizes */
    cli_lua_limits lua_limits;
} dump_cli;

static int parse_option(int c, void *arg, cs_error *err)
{
    dump_cli *d = arg;
    if (c == 'h')
        return 1;
    int64_t x;
    int rc = 0;
    switch (c) {
    case 'c': rc = coll_from_name(optarg, &d->spec.coll, err); d->have_coll = 1; break;
    case 'a': snprintf(d->algorithm, sizeof d->algorithm, "%s", optarg); break;
    case 'n':
        rc = parse_int_in(optarg, 2, INT32_MAX, "ranks", &x, err);
        d->spec.P = (int32_t)x;
        d->have_ranks = 1;
        break;
    case 's': rc = parse_size(optarg, &d->spec.bytes, err); d->have_size = 1; break;
    case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, err); d->spec.root = (int32_t)x; break;
    case 'D': rc = parse_int_in(optarg, 0, INT32_MAX, "dst", &x, err); d->spec.dst = (int32_t)x; break;
    case 'p': rc = cli_parse_param(optarg, &d->spec, err); break;
    case 'd': rc = cli_parse_dims(optarg, &d->spec, err); break;
    case 'q':
        rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, err);
        d->spec.ranks_per_node = (int32_t)x;
        break;
    case 'i': d->import = optarg; break;
    case 'K': rc = cli_parse_calc(optarg, &d->calc_bytes, err); break;
    case 'w': rc = cli_workload_parse(&d->workload, optarg, err); break;
    case 'f':
        if (strcmp(optarg, "jsonl") != 0 && strcmp(optarg, "goal") != 0)
            rc = cs_fail(err, "unknown format '%s' (allowed: jsonl, goal)", optarg);
        d->goal = optarg[0] == 'g';
        break;
    case 'P': d->plain = 1; break;
    case 'o': d->output = optarg; break;
    case 'L': d->lua = optarg; break;
    case CLI_OPT_LUA_TIMEOUT:
    case CLI_OPT_LUA_MEMORY: rc = cli_lua_limit_option(c, optarg, &d->lua_limits, err); break;
    case 'M': rc = parse_size(optarg, &d->max_output, err); break;
    }
    return rc;
}

static int parse_args(int argc, char **argv, dump_cli *d)
{
    static const struct option opts[] = {
        {"collective", required_argument, 0, 'c'}, {"algorithm", required_argument, 0, 'a'},
        {"ranks", required_argument, 0, 'n'},      {"size", required_argument, 0, 's'},
        {"root", required_argument, 0, 'r'},       {"dst", required_argument, 0, 'D'},
        {"param", required_argument, 0, 'p'},      {"dims", required_argument, 0, 'd'},
        {"ranks-per-node", required_argument, 0, 'q'}, {"import", required_argument, 0, 'i'},
        {"calc", required_argument, 0, 'K'},       {"workload", required_argument, 0, 'w'},
        {"format", required_argument, 0, 'f'},     {"plain", no_argument, 0, 'P'},
        {"output", required_argument, 0, 'o'},     {"max-output", required_argument, 0, 'M'},
        {"help", no_argument, 0, 'h'},             {"lua", required_argument, 0, 'L'},
        CLI_LUA_LIMIT_OPTIONS,                     {0, 0, 0, 0}};
    coll_spec_init(&d->spec, COLL_ALLREDUCE, 2, 1 << 20);
    d->max_output = -1;
    int prc = cli_parse_options("dump", argc, argv, "", opts, usage, parse_option, d);
    if (prc != 0)
        return prc;
    if (optind < argc)
        return cli_usage_error("dump", "unexpected argument '%s'\n%s", argv[optind], usage);
    if (!d->import && (!d->have_coll || !d->algorithm[0] || !d->have_ranks))
        return cli_usage_error("dump", "--collective, --algorithm and --ranks (or --import) are "
                                       "required\n%s", usage);
    if (d->import && (d->algorithm[0] || d->have_ranks))
        return cli_usage_error("dump", "--import replaces --algorithm and --ranks");
    if (!d->import && cli_workload_check(&d->workload, "dump", d->spec.coll) != 0)
        return EXIT_USAGE;
    if (d->plain && !d->goal)
        return cli_usage_error("dump", "--plain goes with --format goal (it drops collsim's "
                                       "annotations from GOAL text); the JSON-lines output "
                                       "(--format jsonl, the default) has no plain form");
    return 0;
}

static int write_dump(const dump_cli *d, const alg_run *run, FILE *f, cs_error *err)
{
    int rc;
    if (!d->goal) {
        rc = jsonl_write(f, run, err);
    } else {
        goal_write_options wo;
        goal_write_options_default(&wo);
        wo.annotate = !d->plain;
        rc = goal_write(f, run, &wo, err);
    }
    if (rc == 0 && user_alg_run_error(run, err) < 0) /* a Lua algorithm failed */
        rc = -1;
    return rc;
}

/* Bytes free for an unprivileged user on the file system of path's directory (-1 if
 * unknown). */
static int64_t free_space_for(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    struct statvfs st;
    if (statvfs(dirname(dir), &st) < 0)
        return -1;
    return (int64_t)st.f_bavail * (int64_t)st.f_frsize;
}

/* Refusal before work: the estimated output against --max-output (default: the free
 * space where --output goes; standard output has no default limit). */
static int refuse_too_large(const dump_cli *d, const alg_run *run, cs_error *err)
{
    int64_t limit = d->max_output >= 0 ? d->max_output : d->output ? free_space_for(d->output) : 0;
    run_estimate e;
    estimate_dump(run, &e);
    if (limit <= 0 || e.bytes <= (double)limit)
        return 0;
    char need[32], have[32];
    estimate_format_bytes(e.bytes, need, sizeof need);
    estimate_format_bytes((double)limit, have, sizeof have);
    return cs_fail(err, "refused before starting: the dump would write about %s (%s; about %.3g "
                        "messages), more than %s (--max-output; default: the free space of the "
                        "output's file system)", need, e.basis, e.messages, have);
}

/* Writes to stdout or to d->output, all or nothing (atomic_file.h). */
static int dump_run(const dump_cli *d, const alg_run *run, cs_error *err)
{
    if (refuse_too_large(d, run, err) < 0)
        return -1;
    if (!d->output)
        return write_dump(d, run, stdout, err);
    atomic_file out;
    if (atomic_file_open(&out, d->output, err) < 0)
        return -1;
    int rc = write_dump(d, run, out.f, err);
    return atomic_file_commit(&out, rc == 0, err) < 0 || rc < 0 ? -1 : 0;
}

int cmd_dump(int argc, char **argv)
{
    dump_cli d;
    memset(&d, 0, sizeof d);
    int rc = parse_args(argc, argv, &d);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    cs_error err;
    file_alg *fa = NULL;
    const alg_desc *alg;
    coll_spec spec = d.spec;
    struct sweep_plan *lua = NULL;
    const alg_registry *user = NULL;
    if (d.lua && cli_lua_load(d.lua, &d.lua_limits, &lua, &user, &err) < 0)
        return cli_usage_error("dump", "--lua: %s", err.msg);
    if (d.import) {
        if (cli_import(d.import, &d.spec, d.have_coll, d.have_size, d.calc_bytes, &fa, &spec, &err) < 0) {
            cli_lua_free(lua);
            return cli_usage_error("dump", "--import: %s", err.msg);
        }
        alg = &fa->desc;
    } else if (!(alg = registry_find(user, spec.coll, d.algorithm, &err))) {
        cli_lua_free(lua);
        return cli_usage_error("dump", "--algorithm: %s", err.msg);
    }
    workload *w = NULL; /* --workload: the alltoallv block sizes for spec.P ranks */
    if (!d.import && cli_workload_bind(&d.workload, &spec, &w, &err) < 0) {
        cli_lua_free(lua);
        return cli_usage_error("dump", "--workload: %s", err.msg);
    }
    alg_run run;
    rc = alg_run_prepare(&run, alg, &spec, &err);
    if (rc == 0) {
        rc = dump_run(&d, &run, &err);
        alg_run_release(&run);
    }
    workload_free(w);
    file_alg_free(fa);
    cli_lua_free(lua);
    if (rc < 0)
        return cli_usage_error("dump", "%s", err.msg);
    return 0;
}
