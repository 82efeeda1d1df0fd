/* job_groups.h - the group of every rank of a real job: an allocation as the scheduler
 * printed it (alloc.h) and a group map (groupmap.h) or a topology's own groups. This is
 * what `collsim traffic` counts with (traffic.h: traffic_count_groups), and the C API a
 * scripting layer binds for "what would algorithm B save on my job" (docs/interop.md).
 *
 * Example: the 128 nodes lrdn[0001-0128] of Leonardo, 1 rank per node, groups from the
 * preset's map:
 *
 *   job_groups g;
 *   job_groups_spec s = {.alloc = "lrdn[0001-0128]", .groups = "platforms/leonardo.yaml",
 *                        .ranks_per_node = 1};
 *   if (job_groups_compute(&s, &g, &err) == 0) { ... g.P, g.group_of_rank ... }
 *   job_groups_free(&g);
 */
#ifndef COLLSIM_JOB_GROUPS_H
#define COLLSIM_JOB_GROUPS_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "common/error.h"
#include "sim/alloc.h"
#include "traffic/traffic.h"

typedef struct job_groups_spec {
    const char *alloc;      /* hostlist, node list / PICO CSV file, or "env" */
    const char *groups;     /* group map file or preset .yaml with a `groups:` map, or NULL */
    const char *topology;   /* or: a topology spec whose hosts' groups are used (NULL) */
    int32_t ranks;          /* P; 0: the whole allocation (nodes x ranks_per_node, CSV rows) */
    int32_t ranks_per_node; /* Q >= 1 */
    alloc_order order;      /* node lists: block or cyclic */
    int64_t max_memory;     /* refuse a topology estimated to need more (0: no limit) */
} job_groups_spec;

typedef struct job_groups {
    int32_t P;
    char **rank_host;        /* per rank: its host name */
    int32_t *group_of_rank;  /* per rank: dense group id, -1 = no group */
    int32_t ngroups;         /* groups the job's hosts are in */
    int32_t nodes;           /* distinct hosts of the job */
    int32_t ungrouped_ranks; /* ranks whose host has no group */
    char warning[512];       /* a map matching only some hosts: the line to print on
                                stderr (groupmap.h: group_map_cover_warning); "" */
} job_groups;

/* Exactly one of groups / topology must be given. Errors: the allocation's (file:line or
 * the hostlist's column), the map's (file:line), P beyond the allocation, a host the
 * topology does not have (a name with a domain suffix is also tried without it), more
 * than Q ranks on one host of a CSV, a map that puts no host of the job in a group
 * ("<map>: no host of the job is in the group map (..., e.g. 'x')"). */
int job_groups_compute(const job_groups_spec *s, job_groups *out, cs_error *err);
void job_groups_free(job_groups *g);

/* The internal / external bytes (traffic.h: group_traffic) of one algorithm on the job:
 * spec gives the collective, size, root, params and dims; its P and ranks_per_node are
 * taken from the job and Q. user: user-defined algorithms, NULL for the built-ins. */
int job_groups_traffic(const job_groups *g, int32_t ranks_per_node, const alg_registry *user,
                       const coll_spec *spec, const char *algorithm, group_traffic *out,
                       cs_error *err);

#endif
