/* grid.h - helpers shared by the grid-shaped families (hyperx, 2dfc, mesh tori):
 * vertices on a D-dimensional grid, dimension 0 fastest (vertex id = sum c_j * stride_j).
 *
 *   GRID_HAMMING  every vertex is linked to every vertex differing in one coordinate
 *                 (HyperX, 2dfc: each row / column / line is a clique);
 *   GRID_MESH     every vertex is linked to its +-1 neighbours, no wrap-around.
 *
 * grid_add_links() adds the links so that SimGrid's Dijkstra graph ids equal vertex ids
 * (for each vertex v in increasing order, its links to smaller neighbours w, as w -> v:
 * every v > 0 has a smaller neighbour, so v first appears right then). With that order,
 * SimGrid's shortest-path tie-break (route.c) is the closed form grid_route():
 * "sign-ordered dimension order" - first the coordinates that must decrease, highest
 * dimension first, then the coordinates that must increase, lowest dimension first. In a
 * Hamming graph each coordinate is fixed in one hop; in a mesh, one step at a time.
 *
 * Family data in the topology: t->ndims / t->dims the grid, t->fam[0] the kind,
 * t->fam[1] the first vertex's node id (0 in direct networks, nhosts otherwise).
 */
#ifndef COLLSIM_TOPO_GRID_H
#define COLLSIM_TOPO_GRID_H

#include "topologies/topology.h"

enum { GRID_HAMMING, GRID_MESH };

/* Installs the grid description (t->ndims, t->dims, t->fam), grid_route as t->route_fn
 * and grid_next_hops as t->next_hops; call it before grid_add_links. */
void grid_set_routing(topology *t, int kind, int32_t first, int ndims, const int32_t *dims);
/* Adds the grid links between vertex nodes first .. first + prod(dims) - 1. The class of
 * a link along dimension j is cls[j], its multiplicity mult[j] (NULL: 1). */
void grid_add_links(topology *t, int kind, int32_t first, const link_class *cls,
                    const int32_t *mult, link_sharing sharing);
/* The closed-form route (see above). */
int grid_route(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max);
/* Minimal next hops (topology.h: topo_next_hops): every differing dimension toward the
 * target; the sign-ordered dimension order's hop first. */
int grid_next_hops(const topology *t, int32_t at, int32_t dst, topo_hop *hops, int max);

#endif
