/* families.c - the table of topology families: name, keys, summary, generator. */
#include "topologies/families.h"

const topo_family topo_families[] = {
    {"torus", "dims, " TOPO_LINK_KEYS,
     "torus (wrap-around), one host per node, dimension-order routing", topo_build_torus},
    {"fattree", "leaves, leaf_hosts, leaf_up, spines, " TOPO_LINK_KEYS,
     "2-level tapered fat tree: leaves with leaf_hosts hosts and leaf_up uplinks; group = leaf",
     topo_build_fattree},
    {NULL, NULL, NULL, NULL},
};
