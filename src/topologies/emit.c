/* emit.c - writing a topology as a SimGrid platform (XML, version 4.1).
 *
 * Names (topology.h: topo_sg_link_name): hosts h<id>; link <id> is "l<id>" when shared or
 * one-way, and the two one-way links "l<id>_UP" (a -> b) and "l<id>_DOWN" (b -> a) when
 * full duplex (the names SimGrid gives a SPLITDUPLEX link's halves; two plain links
 * behave the same and are found faster, see below); host h's loopback is "lo<h>"; the
 * switch of index s is a zone c<s> (routing Cluster: its hosts, host links, loopbacks
 * and router s<s>) or, without hosts, z<s> (holding only router s<s>); group zones g<z>.
 *
 * Load time. SimGrid 3.32 checks that every new host and link name is unique by walking
 * the whole zone tree, and resolves every <link_ctn> the same way, so a platform with
 * thousands of zones loads in O(zones x links). Hence every link is declared first, in a
 * zone "links" created while the tree is still small and searched first, and no link is
 * created inside the switch zones (no <cluster> tags, which create their host links
 * inside) - measured in scripts/bench/topo_scale.sh.
 *
 * Layouts, by t->routing:
 *   ZONES     top zone (Full) > group zones (Full) > switch zones; every zone holds the
 *             family's zone_route() for each pair of its children, in both directions.
 *             With flat groups, a group zone (Floyd) holds its hosts and routers and one
 *             route per link inside it, and its hosts use SimGrid's loopback.
 *   SHORTEST  one DijkstraCache zone. Indirect networks: switch zones and one zoneRoute per
 *             inter-switch link and direction; direct networks: the hosts and switch routers
 *             themselves and routes per link. Link id order, a -> b first (this order fixes
 *             SimGrid's graph ids, which route.c reproduces). SimGrid's Dijkstra zone cannot
 *             hold per-host loopback routes, so direct networks set the bandwidth and
 *             latency of SimGrid's shared loopback link through <config>.
 *   TORUS     a single <cluster topology="TORUS">.
 *
 * Faults (faults.h): a topology with a fault table is written by fault_emit.c (a Full
 * zone of explicit routes). Too large for a table, it is routed SHORTEST and the failed
 * links, still declared (a host link is part of its cluster), get no route: SimGrid's
 * Dijkstra goes around them. Degraded links are declared with their scaled bandwidth.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/util.h"
#include "topologies/emit_internal.h"
#include "topologies/external.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

static void emit_plain_link(FILE *f, const char *name, double bw, double lat, const char *policy)
{
    fprintf(f, "<link id=\"%s\" bandwidth=\"%.17gBps\" latency=\"%.17gs\"%s%s%s/>\n", name, bw, lat,
            policy ? " sharing_policy=\"" : "", policy ? policy : "", policy ? "\"" : "");
}

/* Every link (both halves of full-duplex ones) and, in indirect networks, the loopbacks. */
void emit_links(const topology *t, FILE *f)
{
    char name[64];
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        for (int dir = 0; dir < (l->sharing == LINK_FULL_DUPLEX ? 2 : 1); dir++) {
            topo_sg_link_name(t, (topo_hop){i, (int8_t)dir}, name, sizeof name);
            emit_plain_link(f, name, l->bw, l->lat, NULL);
        }
    }
    int lo = !t->direct && (!t->flat_groups || topo_fault_table(t)); /* per-host loopbacks */
    for (int32_t h = 0; lo && h < t->nhosts; h++) {
        topo_loopback_link_name(t, h, name, sizeof name);
        emit_plain_link(f, name, t->intra_bw, t->intra_lat, "FATPIPE");
    }
}

void emit_links_zone(const topology *t, FILE *f)
{
    fprintf(f, "<zone id=\"links\" routing=\"None\">\n");
    emit_links(t, f);
    fprintf(f, "</zone>\n");
}


int hosts_per_switch(const topology *t, switch_hosts *sh, cs_error *err)
{
    size_t S = (size_t)(t->nswitches ? t->nswitches : 1);
    sh->first = xmalloc(S * sizeof *sh->first);
    sh->count = xcalloc(S, sizeof *sh->count);
    for (int32_t h = 0; h < t->nhosts; h++) {
        int32_t s = topo_host_switch(t, h) - t->nhosts;
        if (sh->count[s] > 0 && sh->first[s] + sh->count[s] != h)
            return cs_fail(err, "internal: hosts of switch %d are not numbered contiguously", s);
        if (sh->count[s] == 0)
            sh->first[s] = h;
        sh->count[s]++;
    }
    return 0;
}

void free_switch_hosts(switch_hosts *sh)
{
    free(sh->first);
    free(sh->count);
}

/* One switch as a zone: its hosts, router, host links and loopbacks, or only its router. */
void emit_switch_zone(const topology *t, const switch_hosts *sh, int32_t s, FILE *f)
{
    if (sh->count[s] == 0) {
        fprintf(f, "<zone id=\"z%d\" routing=\"Full\"><router id=\"s%d\"/></zone>\n", s, s);
        return;
    }
    int32_t first = sh->first[s], end = first + sh->count[s];
    fprintf(f, "<zone id=\"c%d\" routing=\"Cluster\">\n", s);
    for (int32_t h = first; h < end; h++)
        fprintf(f, "<host id=\"h%d\" speed=\"1Gf\"/>\n", h);
    fprintf(f, "<router id=\"s%d\"/>\n", s);
    char up[64], down[64];
    for (int32_t h = first; h < end; h++) {
        topo_sg_link_name(t, (topo_hop){t->host_link[h], 0}, up, sizeof up);
        topo_sg_link_name(t, (topo_hop){t->host_link[h], 1}, down, sizeof down);
        fprintf(f, "<host_link id=\"h%d\" up=\"%s\" down=\"%s\"/>\n", h, up, down);
    }
    for (int32_t h = first; h < end; h++) {
        topo_loopback_link_name(t, h, up, sizeof up);
        fprintf(f, "<route src=\"h%d\" dst=\"h%d\"><link_ctn id=\"%s\"/></route>\n", h, h, up);
    }
    fprintf(f, "</zone>\n");
}

/* "c<s>" or "z<s>": the zone of switch node sw. */
static void switch_zone_name(const topology *t, const switch_hosts *sh, int32_t sw, char *buf,
                             size_t n)
{
    int32_t s = sw - t->nhosts;
    snprintf(buf, n, "%c%d", sh->count[s] ? 'c' : 'z', s);
}

/* A netpoint in a direct network: host h<id> or router s<index>. */
static void direct_name(const topology *t, int32_t node, char *buf, size_t n)
{
    if (topo_is_host(t, node))
        snprintf(buf, n, "h%d", node);
    else
        snprintf(buf, n, "s%d", node - t->nhosts);
}

/* One route element: src/dst names, gateways (NULL for host-to-host routes), the hops. */
void emit_route(const topology *t, FILE *f, const char *src, const char *dst,
                       const char *gw_src, const char *gw_dst, const topo_hop *hops, int n,
                       int symmetrical)
{
    const char *tag = gw_src ? "zoneRoute" : "route";
    fprintf(f, "<%s src=\"%s\" dst=\"%s\"", tag, src, dst);
    if (gw_src)
        fprintf(f, " gw_src=\"%s\" gw_dst=\"%s\"", gw_src, gw_dst);
    fprintf(f, "%s>", symmetrical ? "" : " symmetrical=\"NO\"");
    char name[64];
    for (int i = 0; i < n; i++) {
        topo_sg_link_name(t, hops[i], name, sizeof name);
        fprintf(f, "<link_ctn id=\"%s\"/>", name);
    }
    fprintf(f, "</%s>\n", tag);
}

/* ---- SHORTEST ------------------------------------------------------------------------------- */

static int is_vertex_link(const topology *t, const topo_link *l)
{
    return t->direct || (!topo_is_host(t, l->a) && !topo_is_host(t, l->b));
}

static int emit_shortest(const topology *t, FILE *f, cs_error *err)
{
    switch_hosts sh = {0};
    fprintf(f, "<zone id=\"top\" routing=\"DijkstraCache\">\n");
    if (t->direct) { /* one zone: declaring links here costs nothing */
        for (int32_t h = 0; h < t->nhosts; h++)
            fprintf(f, "<host id=\"h%d\" speed=\"1Gf\"/>\n", h);
        for (int32_t s = 0; s < t->nswitches; s++)
            fprintf(f, "<router id=\"s%d\"/>\n", s);
        emit_links(t, f);
    } else {
        emit_links_zone(t, f);
        if (hosts_per_switch(t, &sh, err) < 0) {
            free_switch_hosts(&sh);
            return -1;
        }
        for (int32_t s = 0; s < t->nswitches; s++)
            emit_switch_zone(t, &sh, s, f);
    }
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (!is_vertex_link(t, l) || topo_link_failed(t, i)) /* no route over a failed link */
            continue;
        char a[32], b[32], ga[32], gb[32];
        if (t->direct) {
            direct_name(t, l->a, a, sizeof a);
            direct_name(t, l->b, b, sizeof b);
        } else {
            switch_zone_name(t, &sh, l->a, a, sizeof a);
            switch_zone_name(t, &sh, l->b, b, sizeof b);
            snprintf(ga, sizeof ga, "s%d", l->a - t->nhosts);
            snprintf(gb, sizeof gb, "s%d", l->b - t->nhosts);
        }
        const char *gwa = t->direct ? NULL : ga, *gwb = t->direct ? NULL : gb;
        topo_hop fwd = {i, 0}, back = {i, 1};
        if (l->sharing == LINK_SHARED) {
            emit_route(t, f, a, b, gwa, gwb, &fwd, 1, 1);
        } else {
            emit_route(t, f, a, b, gwa, gwb, &fwd, 1, 0);
            if (l->sharing == LINK_FULL_DUPLEX)
                emit_route(t, f, b, a, gwb, gwa, &back, 1, 0);
        }
    }
    fprintf(f, "</zone>\n");
    if (!t->direct)
        free_switch_hosts(&sh);
    return 0;
}

/* ---- ZONES ------------------------------------------------------------------------------- */

/* The routes between every pair of children of one zone, both directions. */
static int emit_zone_routes(const topology *t, const switch_hosts *sh, int32_t zone,
                            const int32_t *kids, int32_t nkids, FILE *f, cs_error *err)
{
    int groups = zone == TOPO_ZONE_TOP && t->nzones > 0;
    for (int32_t i = 0; i < nkids; i++)
        for (int32_t j = i + 1; j < nkids; j++) {
            topo_zone_path p;
            int32_t a = kids[i] < kids[j] ? kids[i] : kids[j], b = kids[i] ^ kids[j] ^ a;
            int rc = t->zone_route(t, zone, a, b, &p);
            if (rc < 0)
                return cs_fail(err, "internal: no zone route %d-%d in zone %d", a, b, zone);
            if (rc == 0)
                continue;
            char za[32], zb[32], ga[32], gb[32];
            if (groups) {
                snprintf(za, sizeof za, "g%d", a);
                snprintf(zb, sizeof zb, "g%d", b);
            } else {
                switch_zone_name(t, sh, a, za, sizeof za);
                switch_zone_name(t, sh, b, zb, sizeof zb);
            }
            snprintf(ga, sizeof ga, "s%d", p.gw_src - t->nhosts);
            snprintf(gb, sizeof gb, "s%d", p.gw_dst - t->nhosts);
            emit_route(t, f, za, zb, ga, gb, p.hops, p.n, 0);
            topo_hop back[TOPO_MAX_ZONE_HOPS];
            for (int k = 0; k < p.n; k++)
                back[k] = (topo_hop){p.hops[p.n - 1 - k].link, (int8_t)!p.hops[p.n - 1 - k].reverse};
            emit_route(t, f, zb, za, gb, ga, back, p.n, 0);
        }
    return 0;
}

/* A flat group zone (t->flat_groups): its hosts and switch routers, one route per host
 * link and per link inside the group, each direction. Routing Floyd: shortest paths are
 * unique there, so no tie-break matters; and SimGrid 3.32's Dijkstra zone would list the
 * links of a route's destination side before the others (it inserts at the front of the
 * route it extends), while Floyd appends them in order. */
static void emit_flat_group(const topology *t, int32_t g, FILE *f)
{
    fprintf(f, "<zone id=\"g%d\" routing=\"Floyd\">\n", g);
    for (int32_t h = 0; h < t->nhosts; h++)
        if (t->zone[topo_host_switch(t, h) - t->nhosts] == g)
            fprintf(f, "<host id=\"h%d\" speed=\"1Gf\"/>\n", h);
    for (int32_t s = 0; s < t->nswitches; s++)
        if (t->zone[s] == g)
            fprintf(f, "<router id=\"s%d\"/>\n", s);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        int32_t za = t->zone[(topo_is_host(t, l->a) ? topo_host_switch(t, l->a) : l->a) - t->nhosts];
        int32_t zb = t->zone[l->b - t->nhosts];
        if (za != g || zb != g)
            continue;
        char a[32], b[32];
        direct_name(t, l->a, a, sizeof a);
        direct_name(t, l->b, b, sizeof b);
        topo_hop fwd = {i, 0}, back = {i, 1};
        emit_route(t, f, a, b, NULL, NULL, &fwd, 1, l->sharing == LINK_SHARED);
        if (l->sharing == LINK_FULL_DUPLEX)
            emit_route(t, f, b, a, NULL, NULL, &back, 1, 0);
    }
    fprintf(f, "</zone>\n");
}

/* The switch zones whose t->zone is `zone`, then their routes. */
static int emit_switch_level(const topology *t, const switch_hosts *sh, int32_t zone, FILE *f,
                             cs_error *err)
{
    int32_t *kids = xmalloc((size_t)(t->nswitches ? t->nswitches : 1) * sizeof *kids);
    int32_t nkids = 0;
    for (int32_t s = 0; s < t->nswitches; s++)
        if (t->zone[s] == zone) {
            kids[nkids++] = t->nhosts + s;
            emit_switch_zone(t, sh, s, f);
        }
    int rc = emit_zone_routes(t, sh, zone, kids, nkids, f, err);
    free(kids);
    return rc;
}

static int emit_zones(const topology *t, FILE *f, cs_error *err)
{
    switch_hosts sh = {0};
    int rc = hosts_per_switch(t, &sh, err);
    fprintf(f, "<zone id=\"top\" routing=\"Full\">\n");
    emit_links_zone(t, f);
    if (rc == 0 && t->nzones == 0) {
        rc = emit_switch_level(t, &sh, TOPO_ZONE_TOP, f, err);
    } else if (rc == 0) {
        int32_t *groups = xmalloc((size_t)t->nzones * sizeof *groups);
        for (int32_t g = 0; g < t->nzones && rc == 0; g++) {
            groups[g] = g;
            if (t->flat_groups) {
                emit_flat_group(t, g, f);
                continue;
            }
            fprintf(f, "<zone id=\"g%d\" routing=\"Full\">\n", g);
            rc = emit_switch_level(t, &sh, g, f, err);
            fprintf(f, "</zone>\n");
        }
        if (rc == 0)
            rc = emit_zone_routes(t, &sh, TOPO_ZONE_TOP, groups, t->nzones, f, err);
        free(groups);
    }
    fprintf(f, "</zone>\n");
    free_switch_hosts(&sh);
    return rc;
}

/* ---- TORUS ------------------------------------------------------------------------------- */

static void emit_torus(const topology *t, FILE *f)
{
    const topo_link *l = &t->links[0];
    fprintf(f, "<cluster id=\"torus\" topology=\"TORUS\" topo_parameters=\"");
    for (int d = 0; d < t->ndims; d++)
        fprintf(f, "%s%d", d ? "," : "", t->dims[d]);
    fprintf(f,
            "\" prefix=\"h\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" bw=\"%.17gBps\" "
            "lat=\"%.17gs\" sharing_policy=\"%s\" loopback_bw=\"%.17gBps\" "
            "loopback_lat=\"%.17gs\"/>\n",
            t->nhosts - 1, l->bw, l->lat, l->sharing == LINK_FULL_DUPLEX ? "SPLITDUPLEX" : "SHARED",
            t->intra_bw, t->intra_lat);
}

int topo_emit_xml(const topology *t, FILE *f, cs_error *err)
{
    if (t->ext) /* nothing to emit: SimGrid loads the user's file itself */
        return cs_fail(err, "an external platform is not emitted: it is the file %s",
                       t->ext->platform);
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- collsim: %s -->\n"
               "<platform version=\"4.1\">\n",
            t->params[0] ? t->params : t->family);
    int rc = 0;
    int table = topo_fault_table(t);
    if ((t->routing != TOPO_ROUTE_TORUS || table) && (t->direct || (t->flat_groups && !table)))
        fprintf(f, "<config><prop id=\"network/loopback-bw\" value=\"%.17g\"/>"
                   "<prop id=\"network/loopback-lat\" value=\"%.17g\"/></config>\n",
                t->intra_bw, t->intra_lat);
    if (table) /* routes around failed links, one by one (fault_emit.c) */
        rc = topo_emit_fault_table((topology *)t, f, err); /* the route cache only */
    else if (t->routing == TOPO_ROUTE_TORUS)
        emit_torus(t, f);
    else if (t->routing == TOPO_ROUTE_ZONES)
        rc = emit_zones(t, f, err);
    else
        rc = emit_shortest(t, f, err);
    if (rc < 0)
        return -1;
    fprintf(f, "</platform>\n");
    if (ferror(f))
        return cs_fail(err, "cannot write the platform: %s", strerror(errno));
    return 0;
}

int topo_emit_xml_file(const topology *t, const char *path, cs_error *err)
{
    atomic_file out;
    if (atomic_file_open(&out, path, err) < 0)
        return -1;
    int rc = topo_emit_xml(t, out.f, err);
    return atomic_file_commit(&out, rc == 0, err) < 0 || rc < 0 ? -1 : 0;
}
