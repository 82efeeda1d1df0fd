/* cmd_topo.c - `collsim topo`: build a topology, print its figures, emit its platform,
 * show routes, and check that SimGrid routes as we do (docs/cli.md, docs/topologies.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/units.h"
#include "common/util.h"
#include "sim/estimate.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

static const char usage[] =
    "usage: collsim topo <preset.yaml [key=value...] | family key=value...> [options]\n"
    "  --stats           hosts, switches, links per class, degree, diameter, bisection\n"
    "  --emit FILE       write the SimGrid platform (XML) to FILE ('-': standard output)\n"
    "  --platform        print the cached platform path (emitting it if missing)\n"
    "  --route S D       print the route from host S to host D\n"
    "  --check N         load the platform in SimGrid and compare N sampled routes\n"
    "  --list            list the families and their keys\n"
    "  --fail-links SPEC, --degrade-links SPEC:FACTOR, --fault-seed S\n"
    "                    failed and degraded links (docs/topologies.md \"Faults\")\n"
    "  --max-memory SIZE refuse, before building, a topology estimated to need more memory\n"
    "                    (with --check: also SimGrid's; default: half of the physical\n"
    "                    memory; 0: no limit)\n";

typedef struct topo_opts {
    int stats, platform, list, check;
    int64_t check_pairs;
    const char *emit;
    int32_t route_src, route_dst;
    int route;
    int64_t max_memory;
    cli_faults faults; /* --fail-links, --degrade-links, --fault-seed */
} topo_opts;

static void print_families(void)
{
    for (size_t i = 0; i < topo_family_count(); i++) {
        const topo_family *f = topo_family_at(i);
        printf("%-14s %s\n%-14s keys: %s\n", f->name, f->summary, "", f->keys);
    }
}

static const char *routing_name(const topology *t)
{
    if (t->faults && t->faults->table)
        return t->direct ? "Full, a route per host pair (the family's, or around failed links)"
                         : "Full, a route per switch pair (the family's, or around failed links)";
    if (t->faults && t->faults->base_routing != (int)t->routing)
        return t->direct ? "DijkstraCache over the hosts, around failed links"
                         : "DijkstraCache over the switches, around failed links";
    switch (t->routing) {
    case TOPO_ROUTE_TORUS: return "SimGrid TORUS cluster, dimension order";
    case TOPO_ROUTE_ZONES: return "hierarchical zones (Full)";
    default: return t->direct ? "DijkstraCache over the hosts" : "DijkstraCache over the switches";
    }
}

/* The failed and degraded links, one line each kind, and the parts the network fell into. */
static void print_faults(const topology *t)
{
    const topo_faults *f = t->faults;
    for (int kind = 0; kind < 2; kind++) {
        if ((kind ? f->ndegraded : f->nfailed) == 0)
            continue;
        printf("%s %lld links:", kind ? "degraded" : "failed", (long long)(kind ? f->ndegraded : f->nfailed));
        for (int64_t i = 0; i < t->nlinks; i++) {
            if (kind ? topo_link_factor(t, i) == 1.0 : !f->failed[i])
                continue;
            const topo_link *l = &t->links[i];
            printf(" l%lld(%c%d-%c%d %s", (long long)i, topo_is_host(t, l->a) ? 'h' : 's', l->a,
                   topo_is_host(t, l->b) ? 'h' : 's', l->b, link_class_name((link_class)l->cls));
            if (kind)
                printf(" x%g", f->factor[i]);
            printf(")");
        }
        printf("\n");
    }
    if (f->ncomp > 1)
        printf("disconnected: the hosts fall into %d parts that cannot reach each other\n",
               f->ncomp);
}

static void print_summary(const topology *t, double build_s)
{
    int64_t n[LINK__COUNT] = {0};
    for (int64_t i = 0; i < t->nlinks; i++)
        n[t->links[i].cls]++;
    printf("%s: %d hosts, %d switches, %d groups, %lld links (host %lld, local %lld, global "
           "%lld); routing: %s; built in %.3f s\n",
           t->params, t->nhosts, t->nswitches, t->ngroups, (long long)t->nlinks, (long long)n[0],
           (long long)n[1], (long long)n[2], routing_name(t), build_s);
    if (t->faults)
        print_faults(t);
}

static int print_stats(topology *t)
{
    topo_stats st;
    cs_error err;
    if (topo_compute_stats(t, &st, &err) < 0) {
        fprintf(stderr, "collsim topo: %s\n", err.msg);
        return EXIT_CHECK_FAILED;
    }
    printf("hosts       %d\nswitches    %d\ngroups      %d\n", st.hosts, st.switches, st.groups);
    printf("links       host %lld, local %lld, global %lld\n", (long long)st.links[LINK_HOST],
           (long long)st.links[LINK_LOCAL], (long long)st.links[LINK_GLOBAL]);
    printf("degree      %d..%d (router to router)\n", st.min_degree, st.max_degree);
    printf("diameter    %d links (host to host along the routes; %s)\n", st.diameter,
           st.diameter_exact ? "every pair" : "sampled sources: a lower bound");
    printf("bisection   %.6g GB/s per direction (cut between the two halves of the hosts)\n",
           st.bisection_Bps / 1e9);
    return 0;
}

static int print_route(topology *t, int32_t s, int32_t d)
{
    if (s < 0 || d < 0 || s >= t->nhosts || d >= t->nhosts)
        return cli_usage_error("topo", "--route: hosts are 0..%d", t->nhosts - 1);
    topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
    int n = topo_route(t, s, d, hops, t->max_route_hops);
    if (n < 0) {
        free(hops);
        fprintf(stderr, "collsim topo: no route from %d to %d\n", s, d);
        return EXIT_CHECK_FAILED;
    }
    char name[96];
    if (n == 0) {
        free(hops);
        topo_loopback_link_name(t, s, name, sizeof name);
        printf("h%d -> h%d: loopback %s\n", s, d, name);
        return 0;
    }
    printf("h%d -> h%d: %d links\n", s, d, n);
    for (int i = 0; i < n; i++) {
        const topo_link *l = &t->links[hops[i].link];
        topo_sg_link_name(t, hops[i], name, sizeof name);
        printf("  %-28s %-6s node %d -> %d  %.6g GB/s  %.6g us\n", name,
               link_class_name((link_class)l->cls), hops[i].reverse ? l->b : l->a,
               hops[i].reverse ? l->a : l->b, l->bw / 1e9, l->lat * 1e6);
    }
    free(hops);
    return 0;
}

static int emit(const topology *t, const char *path)
{
    cs_error err;
    double t0 = wall_seconds();
    int rc = strcmp(path, "-") == 0 ? topo_emit_xml(t, stdout, &err) : topo_emit_xml_file(t, path, &err);
    if (rc < 0) {
        fprintf(stderr, "collsim topo: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (strcmp(path, "-") != 0)
        printf("emitted %s in %.3f s\n", path, wall_seconds() - t0);
    return 0;
}

static int check(topology *t, const char *emitted, int64_t pairs)
{
    cs_error err;
    char path[4096];
    if (emitted && strcmp(emitted, "-") != 0)
        snprintf(path, sizeof path, "%s", emitted);
    else if (topo_platform_path(t, path, sizeof path, &err) < 0) {
        fprintf(stderr, "collsim topo: %s\n", err.msg);
        return EXIT_USAGE;
    }
    topo_sg_check res;
    if (topo_sg_check_routes(t, path, pairs, 42, &res, &err) < 0) {
        fprintf(stderr, "collsim topo: %s\n", err.msg);
        return EXIT_CHECK_FAILED;
    }
    printf("SimGrid loaded %s in %.3f s; %lld routes compared, %lld differ\n", path, res.load_s,
           (long long)res.pairs, (long long)res.mismatches);
    if (res.mismatches) {
        printf("first difference: %s\n", res.first_mismatch);
        return EXIT_CHECK_FAILED;
    }
    return 0;
}

/* Refusal before work (sim/estimate.h): building the topology, and with --check loading
 * it in SimGrid, must fit in --max-memory. */
static int refuse_too_large(const char *spec, const topo_opts *o, cs_error *err)
{
    topo_size size;
    run_estimate build, load;
    if (topo_size_spec(spec, &size, err) < 0)
        return -1;
    estimate_topology(&size, &build);
    estimate_sim_plan(0, 1, SIM_MODEL_CM02, &size, &load);
    return estimate_check(o->check && load.bytes > build.bytes ? &load : &build, o->max_memory,
                          err);
}

/* The cli_faults code of a fault option's name, 0 for any other word. */
static int fault_option_code(const char *a)
{
    return strcmp(a, "--fail-links") == 0      ? CLI_OPT_FAIL_LINKS
           : strcmp(a, "--degrade-links") == 0 ? CLI_OPT_DEGRADE_LINKS
           : strcmp(a, "--fault-seed") == 0    ? CLI_OPT_FAULT_SEED
                                               : 0;
}

static int parse_options(int argc, char **argv, int *first_opt, topo_opts *o)
{
    cs_error err;
    memset(o, 0, sizeof *o);
    o->max_memory = estimate_default_max_memory();
    int i = 1;
    while (i < argc && strncmp(argv[i], "--", 2) != 0)
        i++;
    *first_opt = i;
    for (; i < argc; i++) {
        const char *a = argv[i];
        int64_t v, w;
        if (strcmp(a, "--stats") == 0) {
            o->stats = 1;
        } else if (strcmp(a, "--platform") == 0) {
            o->platform = 1;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
        } else if (strcmp(a, "--emit") == 0 && i + 1 < argc) {
            o->emit = argv[++i];
        } else if (strcmp(a, "--max-memory") == 0 && i + 1 < argc) {
            if (parse_size(argv[++i], &o->max_memory, &err) < 0)
                return cli_usage_error("topo", "--max-memory: %s", err.msg);
        } else if (strcmp(a, "--check") == 0 && i + 1 < argc) {
            if (parse_int_in(argv[++i], 0, INT64_MAX / 2, "--check", &o->check_pairs, &err) < 0)
                return cli_usage_error("topo", "%s", err.msg);
            o->check = 1;
        } else if (strcmp(a, "--route") == 0 && i + 2 < argc) {
            if (parse_int_in(argv[i + 1], 0, INT32_MAX, "--route source", &v, &err) < 0 ||
                parse_int_in(argv[i + 2], 0, INT32_MAX, "--route destination", &w, &err) < 0)
                return cli_usage_error("topo", "%s", err.msg);
            o->route = 1;
            o->route_src = (int32_t)v;
            o->route_dst = (int32_t)w;
            i += 2;
        } else if (i + 1 < argc && fault_option_code(a) != 0) {
            cli_fault_option(fault_option_code(a), argv[++i], &o->faults);
        } else {
            return cli_usage_error("topo", "unknown or incomplete option '%s'\n%s", a, usage);
        }
    }
    return 0;
}

int cmd_topo(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("%s\nfamilies:\n", usage);
        print_families();
        return 0;
    }
    topo_opts o;
    int first_opt, rc = parse_options(argc, argv, &first_opt, &o);
    if (rc)
        return rc;
    if (o.list) {
        print_families();
        return 0;
    }
    if (first_opt < 2)
        return cli_usage_error("topo", "missing topology\n%s", usage);
    char spec[4096] = "";
    for (int i = 1; i < first_opt; i++) {
        size_t len = strlen(spec);
        snprintf(spec + len, sizeof spec - len, "%s%s", i > 1 ? " " : "", argv[i]);
    }
    topology *t = NULL;
    cs_error err;
    if (cli_faults_apply(&o.faults, spec, sizeof spec, &err) < 0)
        return cli_usage_error("topo", "%s", err.msg);
    double t0 = wall_seconds();
    if (refuse_too_large(spec, &o, &err) < 0 || topo_build_spec(spec, &t, &err) < 0)
        return cli_usage_error("topo", "%s", err.msg);
    if (!o.emit || strcmp(o.emit, "-") != 0) /* keep standard output pure XML */
        print_summary(t, wall_seconds() - t0);
    if (o.stats)
        rc = print_stats(t);
    if (!rc && o.route)
        rc = print_route(t, o.route_src, o.route_dst);
    if (!rc && o.emit)
        rc = emit(t, o.emit);
    if (!rc && o.platform) {
        char path[4096];
        if (topo_platform_path(t, path, sizeof path, &err) < 0)
            rc = cli_usage_error("topo", "%s", err.msg);
        else
            printf("platform %s\n", path);
    }
    if (!rc && o.check)
        rc = check(t, o.emit, o.check_pairs);
    topo_free(t);
    return rc;
}
