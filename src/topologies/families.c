/* families.c - the table of topology families: name, keys, summary, generator.
 * docs/topologies.md documents every family and key. */
#include "topologies/families.h"

const topo_family topo_families[] = {
    {"dragonfly", "p, a, h, g, arrangement, trunk, " TOPO_LINK_KEYS,
     "Dragonfly (Kim et al. 2008): p hosts/router, a routers/group, h global links/router, "
     "g groups; local-global-local routing", topo_build_dragonfly, topo_size_dragonfly},
    {"dragonflyplus", "p, leaves, spines, h, g, arrangement, trunk, " TOPO_LINK_KEYS,
     "Dragonfly+: groups are 2-level fat trees (leaves with p hosts, spines with h global "
     "links); up-global-down routing", topo_build_dragonflyplus, topo_size_dragonflyplus},
    {"fattree",
     "levels, radix, oversub, hosts_per_leaf, leaves, spines, pods, leaves_per_pod, aggs, "
     "cores, group, " TOPO_LINK_KEYS,
     "tapered fat tree, 2 or 3 levels; group = full-bandwidth subtree; up/down ECMP",
     topo_build_fattree, topo_size_fattree},
    {"torus", "dims, mesh, ports, group, " TOPO_KEYS_LOCAL TOPO_KEYS_COMMON,
     "torus (or mesh=1) of any dimensions, one host per node; dimension-order routing",
     topo_build_torus, topo_size_torus},
    {"hyperx", "dims, T, K, " TOPO_LINK_KEYS,
     "HyperX: switches linked along every dimension, T hosts per switch (0: direct)",
     topo_build_hyperx, topo_size_hyperx},
    {"kautz", "d, k, T, " TOPO_KEYS_HOST TOPO_KEYS_LOCAL TOPO_KEYS_COMMON,
     "Kautz graph K(d,k), one-way links, T hosts per vertex (0: direct); unique shortest paths",
     topo_build_kautz, topo_size_kautz},
    {"2dfc", "m1, m2, T, " TOPO_LINK_KEYS,
     "2D fully connected m2 x m1 (rows and columns are cliques), shared links by default",
     topo_build_2dfc, topo_size_2dfc},
    {"hammingmesh", "a, b, x, y, " TOPO_KEYS_LOCAL TOPO_KEYS_GLOBAL TOPO_KEYS_COMMON,
     "HammingMesh: x by y boards of a x b 2D mesh, rows/columns joined by switches",
     topo_build_hammingmesh, topo_size_hammingmesh},
    {NULL, NULL, NULL, NULL, NULL},
};
