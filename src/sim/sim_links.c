/* sim_links.c - which topology link resource each SimGrid link is, and counting bytes on
 * SimGrid's routes.
 *
 * The topology module names every SimGrid link (topo_sg_link_name: one name per
 * direction of a full-duplex link, one for a shared or one-way link), so tagging is a walk
 * over the topology's links and directions: the SimGrid link a hop uses gets the resource
 * the traffic counter gives that hop (traffic_resource). sim_links_map() fails if a name
 * is missing from the loaded platform, so an emitter change shows up as an error, never
 * as silently wrong counts. Loopbacks (topo_loopback_link_name) stay untagged: they are
 * not network links of any class.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "sim/sim_internal.h"

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
    char name[128];
    for (int64_t id = 0; id < t->nlinks; id++) {
        int directions = t->links[id].sharing == LINK_FULL_DUPLEX ? 2 : 1;
        for (int dir = 0; dir < directions; dir++) {
            topo_hop hop = {id, (int8_t)dir};
            topo_sg_link_name(t, hop, name, sizeof name);
            if (tag_link(name, traffic_resource(t, hop), err) < 0)
                return -1;
        }
    }
    return 0;
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
        int64_t res = (int64_t)(intptr_t)sg_link_get_data(l) - 1;
        if (res >= 0)
            traffic_tally_hop(tally, res, bytes);
    }
}
