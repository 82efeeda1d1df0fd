/* families.h - the topology family table (one generator file per family) and the
 * helpers generators share. */
#ifndef COLLSIM_TOPO_FAMILIES_H
#define COLLSIM_TOPO_FAMILIES_H

#include "common/util.h"
#include "topologies/topology.h"

/* Terminated by an entry whose name is NULL. */
extern const topo_family topo_families[];

int topo_build_dragonfly(kv_list *kv, topology **out, cs_error *err);     /* dragonfly.c */
int topo_build_dragonflyplus(kv_list *kv, topology **out, cs_error *err); /* dragonflyplus.c */
int topo_build_fattree(kv_list *kv, topology **out, cs_error *err);       /* fattree.c */
int topo_build_torus(kv_list *kv, topology **out, cs_error *err);         /* torus.c */
int topo_build_hyperx(kv_list *kv, topology **out, cs_error *err);        /* hyperx.c */
int topo_build_kautz(kv_list *kv, topology **out, cs_error *err);         /* kautz.c */
int topo_build_2dfc(kv_list *kv, topology **out, cs_error *err);          /* 2dfc.c */
int topo_build_hammingmesh(kv_list *kv, topology **out, cs_error *err);   /* hammingmesh.c */

/* A Hamming graph (every pair of switches differing in one coordinate linked), T hosts
 * per switch (0: direct), multiplicity per dimension; hyperx.c, also used by 2dfc. */
int topo_build_hamming(const char *family, int nd, const int32_t *dims, int64_t T,
                       const int32_t *mult, const topo_link_params *lp, topology **out,
                       cs_error *err);

/* Builds, checks unknown keys and finishes, without prefixing errors with the family
 * (topology.c; presets prefix file:line:column instead). */
int topo_build_kv(const char *family, kv_list *params, topology **out, cs_error *err);

#endif
