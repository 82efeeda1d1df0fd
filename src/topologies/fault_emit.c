/* fault_emit.c - the platform of a topology with failed or degraded links and an
 * explicit route table (faults.h, fault_route.c).
 *
 * One Full zone "top". Direct networks: the hosts, every link, and one route per ordered
 * pair of hosts that reach each other (SimGrid's shared loopback serves a host's route to
 * itself, set through <config> as for the other direct networks). Indirect networks:
 * every link in a zone "links", one Cluster zone per switch with hosts (its hosts, host
 * links, loopbacks and router: emit.c's switch zones) and one zoneRoute per ordered pair
 * of such switches, from router to router: the route between their first hosts without
 * the two host links (every host of a switch routes alike: fault_route.c). Switches
 * without hosts are no netpoint: their links appear inside the routes. Failed links are
 * declared (a host link belongs to its cluster) and appear in no route.
 */
#include <stdlib.h>

#include "common/util.h"
#include "topologies/emit_internal.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

static void emit_direct(topology *t, FILE *f, topo_hop *hops)
{
    for (int32_t h = 0; h < t->nhosts; h++)
        fprintf(f, "<host id=\"h%d\" speed=\"1Gf\"/>\n", h);
    emit_links(t, f);
    char a[32], b[32];
    for (int32_t s = 0; s < t->nhosts; s++)
        for (int32_t d = 0; d < t->nhosts; d++) {
            if (s == d || !topo_hosts_connected(t, s, d))
                continue;
            int n = topo_route(t, s, d, hops, t->max_route_hops);
            snprintf(a, sizeof a, "h%d", s);
            snprintf(b, sizeof b, "h%d", d);
            emit_route(t, f, a, b, NULL, NULL, hops, n, 0);
        }
}

static int emit_indirect(topology *t, FILE *f, topo_hop *hops, cs_error *err)
{
    switch_hosts sh = {0};
    if (hosts_per_switch(t, &sh, err) < 0) {
        free_switch_hosts(&sh);
        return -1;
    }
    emit_links_zone(t, f);
    for (int32_t s = 0; s < t->nswitches; s++)
        if (sh.count[s])
            emit_switch_zone(t, &sh, s, f);
    char za[32], zb[32], ga[32], gb[32];
    for (int32_t a = 0; a < t->nswitches; a++)
        for (int32_t b = 0; b < t->nswitches; b++) {
            if (a == b || !sh.count[a] || !sh.count[b])
                continue;
            int32_t ha = sh.first[a], hb = sh.first[b];
            if (!topo_hosts_connected(t, ha, hb))
                continue;
            int n = topo_route(t, ha, hb, hops, t->max_route_hops);
            if (n < 2) {
                free_switch_hosts(&sh);
                return cs_fail(err, "internal: no route between switches %d and %d", a, b);
            }
            snprintf(za, sizeof za, "c%d", a);
            snprintf(zb, sizeof zb, "c%d", b);
            snprintf(ga, sizeof ga, "s%d", a);
            snprintf(gb, sizeof gb, "s%d", b);
            emit_route(t, f, za, zb, ga, gb, hops + 1, n - 2, 0);
        }
    free_switch_hosts(&sh);
    return 0;
}

int topo_emit_fault_table(topology *t, FILE *f, cs_error *err)
{
    topo_hop *hops = xmalloc((size_t)t->max_route_hops * sizeof *hops);
    fprintf(f, "<zone id=\"top\" routing=\"Full\">\n");
    int rc = 0;
    if (t->direct)
        emit_direct(t, f, hops);
    else
        rc = emit_indirect(t, f, hops, err);
    fprintf(f, "</zone>\n");
    free(hops);
    return rc;
}
