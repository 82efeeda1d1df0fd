/* emit.c - writing a topology as a SimGrid platform (XML, version 4.1).
 *
 * Names (topology.h: topo_sg_link_name): hosts h<id>; the switch of index s is a
 * <cluster id="c<s>"> with router s<s> when it has hosts (its host links are SimGrid's
 * c<s>_link_<host>, loopbacks c<s>_link_<host>_loopback), or a zone z<s> holding only its
 * router s<s>; group zones g<z>; every other link l<id>. Full-duplex links are SPLITDUPLEX
 * (SimGrid names the directions <name>_UP, a -> b, and <name>_DOWN); shared and one-way
 * links are SHARED, one-way ones only in symmetrical="NO" routes.
 *
 * Layouts (SIMGRID-NOTES.md: what loads fast at scale), by t->routing:
 *   ZONES     top zone (Full) > group zones (Full) > switch zones; every zone holds the
 *             family's zone_route() for each pair of its children, as symmetric
 *             zoneRoutes. A link is declared in the first zone whose routes use it (SimGrid
 *             wants links declared before use and zones before links).
 *   SHORTEST  one DijkstraCache zone. Indirect networks: switch zones and one zoneRoute per
 *             inter-switch link; direct networks: the hosts and switch routers themselves
 *             and one route per link; both in link id order, src = a (this order fixes
 *             SimGrid's graph ids, which route.c reproduces). SimGrid's Dijkstra zone cannot
 *             hold per-host loopback routes, so direct networks set the bandwidth and
 *             latency of SimGrid's shared loopback link through <config>.
 *   TORUS     a single <cluster topology="TORUS">.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"
#include "topologies/topology.h"

static const char *policy(uint8_t sharing)
{
    return sharing == LINK_FULL_DUPLEX ? "SPLITDUPLEX" : "SHARED";
}

/* Hosts of each switch, contiguous in host id order (a cluster needs a radical range). */
typedef struct switch_hosts {
    int32_t *first, *count;
} switch_hosts;

static int hosts_per_switch(const topology *t, switch_hosts *sh, cs_error *err)
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

static void free_switch_hosts(switch_hosts *sh)
{
    free(sh->first);
    free(sh->count);
}

/* One switch as a zone: a cluster of its hosts (their host links must agree) or a zone
 * holding only its router. */
static int emit_switch_zone(const topology *t, const switch_hosts *sh, int32_t s, FILE *f,
                            cs_error *err)
{
    if (sh->count[s] == 0) {
        fprintf(f, "<zone id=\"z%d\" routing=\"Full\"><router id=\"s%d\"/></zone>\n", s, s);
        return 0;
    }
    int32_t first = sh->first[s], last = first + sh->count[s] - 1;
    const topo_link *l0 = &t->links[t->host_link[first]];
    for (int32_t h = first + 1; h <= last; h++) {
        const topo_link *l = &t->links[t->host_link[h]];
        if (l->bw != l0->bw || l->lat != l0->lat || l->sharing != l0->sharing)
            return cs_fail(err, "internal: host links of switch %d differ (host %d)", s, h);
    }
    fprintf(f,
            "<cluster id=\"c%d\" prefix=\"h\" suffix=\"\" radical=\"%d-%d\" speed=\"1Gf\" "
            "bw=\"%.17gBps\" lat=\"%.17gs\" router_id=\"s%d\" sharing_policy=\"%s\" "
            "loopback_bw=\"%.17gBps\" loopback_lat=\"%.17gs\"/>\n",
            s, first, last, l0->bw, l0->lat, s, policy(l0->sharing), t->intra_bw, t->intra_lat);
    return 0;
}

static void emit_link(const topology *t, int64_t i, FILE *f)
{
    const topo_link *l = &t->links[i];
    fprintf(f, "<link id=\"l%lld\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" sharing_policy=\"%s\"/>\n",
            (long long)i, l->bw, l->lat, policy(l->sharing));
}

static void emit_link_ctn(const topology *t, topo_hop h, FILE *f)
{
    const topo_link *l = &t->links[h.link];
    fprintf(f, "<link_ctn id=\"l%lld\"%s/>", (long long)h.link,
            l->sharing != LINK_FULL_DUPLEX ? "" : h.reverse ? " direction=\"DOWN\"" : " direction=\"UP\"");
}

/* "c<s>" or "z<s>": the zone of switch node sw. */
static void switch_zone_name(const topology *t, const switch_hosts *sh, int32_t sw, char *buf,
                             size_t n)
{
    int32_t s = sw - t->nhosts;
    snprintf(buf, n, "%c%d", sh->count[s] ? 'c' : 'z', s);
}

/* ---- SHORTEST ------------------------------------------------------------------------------- */

static int is_vertex_link(const topology *t, const topo_link *l)
{
    return t->direct || (!topo_is_host(t, l->a) && !topo_is_host(t, l->b));
}

static int emit_shortest(const topology *t, FILE *f, cs_error *err)
{
    switch_hosts sh = {0};
    int rc = 0;
    fprintf(f, "<zone id=\"top\" routing=\"DijkstraCache\">\n");
    if (t->direct) {
        for (int32_t h = 0; h < t->nhosts; h++)
            fprintf(f, "<host id=\"h%d\" speed=\"1Gf\"/>\n", h);
        for (int32_t s = 0; s < t->nswitches; s++)
            fprintf(f, "<router id=\"s%d\"/>\n", s);
    } else {
        rc = hosts_per_switch(t, &sh, err);
        for (int32_t s = 0; s < t->nswitches && rc == 0; s++)
            rc = emit_switch_zone(t, &sh, s, f, err);
    }
    for (int64_t i = 0; i < t->nlinks && rc == 0; i++)
        if (is_vertex_link(t, &t->links[i]))
            emit_link(t, i, f);
    for (int64_t i = 0; i < t->nlinks && rc == 0; i++) {
        const topo_link *l = &t->links[i];
        if (!is_vertex_link(t, l))
            continue;
        const char *sym = l->sharing == LINK_ONE_WAY ? " symmetrical=\"NO\"" : "";
        char a[32], b[32];
        if (t->direct) {
            snprintf(a, sizeof a, "%c%d", topo_is_host(t, l->a) ? 'h' : 's',
                     topo_is_host(t, l->a) ? l->a : l->a - t->nhosts);
            snprintf(b, sizeof b, "%c%d", topo_is_host(t, l->b) ? 'h' : 's',
                     topo_is_host(t, l->b) ? l->b : l->b - t->nhosts);
            fprintf(f, "<route src=\"%s\" dst=\"%s\"%s>", a, b, sym);
        } else {
            switch_zone_name(t, &sh, l->a, a, sizeof a);
            switch_zone_name(t, &sh, l->b, b, sizeof b);
            fprintf(f, "<zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"s%d\" gw_dst=\"s%d\"%s>", a, b,
                    l->a - t->nhosts, l->b - t->nhosts, sym);
        }
        emit_link_ctn(t, (topo_hop){i, 0}, f);
        fprintf(f, t->direct ? "</route>\n" : "</zoneRoute>\n");
    }
    fprintf(f, "</zone>\n");
    if (!t->direct)
        free_switch_hosts(&sh);
    return rc;
}

/* ---- ZONES ------------------------------------------------------------------------------- */

typedef struct zone_emitter {
    const topology *t;
    switch_hosts sh;
    uint8_t *declared; /* per link */
    FILE *f;
} zone_emitter;

/* Routes between every pair of children of one zone, links declared first. */
static int emit_zone_routes(zone_emitter *ze, int32_t zone, const int32_t *kids, int32_t nkids,
                            cs_error *err)
{
    const topology *t = ze->t;
    size_t cap = 0, n = 0;
    topo_zone_path *paths = NULL;
    int32_t(*pairs)[2] = NULL;
    size_t pcap = 0;
    for (int32_t i = 0; i < nkids; i++)
        for (int32_t j = i + 1; j < nkids; j++) {
            topo_zone_path p;
            int32_t a = kids[i] < kids[j] ? kids[i] : kids[j], b = kids[i] ^ kids[j] ^ a;
            int rc = t->zone_route(t, zone, a, b, &p);
            if (rc < 0) {
                free(paths);
                free(pairs);
                return cs_fail(err, "internal: no zone route %d-%d in zone %d", a, b, zone);
            }
            if (rc == 0)
                continue;
            VEC_RESERVE(paths, cap, n + 1);
            VEC_RESERVE(pairs, pcap, n + 1);
            paths[n] = p;
            pairs[n][0] = a;
            pairs[n][1] = b;
            n++;
        }
    for (size_t k = 0; k < n; k++)
        for (int i = 0; i < paths[k].n; i++)
            if (!ze->declared[paths[k].hops[i].link]) {
                ze->declared[paths[k].hops[i].link] = 1;
                emit_link(t, paths[k].hops[i].link, ze->f);
            }
    int groups = zone == TOPO_ZONE_TOP && t->nzones > 0;
    for (size_t k = 0; k < n; k++) {
        char a[32], b[32];
        if (groups) {
            snprintf(a, sizeof a, "g%d", pairs[k][0]);
            snprintf(b, sizeof b, "g%d", pairs[k][1]);
        } else {
            switch_zone_name(t, &ze->sh, pairs[k][0], a, sizeof a);
            switch_zone_name(t, &ze->sh, pairs[k][1], b, sizeof b);
        }
        fprintf(ze->f, "<zoneRoute src=\"%s\" dst=\"%s\" gw_src=\"s%d\" gw_dst=\"s%d\">", a, b,
                paths[k].gw_src - t->nhosts, paths[k].gw_dst - t->nhosts);
        for (int i = 0; i < paths[k].n; i++)
            emit_link_ctn(t, paths[k].hops[i], ze->f);
        fprintf(ze->f, "</zoneRoute>\n");
    }
    free(paths);
    free(pairs);
    return 0;
}

/* The switch zones whose t->zone is `zone`, then their routes. */
static int emit_switch_level(zone_emitter *ze, int32_t zone, cs_error *err)
{
    const topology *t = ze->t;
    int32_t *kids = xmalloc((size_t)(t->nswitches ? t->nswitches : 1) * sizeof *kids);
    int32_t nkids = 0;
    int rc = 0;
    for (int32_t s = 0; s < t->nswitches && rc == 0; s++)
        if (t->zone[s] == zone) {
            kids[nkids++] = t->nhosts + s;
            rc = emit_switch_zone(t, &ze->sh, s, ze->f, err);
        }
    if (rc == 0)
        rc = emit_zone_routes(ze, zone, kids, nkids, err);
    free(kids);
    return rc;
}

static int emit_zones(const topology *t, FILE *f, cs_error *err)
{
    zone_emitter ze = {t, {0}, xcalloc((size_t)t->nlinks + 1, 1), f};
    int rc = hosts_per_switch(t, &ze.sh, err);
    fprintf(f, "<zone id=\"top\" routing=\"Full\">\n");
    if (t->nzones == 0) {
        if (rc == 0)
            rc = emit_switch_level(&ze, TOPO_ZONE_TOP, err);
    } else {
        int32_t *groups = xmalloc((size_t)t->nzones * sizeof *groups);
        for (int32_t g = 0; g < t->nzones && rc == 0; g++) {
            groups[g] = g;
            fprintf(f, "<zone id=\"g%d\" routing=\"Full\">\n", g);
            rc = emit_switch_level(&ze, g, err);
            fprintf(f, "</zone>\n");
        }
        if (rc == 0)
            rc = emit_zone_routes(&ze, TOPO_ZONE_TOP, groups, t->nzones, err);
        free(groups);
    }
    fprintf(f, "</zone>\n");
    free(ze.declared);
    free_switch_hosts(&ze.sh);
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
            t->nhosts - 1, l->bw, l->lat, policy(l->sharing), t->intra_bw, t->intra_lat);
}

int topo_emit_xml(const topology *t, FILE *f, cs_error *err)
{
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- collsim: %s -->\n"
               "<platform version=\"4.1\">\n",
            t->params[0] ? t->params : t->family);
    int rc = 0;
    if (t->routing == TOPO_ROUTE_TORUS) {
        emit_torus(t, f);
    } else if (t->routing == TOPO_ROUTE_ZONES) {
        rc = emit_zones(t, f, err);
    } else {
        if (t->direct)
            fprintf(f, "<config><prop id=\"network/loopback-bw\" value=\"%.17g\"/>"
                       "<prop id=\"network/loopback-lat\" value=\"%.17g\"/></config>\n",
                    t->intra_bw, t->intra_lat);
        rc = emit_shortest(t, f, err);
    }
    if (rc < 0)
        return -1;
    fprintf(f, "</platform>\n");
    if (ferror(f))
        return cs_fail(err, "cannot write the platform: %s", strerror(errno));
    return 0;
}

int topo_emit_xml_file(const topology *t, const char *path, cs_error *err)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%d", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cs_fail(err, "%s: cannot create: %s", path, strerror(errno));
    int rc = topo_emit_xml(t, f, err);
    if (fclose(f) != 0 && rc == 0)
        rc = cs_fail(err, "%s: cannot write: %s", path, strerror(errno));
    if (rc == 0 && rename(tmp, path) != 0)
        rc = cs_fail(err, "%s: cannot rename: %s", path, strerror(errno));
    if (rc < 0)
        unlink(tmp);
    return rc;
}
