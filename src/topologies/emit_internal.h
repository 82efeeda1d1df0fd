/* emit_internal.h - the pieces of emit.c that fault_emit.c reuses (not a public API). */
#ifndef COLLSIM_EMIT_INTERNAL_H
#define COLLSIM_EMIT_INTERNAL_H

#include <stdio.h>

#include "topologies/topology.h"

/* Hosts of each switch, contiguous in host id order (checked). */
typedef struct switch_hosts {
    int32_t *first, *count;
} switch_hosts;

/* Every link (both halves of full-duplex ones) and, in indirect networks, the loopbacks. */
void emit_links(const topology *t, FILE *f);
/* The same inside a zone "links" (routing None). */
void emit_links_zone(const topology *t, FILE *f);
int hosts_per_switch(const topology *t, switch_hosts *sh, cs_error *err);
void free_switch_hosts(switch_hosts *sh);
/* Switch index s as a zone c<s> (Cluster: hosts, host links, loopbacks, router s<s>) or,
 * without hosts, z<s>. */
void emit_switch_zone(const topology *t, const switch_hosts *sh, int32_t s, FILE *f);
/* A <route> (gw_src NULL) or <zoneRoute> with the hops' SimGrid link names. */
void emit_route(const topology *t, FILE *f, const char *src, const char *dst,
                const char *gw_src, const char *gw_dst, const topo_hop *hops, int n,
                int symmetrical);

#endif
