/* external.h - external SimGrid platforms as topologies (docs/interop.md).
 *
 * Any platform file SimGrid 3.32 loads (XML 4.1: Full, Floyd, Dijkstra, DijkstraCache and
 * Cluster zones, nested zones, SimGrid's own torus / fat-tree / dragonfly clusters) becomes
 * a topology that the traffic counter and the simulator use like a generated one:
 *
 *  hosts     SimGrid's hosts in natural name order (hostname_cmp: h2 before h10), named as
 *            in the file (topo_host_label). Groups: from a group map (groupmap.h), else from
 *            a host property <prop id="group" value="..."/>, else none.
 *  routes    exactly what sg_host_get_route answers, asked once per host pair and kept in a
 *            route table that topo_route() reads (routing TOPO_ROUTE_TABLE). The table holds
 *            every pair when the platform has at most EXT_ALL_PAIRS_MAX hosts; otherwise
 *            every pair of the job's hosts (at most EXT_TABLE_MAX), and the routes between
 *            the job's first host and every host are read too, to place every router.
 *  links     the SimGrid links those routes use. SimGrid links X_UP and X_DOWN (the halves
 *            of a SPLITDUPLEX link, or collsim's own full-duplex pairs) form one full-duplex
 *            link, X_UP carrying a -> b; any other SimGrid link is one shared link (one
 *            resource for both directions, as in SimGrid). Bandwidth and latency as loaded.
 *  graph     SimGrid does not tell which routers a link joins, so nodes are inferred from
 *            the routes: a route is a walk from its source host to its destination host,
 *            and consecutive links meet at a node. Routes are walked shortest first; a
 *            link's first walk fixes its ends (an end not yet known is a new router); later
 *            walks enter a link at one of its ends (which tells the direction of a shared
 *            link), and nodes found equal are merged. Hosts are never merged with each
 *            other: such a contradiction is counted in ext->conflicts. Traffic does not
 *            depend on the graph (bytes go to SimGrid's links along SimGrid's routes); link
 *            classes, host links and `collsim topo`-style figures do.
 *  classes   per link, the first rule that applies:
 *            1. a `class` property in the file, <link id="X" ...><prop id="class"
 *               value="global"/></link>: host, local or global (on a SPLITDUPLEX link it
 *               holds for both halves);
 *            2. host: the link joins a host and a router;
 *            3. when some host has a group: local if both ends are in the same group, global
 *               otherwise. A router's group is the group all its neighbours one hop closer to
 *               the hosts agree on (breadth-first layers from the hosts), none otherwise:
 *               Dragonfly routers and fat-tree leaves take their hosts' group, Dragonfly+
 *               spines and fat-tree aggregation switches their leaves' group, core switches
 *               above several groups none;
 *            4. local.
 *  host links  a host's only host-class link is t->host_link (oriented host -> router);
 *            when no host has one the network is direct.
 *
 * SimGrid answers routes only under simgrid_run() (the platform is sealed then), and it can
 * be initialised once per process. ext_sg_hosts / ext_sg_routes run where SimGrid is
 * initialised and the platform loaded; ext_sg_routes runs simgrid_run() once (an actor at
 * time 0, the clock stays 0), after which the caller may start actors and run again.
 * ext_topology_build needs no SimGrid (tests build raw extractions by hand). Extractions
 * are cached (ext_cache_*): src/sim/sim_external.c loads a platform in this process (for a
 * simulation) or fills the cache from a forked child (traffic only).
 */
#ifndef COLLSIM_EXTERNAL_H
#define COLLSIM_EXTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/strmap.h"
#include "topologies/groupmap.h"
#include "topologies/topology.h"

#define EXT_ALL_PAIRS_MAX 512 /* platforms up to this many hosts: every pair's route */
#define EXT_TABLE_MAX 4096    /* hosts of a job on a bigger platform (16.7 M routes) */

/* What SimGrid said: hosts, the links the routes use, the routes. */
typedef struct ext_raw {
    int32_t nhosts;
    char **host_names;    /* natural order: host id = index */
    char **host_group;    /* per host: its "group" property, NULL if none */
    int32_t nlinks;       /* SimGrid links used by the routes */
    char **link_names;
    double *link_bw, *link_lat;
    int32_t ntable;       /* the route table's hosts, ascending ids */
    int32_t *table_hosts;
    /* Routes: pairs 0 .. ntable^2-1 are table pairs (i, j) in row-major order (i == j:
     * empty), then any extra pairs (the job's first host to and from every host). */
    int64_t npairs;
    int32_t *pair_src, *pair_dst;
    int64_t *route_first; /* npairs + 1 offsets into route_links */
    int32_t *route_links; /* indices into link_names, in route order */
    int64_t nroutes;      /* routes added so far (ext_raw_add_route) */
    size_t cap_route_links, cap_links;
} ext_raw;

void ext_raw_free(ext_raw *r);
/* Sets the table (ntable ascending host ids) and the pairs it implies: every table pair,
 * plus, when the table is not every host, table_hosts[0] to and from every other host.
 * Routes are then added in pair order with ext_raw_add_route. */
void ext_raw_set_table(ext_raw *r, const int32_t *table_hosts, int32_t ntable);
/* Appends the next pair's route (link indices); returns the pair index. */
int64_t ext_raw_add_route(ext_raw *r, const int32_t *links, int n);
/* Index of a link name (added with bw/lat if new). */
int32_t ext_raw_link(ext_raw *r, strmap *index, const char *name, double bw, double lat);

/* The per-topology data of an external platform (topology.h: t->ext). */
typedef struct topo_external {
    char platform[1024];
    int32_t nhosts;
    int64_t nlinks;       /* links named in sg_names */
    char **host_names;    /* per host */
    strmap host_ids;      /* name -> host id */
    char **sg_names;      /* per link: [2l] SimGrid link used a -> b, [2l+1] used b -> a */
    int32_t *table_index; /* per host: its row in the route table, -1 if none */
    int32_t ntable;
    int64_t *route_first; /* ntable^2 + 1 */
    int32_t *route_hops;  /* link << 1 | reverse */
    int64_t conflicts;    /* walks that would have merged two hosts (see above) */
    int64_t class_source[4]; /* links classed by: property, host rule, groups, default */
} topo_external;

/* Builds the topology of a raw extraction. `platform` is the file (read for class
 * properties; NULL: none); `map` may be NULL (host group properties, else no groups). */
int ext_topology_build(const ext_raw *raw, const char *platform, const group_map *map,
                       topology **out, cs_error *err);
/* A topology with the raw's hosts and their groups but no links (for placing ranks
 * before the routes are read: placement needs names and groups only). */
int ext_host_shell(const ext_raw *raw, const group_map *map, topology **out, cs_error *err);

/* Host groups from the map or the group properties: ids into group_of_host (-1: none);
 * returns the number of groups or -1. */
int ext_host_groups(const ext_raw *raw, const group_map *map, int32_t *group_of_host,
                    cs_error *err);

/* Used by topology.c / route.c for TOPO_ROUTE_TABLE. */
int topo_external_finish(topology *t, cs_error *err);
int topo_external_route(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max);
void topo_external_free(topo_external *x);

/* <link id=..> ... <prop id="class" value=..> ... </link> of a platform file: link id ->
 * link_class. Errors: an unreadable file, a class other than host/local/global (file:line). */
int ext_xml_link_classes(const char *path, strmap *classes, cs_error *err);

/* ---- SimGrid (external_sg.c): SimGrid initialised, platform loaded ---------------------- */

/* Hosts in natural order and their group properties (before simgrid_run). */
void ext_sg_hosts(ext_raw *r);
/* Every route of the table (ext_raw_set_table semantics), from an actor under
 * simgrid_run(). Needs the hosts (ext_sg_hosts). */
int ext_sg_routes(ext_raw *r, const int32_t *table_hosts, int32_t ntable, cs_error *err);

/* ---- cache (external_cache.c) ------------------------------------------------------------ */

/* A hash of the platform file's content (and the cache format). */
int ext_platform_hash(const char *path, uint64_t *hash, cs_error *err);
/* Cache files: <cache dir>/ext-<hash>.hosts and ext-<hash>-<table hash>.routes. Returns 1
 * when read, 0 when the file is absent, -1 on error (a corrupt file is an error naming it). */
int ext_cache_read_hosts(uint64_t hash, ext_raw *r, cs_error *err);
int ext_cache_write_hosts(uint64_t hash, const ext_raw *r, cs_error *err);
int ext_cache_read_routes(uint64_t hash, const int32_t *table_hosts, int32_t ntable, ext_raw *r,
                          cs_error *err);
int ext_cache_write_routes(uint64_t hash, const ext_raw *r, cs_error *err);

#endif
