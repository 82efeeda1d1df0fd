/* test_sim_topo_routes.c - SimGrid routes exactly as we do, on every family and preset:
 * each case emits the platform, loads it in SimGrid and compares sg_host_get_route (and
 * its latency) with topo_route() link by link and direction by direction, for every host
 * pair of small instances and sampled pairs of the presets (loopbacks included).
 * SimGrid can be initialised once per process, so every case runs in a forked child.
 * A last case feeds the checker a platform that does not match (it must notice). */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "topologies/topology.h"

/* Child: exit 0 if routes agree, 1 if some differ, 2 on error. `platform_of` (may be
 * NULL) names another topology whose platform is loaded instead (the negative case). */
static void child(const char *spec, const char *platform_of, int64_t pairs)
{
    topology *t = NULL, *p = NULL;
    cs_error err;
    char path[4096];
    if (topo_build_spec(spec, &t, &err) < 0 ||
        (platform_of && topo_build_spec(platform_of, &p, &err) < 0) ||
        topo_platform_path(p ? p : t, path, sizeof path, &err) < 0) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        _exit(2);
    }
    topo_sg_check res;
    if (topo_sg_check_routes(t, path, pairs, 7, &res, &err) < 0) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        _exit(2);
    }
    if (res.mismatches)
        fprintf(stderr, "%s: %lld of %lld routes differ; first: %s\n", spec,
                (long long)res.mismatches, (long long)res.pairs, res.first_mismatch);
    fflush(stderr);
    _exit(res.mismatches ? 1 : 0);
}

static int run_case(const char *spec, const char *platform_of, int64_t pairs)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0)
        child(spec, platform_of, pairs);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define ALL_PAIRS (1LL << 40)

static void expect_agreement(const char *const *specs, int64_t pairs)
{
    for (int i = 0; specs[i]; i++) {
        int rc = run_case(specs[i], NULL, pairs);
        if (rc != 0)
            fprintf(stderr, "\n  %s: exit %d\n", specs[i], rc);
        CU_ASSERT_EQUAL(rc, 0);
    }
}

static void test_small_instances(void)
{
    static const char *const specs[] = {
        "dragonfly p=2 a=4 h=2",
        "dragonfly p=1 a=3 h=2 g=5 arrangement=circulant sharing=shared",
        "dragonfly p=2 a=3 h=2 g=4 arrangement=relative trunk=1 router_lat=300ns",
        "dragonfly p=40 a=7 h=1 g=4", /* more than 256 nodes per group: zone per router */
        "dragonflyplus p=2 leaves=3 spines=2 h=2",
        "dragonflyplus p=1 leaves=2 spines=3 h=1 g=3 arrangement=circulant",
        "fattree radix=8",
        "fattree radix=12 oversub=2:1 sharing=shared",
        "fattree levels=3 radix=8 oversub=1:1,2:1 router_lat=100ns",
        "torus dims=4x4",
        "torus dims=3x4x5 router_lat=1us",
        "torus dims=2x3x2x2 sharing=shared",
        "torus dims=4x3 mesh=1",
        "torus dims=3x3x3 mesh=1 ports=2",
        "hyperx dims=4x4 T=2",
        "hyperx dims=3x4x2 T=0",
        "hyperx dims=5 T=3 sharing=shared",
        "kautz d=3 k=2",
        "kautz d=2 k=3 T=2",
        "kautz d=3 k=3",
        "2dfc m1=4 m2=5",
        "2dfc m1=3 m2=3 T=2",
        "2dfc m1=4 m2=3 sharing=full",
        "hammingmesh a=2 x=3 y=2",
        "hammingmesh a=4 b=2 x=2 y=2",
        "hammingmesh a=1 x=4",
        NULL,
    };
    expect_agreement(specs, ALL_PAIRS);
}

static void test_presets(void)
{
    /* the big direct networks are checked at a smaller size (overrides) to keep the test
     * short: SimGrid's Dijkstra over 4,096 hosts costs a few ms per source */
    static const char *const specs[] = {
        "platforms/lumi.yaml",         "platforms/leonardo.yaml",
        "platforms/marenostrum5.yaml", "platforms/polaris.yaml",
        "platforms/fugaku.yaml",       "platforms/kautz-16-2.yaml",
        "platforms/2dfc-16x16.yaml",   "platforms/dragonfly-16x17.yaml",
        "platforms/swing-torus.yaml",  "platforms/swing-hx4mesh.yaml x=4 y=4",
        "platforms/swing-hx2mesh.yaml x=8 y=8", "platforms/swing-hyperx.yaml x=16 y=16",
        NULL,
    };
    expect_agreement(specs, 400);
}

static void test_checker_notices_a_wrong_platform(void)
{
    /* same hosts and link ids, other global links: routes differ for many pairs */
    int rc = run_case("dragonfly p=1 a=4 h=2 arrangement=relative", "dragonfly p=1 a=4 h=2", ALL_PAIRS);
    CU_ASSERT_EQUAL(rc, 1);
    /* same graph, other router latency: the route latencies differ */
    rc = run_case("torus dims=4x4 router_lat=1us", "torus dims=4x4", ALL_PAIRS);
    CU_ASSERT_EQUAL(rc, 1);
}

int main(void)
{
    static const test_case cases[] = {
        {"every family agrees with SimGrid", test_small_instances},
        {"machine presets agree with SimGrid", test_presets},
        {"the checker notices a wrong platform", test_checker_notices_a_wrong_platform},
        {NULL, NULL},
    };
    static const test_suite suites[] = {{"sim_topo_routes", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
