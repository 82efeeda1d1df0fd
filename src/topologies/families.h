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
/* Their sizes (topology.h: topo_family.size), from the same parameter checks. */
int topo_size_dragonfly(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_dragonflyplus(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_fattree(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_torus(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_hyperx(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_kautz(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_2dfc(kv_list *kv, topo_size *s, cs_error *err);
int topo_size_hammingmesh(kv_list *kv, topo_size *s, cs_error *err);

/* A Hamming graph (every pair of switches differing in one coordinate linked), T hosts
 * per switch (0: direct), multiplicity per dimension; hyperx.c, also used by 2dfc. */
int topo_size_hamming(int nd, const int32_t *dims, int64_t T, topo_size *s, cs_error *err);
int topo_build_hamming(const char *family, int nd, const int32_t *dims, int64_t T,
                       const int32_t *mult, const topo_link_params *lp, topology **out,
                       cs_error *err);

/* Next-hop helpers (next_hops.c) for the families' next_hops functions: */
/* Appends the hop u -> v to hops (*n so far); -1 when full or there is no such link. */
int next_hop_add(const topology *t, int32_t u, int32_t v, topo_hop *hops, int *n, int max);
/* Indirect networks: at a host, its host link up; at the destination's switch, the
 * destination's host link down (1); elsewhere 0 (the family decides); -1 if max < 1. */
int next_hop_host_link(const topology *t, int32_t at, int32_t dst_host, topo_hop *hops, int max);
/* Swaps hops[det] (the deterministic route's hop) into hops[0]; returns n, -1 if det is
 * not in 0..n-1. */
int next_hops_put_first(topo_hop *hops, int n, int det);
/* SimGrid's torus direction rule (route.c): 1 to go +1 from coordinate `from` toward `to`
 * on a ring of d, 0 to go -1. */
int torus_goes_up(int64_t from, int64_t to, int64_t d);

/* The size of a family's topology (topology.h: topo_size_spec); errors not prefixed. */
int topo_size_kv(const char *family, const kv_list *params, topo_size *out, cs_error *err);

/* Builds, checks unknown keys and finishes, without prefixing errors with the family
 * (topology.c; presets prefix file:line:column instead). */
int topo_build_kv(const char *family, kv_list *params, topology **out, cs_error *err);

#endif
