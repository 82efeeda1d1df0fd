/* job_groups.c - the group of every rank of a job from an allocation and a group map or a
 * topology (job_groups.h). */
#include "sim/job_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/util.h"
#include "sim/estimate.h"
#include "topologies/groupmap.h"
#include "topologies/topology.h"

void job_groups_free(job_groups *g)
{
    for (int32_t r = 0; g->rank_host && r < g->P; r++)
        free(g->rank_host[r]);
    free(g->rank_host);
    free(g->group_of_rank);
    memset(g, 0, sizeof *g);
}

static int groups_from_map(const char *path, job_groups *g, cs_error *err)
{
    group_map *map;
    if (group_map_load(path, &map, err) < 0)
        return -1;
    group_ids *ids = group_ids_new();
    const char *const *hosts = (const char *const *)g->rank_host;
    int rc = group_map_assign(map, hosts, g->P, ids, g->group_of_rank, err);
    group_map_cover cover;
    if (rc == 0)
        rc = group_map_cover_check(map, hosts, g->group_of_rank, g->P, &cover, err);
    if (rc == 0)
        group_map_cover_warning(map, &cover, g->warning, sizeof g->warning);
    group_ids_free(ids);
    group_map_free(map);
    return rc;
}

static int groups_from_topology(const char *spec, int64_t max_memory, job_groups *g,
                                cs_error *err)
{
    topology *t;
    if (estimate_topology_check(spec, max_memory, err) < 0 || topo_build_spec(spec, &t, err) < 0)
        return -1;
    int rc = 0;
    for (int32_t r = 0; r < g->P && rc == 0; r++) {
        int32_t h = topo_host_lookup(t, g->rank_host[r]);
        if (h < 0) { /* lrdn0155.leonardo.local is the preset's lrdn0155 */
            char short_name[256];
            snprintf(short_name, sizeof short_name, "%.*s",
                     (int)strcspn(g->rank_host[r], "."), g->rank_host[r]);
            h = short_name[0] ? topo_host_lookup(t, short_name) : -1;
        }
        if (h < 0)
            rc = cs_fail(err, "the topology has no host '%s' (rank %d)", g->rank_host[r], r);
        else
            g->group_of_rank[r] = t->group[h];
    }
    topo_free(t);
    return rc;
}

/* ngroups, nodes, ungrouped_ranks. */
static void count(job_groups *g)
{
    strmap hosts;
    strmap_init(&hosts);
    int32_t top = -1;
    for (int32_t r = 0; r < g->P; r++)
        top = g->group_of_rank[r] > top ? g->group_of_rank[r] : top;
    int8_t *used = xcalloc((size_t)top + 2, 1);
    for (int32_t r = 0; r < g->P; r++) {
        int64_t ignored;
        if (!strmap_get(&hosts, g->rank_host[r], &ignored)) {
            strmap_put(&hosts, g->rank_host[r], r);
            g->nodes++;
        }
        int32_t grp = g->group_of_rank[r];
        if (grp < 0)
            g->ungrouped_ranks++;
        else if (!used[grp]) {
            used[grp] = 1;
            g->ngroups++;
        }
    }
    free(used);
    strmap_free(&hosts);
}

int job_groups_compute(const job_groups_spec *s, job_groups *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    if (!!(s->groups && *s->groups) == !!(s->topology && *s->topology))
        return cs_fail(err, "give a group map or a topology (exactly one)");
    if (s->ranks_per_node < 1)
        return cs_fail(err, "ranks per node must be >= 1");
    const char *spec = s->alloc;
    if (strcmp(spec, "env") == 0 && !(spec = getenv("SLURM_JOB_NODELIST")))
        return cs_fail(err, "alloc env: $SLURM_JOB_NODELIST is not set");
    allocation a;
    if (alloc_read(spec, &a, err) < 0) {
        alloc_free(&a);
        return -1;
    }
    int64_t P = s->ranks ? s->ranks : alloc_default_ranks(&a, s->ranks_per_node);
    int rc = P < 1 || P > INT32_MAX ? cs_fail(err, "bad number of ranks %lld", (long long)P) : 0;
    if (rc == 0 && a.per_rank && alloc_ranks_per_host(&a) > s->ranks_per_node)
        rc = cs_fail(err, "%s: a host runs %d ranks, more than the %d ranks per node given",
                     spec, alloc_ranks_per_host(&a), s->ranks_per_node);
    if (rc == 0 && a.per_rank && s->order == ALLOC_ORDER_CYCLIC)
        rc = cs_fail(err, "%s: a PICO CSV fixes every rank's host; cyclic order does not apply",
                     spec);
    int32_t *index = xmalloc((size_t)(rc == 0 ? P : 1) * sizeof *index);
    if (rc == 0)
        rc = alloc_place(&a, (int32_t)P, s->ranks_per_node, s->order, index, err);
    if (rc == 0) {
        out->P = (int32_t)P;
        out->rank_host = xmalloc((size_t)P * sizeof *out->rank_host);
        out->group_of_rank = xmalloc((size_t)P * sizeof *out->group_of_rank);
        for (int32_t r = 0; r < P; r++)
            out->rank_host[r] = xstrdup(a.hosts.names[index[r]]);
        rc = s->groups && *s->groups ? groups_from_map(s->groups, out, err)
                                     : groups_from_topology(s->topology, s->max_memory, out, err);
    }
    if (rc == 0)
        count(out);
    free(index);
    alloc_free(&a);
    if (rc < 0)
        job_groups_free(out);
    return rc;
}

int job_groups_traffic(const job_groups *g, int32_t ranks_per_node, const alg_registry *user,
                       const coll_spec *spec, const char *algorithm, group_traffic *out,
                       cs_error *err)
{
    coll_spec s = *spec;
    s.P = g->P;
    s.ranks_per_node = ranks_per_node;
    const alg_desc *alg = registry_find(user, s.coll, algorithm, err);
    if (!alg)
        return -1;
    alg_run run;
    if (alg_run_prepare(&run, alg, &s, err) < 0)
        return -1;
    traffic_count_groups(&run, g->group_of_rank, out);
    alg_run_release(&run);
    return 0;
}
