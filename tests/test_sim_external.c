/* test_sim_external.c - external SimGrid platforms (sim_external.h): a Full-routed and a
 * cluster-zone platform under tests/data/ time like the equivalent built-in fat tree, link
 * classes come from properties or a group map, a Floyd-routed Kautz written here by hand
 * routes along its Kautz shortest paths (the very arcs, by their SimGrid link names) and counts the same traffic in the traffic model as
 * in SimGrid, and bad files are refused naming file:line. */
#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sim.h"
#include "sim/sim_external.h"
#include "testutil.h"
#include "topologies/external.h"

#define FT8 "fattree levels=2 hosts_per_leaf=2 leaves=4 spines=1"
#define DATA "tests/data/"

static int run(const char *topology, const char *groups, coll_kind coll, const char *alg,
               sim_model model, sim_row *row)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", topology);
    snprintf(c.groups, sizeof c.groups, "%s", groups ? groups : "");
    snprintf(c.algorithm, sizeof c.algorithm, "%s", alg);
    coll_spec_init(&c.spec, coll, 0, 1 << 20);
    c.spec.P = strstr(topology, "kautz") ? 6 : 8; /* the hand-written Kautz has 6 hosts */
    c.model = model;
    sim_result res;
    cs_error err = {""};
    int rc = sim_run_isolated(&c, &res, &err);
    if (rc < 0)
        printf("\n%s %s: %s\n", topology, alg, err.msg);
    *row = res.row;
    sim_result_free(&res);
    return rc;
}

static void test_same_times_as_builtin(void)
{
    static const struct { coll_kind coll; const char *alg; } cases[] = {
        {COLL_ALLREDUCE, "rabenseifner"}, {COLL_BCAST, "binomial_doubling"},
        {COLL_ALLGATHER, "ring"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sim_row builtin, full, zones;
        CU_ASSERT_EQUAL_FATAL(run(FT8, NULL, cases[i].coll, cases[i].alg, SIM_MODEL_CM02, &builtin), 0);
        CU_ASSERT_EQUAL_FATAL(run(DATA "ft8_full.xml", NULL, cases[i].coll, cases[i].alg,
                                  SIM_MODEL_CM02, &full), 0);
        CU_ASSERT_EQUAL_FATAL(run(DATA "ft8_zones.xml", NULL, cases[i].coll, cases[i].alg,
                                  SIM_MODEL_CM02, &zones), 0);
        CU_ASSERT(builtin.time_s > 0);
        CU_ASSERT_DOUBLE_EQUAL(full.time_s, builtin.time_s, 1e-9 * builtin.time_s);
        CU_ASSERT_DOUBLE_EQUAL(zones.time_s, builtin.time_s, 1e-9 * builtin.time_s);
        CU_ASSERT_EQUAL(full.bytes_host, builtin.bytes_host);
        CU_ASSERT_EQUAL(zones.bytes_host, builtin.bytes_host);
        CU_ASSERT_EQUAL(full.max_link_bytes, builtin.max_link_bytes);
        /* the built-in tree has one group: its uplinks are local; ft8_full.xml marks them
         * global by property, so the bytes move from one class to the other */
        CU_ASSERT_EQUAL(full.bytes_global, builtin.bytes_local);
        CU_ASSERT_EQUAL(full.bytes_local, 0);
    }
}

static void class_counts(const char *platform, const char *groups, int64_t counts[LINK__COUNT])
{
    topology *t = NULL;
    placement_spec pl = {.kind = PLACE_LINEAR};
    int32_t host_of_rank[8];
    cs_error err = {""};
    memset(counts, 0, LINK__COUNT * sizeof *counts);
    int rc = sim_external_prepare(platform, groups, &pl, 8, 1, 0, &t, host_of_rank, &err);
    if (rc < 0)
        printf("\n%s: %s\n", platform, err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    for (int64_t l = 0; l < t->nlinks; l++)
        counts[t->links[l].cls]++;
    topo_free(t);
}

static void test_link_classes(void)
{
    int64_t c[LINK__COUNT];
    class_counts(DATA "ft8_full.xml", NULL, c); /* <prop id="class" value="global"/> */
    CU_ASSERT(c[LINK_HOST] == 8 && c[LINK_LOCAL] == 0 && c[LINK_GLOBAL] == 4);
    class_counts(DATA "ft8_zones.xml", DATA "ft8_groups.txt", c); /* leaves are groups */
    CU_ASSERT(c[LINK_HOST] == 8 && c[LINK_LOCAL] == 0 && c[LINK_GLOBAL] == 4);
    class_counts(DATA "ft8_zones.xml", NULL, c); /* no property, no map: local */
    CU_ASSERT(c[LINK_HOST] == 8 && c[LINK_LOCAL] == 4 && c[LINK_GLOBAL] == 0);
}

/* A fresh file path <tmpdir>/<name> (dir is removed by drop_tmp). */
static void tmp_path(char *dir, char *path, size_t n, const char *name)
{
    strcpy(dir, "/tmp/collsim-ext-XXXXXX");
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    snprintf(path, n, "%s/%s", dir, name);
}

static void drop_tmp(const char *dir, const char *path)
{
    remove(path);
    rmdir(dir);
}

/* ---- a Kautz K(2,2) by hand: vertices ab (a != b over {0,1,2}), arcs ab -> bc (c != b) -- */

static const char *const kautz_vertex[6] = {"01", "02", "10", "12", "20", "21"};

static void write_kautz(const char *path)
{
    FILE *f = fopen(path, "w");
    fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "
               "\"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"
               "<zone id=\"kautz\" routing=\"Floyd\">\n");
    for (int v = 0; v < 6; v++)
        fprintf(f, "<host id=\"k%s\" speed=\"1Gf\"/>\n<router id=\"r%s\"/>\n"
                   "<link id=\"hl%s\" bandwidth=\"25GBps\" latency=\"100ns\" "
                   "sharing_policy=\"SPLITDUPLEX\"/>\n",
                kautz_vertex[v], kautz_vertex[v], kautz_vertex[v]);
    for (int v = 0; v < 6; v++)
        for (int w = 0; w < 6; w++)
            if (kautz_vertex[v][1] == kautz_vertex[w][0])
                fprintf(f, "<link id=\"a%s_%s\" bandwidth=\"25GBps\" latency=\"100ns\"/>\n",
                        kautz_vertex[v], kautz_vertex[w]);
    for (int v = 0; v < 6; v++) {
        const char *x = kautz_vertex[v];
        fprintf(f, "<route src=\"k%s\" dst=\"r%s\"><link_ctn id=\"hl%s\" direction=\"UP\"/>"
                   "</route>\n", x, x, x);
        for (int w = 0; w < 6; w++)
            if (x[1] == kautz_vertex[w][0])
                fprintf(f, "<route src=\"r%s\" dst=\"r%s\" symmetrical=\"NO\"><link_ctn "
                           "id=\"a%s_%s\"/></route>\n", x, kautz_vertex[w], x, kautz_vertex[w]);
    }
    fprintf(f, "</zone>\n</platform>\n");
    fclose(f);
}

/* The SimGrid links of the route from host kx to host ky, into want[]; returns how many.
 * Kautz shortest paths in K(2,2) are unique: xy (one arc) when x = ab and y = bc, else
 * the two arcs ab -> bc -> cd through the vertex b y[0] (b != c there). Around them: the
 * source host's link up, the destination's down. */
static int kautz_route_links(const char *x, const char *y, char want[4][16])
{
    if (strcmp(x, y) == 0)
        return 0;
    int n = 0;
    snprintf(want[n++], 16, "hl%s_UP", x);
    if (x[1] == y[0]) {
        snprintf(want[n++], 16, "a%s_%s", x, y);
    } else {
        char mid[3] = {x[1], y[0], '\0'};
        snprintf(want[n++], 16, "a%s_%s", x, mid);
        snprintf(want[n++], 16, "a%s_%s", mid, y);
    }
    snprintf(want[n++], 16, "hl%s_DOWN", y);
    return n;
}

static void test_floyd_kautz(void)
{
    char dir[64], path[128];
    tmp_path(dir, path, sizeof path, "kautz.xml");
    write_kautz(path);
    topology *t = NULL;
    placement_spec pl = {.kind = PLACE_LINEAR};
    int32_t host_of_rank[6];
    cs_error err = {""};
    int rc = sim_external_prepare(path, NULL, &pl, 6, 1, 0, &t, host_of_rank, &err);
    if (rc < 0)
        printf("\n%s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(t->nhosts, 6);
    topo_hop hops[TOPO_MAX_HOPS];
    for (int32_t s = 0; s < 6; s++)
        for (int32_t d = 0; d < 6; d++) {
            /* hosts are in natural name order, k01 .. k21 = kautz_vertex order */
            int n = topo_route(t, s, d, hops, TOPO_MAX_HOPS);
            char want[4][16];
            int nwant = kautz_route_links(kautz_vertex[s], kautz_vertex[d], want);
            CU_ASSERT_EQUAL(n, nwant);
            for (int i = 0; i < n && i < nwant; i++) { /* the very links, in order */
                char name[64];
                topo_sg_link_name(t, hops[i], name, sizeof name);
                if (strcmp(name, want[i]) != 0)
                    printf("\nk%s -> k%s: hop %d is %s, expected %s\n", kautz_vertex[s],
                           kautz_vertex[d], i, name, want[i]);
                CU_ASSERT_STRING_EQUAL(name, want[i]);
            }
        }
    CU_ASSERT_EQUAL(t->ext->conflicts, 0);
    topo_free(t);
    /* bytes on SimGrid's routes during the run = bytes on the route table (traffic model) */
    sim_row sim, tally;
    CU_ASSERT_EQUAL_FATAL(run(path, NULL, COLL_ALLREDUCE, "ring", SIM_MODEL_CM02, &sim), 0);
    CU_ASSERT_EQUAL_FATAL(run(path, NULL, COLL_ALLREDUCE, "ring", SIM_MODEL_TRAFFIC, &tally), 0);
    CU_ASSERT(sim.bytes_local > 0);
    CU_ASSERT_EQUAL(sim.bytes_host, tally.bytes_host);
    CU_ASSERT_EQUAL(sim.bytes_local, tally.bytes_local);
    CU_ASSERT_EQUAL(sim.max_link_bytes, tally.max_link_bytes);
    drop_tmp(dir, path);
}

/* ---- bad files ------------------------------------------------------------------------- */

static void expect_platform_error(const char *text, const char *want_line, const char *want)
{
    char dir[64], path[128];
    tmp_path(dir, path, sizeof path, "bad.xml");
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs(text, f);
    fclose(f);
    topology *t = NULL;
    placement_spec pl = {.kind = PLACE_LINEAR};
    int32_t host_of_rank[2];
    cs_error err = {""};
    CU_ASSERT_EQUAL(sim_external_prepare(path, NULL, &pl, 2, 1, 0, &t, host_of_rank, &err), -1);
    char where[128];
    snprintf(where, sizeof where, "%s:%s", path, want_line);
    if (!strstr(err.msg, where) || !strstr(err.msg, want)) {
        printf("\nmessage '%s' lacks '%s' or '%s'\n", err.msg, where, want);
        CU_FAIL("error message");
    }
    drop_tmp(dir, path);
}

#define PLATFORM_HEAD "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<platform version=\"4.1\">\n"

static void test_bad_files(void)
{
    /* a class SimGrid does not check but collsim does */
    expect_platform_error(PLATFORM_HEAD "<zone id=\"z\" routing=\"Full\">\n"
                          "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
                          "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\">\n"
                          "  <prop id=\"class\" value=\"globl\"/>\n</link>\n"
                          "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                          "</zone>\n</platform>\n",
                          "7", "globl");
    /* broken XML: SimGrid's parser names the line (from the child that loads it) */
    expect_platform_error(PLATFORM_HEAD "<zone id=\"z\" routing=\"Full\">\n"
                          "<host id=\"a\" speed=\"1Gf\">\n</zone>\n</platform>\n",
                          "6", "");
}

int main(void)
{
    static const test_case cases[] = {
        {"Full and cluster-zone XML time like the built-in fat tree", test_same_times_as_builtin},
        {"link classes: property, group map, default", test_link_classes},
        {"hand-written Floyd Kautz: Kautz routes, SimGrid = traffic model", test_floyd_kautz},
        {"bad platform files name file:line", test_bad_files},
        {NULL, NULL}};
    static const test_suite suites[] = {{"sim_external", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
