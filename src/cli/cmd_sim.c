/* cmd_sim.c - `collsim sim`: simulate one collective on one topology, print one row.
 *
 *   collsim sim --topology T --collective C --algorithm A --ranks P [--size S] [--root R]
 *               [--dst D] [--param name=value].. [--dims AxB..] [--placement KIND]
 *               [--workload KIND:key=value..] [--barrier]
 *               [--ranks-per-node Q] [--model cm02|lv08|smpi|traffic|packet]
 *               [--mtu S] [--buffer S] [--routing minimal|adaptive|ugal|ecmp]
 *               [--packet-engine loop|actors] [--flow-engine simgrid|loop]
 *               [--send-overhead T] [--recv-overhead T] [--msg-gap T] [--envelope S]
 *               [--eager-limit S]
 *               [--reduce-rate RATE|free] [--copy-rate RATE|free]
 *               [--format text|csv|json] [--no-header] [--per-rank] [--emit-platform FILE]
 *               [--platform FILE.xml] [--groups MAP] [--hostfile F] [--alloc A]
 *               [--order block|cyclic]
 *               [--max-memory SIZE] [--point-timeout SECONDS] [--lua FILE.lua] [--verbose]
 *   collsim sim --topology T --job SPEC [--job SPEC].. [--no-alone] [options]
 *
 * The point runs in a child process (sim_run_isolated). Columns: docs/results.md.
 * With --job, several jobs share the topology (cmd_sim_jobs.c, sim/jobs.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "common/units.h"
#include "sim/jobs.h"
#include "sim/sim.h"
#include "sim/sim_external.h"

static const char usage[] =
    "usage: collsim sim --topology T --collective C --algorithm A --ranks P [options]\n"
    "  --topology T          \"family key=value ...\", e.g. \"torus dims=8x8\", or a machine\n"
    "                        preset with optional overrides, e.g. platforms/lumi.yaml or\n"
    "                        \"platforms/fugaku.yaml dims=4x4x4\" (see collsim topo --list)\n"
    "  --collective C        bcast reduce gather scatter allgather reduce_scatter allreduce\n"
    "                        alltoall alltoallv p2p\n"
    "  --algorithm A         see collsim list\n"
    "  --ranks P             number of ranks\n"
    "  --size S              vector size (default 1MiB): 32B, 4KiB, 1MiB, ...\n"
    "  --root R              root of rooted collectives (default 0); p2p: the source\n"
    "  --dst D               p2p: the destination rank (default 1)\n"
    "  --param name=value    algorithm parameter (repeatable)\n"
    "  --workload W          alltoallv block sizes, e.g. uniform:S=1KiB:seed=1\n"
    "                        (docs/workloads.md; default: --size split evenly)\n"
    "  --dims AxB..          logical shape for topology-aware algorithms\n"
    "  --placement KIND      linear (default), roundrobin, random:SEED, fragmented:K:SEED,\n"
    "                        file:PATH (one host name per rank and line)\n"
    "  --ranks-per-node Q    ranks per host (default 1)\n"
    "  --model M             cm02 (default), lv08, smpi, traffic (no timing), packet,\n"
    "                        analytic (per-step estimate, no event simulation)\n"
    "  --reduce-rate RATE    local reduction speed (default 10GBps; free = no cost)\n"
    "  --copy-rate RATE      local copy speed (default 20GBps; free = no cost)\n"
    "  --format F            text (default on a terminal: a labelled summary), csv\n"
    "                        (default otherwise: header + one row) or json (one object)\n"
    "  --no-header           csv without the header line\n"
    "  --per-rank            add every rank's finish time (column rank_finish_s)\n"
    "  --barrier             every rank runs a dissemination barrier (0-byte messages)\n"
    "                        before the collective; time_s includes it\n"
    "  --emit-platform FILE  also write the topology's SimGrid platform XML to FILE\n"
    "  --platform FILE.xml   an external SimGrid platform instead of --topology\n"
    "                        (docs/interop.md)\n"
    "  --groups MAP          group map of the external platform's hosts (file or preset)\n"
    "  --hostfile F          one host name per rank and line (= --placement file:F); a\n"
    "                        host on Q lines runs Q ranks (the default --ranks-per-node)\n"
    "  --alloc A             Slurm hostlist, node list file, PICO CSV or env\n"
    "                        ($SLURM_JOB_NODELIST) (= --placement alloc:A)\n"
    "                        (--placement, --hostfile, --alloc: one of them at most)\n"
    "  --order O             with --alloc: block (default) or cyclic rank order\n"
    "  --mtu S               packet model: packet size (default 4KiB)\n"
    "  --buffer S            packet model: input buffer per virtual channel (default 64KiB)\n"
    "  --routing R           packet model: minimal (default), adaptive, ugal (dragonflies),\n"
    "                        ecmp (per-flow hash over the minimal next hops)\n"
    "  --packet-engine E     packet model: loop (default) or actors (the earlier engine)\n"
    "  --flow-engine E       model cm02: simgrid (default: SimGrid's network model) or loop\n"
    "                        (collsim's own fluid network, the same max-min sharing)\n"
    "  --send-overhead T     CPU time of the sender per message, e.g. 1.2us (default 0)\n"
    "  --recv-overhead T     CPU time of the receiver per message (default 0)\n"
    "  --msg-gap T           minimum time between two messages of one NIC port (default 0)\n"
    "  --envelope S          bytes added to every message on the wire, e.g. 64B (default 0)\n"
    "  --eager-limit S       larger sends do a rendezvous first (default: unset, no protocol;\n"
    "                        a plain GOAL file: 65535, as LogGOPSim's -S;\n"
    "                        docs/simulator.md \"Endpoint costs\"); these five override the\n"
    "                        topology's and preset's keys of the same names\n"
    "  --import FILE         simulate a GOAL schedule file (docs/schedule-files.md) instead\n"
    "                        of --algorithm/--ranks; --collective/--size apply to plain GOAL\n"
    "  --calc ns|bytes       a plain GOAL file's `calc N`: N nanoseconds (default) or N\n"
    "                        bytes copied at --copy-rate\n"
    "  --max-memory SIZE     refuse a point estimated to need more memory (default: half\n"
    "                        of the physical memory; 0 = no limit; docs/robustness.md)\n"
    "  --point-timeout S     kill the point after S seconds of wall time (default: none)\n"
    "  --lua FILE            also the algorithms FILE defines with collsim.define_algorithm\n"
    "                        (docs/custom-algorithms.md)\n"
    CLI_LUA_LIMIT_USAGE
    CLI_FAULT_USAGE
    "  --verbose             also print the run's measurements on stderr: wall and CPU\n"
    "                        seconds, peak memory; model packet: packet-hops, events,\n"
    "                        CPU seconds of setup, event loop, ranks and teardown\n"
    "  --job SPEC            one job of several sharing the topology (repeatable), e.g.\n"
    "                        'coll=allreduce,alg=ring,ranks=16,hosts=0-15,size=1MiB' or\n"
    "                        'pattern=uniform,ranks=16,load=0.5,rounds=10'; replaces\n"
    "                        --collective, --algorithm, --ranks (docs/cli.md)\n"
    "  --no-alone            with --job: do not run every job alone for slowdown\n";

typedef struct sim_cli {
    sim_config cfg;
    int format, no_header, verbose; /* format: OUT_AUTO .. OUT_TEXT */
    int have_order;       /* --order, applied to whichever placement is given */
    alloc_order order;
    const char *emit_platform;
    const char *import; /* --import FILE */
    int calc_bytes;     /* --calc bytes */
    const char *lua;    /* --lua FILE */
    cli_lua_limits lua_limits;
    int have_size, have_coll;
    const char *packet_option; /* the last packet option given (--mtu, --buffer, --routing,
                                  --packet-engine), or NULL */
    const char *placement_option; /* --placement, --hostfile or --alloc, or NULL */
    int have_ranks_per_node;
    cli_workload workload; /* --workload: alltoallv block sizes */
    cli_faults faults;     /* --fail-links, --degrade-links, --fault-seed */
    const char *jobs[JOBS_MAX]; /* --job SPEC */
    int njobs, no_alone;
} sim_cli;

/* --placement, --hostfile and --alloc each set the placement: one of them at most. */
static int set_placement(sim_cli *v, const char *option, const char *text, cs_error *err)
{
    if (v->placement_option)
        return cs_fail(err, "give only one of --placement, --hostfile and --alloc (got %s "
                            "and %s)", v->placement_option, option);
    v->placement_option = option;
    return placement_parse(text, &v->cfg.placement, err);
}

static int parse_rate(const char *text, double *out, cs_error *err)
{
    if (strcmp(text, "free") == 0 || strcmp(text, "0") == 0) {
        *out = 0;
        return 0;
    }
    return parse_bandwidth(text, out, err);
}

/* The output format: text on a terminal, csv otherwise, unless --format says. */
enum { OUT_AUTO, OUT_CSV, OUT_JSON, OUT_TEXT };

static int parse_format(const char *text, int *format, cs_error *err)
{
    static const char *const names[] = {"csv", "json", "text"};
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *format = OUT_CSV + i;
            return 0;
        }
    return cs_fail(err, "unknown format '%s' (allowed: text, csv, json)", text);
}

static const struct option opts[] = {
    {"topology", required_argument, 0, 'T'},   {"collective", required_argument, 0, 'c'},
    {"algorithm", required_argument, 0, 'a'},  {"ranks", required_argument, 0, 'n'},
    {"size", required_argument, 0, 's'},       {"root", required_argument, 0, 'r'},
    {"param", required_argument, 0, 'p'},      {"dims", required_argument, 0, 'd'},
    {"placement", required_argument, 0, 'P'},  {"ranks-per-node", required_argument, 0, 'q'},
    {"model", required_argument, 0, 'm'},      {"reduce-rate", required_argument, 0, 'R'},
    {"copy-rate", required_argument, 0, 'C'},  {"format", required_argument, 0, 'f'},
    {"no-header", no_argument, 0, 'H'},        {"per-rank", no_argument, 0, 'k'},
    {"emit-platform", required_argument, 0, 'E'}, {"help", no_argument, 0, 'h'},
    {"dst", required_argument, 0, 'D'},        {"platform", required_argument, 0, 'X'},
    {"groups", required_argument, 0, 'G'},     {"hostfile", required_argument, 0, 'F'},
    {"alloc", required_argument, 0, 'A'},      {"order", required_argument, 0, 'O'},
    {"mtu", required_argument, 0, 'M'},        {"buffer", required_argument, 0, 'B'},
    {"routing", required_argument, 0, 'U'}, {"import", required_argument, 0, 'i'},
    {"calc", required_argument, 0, 'K'},
    {"max-memory", required_argument, 0, 'Y'},
    {"point-timeout", required_argument, 0, 't'}, {"verbose", no_argument, 0, 'v'},
    {"lua", required_argument, 0, 'L'},       {"barrier", no_argument, 0, 'b'},
    {"workload", required_argument, 0, 'w'},  CLI_LUA_LIMIT_OPTIONS,
    {"packet-engine", required_argument, 0, 1000},
    {"send-overhead", required_argument, 0, 1001}, {"recv-overhead", required_argument, 0, 1002},
    {"msg-gap", required_argument, 0, 1003},       {"envelope", required_argument, 0, 1004},
    {"eager-limit", required_argument, 0, 1005},
    CLI_FAULT_OPTIONS,
    {"job", required_argument, 0, 1006},       {"no-alone", no_argument, 0, 1007},
    {"flow-engine", required_argument, 0, 1008},
    {0, 0, 0, 0}};

/* --send-overhead .. --eager-limit (getopt values 1001..1005): the endpoint keys. */
static int parse_endpoint_option(int c, sim_config *g, cs_error *err)
{
    static const char *const keys[] = {"send_overhead", "recv_overhead", "msg_gap", "envelope",
                                       "eager_limit"};
    return endpoint_set(&g->endpoint, keys[c - 1001], optarg, err); /* errors: "--option: " */
}

/* The interop options (docs/interop.md); returns 0 or -1 with err. */
static int parse_interop_option(int c, sim_cli *v, int *have, cs_error *err)
{
    sim_config *g = &v->cfg;
    char text[1100];
    switch (c) {
    case 'X':
        if (!sim_is_external_platform(optarg))
            return cs_fail(err, "'%s' is not a platform file (expected a path ending in .xml)",
                           optarg);
        if (have[0])
            return cs_fail(err, "give either --topology or --platform, not both");
        snprintf(g->topology, sizeof g->topology, "%s", optarg);
        have[0] = 1;
        return 0;
    case 'G': snprintf(g->groups, sizeof g->groups, "%s", optarg); return 0;
    case 'F':
        snprintf(text, sizeof text, "file:%s", optarg);
        return set_placement(v, "--hostfile", text, err);
    case 'A':
        snprintf(text, sizeof text, "alloc:%s", optarg);
        return set_placement(v, "--alloc", text, err);
    case 'O': v->have_order = 1; return alloc_order_parse(optarg, &v->order, err);
    default: return 0;
    }
}

/* One option; returns 0, -1 with err, or 1 for --help. */
static int parse_option(int c, sim_cli *v, int *have, cs_error *err)
{
    sim_config *g = &v->cfg;
    int64_t x;
    int rc = 0;
    switch (c) {
    case 'T':
        if (have[0])
            return cs_fail(err, "give either --topology or --platform, not both");
        snprintf(g->topology, sizeof g->topology, "%s", optarg);
        have[0] = 1;
        break;
    case 'c': rc = coll_from_name(optarg, &g->spec.coll, err); have[1] = 1; break;
    case 'a': snprintf(g->algorithm, sizeof g->algorithm, "%s", optarg); have[2] = 1; break;
    case 'n':
        rc = parse_int_in(optarg, 2, INT32_MAX, "ranks", &x, err);
        g->spec.P = (int32_t)x;
        have[3] = 1;
        break;
    case 's': rc = parse_size(optarg, &g->spec.bytes, err); v->have_size = 1; break;
    case 'i': v->import = optarg; break;
    case 'K': rc = cli_parse_calc(optarg, &v->calc_bytes, err); break;
    case 'L': v->lua = optarg; break;
    case CLI_OPT_LUA_TIMEOUT:
    case CLI_OPT_LUA_MEMORY: return cli_lua_limit_option(c, optarg, &v->lua_limits, err);
    case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, err); g->spec.root = (int32_t)x; break;
    case 'D': rc = parse_int_in(optarg, 0, INT32_MAX, "dst", &x, err); g->spec.dst = (int32_t)x; break;
    case 'p': rc = cli_parse_param(optarg, &g->spec, err); break;
    case 'd': rc = cli_parse_dims(optarg, &g->spec, err); break;
    case 'P': rc = set_placement(v, "--placement", optarg, err); break;
    case 'q':
        rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, err);
        g->spec.ranks_per_node = (int32_t)x;
        v->have_ranks_per_node = 1;
        break;
    case 'm': rc = sim_model_parse(optarg, &g->model, err); break;
    case 'R': rc = parse_rate(optarg, &g->reduce_Bps, err); break;
    case 'C': rc = parse_rate(optarg, &g->copy_Bps, err); break;
    case 'f': rc = parse_format(optarg, &v->format, err); break;
    case 'H': v->no_header = 1; break;
    case 'v': v->verbose = v->cfg.cpu_split = 1; break;
    case 'k': g->per_rank = 1; break;
    case 'b': g->barrier = 1; break;
    case 'w': rc = cli_workload_parse(&v->workload, optarg, err); break;
    case 'E': v->emit_platform = optarg; break;
    case 'M': rc = parse_size(optarg, &g->packet.mtu, err); v->packet_option = "--mtu"; break;
    case 'B': rc = parse_size(optarg, &g->packet.buffer, err); v->packet_option = "--buffer"; break;
    case 'U':
        rc = pk_routing_parse(optarg, &g->packet.routing, err);
        v->packet_option = "--routing";
        break;
    case 1000:
        rc = pk_engine_parse(optarg, &g->packet.engine, err);
        v->packet_option = "--packet-engine";
        break;
    case 'Y': rc = parse_size(optarg, &g->max_memory, err); break;
    case 't': rc = cli_parse_timeout(optarg, &g->point_timeout_s, err); break;
    case 'h': return 1;
    case 1001: case 1002: case 1003: case 1004: case 1005:
        rc = parse_endpoint_option(c, g, err);
        break;
    case 1006:
        if (v->njobs == JOBS_MAX)
            return cs_fail(err, "--job: at most %d jobs", JOBS_MAX);
        v->jobs[v->njobs++] = optarg;
        break;
    case 1007: v->no_alone = 1; break;
    case 1008: rc = flow_engine_parse(optarg, &g->flow_engine, err); break;
    default: rc = parse_interop_option(c, v, have, err);
    }
    return rc;
}

/* parse_option with the "seen" flags, for cli_parse_options. */
typedef struct sim_args {
    sim_cli *v;
    int *have;
} sim_args;

static int sim_option(int c, void *arg, cs_error *err)
{
    sim_args *a = arg;
    if (cli_fault_option(c, optarg, &a->v->faults))
        return 0;
    return parse_option(c, a->v, a->have, err);
}

/* A host file naming a host on Q lines runs Q ranks there: without --ranks-per-node,
 * that is the ranks per node (with it, a host over it is an error naming the line). */
static int infer_ranks_per_node(sim_cli *v)
{
    sim_config *g = &v->cfg;
    cs_error err;
    if (g->placement.kind != PLACE_FILE || v->have_ranks_per_node)
        return 0;
    if (placement_file_ranks_per_host(g->placement.path, g->spec.P, &g->spec.ranks_per_node,
                                      &err) < 0)
        return cli_usage_error("sim", "%s", err.msg);
    return 0;
}

static int parse_args(int argc, char **argv, sim_cli *v)
{
    int have[4] = {0, 0, 0, 0};
    sim_config_init(&v->cfg);
    sim_args args = {v, have};
    int prc = cli_parse_options("sim", argc, argv, "", opts, usage, sim_option, &args);
    if (prc != 0)
        return prc;
    if (optind < argc)
        return cli_usage_error("sim", "unexpected argument '%s'\n%s", argv[optind], usage);
    v->have_coll = have[1];
    cs_error ferr;
    if (cli_faults_apply(&v->faults, v->cfg.topology, sizeof v->cfg.topology, &ferr) < 0)
        return cli_usage_error("sim", "%s", ferr.msg);
    if (v->packet_option && v->cfg.model != SIM_MODEL_PACKET)
        return cli_usage_error("sim", "%s applies to --model packet only (the model is %s)",
                               v->packet_option, sim_model_name(v->cfg.model));
    if (v->cfg.flow_engine == FLOW_ENGINE_LOOP && v->cfg.model != SIM_MODEL_CM02)
        return cli_usage_error("sim", "--flow-engine loop applies to --model cm02 only (the "
                                      "model is %s; allowed: cm02)",
                               sim_model_name(v->cfg.model));
    if (v->cfg.endpoint.given && v->cfg.model == SIM_MODEL_TRAFFIC)
        return cli_usage_error("sim", "--send-overhead, --recv-overhead, --msg-gap, --envelope "
                                      "and --eager-limit apply to timed models (cm02, lv08, "
                                      "smpi, packet), not to --model traffic");
    if (v->have_order && v->cfg.placement.kind != PLACE_ALLOC)
        return cli_usage_error("sim", "--order applies to --alloc (other node lists: "
                                      "--placement 'KIND order=cyclic')");
    if (v->have_order)
        v->cfg.placement.order = v->order;
    if (v->format == OUT_TEXT && (v->cfg.per_rank || v->no_header))
        return cli_usage_error("sim", "%s goes with --format csv or json, not text",
                               v->cfg.per_rank ? "--per-rank" : "--no-header");
    if (v->format == OUT_AUTO) /* a person reads a terminal; programs read pipes */
        v->format = isatty(STDOUT_FILENO) && !v->cfg.per_rank && !v->no_header ? OUT_TEXT
                                                                             : OUT_CSV;
    if (v->njobs || v->no_alone)
        return cli_sim_jobs_check(v->njobs, have[0], have[1] || have[2] || have[3] ||
                                  v->have_size || v->placement_option || v->import ||
                                  v->have_ranks_per_node || v->workload.given ||
                                  v->cfg.barrier || v->cfg.per_rank || v->cfg.spec.nparams);
    if (v->import && (have[2] || have[3]))
        return cli_usage_error("sim", "--import replaces --algorithm and --ranks");
    if (v->import && have[0])
        return 0;
    if (!have[0] || !have[1] || !have[2] || !have[3])
        return cli_usage_error("sim", "--topology (or --platform), --collective, --algorithm and "
                                      "--ranks are required\n%s", usage);
    return infer_ranks_per_node(v);
}

/* --emit-platform: the platform file SimGrid loads for this topology (for smpirun). */
static int emit_platform(const sim_cli *v)
{
    topology *t;
    cs_error err;
    int rc = topo_build_spec(v->cfg.topology, &t, &err);
    if (rc == 0) {
        rc = topo_emit_xml_file(t, v->emit_platform, &err);
        topo_free(t);
    }
    if (rc < 0)
        fprintf(stderr, "collsim sim: --emit-platform: %s\n", err.msg);
    return rc;
}

int cmd_sim(int argc, char **argv)
{
    sim_cli v;
    memset(&v, 0, sizeof v);
    int rc = parse_args(argc, argv, &v);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    if (v.emit_platform && emit_platform(&v) < 0)
        return EXIT_USAGE;
    if (v.njobs)
        return cmd_sim_jobs(&v.cfg, v.jobs, v.njobs, !v.no_alone,
                            v.format == OUT_JSON ? "json" : v.format == OUT_TEXT ? "text" : "csv",
                            v.no_header, v.lua, &v.lua_limits);
    sim_result res;
    cs_error err;
    file_alg *fa = NULL;
    alg_registry reg;
    alg_registry_init(&reg);
    struct sweep_plan *lua = NULL;
    const alg_registry *user = NULL;
    if (v.lua && !v.import) { /* the file's algorithms, by name like built-ins */
        if (cli_lua_load(v.lua, &v.lua_limits, &lua, &user, &err) < 0)
            return cli_usage_error("sim", "--lua: %s", err.msg);
        v.cfg.algorithms = user;
    }
    if (v.import) { /* the file's schedule as a run-time algorithm */
        if (cli_import(v.import, &v.cfg.spec, v.have_coll, v.have_size, v.calc_bytes, &fa, &v.cfg.spec,
                       &err) < 0 || alg_registry_add(&reg, &fa->desc, &err) < 0) {
            file_alg_free(fa);
            alg_registry_free(&reg);
            return cli_usage_error("sim", "--import: %s", err.msg);
        }
        snprintf(v.cfg.algorithm, sizeof v.cfg.algorithm, "%s", fa->desc.name);
        v.cfg.algorithms = &reg;
        if (!fa->sched.annotated && !(v.cfg.endpoint.given & EP_EAGER_LIMIT))
            v.cfg.eager_limit = SIM_GOAL_EAGER_LIMIT; /* as LogGOPSim runs such a file */
    }
    workload *w = NULL; /* after --import, which may set the collective and P */
    int usage = cli_workload_check(&v.workload, "sim", v.cfg.spec.coll);
    if (usage == 0 && cli_workload_bind(&v.workload, &v.cfg.spec, &w, &err) < 0)
        usage = cli_usage_error("sim", "--workload: %s", err.msg);
    rc = usage ? 0 : sim_run_isolated(&v.cfg, &res, &err);
    workload_free(w);
    file_alg_free(fa);
    alg_registry_free(&reg);
    cli_lua_free(lua);
    if (usage)
        return usage;
    if (rc < 0) {
        fprintf(stderr, "collsim sim: %s\n", err.msg);
        return res.timed_out ? EXIT_CHECK_FAILED : EXIT_USAGE;
    }
    if (v.verbose) /* key=value, for scripts (scripts/bench/packet_rate.sh) */
        fprintf(stderr, "collsim sim: sim_wall_s=%.6f sim_cpu_s=%.6f sim_peak_rss_kb=%ld "
                        "packet_hops=%lld packet_events=%lld packet_setup_cpu_s=%.6f "
                        "packet_engine_cpu_s=%.6f packet_ranks_cpu_s=%.6f "
                        "packet_teardown_cpu_s=%.6f\n", res.row.sim_wall_s, res.cpu_s,
                res.row.sim_peak_rss_kb, (long long)res.packet_hops,
                (long long)res.packet_events, res.packet_setup_cpu_s,
                res.packet_engine_cpu_s, res.packet_ranks_cpu_s, res.packet_teardown_cpu_s);
    int32_t n = res.rank_finish_s ? v.cfg.spec.P : 0;
    if (v.format == OUT_JSON) {
        sim_row_json(stdout, &res.row, res.rank_finish_s, n);
    } else if (v.format == OUT_TEXT) {
        sim_row_text(stdout, &res.row);
    } else {
        if (!v.no_header)
            sim_row_csv_header(stdout, res.rank_finish_s != NULL);
        sim_row_csv(stdout, &res.row, res.rank_finish_s, n);
    }
    sim_result_free(&res);
    return 0;
}
