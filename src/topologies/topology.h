/* topology.h - interconnects as graphs: the contract between topology generators and
 * the simulator / traffic counter.
 *
 * A topology is a set of nodes (hosts first, then switches) and links. Every link has a
 * class (host, local, global), a bandwidth, a latency, and is either full duplex (each
 * direction has its own capacity), shared (one capacity for both directions) or one-way
 * (Kautz). Every node has a group id (Dragonfly group, fat-tree subtree, HammingMesh
 * board; -1 when the family has none).
 *
 * Hosts hang off switches by one host link each (an indirect network, or a direct network
 * whose routers are switches with one host), except in the torus family where the hosts
 * are themselves the torus nodes (SimGrid's TORUS cluster).
 *
 * Routing. Routes are exactly what SimGrid computes on the emitted platform, so that the
 * traffic counter and the simulator agree link by link (tests compare with
 * sg_host_get_route):
 *
 *   TOPO_ROUTE_SHORTEST  the platform is one SimGrid cluster per switch inside a
 *                        DijkstraCache zone with one zoneRoute per inter-switch link.
 *                        SimGrid's Dijkstra counts links and, among equal-length paths,
 *                        keeps the predecessor it settles first: the one with the lowest
 *                        graph id (the order in which switches first appear in the
 *                        emitted routes). topo_route() reproduces exactly that. The result
 *                        is a deterministic minimal route: local-global-local on a
 *                        Dragonfly, up/down with lowest-id ECMP on fat trees and
 *                        Dragonfly+, the unique shortest path on Kautz K(d,2), and one hop
 *                        per dimension on HyperX / 2dfc (dimension order is not expressible
 *                        as shortest paths: the order follows the lowest id).
 *   TOPO_ROUTE_TORUS     SimGrid's TORUS cluster: dimension-order routing, dimension 0
 *                        first, shortest direction (SimGrid's tie rule at half the ring).
 *
 * A family may install a closed-form route function (route_fn) that must return the same
 * links; tests check it against the generic one.
 */
#ifndef COLLSIM_TOPOLOGY_H
#define COLLSIM_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/kv.h"

typedef enum link_class { LINK_HOST, LINK_LOCAL, LINK_GLOBAL, LINK__COUNT } link_class;
const char *link_class_name(link_class c);

typedef enum link_sharing {
    LINK_FULL_DUPLEX, /* each direction has the full bandwidth */
    LINK_SHARED,      /* both directions share it */
    LINK_ONE_WAY      /* only a -> b exists */
} link_sharing;

typedef struct topo_link {
    int32_t a, b;     /* node ids; host links have the host as a */
    uint8_t cls;      /* link_class */
    uint8_t sharing;  /* link_sharing */
    double bw;        /* bytes per second (per direction when full duplex) */
    double lat;       /* seconds */
} topo_link;

/* A directed use of a link by a route. */
typedef struct topo_hop {
    int64_t link;
    int8_t reverse; /* 1: traversed b -> a */
} topo_hop;

typedef enum { TOPO_ROUTE_SHORTEST, TOPO_ROUTE_TORUS } topo_routing;

#define TOPO_MAX_DIMS 8
#define TOPO_MAX_HOPS 64

typedef struct topology topology;
typedef int (*topo_route_fn)(const topology *t, int32_t src_host, int32_t dst_host,
                             topo_hop *hops, int max);

struct topology {
    char family[32];
    char params[512];   /* canonical "family key=value ..." (the cache key) */
    int32_t nhosts;     /* node ids 0..nhosts-1 */
    int32_t nswitches;  /* node ids nhosts..nhosts+nswitches-1 */
    int32_t *group;     /* per node, -1 = none */
    int32_t ngroups;
    int32_t *host_link; /* per host: its host link, -1 for torus hosts */
    topo_link *links;
    int64_t nlinks, cap_links;
    topo_routing routing;
    int ndims;                    /* TOPO_ROUTE_TORUS: dims, dimension 0 fastest */
    int32_t dims[TOPO_MAX_DIMS];
    double router_latency;        /* per switch traversed; added to link latencies */
    int nic_ports;                /* host link bandwidth is nic_ports x port bandwidth */
    topo_route_fn route_fn;       /* optional closed form (must equal the generic route) */
    /* Built by topo_finish(): adjacency over switches for the shortest-path mirror. */
    int64_t *adj_first;           /* per switch index (node - nhosts), CSR offsets */
    int64_t *adj_link;            /* outgoing arcs: link id */
    int8_t *adj_rev;              /* arc goes b -> a */
    int32_t *sg_order;            /* per switch index: SimGrid's graph id (see above) */
    /* Route cache: predecessor arc per (source switch, switch), filled on demand. */
    int64_t **pred_cache;
};

/* ---- building (generators) --------------------------------------------------------- */

topology *topo_new(const char *family, int32_t nhosts, int32_t nswitches);
/* Adds a link between nodes a and b; returns its id. */
int64_t topo_add_link(topology *t, int32_t a, int32_t b, link_class cls, link_sharing sharing,
                      double bw, double lat);
/* Attaches host h to node sw with a host link. */
int64_t topo_attach_host(topology *t, int32_t h, int32_t sw, link_sharing sharing, double bw,
                         double lat);
/* Checks the graph (every host attached, routes exist) and builds the routing tables. */
int topo_finish(topology *t, cs_error *err);
void topo_free(topology *t);

static inline int topo_is_host(const topology *t, int32_t node) { return node < t->nhosts; }
static inline int32_t topo_nnodes(const topology *t) { return t->nhosts + t->nswitches; }
/* The switch a host hangs off (-1 for torus hosts). */
int32_t topo_host_switch(const topology *t, int32_t h);

/* ---- routing -------------------------------------------------------------------------- */

/* Writes the route from src_host to dst_host (empty when equal); returns the number of
 * hops, or -1 if there is none or it is longer than max. Not thread-safe (route cache). */
int topo_route(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max);
/* The generic route (ignores route_fn), for tests of closed forms. */
int topo_route_generic(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max);

/* ---- families --------------------------------------------------------------------------- */

/* Builds a topology of a family from key=value parameters (unknown keys are errors).
 * `collsim topo --help` / docs/topologies.md list the families and their keys. */
int topo_build(const char *family, kv_list *params, topology **out, cs_error *err);
/* "family k=v k=v ..." in one string. */
int topo_build_spec(const char *spec, topology **out, cs_error *err);

typedef struct topo_family {
    const char *name;
    const char *keys;    /* allowed keys, for messages: "p, a, h, g, arrangement, ..." */
    const char *summary;
    int (*build)(kv_list *params, topology **out, cs_error *err);
} topo_family;
size_t topo_family_count(void);
const topo_family *topo_family_at(size_t i);

/* Common link parameters every family accepts: host_bw, host_lat, local_bw, local_lat,
 * global_bw, global_lat, router_lat, nic_ports, sharing (full|shared). */
typedef struct topo_link_params {
    double bw[LINK__COUNT];
    double lat[LINK__COUNT];
    double router_lat;
    int nic_ports;
    link_sharing sharing;
} topo_link_params;
#define TOPO_LINK_KEYS                                                                          \
    "host_bw, host_lat, local_bw, local_lat, global_bw, global_lat, router_lat, nic_ports, "     \
    "sharing"
int topo_link_params_read(kv_list *kv, topo_link_params *lp, cs_error *err);
void topo_apply_link_params(topology *t, const topo_link_params *lp);

/* ---- SimGrid platform ------------------------------------------------------------------- */

/* Host names in the platform: "h<id>". */
void topo_host_name(int32_t h, char *buf, size_t n);
/* Link names: "l<id>" (SimGrid adds _UP/_DOWN to full-duplex links). */
void topo_link_name(int64_t id, char *buf, size_t n);
/* Writes the platform (version 4.1) to f. */
int topo_emit_xml(const topology *t, FILE *f, cs_error *err);
/* Writes it to `path` atomically (temp file + rename). */
int topo_emit_xml_file(const topology *t, const char *path, cs_error *err);

/* ---- figures ------------------------------------------------------------------------------ */

typedef struct topo_stats {
    int32_t hosts, switches, groups;
    int64_t links[LINK__COUNT];
    int min_degree, max_degree; /* switch-to-switch degree */
    int diameter;               /* in links, host to host */
    double bisection_Bps;       /* estimate: see docs/topologies.md */
} topo_stats;
int topo_compute_stats(topology *t, topo_stats *st, cs_error *err);

#endif
