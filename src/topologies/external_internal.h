/* external_internal.h - the pieces of the external-platform builder (not a public header;
 * external.h documents the behaviour):
 *
 *   external_graph.c   links and nodes inferred from the routes (ext_graph_infer)
 *   external.c         hosts, groups, classes, route table: the topology
 */
#ifndef COLLSIM_EXTERNAL_INTERNAL_H
#define COLLSIM_EXTERNAL_INTERNAL_H

#include "topologies/external.h"

typedef struct ext_graph {
    int32_t nlinks;          /* topology links */
    int32_t *link_of_sg;     /* per raw link: its topology link */
    int8_t *down_of_sg;      /* per raw link: 1 for the X_DOWN half of a pair (b -> a) */
    int8_t *twin;            /* per topology link: an X_UP / X_DOWN pair (full duplex) */
    int32_t *sg_fwd, *sg_rev; /* per topology link: raw link used a -> b and b -> a (-1) */
    int32_t *end_a, *end_b;  /* per topology link: its nodes (hosts 0..H-1, then routers) */
    int32_t nnodes;
    int8_t *hop_rev;         /* per entry of raw->route_links: traversed b -> a */
    int64_t conflicts;
} ext_graph;

/* Pairs the X_UP / X_DOWN links, walks every route (external.h: "graph") and numbers the
 * nodes: hosts keep their ids, routers follow in order of first appearance. */
void ext_graph_infer(const ext_raw *raw, ext_graph *g);
void ext_graph_free(ext_graph *g);

#endif
