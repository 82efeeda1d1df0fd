/* dragonfly.c - the Dragonfly (Kim, Dally, Scott, Abts, ISCA 2008).
 *
 * Keys (the paper's symbols): p hosts per router, a routers per group, h global links per
 * router, g groups (default a*h + 1), arrangement of the global links (global_links.h),
 * trunk (fold the parallel global links of a group pair into one).
 * Routers of a group are linked all-to-all (local links); groups by global links.
 *
 * Node ids: host x is on router x / p (group x / (p*a)); router r of group i is switch
 * i*a + r. Links: host links (id = host), then each group's local links (i < j), then the
 * global links.
 *
 * Routing (TOPO_ROUTE_ZONES): one zone per group, holding its hosts and routers directly
 * when (p+1)*a <= 256 (flat groups, topology.h), else one zone per router. Inside a
 * group, the direct local link (the unique shortest path);
 * between groups, the copy-0 global link of the pair, reached by at most one local hop
 * on each side: local-global-local, at most one global hop (a plain shortest path over
 * the whole graph could take two global hops when the source router's own global link
 * lands on the destination router).
 */
#include "topologies/families.h"
#include "topologies/global_links.h"

/* Groups of at most this many hosts and routers are one SimGrid zone each (flat groups,
 * topology.h): they load several times faster than a zone per router, but SimGrid's
 * Floyd routing costs n^3 per group. */
#define DRAGONFLY_FLAT_GROUP_MAX 256

/* t->fam: [0] a, [1] g */
static int dragonfly_zone_route(const topology *t, int32_t zone, int32_t a, int32_t b,
                                topo_zone_path *out)
{
    if (zone == TOPO_ZONE_TOP)
        return global_zone_route(t, t->fam[1], a, b, out);
    out->gw_src = a;
    out->gw_dst = b;
    out->n = 1;
    return topo_hop_between(t, a, b, &out->hops[0]) < 0 ? -1 : 1;
}

/* Minimal next hop (topology.h): local-global-local over the pair's copy-0 global link,
 * exactly the zone routes. t->fam: [0] a, [1] g. */
static int dragonfly_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    int n = next_hop_host_link(t, at, dst, hops, max);
    if (n != 0)
        return n;
    int32_t to = topo_host_switch(t, dst), g_at = t->group[at], g_to = t->group[to];
    if (g_at == g_to)
        return next_hop_add(t, at, to, hops, &n, max) < 0 ? -1 : n;
    int32_t holder = global_link_holder(t, t->fam[1], g_at, g_to, &hops[0]);
    if (holder == at)
        return 1;
    return next_hop_add(t, at, holder, hops, &n, max) < 0 ? -1 : n;
}

typedef struct dragonfly_params {
    int64_t p, a, g;
    global_plan gp;
    topo_link_params lp;
} dragonfly_params;

static int read_dragonfly(kv_list *kv, dragonfly_params *d, cs_error *err)
{
    if (kv_int(kv, "p", 2, 1, 4096, &d->p, err) < 0 || kv_int(kv, "a", 4, 1, 4096, &d->a, err) < 0 ||
        global_plan_read(kv, (int32_t)d->a, "a", &d->gp, err) < 0 ||
        topo_link_params_read(kv, &d->lp, err) < 0)
        return -1;
    d->g = d->gp.g;
    if (d->p * d->a * d->g > (1 << 26))
        return cs_fail(err, "p*a*g = %lld hosts: more than 2^26", (long long)(d->p * d->a * d->g));
    return 0;
}

int topo_size_dragonfly(kv_list *kv, topo_size *s, cs_error *err)
{
    dragonfly_params d;
    if (read_dragonfly(kv, &d, err) < 0)
        return -1;
    double H = (double)(d.p * d.a * d.g), a = (double)d.a;
    *s = (topo_size){.hosts = H, .switches = a * d.g, .links = H + d.g * a * (a - 1) / 2};
    global_links_size(&d.gp, s);
    return 0;
}

int topo_build_dragonfly(kv_list *kv, topology **out, cs_error *err)
{
    dragonfly_params d;
    if (read_dragonfly(kv, &d, err) < 0)
        return -1;
    int64_t p = d.p, a = d.a, g = d.g;
    global_plan gp = d.gp;
    topo_link_params lp = d.lp;
    int32_t H = (int32_t)(p * a * g), R = (int32_t)(a * g);
    topology *t = topo_new("dragonfly", H, R);
    t->routing = TOPO_ROUTE_ZONES;
    t->ngroups = t->nzones = (int32_t)g;
    t->zone = xmalloc((size_t)R * sizeof *t->zone);
    for (int32_t x = 0; x < H; x++) {
        topo_attach_host(t, x, H + x / (int32_t)p, LINK_FULL_DUPLEX, 0, 0);
        t->group[x] = x / (int32_t)(p * a);
    }
    for (int32_t r = 0; r < R; r++) {
        t->zone[r] = t->group[H + r] = r / (int32_t)a;
    }
    for (int32_t i = 0; i < g; i++)
        for (int32_t r1 = 0; r1 < a; r1++)
            for (int32_t r2 = r1 + 1; r2 < a; r2++)
                topo_add_link(t, H + i * (int32_t)a + r1, H + i * (int32_t)a + r2, LINK_LOCAL,
                              LINK_FULL_DUPLEX, 0, 0);
    gp.first = H;
    gp.group_stride = (int32_t)a;
    t->fam_links = global_links_add(t, &gp);
    t->fam[0] = (int32_t)a;
    t->fam[1] = (int32_t)g;
    t->zone_route = dragonfly_zone_route;
    t->next_hops = dragonfly_next_hops;
    t->next_hops_by_switch = dragonfly_next_hops; /* they use topo_host_switch(dst) only */
    t->flat_groups = (p + 1) * a <= DRAGONFLY_FLAT_GROUP_MAX;
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
