/* cmd_draw.c - `collsim draw`: pictures of a topology, and of the bytes a collective puts
 * on its links (src/draw/draw.h does the work; this file only reads options).
 *
 *   collsim draw TOPOLOGY --out FILE.svg|.png|.json [--placement KIND] [--ranks P]
 *                [--ranks-per-node Q] [--collective C (--algorithm A | --compare A,B)
 *                [--size S] [--root R] [--dst D] [--param k=v].. [--dims AxB..]
 *                [--step K | --all-steps [--frame-time T]] [--rank R] [--link-csv FILE]]
 *                [--lua FILE.lua]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/units.h"
#include "draw/draw.h"

static const char usage[] =
    "usage: collsim draw TOPOLOGY --out FILE [options]\n"
    "  TOPOLOGY              \"family key=value ...\" or a preset .yaml (as collsim sim\n"
    "                        --topology); --topology T works too\n"
    "  --out FILE            the picture: .svg, .png (matplotlib) or .json (the scene)\n"
    "  --placement KIND      linear (default), roundrobin, random:SEED, fragmented:K:SEED,\n"
    "                        file:PATH\n"
    "  --ranks P             ranks (default: every host x ranks per node)\n"
    "  --ranks-per-node Q    ranks per host (default 1); a host shows its first rank\n"
    " link loads of a collective:\n"
    "  --collective C        bcast reduce gather scatter allgather reduce_scatter allreduce\n"
    "                        alltoall alltoallv p2p\n"
    "  --algorithm A         the algorithm (collsim list)\n"
    "  --compare A,B         two algorithms side by side, one colour scale\n"
    "  --size S              vector size (default 1MiB)\n"
    "  --root R, --dst D     root of rooted collectives, p2p destination\n"
    "  --param name=value    algorithm parameter (repeatable)\n"
    "  --dims AxB..          logical shape for topology-aware algorithms\n"
    "  --step K              draw step K only (0-based; default: the whole run)\n"
    "  --all-steps           one picture per step (FILE-stepK.ext) and FILE-anim.svg\n"
    "  --frame-time T        animation: time per step (default 1s)\n"
    "  --rank R              highlight rank R, its peers and its messages' routes\n"
    "  --link-csv FILE       bytes per link direction, every step and the whole run\n"
    "  --lua FILE            also the algorithms FILE defines with collsim.define_algorithm\n"
    "                        (docs/custom-algorithms.md)\n"
    CLI_LUA_LIMIT_USAGE
    CLI_FAULT_USAGE;

static const struct option opts[] = {
    {"topology", required_argument, 0, 'T'},   {"out", required_argument, 0, 'o'},
    {"placement", required_argument, 0, 'P'},  {"ranks", required_argument, 0, 'n'},
    {"ranks-per-node", required_argument, 0, 'q'}, {"collective", required_argument, 0, 'c'},
    {"algorithm", required_argument, 0, 'a'},  {"compare", required_argument, 0, 'C'},
    {"size", required_argument, 0, 's'},       {"root", required_argument, 0, 'r'},
    {"dst", required_argument, 0, 'D'},        {"param", required_argument, 0, 'p'},
    {"dims", required_argument, 0, 'd'},       {"step", required_argument, 0, 'k'},
    {"all-steps", no_argument, 0, 'A'},        {"frame-time", required_argument, 0, 'F'},
    {"rank", required_argument, 0, 'R'},       {"link-csv", required_argument, 0, 'L'},
    {"help", no_argument, 0, 'h'},             {"lua", required_argument, 0, 'U'},
    CLI_LUA_LIMIT_OPTIONS,
    CLI_FAULT_OPTIONS,
    {0, 0, 0, 0}};

/* "A,B" into two algorithm names. */
static int parse_compare(const char *text, draw_options *o, cs_error *err)
{
    const char *comma = strchr(text, ',');
    if (!comma || comma == text || !comma[1] || strchr(comma + 1, ','))
        return cs_fail(err, "expected two algorithms as A,B, got '%s'", text);
    snprintf(o->algorithms[0], sizeof o->algorithms[0], "%.*s", (int)(comma - text), text);
    snprintf(o->algorithms[1], sizeof o->algorithms[1], "%s", comma + 1);
    o->nalgorithms = 2;
    return 0;
}

static int parse_option(int c, draw_options *o, int *have_coll, cs_error *err)
{
    int64_t x;
    int rc = 0;
    switch (c) {
    case 'T': snprintf(o->topology, sizeof o->topology, "%s", optarg); break;
    case 'o': snprintf(o->out, sizeof o->out, "%s", optarg); break;
    case 'P': rc = placement_parse(optarg, &o->placement, err); break;
    case 'n': rc = parse_int_in(optarg, 1, INT32_MAX, "ranks", &x, err); o->ranks = (int32_t)x; break;
    case 'q':
        rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, err);
        o->ranks_per_node = (int32_t)x;
        break;
    case 'c': rc = coll_from_name(optarg, &o->spec.coll, err); *have_coll = 1; break;
    case 'a':
        snprintf(o->algorithms[0], sizeof o->algorithms[0], "%s", optarg);
        o->nalgorithms = 1;
        break;
    case 'C': rc = parse_compare(optarg, o, err); break;
    case 's': rc = parse_size(optarg, &o->spec.bytes, err); break;
    case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, err); o->spec.root = (int32_t)x; break;
    case 'D': rc = parse_int_in(optarg, 0, INT32_MAX, "dst", &x, err); o->spec.dst = (int32_t)x; break;
    case 'p': rc = cli_parse_param(optarg, &o->spec, err); break;
    case 'd': rc = cli_parse_dims(optarg, &o->spec, err); break;
    case 'k': rc = parse_int_in(optarg, 0, INT32_MAX, "step", &x, err); o->step = (int32_t)x; break;
    case 'A': o->all_steps = 1; break;
    case 'F': rc = parse_time(optarg, &o->frame_seconds, err); break;
    case 'R': rc = parse_int_in(optarg, 0, INT32_MAX, "rank", &x, err); o->rank = (int32_t)x; break;
    case 'L': snprintf(o->link_csv, sizeof o->link_csv, "%s", optarg); break;
    case 'h': return 1;
    }
    return rc;
}

/* parse_option with the "--collective seen" flag, for cli_parse_options. */
typedef struct draw_args {
    draw_options *o;
    int *have_coll;
    const char **lua;
    cli_lua_limits *lua_limits;
    cli_faults faults; /* --fail-links, --degrade-links, --fault-seed */
} draw_args;

static int draw_option(int c, void *arg, cs_error *err)
{
    draw_args *a = arg;
    if (c == 'U') {
        *a->lua = optarg;
        return 0;
    }
    if (c == CLI_OPT_LUA_TIMEOUT || c == CLI_OPT_LUA_MEMORY)
        return cli_lua_limit_option(c, optarg, a->lua_limits, err);
    if (cli_fault_option(c, optarg, &a->faults))
        return 0;
    return parse_option(c, a->o, a->have_coll, err);
}

static int parse_args(int argc, char **argv, draw_options *o, const char **lua,
                      cli_lua_limits *lim)
{
    int have_coll = 0;
    draw_options_init(o);
    draw_args args = {o, &have_coll, lua, lim, {0}};
    int prc = cli_parse_options("draw", argc, argv, "", opts, usage, draw_option, &args);
    if (prc != 0)
        return prc;
    if (optind < argc && !o->topology[0])
        snprintf(o->topology, sizeof o->topology, "%s", argv[optind++]);
    if (optind < argc)
        return cli_usage_error("draw", "unexpected argument '%s'\n%s", argv[optind], usage);
    if (!o->topology[0] || !o->out[0])
        return cli_usage_error("draw", "a topology and --out are required\n%s", usage);
    cs_error ferr;
    if (cli_faults_apply(&args.faults, o->topology, sizeof o->topology, &ferr) < 0)
        return cli_usage_error("draw", "%s", ferr.msg);
    if (have_coll != (o->nalgorithms > 0))
        return cli_usage_error("draw", "--collective goes with --algorithm or --compare\n%s",
                               usage);
    if (o->all_steps && o->step != DRAW_TOTAL)
        return cli_usage_error("draw", "--step and --all-steps exclude each other");
    return 0;
}

int cmd_draw(int argc, char **argv)
{
    draw_options o;
    const char *lua_path = NULL;
    cli_lua_limits lim = {0};
    int rc = parse_args(argc, argv, &o, &lua_path, &lim);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    draw_result res;
    cs_error err;
    struct sweep_plan *lua = NULL;
    if (lua_path && cli_lua_load(lua_path, &lim, &lua, &o.user_algorithms, &err) < 0)
        return cli_usage_error("draw", "--lua: %s", err.msg);
    rc = draw_run(&o, &res, &err);
    cli_lua_free(lua);
    if (rc < 0) {
        fprintf(stderr, "collsim draw: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (res.nfiles == 1)
        printf("wrote %s", res.first_file);
    else
        printf("wrote %d files: %s .. %s", res.nfiles, res.first_file, res.last_file);
    if (res.steps > 0)
        printf(" (%d steps, max link load %lld bytes)", res.steps, (long long)res.max_link_bytes);
    printf("\n");
    if (o.link_csv[0])
        printf("wrote %s\n", o.link_csv);
    return 0;
}
