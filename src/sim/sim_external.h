/* sim_external.h - an external SimGrid platform as the topology of one job
 * (docs/interop.md; the topology itself is built by topologies/external.h).
 *
 * A topology spec naming a file that ends in ".xml" is an external platform: any platform
 * SimGrid 3.32 loads (XML 4.1). sim_external_prepare() gives the job its topology and its
 * placement in four steps:
 *
 *   1. hosts      the platform's hosts in natural name order (cache file, else SimGrid);
 *   2. placement  the ranks are placed on those hosts by name (placement.h: --hostfile,
 *                 --alloc, or linear / roundrobin / random / fragmented on the host ids);
 *   3. routes     sg_host_get_route for every pair of hosts when the platform has at most
 *                 EXT_ALL_PAIRS_MAX hosts, else every pair of the job's hosts; cached in
 *                 the platform cache directory (topo_cache_dir), keyed by the file's bytes;
 *   4. topology   ext_topology_build: SimGrid's links, the route table, link classes from
 *                 `class` link properties, from the group map, else local.
 *
 * SimGrid may be initialised once per process. The simulator (sim_run) initialises it and
 * loads the platform first, then calls this with simgrid_loaded = 1, so hosts and routes
 * come from the loaded platform (routes under one simgrid_run() at time 0, before the rank
 * actors start). Everything else (the traffic model, `collsim traffic`, Lua) passes 0: a
 * cache miss is filled by a forked child that runs SimGrid, and this process never
 * initialises SimGrid.
 */
#ifndef COLLSIM_SIM_EXTERNAL_H
#define COLLSIM_SIM_EXTERNAL_H

#include <stdint.h>

#include "common/error.h"
#include "sim/placement.h"
#include "topologies/topology.h"

/* 1 when a topology spec names an external platform (a path ending in ".xml"). */
int sim_is_external_platform(const char *topology_spec);

/* The topology of `platform` for a job of P ranks, Q per host, placed by `pl` into
 * host_of_rank[0..P-1]. groups: a group map file or preset (groupmap.h: group_map_load),
 * NULL or "" for none (then hosts' <prop id="group"> properties, if any). Errors: an
 * unreadable or invalid platform (SimGrid's message, from the child), a bad group map
 * (file:line), a group map that puts none of the job's hosts in a group, a placement error,
 * a job over EXT_TABLE_MAX hosts on a big platform. A map matching only some of the job's
 * hosts prints one warning line on stderr ("collsim: warning: MAP: U of N hosts ..."). */
int sim_external_prepare(const char *platform, const char *groups, const placement_spec *pl,
                         int32_t P, int32_t Q, int simgrid_loaded, topology **out,
                         int32_t *host_of_rank, cs_error *err);

/* The platform as a topology before any job (a scenario validating it, docs/scenarios.md):
 * its hosts, routers, links and groups (from `groups` if given) as sim_external_prepare
 * builds them for one rank on its first host. */
int sim_external_describe(const char *platform, const char *groups, topology **out,
                          cs_error *err);

#endif
