/* cmd_traffic.c - `collsim traffic`: internal and external bytes of collective algorithms
 * on a real job (an allocation + a group map), the PICO tracer's table (docs/interop.md).
 *
 *   collsim traffic --alloc A (--groups MAP | --topology T) --collective C
 *                   --algorithms A,B.. [--ranks P] [--ranks-per-node Q]
 *                   [--order block|cyclic] [--size S] [--root R] [--param name=value]..
 *                   [--dims AxB..] [--format table|csv|json] [--max-memory SIZE]
 *
 * Bytes are in units of the vector size n (`*_n`) and, in CSV and JSON, also as exact
 * integers (`*_bytes`); `reduction` is the first algorithm's external bytes minus this
 * one's, over the first's. A map matching only some hosts of the job prints one warning line
 * on stderr, whatever the format.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "algorithms/registry.h"
#include "common/units.h"
#include "sim/estimate.h"
#include "common/util.h"
#include "sim/job_groups.h"

static const char usage[] =
    "usage: collsim traffic --alloc A (--groups MAP | --topology T) --collective C\n"
    "                       --algorithms A,B.. [options]\n"
    "  --alloc A             the job's nodes: a Slurm hostlist (lrdn[0001-0128]), a node\n"
    "                        list file (scontrol show hostnames), a PICO CSV (MPI_Rank,\n"
    "                        allocation) or env ($SLURM_JOB_NODELIST)\n"
    "  --groups MAP          group map file, or a preset .yaml with a groups: map\n"
    "  --topology T          or: use the groups of this topology's hosts (a preset)\n"
    "  --collective C        e.g. allreduce, bcast, reduce_scatter, allgather, alltoall\n"
    "  --algorithms A,B..    algorithms to compare (collsim list); the first is the base\n"
    "  --ranks P             ranks (default: every node x --ranks-per-node, or CSV rows)\n"
    "  --ranks-per-node Q    ranks per node (default 1)\n"
    "  --order O             block (default) or cyclic rank order over the nodes\n"
    "  --size S              vector size n (default 1MiB; results are in units of n)\n"
    "  --root R, --param name=value, --dims AxB..   as in collsim sim\n"
    "  --format F            table (default), csv or json (one object per algorithm)\n"
    "  --max-memory SIZE     refuse a --topology estimated to need more memory (default:\n"
    "                        half of the physical memory; 0: no limit)\n";

typedef struct traffic_cli {
    job_groups_spec job;
    coll_spec spec;
    char algorithms[1024];
    enum { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON } format;
} traffic_cli;

static const struct option opts[] = {
    {"alloc", required_argument, 0, 'A'},      {"groups", required_argument, 0, 'G'},
    {"topology", required_argument, 0, 'T'},   {"collective", required_argument, 0, 'c'},
    {"algorithms", required_argument, 0, 'a'}, {"ranks", required_argument, 0, 'n'},
    {"ranks-per-node", required_argument, 0, 'q'}, {"order", required_argument, 0, 'O'},
    {"size", required_argument, 0, 's'},       {"root", required_argument, 0, 'r'},
    {"param", required_argument, 0, 'p'},      {"dims", required_argument, 0, 'd'},
    {"format", required_argument, 0, 'f'},     {"help", no_argument, 0, 'h'},
    {"max-memory", required_argument, 0, 'M'},
    {0, 0, 0, 0}};

static int parse_option(int c, traffic_cli *v, cs_error *err)
{
    int64_t x;
    int rc = 0;
    switch (c) {
    case 'A': v->job.alloc = optarg; break;
    case 'G': v->job.groups = optarg; break;
    case 'T': v->job.topology = optarg; break;
    case 'c': rc = coll_from_name(optarg, &v->spec.coll, err); break;
    case 'a':
        snprintf(v->algorithms, sizeof v->algorithms, "%s", optarg);
        return cli_check_list(optarg, err);
    case 'n':
        rc = parse_int_in(optarg, 2, INT32_MAX, "ranks", &x, err);
        v->job.ranks = (int32_t)x;
        break;
    case 'q':
        rc = parse_int_in(optarg, 1, INT32_MAX, "ranks per node", &x, err);
        v->job.ranks_per_node = (int32_t)x;
        break;
    case 'O': rc = alloc_order_parse(optarg, &v->job.order, err); break;
    case 's': rc = parse_size(optarg, &v->spec.bytes, err); break;
    case 'r': rc = parse_int_in(optarg, 0, INT32_MAX, "root", &x, err); v->spec.root = (int32_t)x; break;
    case 'p': rc = cli_parse_param(optarg, &v->spec, err); break;
    case 'd': rc = cli_parse_dims(optarg, &v->spec, err); break;
    case 'f':
        if (strcmp(optarg, "table") == 0)
            v->format = FORMAT_TABLE;
        else if (strcmp(optarg, "csv") == 0)
            v->format = FORMAT_CSV;
        else if (strcmp(optarg, "json") == 0)
            v->format = FORMAT_JSON;
        else
            rc = cs_fail(err, "unknown format '%s' (allowed: table, csv, json)", optarg);
        break;
    case 'M': rc = parse_size(optarg, &v->job.max_memory, err); break;
    case 'h': return 1;
    }
    return rc;
}

/* parse_option noting whether --collective was given, for cli_parse_options. */
typedef struct traffic_args {
    traffic_cli *v;
    int *have_coll;
} traffic_args;

static int traffic_option(int c, void *arg, cs_error *err)
{
    traffic_args *a = arg;
    *a->have_coll |= c == 'c';
    return parse_option(c, a->v, err);
}

/* Every name of --algorithms exists for the collective, before anything is printed (no
 * half-written table). */
static int check_algorithms(const traffic_cli *v)
{
    char names[sizeof v->algorithms];
    snprintf(names, sizeof names, "%s", v->algorithms);
    char *save = NULL;
    for (char *alg = strtok_r(names, ",", &save); alg; alg = strtok_r(NULL, ",", &save)) {
        cs_error err;
        if (!registry_find(NULL, v->spec.coll, alg, &err))
            return cli_usage_error("traffic", "--algorithms: %s", err.msg);
    }
    return 0;
}

static int parse_args(int argc, char **argv, traffic_cli *v)
{
    memset(v, 0, sizeof *v);
    v->job.ranks_per_node = 1;
    v->job.max_memory = estimate_default_max_memory();
    coll_spec_init(&v->spec, COLL_ALLREDUCE, 2, 1 << 20);
    int have_coll = 0;
    traffic_args args = {v, &have_coll};
    int prc = cli_parse_options("traffic", argc, argv, "", opts, usage, traffic_option, &args);
    if (prc != 0)
        return prc;
    if (optind < argc)
        return cli_usage_error("traffic", "unexpected argument '%s'\n%s", argv[optind], usage);
    if (v->job.groups && v->job.topology)
        return cli_usage_error("traffic", "give only one of --groups and --topology (the "
                                          "groups come from the map or from the topology)");
    if (!v->job.alloc || !have_coll || !v->algorithms[0] || !v->job.groups == !v->job.topology)
        return cli_usage_error("traffic", "--alloc, --collective, --algorithms and one of "
                                          "--groups / --topology are required\n%s", usage);
    return check_algorithms(v);
}

static void print_header(const traffic_cli *v, const job_groups *g)
{
    char size[32];
    format_size(v->spec.bytes, size, sizeof size);
    if (v->format == FORMAT_CSV) {
        printf("collective,algorithm,ranks,nodes,groups,internal_n,external_n,ungrouped_n,"
               "messages,reduction,size_bytes,internal_bytes,external_bytes,ungrouped_bytes\n");
        return;
    }
    if (v->format == FORMAT_JSON)
        return;
    printf("# %s, %d ranks on %d nodes in %d groups (%s order), n = %s\n",
           coll_name(v->spec.coll), g->P, g->nodes, g->ngroups,
           alloc_order_name(v->job.order), size);
    if (g->ungrouped_ranks)
        printf("# %d ranks are on hosts the map puts in no group (column ungrouped)\n",
               g->ungrouped_ranks);
    printf("%-28s %12s %12s %12s %10s %10s\n", "algorithm", "internal_n", "external_n",
           "ungrouped_n", "messages", "reduction");
}

/* A ratio in the shortest text that reads back to exactly the same double. */
static void exact_ratio(double d, char *buf, size_t n)
{
    snprintf(buf, n, "%.15g", d);
    if (strtod(buf, NULL) != d)
        snprintf(buf, n, "%.17g", d);
}

/* CSV and JSON: the ratios exact, the bytes as integers (never rounded). */
static void print_row_exact(const traffic_cli *v, const job_groups *g, const char *alg,
                            const group_traffic *t, double reduction)
{
    double n = (double)v->spec.bytes;
    char in[40], ex[40], un[40], red[40];
    exact_ratio((double)t->internal / n, in, sizeof in);
    exact_ratio((double)t->external / n, ex, sizeof ex);
    exact_ratio((double)t->ungrouped / n, un, sizeof un);
    exact_ratio(reduction, red, sizeof red);
    const char *fmt =
        v->format == FORMAT_CSV
            ? "%s,%s,%d,%d,%d,%s,%s,%s,%" PRId64 ",%s,%" PRId64 ",%" PRId64 ",%" PRId64
              ",%" PRId64 "\n"
            : "{\"collective\":\"%s\",\"algorithm\":\"%s\",\"ranks\":%d,\"nodes\":%d,"
              "\"groups\":%d,\"internal_n\":%s,\"external_n\":%s,\"ungrouped_n\":%s,"
              "\"messages\":%" PRId64 ",\"reduction\":%s,\"size_bytes\":%" PRId64
              ",\"internal_bytes\":%" PRId64 ",\"external_bytes\":%" PRId64
              ",\"ungrouped_bytes\":%" PRId64 "}\n";
    printf(fmt, coll_name(v->spec.coll), alg, g->P, g->nodes, g->ngroups, in, ex, un,
           t->messages, red, v->spec.bytes, t->internal, t->external, t->ungrouped);
}

static void print_row(const traffic_cli *v, const job_groups *g, const char *alg,
                      const group_traffic *t, double base_external)
{
    double n = (double)v->spec.bytes;
    double reduction = base_external > 0 ? (base_external - (double)t->external) / base_external
                                         : 0;
    if (v->format != FORMAT_TABLE)
        print_row_exact(v, g, alg, t, reduction);
    else
        printf("%-28s %12.4f %12.4f %12.4f %10lld %9.1f%%\n", alg, (double)t->internal / n,
               (double)t->external / n, (double)t->ungrouped / n, (long long)t->messages,
               100 * reduction);
}

int cmd_traffic(int argc, char **argv)
{
    traffic_cli v;
    int rc = parse_args(argc, argv, &v);
    if (rc != 0)
        return rc < 0 ? 0 : rc;
    job_groups g;
    cs_error err;
    if (job_groups_compute(&v.job, &g, &err) < 0) {
        fprintf(stderr, "collsim traffic: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (g.warning[0]) /* on stderr: the table, CSV or JSON on stdout stays parseable */
        fprintf(stderr, "collsim traffic: %s\n", g.warning);
    /* every algorithm first, then the table: an error leaves no half-written output */
    size_t n = 0, cap = 0;
    char **names = NULL;
    group_traffic *t = NULL;
    char *save = NULL;
    for (char *alg = strtok_r(v.algorithms, ",", &save); alg && rc == 0;
         alg = strtok_r(NULL, ",", &save)) {
        size_t old_cap = cap;
        VEC_RESERVE(names, cap, n + 1);
        if (cap != old_cap)
            t = xrealloc(t, cap * sizeof *t);
        names[n] = alg;
        if (job_groups_traffic(&g, v.job.ranks_per_node, NULL, &v.spec, alg, &t[n++], &err) < 0) {
            fprintf(stderr, "collsim traffic: %s: %s\n", alg, err.msg);
            rc = EXIT_USAGE;
        }
    }
    if (rc == 0) {
        print_header(&v, &g);
        for (size_t i = 0; i < n; i++)
            print_row(&v, &g, names[i], &t[i], (double)t[0].external);
    }
    free(names);
    free(t);
    job_groups_free(&g);
    return rc;
}
