/* topology.h - interconnects as graphs: the contract between topology generators and
 * the simulator / traffic counter.
 *
 * A topology is a set of nodes (hosts first, then switches) and links. Every link has a
 * class (host, local, global), a bandwidth, a latency, and is either full duplex (each
 * direction has its own capacity), shared (one capacity for both directions) or one-way
 * (Kautz). Every node has a group id (Dragonfly / Dragonfly+ group, fat-tree subtree,
 * HammingMesh board, 2dfc / HyperX row; -1 when the family has none).
 *
 * Indirect networks: hosts hang off switches by one host link each (t->host_link).
 * Direct networks (t->direct = 1: torus, Kautz / 2dfc / HyperX with T=0, HammingMesh):
 * the hosts are themselves the routers; they have no host link, routes go host to host
 * (and through the switches of the HammingMesh row/column trees).
 *
 * Routing. Routes are exactly what SimGrid computes on the emitted platform, so that the
 * traffic counter and the simulator agree link by link (tests/test_sim_topo_routes.c
 * compares with sg_host_get_route on every family; `collsim topo ... --check N` too):
 *
 *   TOPO_ROUTE_ZONES     (dragonfly, dragonflyplus, fattree) hierarchical platform: a top
 *                        zone (routing Full) holding one zone per group (Full), each
 *                        holding one zone per switch. The family's zone_route() gives, for
 *                        two children of a zone, the gateway switches and the links between
 *                        them; SimGrid composes routes recursively (route to the gateway,
 *                        the zone route, route from the other gateway) and topo_route()
 *                        composes them the same way. This is how a Dragonfly gets exactly
 *                        local-global-local routes, and fat trees deterministic ECMP.
 *                        With flat_groups (dragonfly groups up to 256 nodes), a group zone
 *                        holds its hosts and switches directly and routes inside by Floyd:
 *                        fewer zones load much faster (SimGrid 3.32 walks every zone for
 *                        every new name), and inside a Dragonfly group shortest paths are
 *                        unique.
 *   TOPO_ROUTE_SHORTEST  (hyperx, kautz, 2dfc, mesh, hammingmesh) one DijkstraCache zone:
 *                        SimGrid counts links and, among equal-length paths, keeps the
 *                        predecessor it settles first: the one with the lowest graph id
 *                        (the order in which nodes first appear in the emitted routes).
 *                        topo_route() reproduces exactly that (route.c). Families lay out
 *                        their links so that graph ids follow node ids, which makes the
 *                        choice a closed form (docs/topologies.md: "sign-ordered dimension
 *                        order" on HyperX / 2dfc / mesh; the unique shortest path on Kautz).
 *   TOPO_ROUTE_TORUS     SimGrid's TORUS cluster: dimension-order routing, dimension 0
 *                        first, shortest direction (SimGrid's tie rule at half the ring).
 *
 * A family may install a closed-form route function (route_fn) that must return the same
 * links; tests check it against the generic one.
 *
 * Several ranks on one host: the platform gives every host a loopback link (bandwidth
 * intra_bw, latency intra_lat; SimGrid FATPIPE). topo_route(h, h) is empty (the loopback is
 * not a network link of any class); topo_loopback_link_name() names it in SimGrid.
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
    uint16_t mult;    /* parallel physical links folded into this one (bw is the sum) */
    double bw;        /* bytes per second (per direction when full duplex) */
    double lat;       /* seconds, router latency included (see topo_apply_link_params) */
} topo_link;

/* A directed use of a link by a route. */
typedef struct topo_hop {
    int64_t link;
    int8_t reverse; /* 1: traversed b -> a */
} topo_hop;

/* TOPO_ROUTE_TABLE: an external SimGrid platform's routes, as SimGrid gave them (external.h) */
typedef enum { TOPO_ROUTE_SHORTEST, TOPO_ROUTE_TORUS, TOPO_ROUTE_ZONES, TOPO_ROUTE_TABLE } topo_routing;

#define TOPO_MAX_DIMS 8
#define TOPO_MAX_HOPS 64 /* longest route composed of zone routes (TOPO_ROUTE_ZONES) */

/* ---- hierarchical zones (TOPO_ROUTE_ZONES) -------------------------------------------- */

#define TOPO_ZONE_TOP -1  /* t->zone[s]: the switch's zone sits directly in the top zone */
#define TOPO_ZONE_NONE -2 /* the switch has no SimGrid netpoint: it only appears inside
                             the link lists of zone routes (fat-tree spines and cores) */
#define TOPO_MAX_ZONE_HOPS 8

/* The route between two children of a zone: from switch gw_src to switch gw_dst. */
typedef struct topo_zone_path {
    int32_t gw_src, gw_dst;
    int n;
    topo_hop hops[TOPO_MAX_ZONE_HOPS];
} topo_zone_path;

typedef struct topology topology;
typedef int (*topo_route_fn)(const topology *t, int32_t src_host, int32_t dst_host,
                             topo_hop *hops, int max);
/* Next hops of the packet model's adaptive routing (see topo_next_hops below). */
typedef int (*topo_next_hops_fn)(const topology *t, int32_t at, int32_t dst_host,
                                 topo_hop *hops, int max);
/* Children a < b of `zone`: group zone ids when zone is TOPO_ZONE_TOP and t->nzones > 0,
 * switch node ids otherwise. Returns 1 and fills out, 0 when the pair needs no route
 * (no host route ever crosses it), -1 on internal error. The route b -> a is the reverse. */
typedef int (*topo_zone_route_fn)(const topology *t, int32_t zone, int32_t a, int32_t b,
                                  topo_zone_path *out);

struct topology {
    char family[32];
    char params[512];   /* canonical "family key=value ..." (keys sorted; for display) */
    uint64_t params_hash; /* hash of the full canonical string: the platform cache key */
    int32_t nhosts;     /* node ids 0..nhosts-1 */
    int32_t nswitches;  /* node ids nhosts..nhosts+nswitches-1 */
    int32_t *group;     /* per node, -1 = none */
    int32_t ngroups;
    int32_t *host_link; /* per host: its host link, -1 in direct networks */
    int direct;         /* hosts are routers (no host links) */
    topo_link *links;
    int64_t nlinks, cap_links;
    topo_routing routing;
    int ndims;                    /* grid families: dims, dimension 0 fastest */
    int32_t dims[TOPO_MAX_DIMS];
    /* The hosts' grid, when they form one (0 dimensions otherwise): host id = sum c_j *
     * stride_j with dimension 0 fastest, collsim's one convention (docs/topologies.md,
     * "Dimension order"). Torus: its dims; HammingMesh: (a x) x (b y); HyperX and 2dfc:
     * the switch dims, with T hosts per switch (T > 1) as a first dimension T. The
     * simulator takes topology-aware algorithms' default dims from it
     * (src/sim/rank_shape.h). */
    int host_ndims;
    int32_t host_dims[TOPO_MAX_DIMS];
    double router_latency;        /* per switch traversed; folded into link latencies */
    int nic_ports;                /* host link bandwidth is nic_ports x port bandwidth */
    double intra_bw, intra_lat;   /* loopback of every host (ranks sharing a node) */
    topo_route_fn route_fn;       /* optional closed form (must equal the generic route) */
    /* TOPO_ROUTE_ZONES */
    int32_t *zone;                /* per switch index: group zone, TOPO_ZONE_TOP or _NONE */
    int32_t nzones;
    topo_zone_route_fn zone_route;
    int flat_groups;              /* group zones hold their hosts and switches directly
                                     (Floyd: O(n^3) to load, for small groups); needs
                                     unique shortest paths inside a group, which
                                     zone_route(group, a, b) must return */
    /* family data for route_fn / zone_route (documented in each family's file) */
    int32_t fam[8];
    int64_t *fam_links;
    /* Built by topo_finish(): incidence lists of every node (sorted by neighbour), for
     * topo_hop_between() and the statistics. */
    int64_t *inc_first;           /* per node, CSR offsets */
    int32_t *inc_node;            /* neighbour */
    int64_t *inc_link;            /* link id */
    /* TOPO_ROUTE_SHORTEST: the routing graph (switches, or every node when direct). */
    int32_t vbase, nvert;         /* vertex v is node vbase + v */
    int64_t *adj_first;           /* per vertex, CSR offsets of outgoing arcs */
    int64_t *adj_link;            /* arc: link id */
    int8_t *adj_rev;              /* arc goes b -> a */
    int32_t *sg_order;            /* per vertex: SimGrid's graph id (see above) */
    /* Set by topo_finish(): no route is longer (the size of a hop buffer that always
     * suffices). Zones: TOPO_MAX_HOPS; otherwise d(s, h0) + d(h0, d) over all hosts. */
    int max_route_hops;
    /* Route cache: predecessor arc per (source vertex, vertex), filled on demand and
     * dropped as a whole when it would exceed ~256 MiB. */
    int32_t **pred_cache;
    int64_t pred_cached;
    /* Host names users see (docs/interop.md): "h<id>" unless a preset's `hostnames:` sets
     * host_format (one integer conversion, e.g. "nid%06d") applied to host_first + id. */
    char host_format[32];
    int64_t host_first;
    /* An external SimGrid platform (external.h: names, SimGrid link names, route table);
     * NULL for generated topologies. */
    struct topo_external *ext;
    /* Optional (families with adaptive routing): the minimal next hops, topo_next_hops. */
    topo_next_hops_fn next_hops;
    /* The family's next_hops when, in an indirect network, its hops out of a switch toward
     * a host not below it depend on that host's switch only (every host of a switch has
     * the same next hops there), else NULL. The packet model then remembers them per
     * (switch, destination switch) while next_hops is still this function (faults replace
     * it by fault_hops.c's, which depend on the host: its host link may have failed). */
    topo_next_hops_fn next_hops_by_switch;
    /* Failed and degraded links (faults.h); NULL without faults. */
    struct topo_faults *faults;
};

/* ---- building (generators) --------------------------------------------------------- */

topology *topo_new(const char *family, int32_t nhosts, int32_t nswitches);
/* Adds a link between nodes a and b (multiplicity 1); returns its id. */
int64_t topo_add_link(topology *t, int32_t a, int32_t b, link_class cls, link_sharing sharing,
                      double bw, double lat);
/* Attaches host h to node sw with a host link. */
int64_t topo_attach_host(topology *t, int32_t h, int32_t sw, link_sharing sharing, double bw,
                         double lat);
/* Checks the graph (every host attached; every host reaches every other one, along the
 * links' directions: "the network is not connected: no path from host hX to host hY")
 * and builds the routing tables. */
int topo_finish(topology *t, cs_error *err);
void topo_free(topology *t);
/* Frees what topo_finish derives from the links for routing (route caches, incidence and
 * adjacency lists, SimGrid order) and zeroes it, so that topo_finish can build it again
 * (fault rerouting, faults.h). */
void topo_free_routing(topology *t);

static inline int topo_is_host(const topology *t, int32_t node) { return node < t->nhosts; }
static inline int32_t topo_nnodes(const topology *t) { return t->nhosts + t->nswitches; }
/* The switch a host hangs off (-1 in direct networks). */
int32_t topo_host_switch(const topology *t, int32_t h);
/* The lowest-id link between nodes u and v as a hop from u to v; -1 if there is none
 * (one-way links count only from a to b). Needs topo_finish(). */
int topo_hop_between(const topology *t, int32_t u, int32_t v, topo_hop *hop);
/* The node a hop arrives at. */
static inline int32_t topo_hop_head(const topology *t, topo_hop h)
{
    return h.reverse ? t->links[h.link].a : t->links[h.link].b;
}

/* ---- host names (docs/interop.md) ------------------------------------------------------ */

/* The name users give host h in allocations, host files and group maps: the preset's
 * format, SimGrid's name on an external platform, else "h<id>". */
void topo_host_label(const topology *t, int32_t h, char *buf, size_t n);
/* The host with that label, or (generated topologies) that "h<id>"; -1 if none. */
int32_t topo_host_lookup(const topology *t, const char *name);
/* The host's name in the SimGrid platform ("h<id>", or an external platform's own name). */
void topo_sg_host_name(const topology *t, int32_t h, char *buf, size_t n);

/* ---- routing -------------------------------------------------------------------------- */

/* Writes the route from src_host to dst_host (empty when equal); returns the number of
 * hops, or -1 if it is longer than max (never with max >= t->max_route_hops). Not
 * thread-safe (route cache). */
int topo_route(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max);
/* The family's own route (route_fn, else the generic one), failed links ignored. */
int topo_route_base(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max);
/* The generic route (ignores route_fn), for tests of closed forms. */
int topo_route_generic(topology *t, int32_t src_host, int32_t dst_host, topo_hop *hops, int max);

/* ---- next hops (the packet model's adaptive routing) ------------------------------------ */

/* The hops out of node `at` (a host, or a router on the way) that begin a minimal route
 * to host `dst_host`, for the families that define them (t->next_hops: torus and mesh,
 * hyperx, 2dfc, fattree, dragonfly, dragonflyplus). hops[0] is always the hop of the
 * family's deterministic routing, so that following hops[0] from the source walks exactly
 * topo_route(src, dst) (tests/test_topo_next_hops.c checks every pair of small networks).
 * What "minimal" means per family (docs/topologies.md "Next hops"):
 *
 *   torus          every dimension whose coordinate differs, in its shorter direction
 *                  (both directions when the target is exactly half an even ring away)
 *   mesh, hyperx,  every dimension whose coordinate differs, toward the target (a mesh
 *   2dfc           moves one step, a Hamming graph straight to the target coordinate)
 *   fattree        going up, every uplink of the switch (all reach a common ancestor);
 *                  going down, the unique downlink
 *   dragonfly      the single local-global-local hop (copy-0 global link of the pair)
 *   dragonflyplus  from a leaf: every spine toward a host of the same group, else the
 *                  spine holding the pair's global link; from a spine that does not hold
 *                  the global link it needs (only on Valiant paths): every leaf
 *
 * With failed links (faults.h) fault_hops.c replaces these rules: the hops that begin a
 * minimal path over the remaining links (fewest links; on Dragonfly and Dragonfly+ fewest
 * global links first), hops[0] the family's hop when it is one of them (the walk is then
 * minimal, not necessarily topo_route); 0 hops where the destination cannot be reached.
 *
 * In indirect networks a host's only next hop is its host link, and the destination's
 * switch answers the host link down. Returns the number of hops (0 when at is dst_host),
 * or -1 when the family has no next hops or more than `max` (never with max >=
 * topo_max_degree(t)). */
int topo_next_hops(const topology *t, int32_t at, int32_t dst_host, topo_hop *hops, int max);
/* The largest number of links at one node (a buffer size for topo_next_hops). */
int topo_max_degree(const topology *t);

/* ---- families --------------------------------------------------------------------------- */

/* The size of a topology, known from its parameters before anything is built (so that a
 * command can refuse one that cannot fit: sim/estimate.h). Counts are doubles: they come
 * from closed forms and feed estimates; extra_bytes is what a family allocates beyond its
 * nodes and links (the Dragonflies' g x g table of group-pair links). */
typedef struct topo_size {
    double hosts, switches, links;
    double extra_bytes;
} topo_size;

/* Builds a topology of a family from key=value parameters (unknown keys are errors).
 * `collsim topo --help` / docs/topologies.md list the families and their keys. */
int topo_build(const char *family, kv_list *params, topology **out, cs_error *err);
/* "family k=v k=v ..." in one string, or "preset.yaml k=v ..." (overrides). */
int topo_build_spec(const char *spec, topology **out, cs_error *err);
/* A YAML machine preset (a platforms/ .yaml file; format in docs/topologies.md), with optional
 * key=value overrides (may be NULL). Errors name file:line:column. */
int topo_build_preset(const char *path, const kv_list *overrides, topology **out, cs_error *err);
/* The size topo_build_spec would build, without building it (O(1) for families; a preset
 * reads its file). Errors are those of topo_build_spec's parameter checks. */
int topo_size_spec(const char *spec, topo_size *out, cs_error *err);
int topo_size_preset(const char *path, const kv_list *overrides, topo_size *out, cs_error *err);

typedef struct topo_family {
    const char *name;
    const char *keys;    /* allowed keys, for messages: "p, a, h, g, arrangement, ..." */
    const char *summary;
    int (*build)(kv_list *params, topology **out, cs_error *err);
    /* the size build would give, from the same parameters and with the same errors */
    int (*size)(kv_list *params, topo_size *out, cs_error *err);
} topo_family;
size_t topo_family_count(void);
const topo_family *topo_family_at(size_t i);

/* Link parameters families accept (docs/topologies.md "Link keys"):
 *   host_bw host_lat nic_ports   (families with host links)
 *   local_bw local_lat           (families with local links)
 *   global_bw global_lat         (families with global links)
 *   router_lat sharing intra_bw intra_lat  (every family) */
typedef struct topo_link_params {
    double bw[LINK__COUNT];
    double lat[LINK__COUNT];
    double router_lat;
    int nic_ports;
    link_sharing sharing;
    double intra_bw, intra_lat;
} topo_link_params;
#define TOPO_KEYS_HOST "host_bw, host_lat, nic_ports, "
#define TOPO_KEYS_LOCAL "local_bw, local_lat, "
#define TOPO_KEYS_GLOBAL "global_bw, global_lat, "
#define TOPO_KEYS_COMMON "router_lat, sharing, intra_bw, intra_lat"
#define TOPO_LINK_KEYS TOPO_KEYS_HOST TOPO_KEYS_LOCAL TOPO_KEYS_GLOBAL TOPO_KEYS_COMMON
#define TOPO_CLASS_BIT(c) (1u << (c))
#define TOPO_ALL_CLASSES (TOPO_CLASS_BIT(LINK_HOST) | TOPO_CLASS_BIT(LINK_LOCAL) | TOPO_CLASS_BIT(LINK_GLOBAL))
/* Reads every link key (all classes, sharing defaults to full). */
int topo_link_params_read(kv_list *kv, topo_link_params *lp, cs_error *err);
/* Reads the keys of the classes in `classes` (TOPO_CLASS_BIT mask) and the common keys;
 * a key of a class the family lacks is an error naming why. */
int topo_link_params_read_for(kv_list *kv, unsigned classes, link_sharing def_sharing,
                              topo_link_params *lp, cs_error *err);
/* Sets every link's bandwidth (class bandwidth x multiplicity, x nic_ports on host links)
 * and latency (class latency + router latency: a full router_lat on inter-switch links and
 * in direct networks, half on each host link, so that a route crossing n switches gets n
 * router latencies), the sharing of two-way links and the loopback. */
void topo_apply_link_params(topology *t, const topo_link_params *lp);

/* ---- SimGrid platform ------------------------------------------------------------------- */
/* SimGrid 3.32 answers sg_host_get_route() only once the platform is sealed, i.e. from an
 * actor after simgrid_run() started (before, Dijkstra zones fail inside SimGrid). */

/* Host names in the platform: "h<id>". */
void topo_host_name(int32_t h, char *buf, size_t n);
/* Base name of link id (every family but the torus): "l<id>". A shared or one-way link
 * has that name in SimGrid; a full-duplex one is two SimGrid links, "l<id>_UP" (a -> b)
 * and "l<id>_DOWN" (b -> a). */
void topo_link_name(int64_t id, char *buf, size_t n);
/* The exact name of the SimGrid link a hop uses ("l12_UP", "l12_DOWN", "l7", and on the
 * torus SimGrid's own "torus_link_from_4_to_5_UP"). */
void topo_sg_link_name(const topology *t, topo_hop hop, char *buf, size_t n);
/* The SimGrid link of host h's route to itself (its loopback): "lo<h>" when hosts hang
 * off switches, "torus_link_<h>_loopback" on the torus, and SimGrid's shared
 * "__loopback__" in the other direct networks (SimGrid's Dijkstra zones cannot hold
 * per-host loopbacks; the platform sets its bandwidth and latency through <config>).
 * All are FATPIPE: every flow gets intra_bw. */
void topo_loopback_link_name(const topology *t, int32_t h, char *buf, size_t n);
/* Writes the platform (version 4.1) to f. */
int topo_emit_xml(const topology *t, FILE *f, cs_error *err);
/* Writes it to `path` atomically (temp file + rename). */
int topo_emit_xml_file(const topology *t, const char *path, cs_error *err);
/* The cached platform of t: <cache>/<family>-<hash>.xml, emitted if missing. The cache
 * directory is $COLLSIM_CACHE_DIR, else .cache/collsim/ in the working directory. */
int topo_platform_path(const topology *t, char *out, size_t n, cs_error *err);
/* The hosts-only platform (emit_hosts.c): every host in one zone without routing, no
 * link, no route, for models whose network is not SimGrid's (the packet model). */
int topo_emit_hosts_xml(const topology *t, FILE *f, cs_error *err);
/* Its cached file, <cache>/hosts-<nhosts>.xml, emitted if missing; an external platform's
 * own file (topo_platform_path). */
int topo_hosts_platform_path(const topology *t, char *out, size_t n, cs_error *err);
/* The cache directory ($COLLSIM_CACHE_DIR, else .cache/collsim), created if missing. */
int topo_cache_dir(char *out, size_t n, cs_error *err);

/* Result of topo_sg_check_routes(). */
typedef struct topo_sg_check {
    int64_t pairs;        /* host pairs compared (loopbacks included) */
    int64_t mismatches;   /* pairs whose SimGrid route or latency differs from ours */
    double load_s;        /* SimGrid: loading and sealing the platform */
    char first_mismatch[768];
} topo_sg_check;
/* Loads `platform` (emitted from t) into SimGrid and compares sg_host_get_route and its
 * latency with topo_route(), link by link and direction by direction, for `npairs`
 * pseudo-random host pairs drawn from `seed` (every pair when npairs >= nhosts^2), plus
 * host 0 to the last host and the loopback of the first hosts. SimGrid can be initialised
 * once per process: call this once, in a process (or forked child) of its own. */
int topo_sg_check_routes(topology *t, const char *platform, int64_t npairs, uint64_t seed,
                         topo_sg_check *res, cs_error *err);

/* ---- figures ------------------------------------------------------------------------------ */

typedef struct topo_stats {
    int32_t hosts, switches, groups;
    int64_t links[LINK__COUNT];
    int min_degree, max_degree; /* router-to-router degree (out-degree for one-way links) */
    int diameter;               /* in links, host to host, along topo_route() */
    int diameter_sources;       /* sources examined; < routing vertices: a lower bound */
    int diameter_exact;         /* 1 when every source was examined */
    double bisection_Bps;       /* estimate: see docs/topologies.md */
} topo_stats;
int topo_compute_stats(topology *t, topo_stats *st, cs_error *err);

#endif
