/* emit.c - writing a topology as a SimGrid platform (XML, version 4.1).
 *
 * Layout (SIMGRID-NOTES.md: loads fast at scale):
 *   - shortest-path routing: one zone per switch inside a DijkstraCache top zone: a
 *     <cluster> holding the switch's hosts (private links = host links, router = the
 *     switch) or, for a switch without hosts, a zone holding only its router; then one
 *     <link> and one <zoneRoute> per inter-switch link, in link id order (this order
 *     fixes SimGrid's graph ids, which route.c reproduces);
 *   - torus routing: a single <cluster topology="TORUS">.
 * Full-duplex links are SPLITDUPLEX (SimGrid names the two directions <name>_UP and
 * <name>_DOWN; a zoneRoute uses UP from its src to its dst); shared links are SHARED;
 * one-way links are SHARED links in a symmetrical="NO" route.
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

/* Hosts of each switch, contiguous in host id order (checked: a cluster needs a radical). */
static int hosts_per_switch(const topology *t, int32_t *first, int32_t *count, cs_error *err)
{
    for (int32_t s = 0; s < t->nswitches; s++) {
        first[s] = -1;
        count[s] = 0;
    }
    for (int32_t h = 0; h < t->nhosts; h++) {
        int32_t s = topo_host_switch(t, h) - t->nhosts;
        if (count[s] > 0 && first[s] + count[s] != h)
            return cs_fail(err, "internal: hosts of switch %d are not numbered contiguously", s);
        if (count[s] == 0)
            first[s] = h;
        count[s]++;
    }
    return 0;
}

/* Host links of one switch must share bandwidth, latency and sharing (one cluster). */
static const topo_link *cluster_link(const topology *t, int32_t first, int32_t count,
                                     cs_error *err)
{
    const topo_link *l0 = &t->links[t->host_link[first]];
    for (int32_t h = first + 1; h < first + count; h++) {
        const topo_link *l = &t->links[t->host_link[h]];
        if (l->bw != l0->bw || l->lat != l0->lat || l->sharing != l0->sharing) {
            cs_fail(err, "internal: host links of one switch differ (host %d)", h);
            return NULL;
        }
    }
    return l0;
}

static int emit_switch_zones(const topology *t, FILE *f, cs_error *err)
{
    int32_t S = t->nswitches;
    int32_t *first = xmalloc((size_t)(S ? S : 1) * sizeof *first);
    int32_t *count = xmalloc((size_t)(S ? S : 1) * sizeof *count);
    int rc = hosts_per_switch(t, first, count, err);
    for (int32_t s = 0; s < S && rc == 0; s++) {
        if (count[s] == 0) {
            fprintf(f, "  <zone id=\"s%d\" routing=\"Full\"><router id=\"s%d_r\"/></zone>\n", s, s);
            continue;
        }
        const topo_link *l = cluster_link(t, first[s], count[s], err);
        if (!l) {
            rc = -1;
            break;
        }
        fprintf(f,
                "  <cluster id=\"s%d\" prefix=\"h\" suffix=\"\" radical=\"%d-%d\" speed=\"1Gf\" "
                "bw=\"%.17gBps\" lat=\"%.17gs\" router_id=\"s%d_r\" sharing_policy=\"%s\"/>\n",
                s, first[s], first[s] + count[s] - 1, l->bw, l->lat, s, policy(l->sharing));
    }
    free(first);
    free(count);
    return rc;
}

static void emit_switch_links(const topology *t, FILE *f)
{
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (topo_is_host(t, l->a) || topo_is_host(t, l->b))
            continue;
        fprintf(f, "  <link id=\"l%lld\" bandwidth=\"%.17gBps\" latency=\"%.17gs\" "
                   "sharing_policy=\"%s\"/>\n",
                (long long)i, l->bw, l->lat, policy(l->sharing));
    }
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *l = &t->links[i];
        if (topo_is_host(t, l->a) || topo_is_host(t, l->b))
            continue;
        int32_t a = l->a - t->nhosts, b = l->b - t->nhosts;
        fprintf(f,
                "  <zoneRoute src=\"s%d\" dst=\"s%d\" gw_src=\"s%d_r\" gw_dst=\"s%d_r\"%s>"
                "<link_ctn id=\"l%lld\"%s/></zoneRoute>\n",
                a, b, a, b, l->sharing == LINK_ONE_WAY ? " symmetrical=\"NO\"" : "", (long long)i,
                l->sharing == LINK_FULL_DUPLEX ? " direction=\"UP\"" : "");
    }
}

static void emit_torus(const topology *t, FILE *f)
{
    const topo_link *l = &t->links[0];
    fprintf(f, "<cluster id=\"torus\" topology=\"TORUS\" topo_parameters=\"");
    for (int d = 0; d < t->ndims; d++)
        fprintf(f, "%s%d", d ? "," : "", t->dims[d]);
    fprintf(f,
            "\" prefix=\"h\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" bw=\"%.17gBps\" "
            "lat=\"%.17gs\" sharing_policy=\"%s\"/>\n",
            t->nhosts - 1, l->bw, l->lat, policy(l->sharing));
}

int topo_emit_xml(const topology *t, FILE *f, cs_error *err)
{
    fprintf(f, "<?xml version='1.0'?>\n"
               "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
               "<!-- collsim: %s -->\n"
               "<platform version=\"4.1\">\n",
            t->params[0] ? t->params : t->family);
    if (t->routing == TOPO_ROUTE_TORUS) {
        emit_torus(t, f);
    } else {
        fprintf(f, "<zone id=\"top\" routing=\"DijkstraCache\">\n");
        if (emit_switch_zones(t, f, err) < 0)
            return -1;
        emit_switch_links(t, f);
        fprintf(f, "</zone>\n");
    }
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
