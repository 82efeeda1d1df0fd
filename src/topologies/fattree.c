/* fattree.c - tapered fat trees of 2 or 3 levels.
 *
 * Keys: levels (2|3), radix (ports per switch: defaults are derived from it and every
 * switch is checked against it), oversub (down:up ratio per level, leaf first, e.g.
 * "1:1,2:1"), hosts_per_leaf, then
 *   2 levels: leaves, spines       - every leaf linked to every spine;
 *   3 levels: pods, leaves_per_pod, aggs (per pod), cores (per plane) - every leaf linked
 *             to every aggregation switch of its pod; aggregation switch a of every pod
 *             linked to every core of plane a (one plane per aggregation index).
 * Parallel links between two switches (a leaf's uplinks spread over fewer switches) are
 * folded into one link of their summed bandwidth. group: auto (the largest subtree with
 * full bandwidth: the leaf when the leaf is tapered, else the pod when the aggregation
 * level is, else the whole tree), leaf, pod or tree. Links above the group are global.
 *
 * Node ids: host x on leaf x / hosts_per_leaf; leaves (pod-major), then spines or
 * aggregation switches (pod-major), then cores (plane-major). Links: host links, leaf
 * uplinks, aggregation uplinks.
 *
 * Routing (TOPO_ROUTE_ZONES, deterministic ECMP): 2 levels: leaf l1 -> spine
 * (l1 + l2) mod spines -> leaf l2. 3 levels: inside pod, leaf l1 -> aggregation switch
 * (l1 + l2) mod aggs -> leaf l2 (indices within the pod); between pods p1, p2: aggregation
 * switch a = (p1 + p2) mod aggs of both pods and core c = ((p1 + p2) / aggs) mod cores of
 * plane a: leaf, agg, core, agg, leaf.
 */
#include <stdlib.h>
#include <string.h>

#include "topologies/families.h"

typedef struct ratio {
    int64_t down, up;
} ratio;

typedef struct fattree_shape {
    int levels;
    int64_t radix, hpl, leaf_up, leaves, spines; /* 2 levels */
    int64_t pods, lpp, aggs, agg_up, cores;      /* 3 levels */
    int64_t m1, m2;                              /* folded multiplicities */
} fattree_shape;

/* "2:1,1:1" or "2,1": one ratio per level below the top (missing ones are 1:1). */
static int parse_oversub(kv_list *kv, int levels, ratio *r, cs_error *err)
{
    r[0] = r[1] = (ratio){1, 1};
    const char *v = kv_get(kv, "oversub");
    for (const char *s = v; s;) {
        char *end;
        long down = strtol(s, &end, 10), up = 1;
        if (end == s || down < 1 || down > 1024)
            break;
        if (*end == ':') {
            const char *u = end + 1;
            up = strtol(u, &end, 10);
            if (end == u || up < 1 || up > 1024)
                break;
        }
        int n = (int)(s == v ? 0 : 1);
        if (n >= levels - 1 || (*end && *end != ','))
            break;
        r[n] = (ratio){down, up};
        if (!*end)
            return 0;
        s = end + 1;
        if (n == 1)
            break;
    }
    if (!v)
        return 0;
    return cs_fail(err, "oversub: '%s' is not a list of %d down:up ratio(s) (e.g. %s)", v,
                   levels - 1, levels == 3 ? "1:1,2:1" : "2:1");
}

/* Uplinks of a switch with `down` links below it at ratio r; -1 if fractional. */
static int64_t uplinks(int64_t down, ratio r)
{
    return down * r.up % r.down ? -1 : down * r.up / r.down;
}

static int fail_ports(const char *what, int64_t used, int64_t radix, cs_error *err)
{
    return cs_fail(err, "a %s switch would use %lld ports but radix is %lld", what,
                   (long long)used, (long long)radix);
}

static int read_shape(kv_list *kv, fattree_shape *sh, ratio *r, cs_error *err)
{
    int64_t levels, k;
    if (kv_int(kv, "levels", 2, 2, 3, &levels, err) < 0 ||
        kv_int(kv, "radix", 8, 2, 4096, &k, err) < 0 ||
        parse_oversub(kv, (int)levels, r, err) < 0)
        return -1;
    sh->levels = (int)levels;
    sh->radix = k;
    int64_t u0 = k / (r[0].down + r[0].up);
    if (kv_int(kv, "hosts_per_leaf", u0 * r[0].down > 0 ? u0 * r[0].down : 1, 1, 1 << 20,
               &sh->hpl, err) < 0)
        return -1;
    sh->leaf_up = uplinks(sh->hpl, r[0]);
    if (sh->leaf_up < 1)
        return cs_fail(err, "hosts_per_leaf=%lld at oversub %lld:%lld gives a fractional "
                            "number of leaf uplinks", (long long)sh->hpl,
                       (long long)r[0].down, (long long)r[0].up);
    const char *spread = levels == 2 ? "spines" : "aggs";
    int64_t nup;
    if (kv_int(kv, spread, sh->leaf_up, 1, 1 << 20, &nup, err) < 0)
        return -1;
    if (sh->leaf_up % nup)
        return cs_fail(err, "%s=%lld must divide the %lld uplinks of a leaf", spread,
                       (long long)nup, (long long)sh->leaf_up);
    sh->m1 = sh->leaf_up / nup;
    if (levels == 2) {
        sh->spines = nup;
        return kv_int(kv, "leaves", k / sh->m1 > 0 ? k / sh->m1 : 1, 1, 1 << 20, &sh->leaves, err);
    }
    sh->aggs = nup;
    int64_t u1 = k / (r[1].down + r[1].up), lpp_def = u1 * r[1].down / sh->m1;
    if (kv_int(kv, "leaves_per_pod", lpp_def > 0 ? lpp_def : 1, 1, 1 << 20, &sh->lpp, err) < 0)
        return -1;
    sh->agg_up = uplinks(sh->lpp * sh->m1, r[1]);
    if (sh->agg_up < 1)
        return cs_fail(err, "leaves_per_pod=%lld at oversub %lld:%lld gives a fractional number "
                            "of aggregation uplinks", (long long)sh->lpp,
                       (long long)r[1].down, (long long)r[1].up);
    if (kv_int(kv, "cores", sh->agg_up, 1, 1 << 20, &sh->cores, err) < 0)
        return -1;
    if (sh->agg_up % sh->cores)
        return cs_fail(err, "cores=%lld must divide the %lld uplinks of an aggregation switch",
                       (long long)sh->cores, (long long)sh->agg_up);
    sh->m2 = sh->agg_up / sh->cores;
    if (kv_int(kv, "pods", k / sh->m2 > 0 ? k / sh->m2 : 1, 1, 1 << 20, &sh->pods, err) < 0)
        return -1;
    sh->leaves = sh->pods * sh->lpp;
    return 0;
}

static int check_ports(const fattree_shape *sh, cs_error *err)
{
    if (sh->hpl + sh->leaf_up > sh->radix)
        return fail_ports("leaf", sh->hpl + sh->leaf_up, sh->radix, err);
    if (sh->levels == 2 && sh->leaves * sh->m1 > sh->radix)
        return fail_ports("spine", sh->leaves * sh->m1, sh->radix, err);
    if (sh->levels == 3 && sh->lpp * sh->m1 + sh->agg_up > sh->radix)
        return fail_ports("aggregation", sh->lpp * sh->m1 + sh->agg_up, sh->radix, err);
    if (sh->levels == 3 && sh->pods * sh->m2 > sh->radix)
        return fail_ports("core", sh->pods * sh->m2, sh->radix, err);
    if (sh->leaves * sh->hpl > (1 << 26))
        return cs_fail(err, "more than 2^26 hosts");
    return 0;
}

enum { GROUP_AUTO, GROUP_LEAF, GROUP_POD, GROUP_TREE };

/* t->fam: [0] levels, [1] leaves (total), [2] spines / aggs per pod, [3] leaves per pod,
 * [4] cores per plane */
static int fattree_zone_route(const topology *t, int32_t zone, int32_t a, int32_t b,
                              topo_zone_path *out)
{
    int32_t H = t->nhosts, L = t->fam[1], up = t->fam[2], lpp = t->fam[3], C = t->fam[4];
    int32_t mid, x = a, y = b;
    out->gw_src = a;
    out->gw_dst = b;
    if (t->fam[0] == 2) {
        mid = H + L + (a - H + b - H) % up;
    } else if (zone == TOPO_ZONE_TOP) { /* a, b: pods */
        int32_t agg = (a + b) % up, core = ((a + b) / up) % C;
        x = out->gw_src = H + L + a * up + agg;
        y = out->gw_dst = H + L + b * up + agg;
        mid = H + L + (L / lpp) * up + agg * C + core;
    } else {
        int32_t la = a - H - zone * lpp, lb = b - H - zone * lpp;
        if (la >= lpp) /* two aggregation switches: never needed */
            return 0;
        if (lb >= lpp) { /* leaf - aggregation switch */
            out->n = 1;
            return topo_hop_between(t, a, b, &out->hops[0]) < 0 ? -1 : 1;
        }
        mid = H + L + zone * up + (la + lb) % up;
    }
    out->n = 2;
    if (topo_hop_between(t, x, mid, &out->hops[0]) < 0 ||
        topo_hop_between(t, mid, y, &out->hops[1]) < 0)
        return -1;
    return 1;
}

/* Every uplink of `at` to the `count` switches first, first+1, ...; the deterministic
 * one is first + det. */
static int all_up(const topology *t, int32_t at, int32_t first, int32_t count, int32_t det,
                  topo_hop *hops, int max)
{
    int n = 0;
    for (int32_t u = 0; u < count; u++)
        if (next_hop_add(t, at, first + u, hops, &n, max) < 0)
            return -1;
    return next_hops_put_first(hops, n, det);
}

/* Minimal next hops (topology.h): going up, every uplink (the deterministic one as in
 * fattree_zone_route); going down, the unique downlink. t->fam as fattree_zone_route. */
static int fattree_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max)
{
    int n = next_hop_host_link(t, at, dst, hops, max);
    if (n != 0)
        return n;
    int32_t H = t->nhosts, L = t->fam[1], up = t->fam[2], lpp = t->fam[3], C = t->fam[4];
    int32_t x = at - H, dleaf = topo_host_switch(t, dst) - H, pods = L / lpp;
    int32_t aggs0 = H + L, cores0 = H + L + pods * up;
    if (t->fam[0] == 2) {
        if (x < L) /* leaf: up to every spine */
            return all_up(t, at, aggs0, up, (x + dleaf) % up, hops, max);
        return next_hop_add(t, at, H + dleaf, hops, &n, max) < 0 ? -1 : n;
    }
    int32_t dpod = dleaf / lpp;
    if (x < L) { /* leaf: up to every aggregation switch of its pod */
        int32_t pod = x / lpp;
        int32_t det = pod == dpod ? (x % lpp + dleaf % lpp) % up : (pod + dpod) % up;
        return all_up(t, at, aggs0 + pod * up, up, det, hops, max);
    }
    if (at < cores0) { /* aggregation switch a of pod `pod` */
        int32_t pod = (at - aggs0) / up, a = (at - aggs0) % up;
        if (pod == dpod)
            return next_hop_add(t, at, H + dleaf, hops, &n, max) < 0 ? -1 : n;
        return all_up(t, at, cores0 + a * C, C, ((pod + dpod) / up) % C, hops, max);
    }
    int32_t plane = (at - cores0) / C; /* core: down to its plane's switch in dpod */
    return next_hop_add(t, at, aggs0 + dpod * up + plane, hops, &n, max) < 0 ? -1 : n;
}

static void add_links(topology *t, const fattree_shape *sh, int grp)
{
    int32_t H = t->nhosts, L = (int32_t)sh->leaves;
    link_class leaf_cls = grp == GROUP_LEAF ? LINK_GLOBAL : LINK_LOCAL;
    link_class agg_cls = grp == GROUP_TREE ? LINK_LOCAL : LINK_GLOBAL;
    for (int32_t x = 0; x < H; x++)
        topo_attach_host(t, x, H + x / (int32_t)sh->hpl, LINK_FULL_DUPLEX, 0, 0);
    int32_t nup = (int32_t)(sh->levels == 2 ? sh->spines : sh->aggs);
    for (int32_t l = 0; l < L; l++) {
        int32_t first = H + L + (sh->levels == 2 ? 0 : (l / (int32_t)sh->lpp) * nup);
        for (int32_t u = 0; u < nup; u++) {
            int64_t id = topo_add_link(t, H + l, first + u, leaf_cls, LINK_FULL_DUPLEX, 0, 0);
            t->links[id].mult = (uint16_t)sh->m1;
        }
    }
    if (sh->levels == 2)
        return;
    int32_t cores0 = H + L + (int32_t)(sh->pods * sh->aggs);
    for (int32_t p = 0; p < sh->pods; p++)
        for (int32_t a = 0; a < nup; a++)
            for (int32_t c = 0; c < sh->cores; c++) {
                int64_t id = topo_add_link(t, H + L + p * nup + a, cores0 + a * (int32_t)sh->cores + c,
                                           agg_cls, LINK_FULL_DUPLEX, 0, 0);
                t->links[id].mult = (uint16_t)sh->m2;
            }
}

static void set_groups_and_zones(topology *t, const fattree_shape *sh, int grp)
{
    int32_t H = t->nhosts, L = (int32_t)sh->leaves, lpp = (int32_t)(sh->levels == 3 ? sh->lpp : L);
    int32_t nup = (int32_t)(sh->levels == 2 ? sh->spines : sh->aggs);
    t->ngroups = grp == GROUP_LEAF ? L : grp == GROUP_POD ? (int32_t)sh->pods : 1;
    if (grp == GROUP_TREE)
        for (int32_t v = 0; v < topo_nnodes(t); v++)
            t->group[v] = 0;
    for (int32_t x = 0; x < H; x++) {
        int32_t leaf = x / (int32_t)sh->hpl;
        t->group[x] = t->group[H + leaf] = grp == GROUP_LEAF ? leaf : grp == GROUP_POD ? leaf / lpp : 0;
    }
    t->zone = xmalloc((size_t)t->nswitches * sizeof *t->zone);
    for (int32_t s = 0; s < t->nswitches; s++)
        t->zone[s] = TOPO_ZONE_NONE;
    for (int32_t l = 0; l < L; l++)
        t->zone[l] = sh->levels == 2 ? TOPO_ZONE_TOP : l / lpp;
    if (sh->levels == 3) {
        t->nzones = (int32_t)sh->pods;
        for (int32_t s = 0; s < sh->pods * nup; s++) {
            t->zone[L + s] = s / nup;
            if (grp != GROUP_LEAF)
                t->group[H + L + s] = grp == GROUP_POD ? s / nup : 0;
        }
    }
}

typedef struct fattree_params {
    fattree_shape sh;
    int grp;
    topo_link_params lp;
} fattree_params;

static int read_fattree(kv_list *kv, fattree_params *f, cs_error *err)
{
    ratio r[2];
    memset(&f->sh, 0, sizeof f->sh);
    if (read_shape(kv, &f->sh, r, err) < 0 || check_ports(&f->sh, err) < 0 ||
        kv_choice(kv, "group", "auto", "auto|leaf|pod|tree", &f->grp, err) < 0 ||
        topo_link_params_read(kv, &f->lp, err) < 0)
        return -1;
    if (f->grp == GROUP_POD && f->sh.levels == 2)
        return cs_fail(err, "group=pod needs levels=3");
    if (f->grp == GROUP_AUTO)
        f->grp = r[0].down > r[0].up ? GROUP_LEAF
                 : f->sh.levels == 3 && r[1].down > r[1].up ? GROUP_POD : GROUP_TREE;
    return 0;
}

static double fattree_switches(const fattree_shape *sh)
{
    return (double)sh->leaves +
           (double)(sh->levels == 2 ? sh->spines : sh->pods * sh->aggs + sh->aggs * sh->cores);
}

int topo_size_fattree(kv_list *kv, topo_size *s, cs_error *err)
{
    fattree_params f;
    if (read_fattree(kv, &f, err) < 0)
        return -1;
    const fattree_shape *sh = &f.sh;
    double H = (double)sh->leaves * sh->hpl;
    *s = (topo_size){.hosts = H, .switches = fattree_switches(sh)};
    s->links = H + (double)sh->leaves * (sh->levels == 2 ? sh->spines : sh->aggs);
    if (sh->levels == 3)
        s->links += (double)sh->pods * sh->aggs * sh->cores;
    return 0;
}

int topo_build_fattree(kv_list *kv, topology **out, cs_error *err)
{
    fattree_params f;
    if (read_fattree(kv, &f, err) < 0)
        return -1;
    fattree_shape sh = f.sh;
    int grp = f.grp;
    topo_link_params lp = f.lp;
    int32_t H = (int32_t)(sh.leaves * sh.hpl);
    int32_t S = (int32_t)fattree_switches(&sh);
    topology *t = topo_new("fattree", H, S);
    t->routing = TOPO_ROUTE_ZONES;
    add_links(t, &sh, grp);
    set_groups_and_zones(t, &sh, grp);
    t->fam[0] = sh.levels;
    t->fam[1] = (int32_t)sh.leaves;
    t->fam[2] = (int32_t)(sh.levels == 2 ? sh.spines : sh.aggs);
    t->fam[3] = (int32_t)(sh.levels == 3 ? sh.lpp : sh.leaves);
    t->fam[4] = (int32_t)sh.cores;
    t->zone_route = fattree_zone_route;
    t->next_hops = fattree_next_hops;
    t->next_hops_by_switch = fattree_next_hops; /* they use topo_host_switch(dst) only */
    topo_apply_link_params(t, &lp);
    *out = t;
    return 0;
}
