/* sgcheck.c - does SimGrid route as we do? (topology.h: topo_sg_check_routes).
 *
 * SimGrid seals the platform (builds the Dijkstra graph ids, the Full zone tables) when
 * the simulation starts, and asking for a route before that fails inside SimGrid. So the
 * comparison runs in an actor on host 0, under simgrid_run().
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "common/util.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

typedef struct check_ctx {
    topology *t;
    int64_t npairs;
    uint64_t seed;
    double t0;
    topo_sg_check *res;
    topo_hop *hops; /* our route of the current pair (t->max_route_hops) */
} check_ctx;

/* Our route of (s, d) into c->hops, and its latency; a host's route to itself is its
 * loopback (one link, no hop). Returns the number of links, -1 if there is no route. */
static int our_route(check_ctx *c, int32_t s, int32_t d, double *lat)
{
    *lat = 0;
    if (s == d) {
        *lat = c->t->intra_lat;
        return 1;
    }
    int n = topo_route(c->t, s, d, c->hops, c->t->max_route_hops);
    for (int i = 0; i < n; i++)
        *lat += c->t->links[c->hops[i].link].lat;
    return n;
}

/* SimGrid's name of link i of our route of (s, d). */
static void our_link_name(const check_ctx *c, int32_t s, int32_t d, int i, char *buf, size_t n)
{
    if (s == d)
        topo_loopback_link_name(c->t, s, buf, n);
    else
        topo_sg_link_name(c->t, c->hops[i], buf, n);
}

static void describe(check_ctx *c, int32_t s, int32_t d, xbt_dynar_t sg, int n)
{
    char *out = c->res->first_mismatch, name[96];
    size_t cap = sizeof c->res->first_mismatch, len;
    len = (size_t)snprintf(out, cap, "h%d -> h%d: simgrid", s, d);
    for (unsigned k = 0; k < xbt_dynar_length(sg) && len < cap; k++)
        len += (size_t)snprintf(out + len, cap - len, " %s",
                                sg_link_get_name(xbt_dynar_get_as(sg, k, sg_link_t)));
    if (len < cap)
        len += (size_t)snprintf(out + len, cap - len, " | ours");
    for (int i = 0; i < n && len < cap; i++) {
        our_link_name(c, s, d, i, name, sizeof name);
        len += (size_t)snprintf(out + len, cap - len, " %s", name);
    }
}

static void compare_pair(check_ctx *c, int32_t s, int32_t d)
{
    if (!topo_hosts_connected(c->t, s, d)) /* cut off by failed links: no route to compare */
        return;
    double our_lat;
    int n = our_route(c, s, d, &our_lat);
    xbt_dynar_t sg = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_host_t hs, hd;
    char name[96];
    topo_host_name(s, name, sizeof name);
    hs = sg_host_by_name(name);
    topo_host_name(d, name, sizeof name);
    hd = sg_host_by_name(name);
    int same = hs && hd && n >= 0;
    if (same) {
        sg_host_get_route(hs, hd, sg);
        same = (int)xbt_dynar_length(sg) == n;
        for (int i = 0; same && i < n; i++) {
            our_link_name(c, s, d, i, name, sizeof name);
            same = strcmp(sg_link_get_name(xbt_dynar_get_as(sg, i, sg_link_t)), name) == 0;
        }
        double sg_lat = sg_host_get_route_latency(hs, hd);
        same = same && fabs(sg_lat - our_lat) <= 1e-9 * (sg_lat > 1e-12 ? sg_lat : 1e-12);
    }
    c->res->pairs++;
    if (!same && c->res->mismatches++ == 0)
        describe(c, s, d, sg, n < 0 ? 0 : n);
    xbt_dynar_free(&sg);
}

static void check_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    check_ctx *c = sg_actor_self_get_data();
    c->res->load_s = wall_seconds() - c->t0;
    int64_t N = c->t->nhosts;
    if (c->npairs >= N * N) {
        for (int32_t s = 0; s < N; s++)
            for (int32_t d = 0; d < N; d++)
                compare_pair(c, s, d);
        return;
    }
    compare_pair(c, 0, (int32_t)(N - 1));
    for (int32_t h = 0; h < N && h < 4; h++)
        compare_pair(c, h, h);
    uint64_t x = c->seed;
    for (int64_t i = 0; i < c->npairs; i++) {
        x = mix64(x + (uint64_t)i);
        compare_pair(c, (int32_t)(x % (uint64_t)N), (int32_t)((x >> 32) % (uint64_t)N));
    }
}

int topo_sg_check_routes(topology *t, const char *platform, int64_t npairs, uint64_t seed,
                         topo_sg_check *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    int argc = 3;
    char *argv[] = {"collsim", "--log=xbt_cfg.thres:warning", "--log=root.thres:warning", NULL};
    check_ctx c = {t, npairs, seed, wall_seconds(), res, NULL};
    simgrid_init(&argc, argv);
    simgrid_load_platform(platform);
    char name[32];
    topo_host_name(0, name, sizeof name);
    sg_host_t h0 = sg_host_by_name(name);
    if (!h0 || sg_host_count() != (size_t)t->nhosts)
        return cs_fail(err, "%s: %zu hosts in SimGrid, %d in the topology", platform,
                       sg_host_count(), t->nhosts);
    sg_actor_t a = sg_actor_init("topo-check", h0);
    sg_actor_set_data(a, &c);
    c.hops = xmalloc((size_t)t->max_route_hops * sizeof *c.hops);
    sg_actor_start(a, check_actor, 0, NULL);
    simgrid_run();
    free(c.hops);
    return 0;
}
