/* families.h - the topology family table (one generator file per family). */
#ifndef COLLSIM_TOPO_FAMILIES_H
#define COLLSIM_TOPO_FAMILIES_H

#include "topologies/topology.h"

/* Terminated by an entry whose name is NULL. */
extern const topo_family topo_families[];

int topo_build_torus(kv_list *kv, topology **out, cs_error *err);   /* torus.c */
int topo_build_fattree(kv_list *kv, topology **out, cs_error *err); /* fattree.c */

#endif
