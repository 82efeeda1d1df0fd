/* sim_routes.c - checking that SimGrid routes the emitted platform exactly as topo_route
 * says (the traffic counter and the simulator must agree link by link).
 *
 * SimGrid seals the platform (and can compute routes) only once the simulation runs, so
 * the comparison happens inside one actor.
 */
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "common/util.h"
#include "sim/sim_internal.h"

typedef struct route_check {
    topology *t;
    int64_t max_pairs;
    int64_t pairs;
    int failed;
    cs_error *err;
} route_check;

static sg_host_t host(int32_t h)
{
    char name[32];
    topo_host_name(h, name, sizeof name);
    return sg_host_by_name(name);
}

/* Compares one pair; returns -1 with a message naming the first difference. */
static int check_pair(route_check *rc, int32_t s, int32_t d, xbt_dynar_t links, topo_hop *hops,
                      int max_hops)
{
    int n = topo_route(rc->t, s, d, hops, max_hops);
    if (n < 0) /* ask SimGrid only for connected pairs: its Dijkstra loops otherwise */
        return cs_fail(rc->err, "topo_route has no route h%d -> h%d", s, d);
    xbt_dynar_reset(links);
    sg_host_get_route(host(s), host(d), links);
    unsigned i;
    sg_link_t l;
    xbt_dynar_foreach (links, i, l) {
        int64_t res = sim_links_resource(l);
        if ((int)i >= n || res != traffic_resource(rc->t, hops[i]))
            return cs_fail(rc->err, "route h%d -> h%d: SimGrid's hop %u is link '%s' (resource "
                                    "%lld), topo_route's is %s%lld", s, d, i, sg_link_get_name(l),
                           (long long)res, (int)i >= n ? "(none) " : "resource ",
                           (int)i >= n ? -1LL : (long long)traffic_resource(rc->t, hops[i]));
    }
    if ((int)xbt_dynar_length(links) != n)
        return cs_fail(rc->err, "route h%d -> h%d: SimGrid uses %lu links, topo_route %d", s, d,
                       xbt_dynar_length(links), n);
    return 0;
}

static void checker_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    route_check *rc = sg_actor_self_get_data();
    int64_t H = rc->t->nhosts, total = H * (H - 1);
    int64_t count = total < rc->max_pairs ? total : rc->max_pairs;
    int max_hops = traffic_max_hops(rc->t);
    topo_hop *hops = xmalloc((size_t)max_hops * sizeof *hops);
    xbt_dynar_t links = xbt_dynar_new(sizeof(sg_link_t), NULL);
    for (int64_t k = 0; k < count && !rc->failed; k++) {
        int64_t idx = count == total ? k : k * total / count; /* spread over all pairs */
        int32_t s = (int32_t)(idx / (H - 1)), j = (int32_t)(idx % (H - 1));
        int32_t d = j < s ? j : j + 1;
        rc->failed = check_pair(rc, s, d, links, hops, max_hops) < 0;
        rc->pairs++;
    }
    xbt_dynar_free(&links);
    free(hops);
}

int sim_check_routes(const char *topology, int64_t max_pairs, int64_t *pairs, cs_error *err)
{
    route_check rc = {.max_pairs = max_pairs, .err = err};
    if (sim_topology_build(topology, &rc.t, err) < 0)
        return -1;
    char platform[4096];
    if (sim_platform_acquire(rc.t, platform, sizeof platform, err) < 0) {
        topo_free(rc.t);
        return -1;
    }
    const char *argv[] = {"collsim", "--log=root.thres:warning", NULL};
    int argc = 2;
    simgrid_init(&argc, (char **)argv);
    simgrid_load_platform(platform);
    sim_platform_release(platform);
    int status = sim_links_map(rc.t, err);
    if (status == 0 && rc.t->nhosts > 1) {
        sg_actor_t a = sg_actor_init("route-check", host(0));
        sg_actor_set_data(a, &rc);
        sg_actor_start_(a, checker_main, 0, NULL);
        simgrid_run();
        status = rc.failed ? -1 : 0;
    }
    *pairs = rc.pairs;
    topo_free(rc.t);
    return status;
}
