/* sim_links.c - which topology link each SimGrid link is, and counting bytes on SimGrid's
 * routes.
 *
 * The emitter (src/topologies/emit.c) decides the SimGrid names:
 *   - inter-switch links: "l<id>" (topo_link_name);
 *   - host links of shortest-path platforms: the private links of the switch's <cluster
 *     id="s<k>">, which SimGrid names "s<k>_link_<host>";
 *   - torus links (one <cluster id="torus" topology="TORUS">): SimGrid names the link from
 *     node a to its +1 neighbour b "torus_link_from_<a>_to_<b>".
 * A full-duplex (SPLITDUPLEX) link is two SimGrid links, "<name>_UP" (a -> b, the
 * direction the emitted route uses from a to b) and "<name>_DOWN" (b -> a).
 * sim_links_map() checks that every topology link exists under its name, so a change in
 * the emitter shows up as an error here (and in tests/test_sim_routes.c), not as silently
 * wrong traffic counts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "sim/sim_internal.h"

/* SimGrid's name of topology link `id`, without the _UP/_DOWN suffix. */
static void sg_base_name(const topology *t, int64_t id, char *buf, size_t n)
{
    const topo_link *l = &t->links[id];
    if (t->routing == TOPO_ROUTE_TORUS)
        snprintf(buf, n, "torus_link_from_%d_to_%d", l->a, l->b);
    else if (topo_is_host(t, l->a))
        snprintf(buf, n, "s%d_link_%d", l->b - t->nhosts, l->a);
    else
        topo_link_name(id, buf, n);
}

static int tag_link(const char *name, int64_t resource, cs_error *err)
{
    sg_link_t l = sg_link_by_name(name);
    if (!l)
        return cs_fail(err, "internal: the SimGrid platform has no link '%s'", name);
    if (sg_link_get_data(l))
        return cs_fail(err, "internal: SimGrid link '%s' stands for two topology links", name);
    sg_link_set_data(l, (void *)(intptr_t)(resource + 1));
    return 0;
}

int sim_links_map(const topology *t, cs_error *err)
{
    char base[128], name[160];
    for (int64_t id = 0; id < t->nlinks; id++) {
        sg_base_name(t, id, base, sizeof base);
        if (t->links[id].sharing != LINK_FULL_DUPLEX) {
            if (tag_link(base, 2 * id, err) < 0)
                return -1;
            continue;
        }
        snprintf(name, sizeof name, "%s_UP", base);
        if (tag_link(name, 2 * id, err) < 0)
            return -1;
        snprintf(name, sizeof name, "%s_DOWN", base);
        if (tag_link(name, 2 * id + 1, err) < 0)
            return -1;
    }
    return 0;
}

int64_t sim_links_resource(sg_link_t link)
{
    return (int64_t)(intptr_t)sg_link_get_data(link) - 1;
}

void sim_links_count_route(traffic_tally *tally, sg_host_t src, sg_host_t dst, int64_t bytes,
                           void *route)
{
    xbt_dynar_t links = route;
    xbt_dynar_reset(links);
    sg_host_get_route(src, dst, links);
    unsigned i;
    sg_link_t l;
    xbt_dynar_foreach (links, i, l) {
        int64_t res = sim_links_resource(l);
        if (res >= 0)
            traffic_tally_hop(tally, res, bytes);
    }
}
