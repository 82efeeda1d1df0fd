/* dragonflyplus.c - Dragonfly+ (Shpiner, Haramaty, Eliad, Zdornov, Gafni, Zahavi, 2017):
 * each group is a two-level fat tree; the spines carry the global links.
 *
 * Keys: p hosts per leaf, leaves and spines per group (every leaf linked to every spine),
 * h global links per spine, g groups (default spines*h + 1), arrangement and trunk of the
 * global links (global_links.h). group_hosts (optional) gives each group its own number of
 * hosts instead of p*leaves: a comma list of N or NxK (K groups of N hosts), g groups in
 * all, e.g. "180x19,324,624x2,0" (Leonardo's cells; a group may have none); group i's
 * hosts are spread over its leaves in contiguous runs (host j of H on leaf j*leaves/H).
 *
 * Node ids: hosts numbered group by group (host x on leaf x / p without group_hosts);
 * group i holds switches i*(leaves+spines) + 0..leaves-1
 * (leaves) and + leaves..leaves+spines-1 (spines). Links: host links, then each group's
 * leaf-spine links (local), then the global links.
 *
 * Routing (TOPO_ROUTE_ZONES): one zone per group holding its leaves and spines. Inside a
 * group, leaf l1 -> spine (l1 + l2) mod spines -> leaf l2 (deterministic ECMP); between
 * groups: up to the spine carrying the pair's copy-0 global link, the global link, down
 * from the spine at the other end: up, global, down.
 */
#include <stdlib.h>

#include "topologies/families.h"
#include "topologies/global_links.h"

/* t->fam: [0] leaves, [1] spines, [2] g */
static int dfplus_zone_route(const topology *t, int32_t zone, int32_t a, int32_t b,
                             topo_zone_path *out)
{
    if (zone == TOPO_ZONE_TOP)
        return global_zone_route(t, t->fam[2], a, b, out);
    int32_t L = t->fam[0], S = t->fam[1];
    int32_t base = t->nhosts + zone * (L + S);
    int32_t la = a - base, lb = b - base;
    out->gw_src = a;
    out->gw_dst = b;
    if (la >= L) /* two spines: no host route goes from one spine to another */
        return 0;
    if (lb >= L) { /* leaf - spine */
        out->n = 1;
        return topo_hop_between(t, a, b, &out->hops[0]) < 0 ? -1 : 1;
    }
    int32_t spine = base + L + (la + lb) % S;
    out->n = 2;
    if (topo_hop_between(t, a, spine, &out->hops[0]) < 0 ||
        topo_hop_between(t, spine, b, &out->hops[1]) < 0)
        return -1;
    return 1;
}

/* Minimal next hops (topology.h). t->fam: [0] leaves, [1] spines, [2] g. A leaf goes up
 * to every spine toward its own group (deterministic: spine (l1 + l2) mod spines, as
 * dfplus_zone_route) and to the spine holding the pair's global link toward another
 * group; a spine takes that global link if it holds it, goes down to the destination's
 * leaf in its group, and otherwise (a Valiant path crossing the group) down to every
 * leaf, deterministic leaf (spine + holder) mod leaves. */
static int dfplus_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    int n = next_hop_host_link(t, at, dst, hops, max);
    if (n != 0)
        return n;
    int32_t L = t->fam[0], S = t->fam[1], to = topo_host_switch(t, dst);
    int32_t g_at = t->group[at], g_to = t->group[to];
    int32_t base = t->nhosts + g_at * (L + S), idx = at - base, to_leaf = to - t->nhosts - g_to * (L + S);
    topo_hop global;
    int32_t holder = g_at == g_to ? -1 : global_link_holder(t, t->fam[2], g_at, g_to, &global);
    if (idx < L) { /* a leaf */
        if (holder >= 0)
            return next_hop_add(t, at, holder, hops, &n, max) < 0 ? -1 : n;
        for (int32_t s = 0; s < S; s++)
            if (next_hop_add(t, at, base + L + s, hops, &n, max) < 0)
                return -1;
        return next_hops_put_first(hops, n, (idx + to_leaf) % S);
    }
    if (holder < 0)
        return next_hop_add(t, at, base + to_leaf, hops, &n, max) < 0 ? -1 : n;
    if (holder == at) {
        hops[0] = global;
        return max < 1 ? -1 : 1;
    }
    for (int32_t l = 0; l < L; l++)
        if (next_hop_add(t, at, base + l, hops, &n, max) < 0)
            return -1;
    return next_hops_put_first(hops, n, (idx - L + holder - base - L) % L);
}

typedef struct dfplus_params {
    int64_t p, L, S, g;
    int64_t H;          /* hosts in all */
    int32_t *ghosts;    /* group_hosts: hosts of each group (NULL: p*L each) */
    global_plan gp;
    topo_link_params lp;
} dfplus_params;

#define GROUP_HOSTS_FORMAT "a comma list of N or NxK (K groups of N hosts), e.g. 180x19,324"

/* group_hosts="N[xK],..." -> d->ghosts[g], d->H; the counts must add up to g groups */
static int read_group_hosts(const char *text, dfplus_params *d, cs_error *err)
{
    d->ghosts = xcalloc((size_t)d->g, sizeof *d->ghosts);
    int64_t n = 0;
    d->H = 0;
    for (const char *c = text; *c;) {
        char *end;
        long long hosts = strtoll(c, &end, 10), reps = 1;
        if (end == c || hosts < 0 || hosts > (1 << 26))
            goto bad;
        if (*end == 'x') {
            c = end + 1;
            reps = strtoll(c, &end, 10);
            if (end == c || reps < 1 || reps > d->g)
                goto bad;
        }
        if (*end != ',' && *end != '\0')
            goto bad;
        for (long long i = 0; i < reps; i++, n++) {
            if (n >= d->g)
                return cs_fail(err, "group_hosts=%s: more than g=%lld groups", text, (long long)d->g);
            d->ghosts[n] = (int32_t)hosts;
            d->H += hosts;
        }
        c = *end ? end + 1 : end;
    }
    if (n != d->g)
        return cs_fail(err, "group_hosts=%s: %lld groups, but g=%lld", text, (long long)n,
                       (long long)d->g);
    return 0;
bad:
    return cs_fail(err, "group_hosts=%s: expected %s", text, GROUP_HOSTS_FORMAT);
}

static int read_dfplus(kv_list *kv, dfplus_params *d, cs_error *err)
{
    d->ghosts = NULL;
    if (kv_int(kv, "p", 4, 1, 4096, &d->p, err) < 0 ||
        kv_int(kv, "leaves", 4, 1, 4096, &d->L, err) < 0 ||
        kv_int(kv, "spines", 4, 1, 4096, &d->S, err) < 0 ||
        global_plan_read(kv, (int32_t)d->S, "spines", &d->gp, err) < 0 ||
        topo_link_params_read(kv, &d->lp, err) < 0)
        return -1;
    d->g = d->gp.g;
    d->H = d->p * d->L * d->g;
    const char *gh = kv_get(kv, "group_hosts");
    if (gh && read_group_hosts(gh, d, err) < 0) {
        free(d->ghosts);
        return -1;
    }
    if (d->H < 1 || d->H > (1 << 26)) {
        free(d->ghosts);
        return cs_fail(err, "%lld hosts (%s): need 1 .. 2^26", (long long)d->H,
                       gh ? "group_hosts" : "p*leaves*g");
    }
    /* the switches too: spines=4096 h=15 gives 2.5e8 switches for 61,441 hosts (issue 13) */
    if ((d->L + d->S) * d->g > (1 << 26)) {
        free(d->ghosts);
        return cs_fail(err, "(leaves+spines)*g = %lld switches: more than 2^26",
                       (long long)((d->L + d->S) * d->g));
    }
    return 0;
}

int topo_size_dragonflyplus(kv_list *kv, topo_size *s, cs_error *err)
{
    dfplus_params d;
    if (read_dfplus(kv, &d, err) < 0)
        return -1;
    double H = (double)d.H;
    free(d.ghosts);
    *s = (topo_size){.hosts = H, .switches = (double)((d.L + d.S) * d.g),
                     .links = H + (double)d.g * d.L * d.S};
    global_links_size(&d.gp, s);
    return 0;
}

int topo_build_dragonflyplus(kv_list *kv, topology **out, cs_error *err)
{
    dfplus_params d;
    if (read_dfplus(kv, &d, err) < 0)
        return -1;
    int64_t p = d.p, L = d.L, S = d.S, g = d.g;
    global_plan gp = d.gp;
    topo_link_params lp = d.lp;
    int32_t per = (int32_t)(L + S);
    int32_t H = (int32_t)d.H, NS = per * (int32_t)g;
    topology *t = topo_new("dragonflyplus", H, NS);
    t->routing = TOPO_ROUTE_ZONES;
    t->ngroups = t->nzones = (int32_t)g;
    t->zone = xmalloc((size_t)NS * sizeof *t->zone);
    for (int32_t grp = 0, x = 0; grp < g; grp++) {
        int64_t n = d.ghosts ? d.ghosts[grp] : p * L;
        for (int64_t j = 0; j < n; j++, x++) {
            int32_t leaf = (int32_t)(d.ghosts ? j * L / n : j / p);
            topo_attach_host(t, x, H + grp * per + leaf, LINK_FULL_DUPLEX, 0, 0);
            t->group[x] = grp;
        }
    }
    free(d.ghosts);
    for (int32_t s = 0; s < NS; s++)
        t->zone[s] = t->group[H + s] = s / per;
    for (int32_t i = 0; i < g; i++)
        for (int32_t l = 0; l < L; l++)
            for (int32_t s = 0; s < S; s++)
                topo_add_link(t, H + i * per + l, H + i * per + (int32_t)L + s, LINK_LOCAL,
                              LINK_FULL_DUPLEX, 0, 0);
    gp.first = H + (int32_t)L;
    gp.group_stride = per;
    t->fam_links = global_links_add(t, &gp);
    t->fam[0] = (int32_t)L;
    t->fam[1] = (int32_t)S;
    t->fam[2] = (int32_t)g;
    t->zone_route = dfplus_zone_route;
    t->next_hops = dfplus_next_hops;
    t->next_hops_by_switch = dfplus_next_hops; /* they use topo_host_switch(dst) only */
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
