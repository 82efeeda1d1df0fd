/* global_links.h - the global links between groups, shared by dragonfly and dragonflyplus.
 *
 * Each of the g groups has R routers carrying h global ports each: P = R*h ports, port
 * k on router k / h. Every group pair gets m = floor(P / (g-1)) links (the remaining
 * P - m(g-1) ports stay unconnected; g = P + 1, the default, gives m = 1). Port k of
 * group i serves "other group" c = k mod (g-1), copy q = k / (g-1) (for k < m(g-1)); the
 * arrangement maps c to a group:
 *
 *   absolute   j = c if c < i, else c + 1          (ports list the other groups in order)
 *   relative   j = (i + c + 1) mod g               (port c reaches the group c+1 ahead)
 *   circulant  j = (i + o) mod g, o = +(c/2+1) for even c, -(c/2+1) for odd c
 *              (ports alternate forward/backward offsets +1, -1, +2, -2, ...)
 *
 * Copy q of pair (i, j) joins the port of group i serving j as copy q with the port of
 * group j serving i as copy q. With trunk = 1 the m copies become one link of m times
 * the bandwidth, on the routers of copy 0. Minimal routing uses copy 0 of each pair:
 * pair_link[i*g + j] (the zone routes of a group pair are fixed, see topology.h).
 */
#ifndef COLLSIM_TOPO_GLOBAL_LINKS_H
#define COLLSIM_TOPO_GLOBAL_LINKS_H

#include "topologies/topology.h"

enum { ARRANGE_ABSOLUTE, ARRANGE_RELATIVE, ARRANGE_CIRCULANT };
#define ARRANGE_CHOICES "absolute|relative|circulant"

typedef struct global_plan {
    int32_t g, routers, h;      /* groups, routers per group carrying global ports, ports */
    int arrangement, trunk;
    int32_t first, group_stride; /* node of router r of group i: first + i*group_stride + r */
} global_plan;

/* Reads the keys h (default 2), g (default routers*h + 1), arrangement and trunk into gp
 * (routers = the family's routers per group, named `routers_key` in messages) and checks
 * the plan; the caller sets first and group_stride. */
int global_plan_read(kv_list *kv, int32_t routers, const char *routers_key, global_plan *gp,
                     cs_error *err);
/* The number of links global_links_add adds, and the bytes of its tables (the g x g pair
 * table it returns and the one it uses while adding), for topo_size. */
void global_links_size(const global_plan *gp, topo_size *s);
/* Adds the global links (class global); returns the g*g table of copy-0 link ids
 * (-1 on the diagonal), which the caller stores in t->fam_links. */
int64_t *global_links_add(topology *t, const global_plan *gp);
/* The router of group `from` holding the copy-0 global link to group `to` (from != to),
 * and that link as a hop out of it. */
int32_t global_link_holder(const topology *t, int32_t g, int32_t from, int32_t to, topo_hop *hop);
/* Zone route between groups a < b over their copy-0 link (gateways = its routers). */
int global_zone_route(const topology *t, int32_t g, int32_t a, int32_t b, topo_zone_path *out);

#endif
