/* faults.h - failed and degraded links (docs/topologies.md "Faults").
 *
 * A topology spec may carry three keys besides its family's ("torus dims=8x8
 * fail_links=random:2 fault_seed=7"); `collsim sim --fail-links SPEC` and the Lua keys of
 * the same names add them. They are taken out before the family builds:
 *
 *   fail_links=SPEC            the links are removed from the network
 *   degrade_links=SPEC:FACTOR  their bandwidth is multiplied by FACTOR, 0 < FACTOR <= 1
 *   fault_seed=S               seed of the random choices (default 1)
 *
 * SPEC is a comma list of items:
 *   l<id>[_UP|_DOWN]           a link by id (topo --route, draw --link-csv); the whole
 *                              link fails, both directions
 *   A-B                        the link between nodes A and B, named as draw names them
 *                              (h<node id>, s<node id>: the from/to of --link-csv)
 *   torus_link_from_A_to_B[_UP|_DOWN]   SimGrid's name of a torus link
 *   CLASS:N, CLASS:N%          N links (N percent of the class, rounded, at least 1) of
 *                              class host, local or global, drawn at random
 *   random:N, random:N%        N links drawn among the network links (local and global;
 *                              host links only by their class)
 *   seed=S                     the seed, as fault_seed
 * Random draws are a seeded shuffle (splitmix64) of the candidates in link id order: the
 * same spec and seed give the same links on every machine.
 *
 * Next hops (the packet model's adaptive, UGAL and ECMP routing; fault_hops.c): with
 * failed links, the hops out of a node that begin a minimal path over the remaining
 * links (fewest links; on Dragonfly and Dragonfly+ fewest global links, then fewest
 * links), from distance tables built per destination router on first use.
 *
 * Routing with failed links (fault_route.c). A pair whose family route avoids every
 * failed link keeps it; the others take the shortest path over the remaining links
 * (breadth-first search, neighbours in node id then link id order: the first shortest
 * path found). The platform then holds an explicit route table (fault_emit.c: a Full
 * zone with a route per pair of hosts in direct networks, per pair of switches with
 * hosts in indirect ones), so SimGrid, the traffic counter and the packet model walk
 * the same links. Beyond TOPO_FAULT_TABLE_MAX routes the table would be too large: the
 * network is then routed by SimGrid's DijkstraCache zone over the remaining links
 * (route.c's shortest paths, its tie-break) for every pair - minimal too, but pairs
 * away from the faults may change route. A torus with any fault (failed or degraded
 * link) leaves SimGrid's TORUS cluster (one bandwidth, no missing link): its links are
 * named l<id>_UP / _DOWN. Hosts that cannot reach each other are allowed in the topology;
 * a point whose ranks sit on two of them is an error naming both ranks
 * (topo_faults_check_ranks).
 */
#ifndef COLLSIM_FAULTS_H
#define COLLSIM_FAULTS_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/kv.h"

struct topology;

#define TOPO_FAULT_KEYS "fail_links, degrade_links, fault_seed"

/* The fault keys of a spec, as text. */
typedef struct topo_fault_spec {
    char fail[160];    /* "" = none */
    char degrade[160]; /* "SPEC:FACTOR" or "" */
    uint64_t seed;
    int seed_set;
} topo_fault_spec;

/* What the faults did to a topology (t->faults; NULL without faults). */
typedef struct topo_faults {
    uint8_t *failed;        /* per link: 1 = removed */
    double *factor;         /* per link: bandwidth factor (1 = intact) */
    int64_t nfailed, ndegraded;
    int base_routing;       /* the family's topo_routing before the faults */
    int32_t *comp;          /* per host: its class of mutually reachable hosts */
    int32_t ncomp;          /* 1 when every host reaches every other one */
    int table;              /* routes: family's unless crossing a failure, emitted as a
                               table; 0: Dijkstra over the remaining links (or only
                               bandwidths changed) */
    struct topo_hop **tree; /* table: per source node, the hop into every node on the
                               breadth-first tree of the remaining links (NULL: not yet) */
    int32_t ntree;          /* entries of tree (nodes) */
    int64_t tree_entries;
    /* Next hops around failed links (fault_hops.c); hops_family NULL: not installed. */
    int (*hops_family)(const struct topology *t, int32_t at, int32_t dst_host,
                       struct topo_hop *hops, int max); /* the family's own next hops */
    int hops_global_first;  /* Dragonflies: fewest global links first, then fewest links */
    int32_t hops_base;      /* node id of routing vertex 0 (direct: 0; else nhosts) */
    int32_t hops_nv;        /* routing vertices: switches, or every node when direct */
    int64_t **hops_dist;    /* per destination vertex: its distance from every vertex
                               (NULL: not computed yet) */
    int64_t hops_entries;   /* entries held in hops_dist */
} topo_faults;

/* Routes of an explicit table at most (pairs of hosts, or of switches with hosts). */
#define TOPO_FAULT_TABLE_MAX (1 << 18)

/* 1 if key is one of TOPO_FAULT_KEYS. */
int topo_is_fault_key(const char *key);
/* Moves the fault keys out of a spec's key=value list into fs (checks fault_seed). */
int topo_fault_keys_take(kv_list *kv, topo_fault_spec *fs, cs_error *err);
/* 1 if fs asks for any fault. */
int topo_fault_spec_active(const topo_fault_spec *fs);
/* Applies fs to a finished topology: marks failed links, scales degraded ones, reroutes
 * (fault_route.c) and folds the keys into t->params and the platform cache key. Errors
 * name the key and the allowed values. */
int topo_faults_apply(struct topology *t, const topo_fault_spec *fs, cs_error *err);
void topo_faults_free(topo_faults *f);

/* 1 if the topology's platform is a fault table (fault_emit.c). */
int topo_fault_table(const struct topology *t);
/* 1 if link l is failed and left out of the routing graph (Dijkstra rerouting). */
int topo_fault_skips(const struct topology *t, int64_t l);
/* topo_route of a topology with a fault table (see above). */
int topo_fault_route(struct topology *t, int32_t src_host, int32_t dst_host,
                     struct topo_hop *hops, int max);
/* The platform of a topology with a fault table (fault_emit.c). */
int topo_emit_fault_table(struct topology *t, FILE *f, cs_error *err);
/* 1 if link id l is failed. */
int topo_link_failed(const struct topology *t, int64_t l);
/* The bandwidth factor of link l (1 when intact or failed). */
double topo_link_factor(const struct topology *t, int64_t l);

/* Reroutes a topology whose links were just failed or degraded: shortest paths on the
 * remaining graph (a torus with any fault too); nothing when only bandwidths changed. */
int topo_fault_reroute(struct topology *t, cs_error *err);
/* Replaces the family's next hops (t->next_hops, given as `family`) by the next hops on
 * minimal paths over the remaining links (fault_hops.c; rule in docs/topologies.md "Next
 * hops"). Called by topo_fault_reroute when links failed or the routing changed. */
void topo_fault_hops_install(struct topology *t,
                             int (*family)(const struct topology *t, int32_t at,
                                           int32_t dst_host, struct topo_hop *hops, int max));
/* Reachability with failed links (fault_route.c), called by topo_finish: the classes of
 * mutually reachable hosts and the longest route (max_route_hops). */
int topo_fault_components(struct topology *t, cs_error *err);
/* Fails, naming two ranks and their hosts, when two ranks of a point cannot reach each
 * other. A no-op without failed links. */
int topo_faults_check_ranks(const struct topology *t, const int32_t *host_of_rank, int32_t P,
                            cs_error *err);
/* 1 if hosts a and b can reach each other. */
int topo_hosts_connected(const struct topology *t, int32_t a, int32_t b);

#endif
