/* sim_external.c - an external SimGrid platform as the topology of one job (sim_external.h):
 * hosts, placement, routes (cached, read from SimGrid here or in a forked child) and the
 * topology built from them. */
#include "sim/sim_external.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/sim_internal.h"
#include "topologies/external.h"

int sim_is_external_platform(const char *topology_spec)
{
    size_t n = strlen(topology_spec);
    return n > 4 && strcmp(topology_spec + n - 4, ".xml") == 0;
}

/* ---- SimGrid in a child: fills the cache ---------------------------------------------- */

typedef struct fill_job {
    const char *platform;
    uint64_t hash;
    const int32_t *table; /* NULL: hosts only (plus every route on a small platform) */
    int32_t ntable;
} fill_job;

static int fill_cache(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const fill_job *j = arg;
    const char *argv[] = {"collsim", "--log=root.thres:warning", NULL};
    int argc = 2;
    simgrid_init(&argc, (char **)argv);
    simgrid_load_platform(j->platform);
    ext_raw raw;
    memset(&raw, 0, sizeof raw);
    ext_sg_hosts(&raw);
    int rc = ext_cache_write_hosts(j->hash, &raw, err);
    const int32_t *table = j->table;
    int32_t ntable = j->ntable;
    int32_t *all = NULL;
    if (rc == 0 && !table && raw.nhosts >= 1 && raw.nhosts <= EXT_ALL_PAIRS_MAX) {
        all = xmalloc((size_t)raw.nhosts * sizeof *all);
        for (int32_t h = 0; h < raw.nhosts; h++)
            all[h] = h;
        table = all;
        ntable = raw.nhosts;
    }
    if (rc == 0 && table)
        rc = ext_sg_routes(&raw, table, ntable, err);
    if (rc == 0 && table)
        rc = ext_cache_write_routes(j->hash, &raw, err);
    free(all);
    ext_raw_free(&raw);
    *payload = NULL;
    *len = 0;
    return rc;
}

/* ---- the steps ---------------------------------------------------------------------------- */

static int read_hosts(const fill_job *j, int simgrid_loaded, ext_raw *raw, cs_error *err)
{
    if (simgrid_loaded) {
        ext_sg_hosts(raw);
        return ext_cache_write_hosts(j->hash, raw, err);
    }
    int rc = ext_cache_read_hosts(j->hash, raw, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    void *payload;
    size_t len;
    if (sim_run_in_child(fill_cache, j, &payload, &len, err) < 0)
        return -1;
    free(payload);
    rc = ext_cache_read_hosts(j->hash, raw, err);
    return rc == 1 ? 0 : rc < 0 ? -1 : cs_fail(err, "internal: no host cache after SimGrid");
}

/* The route table's hosts: every host of a small platform, else the job's hosts. */
static int table_hosts(const ext_raw *raw, const int32_t *host_of_rank, int32_t P,
                       int32_t **out, int32_t *n, cs_error *err)
{
    int32_t *t = xmalloc((size_t)(raw->nhosts > P ? raw->nhosts : P) * sizeof *t);
    *n = 0;
    if (raw->nhosts <= EXT_ALL_PAIRS_MAX) {
        for (int32_t h = 0; h < raw->nhosts; h++)
            t[(*n)++] = h;
    } else {
        int8_t *used = xcalloc((size_t)raw->nhosts, 1);
        for (int32_t r = 0; r < P; r++)
            used[host_of_rank[r]] = 1;
        for (int32_t h = 0; h < raw->nhosts; h++)
            if (used[h])
                t[(*n)++] = h;
        free(used);
    }
    *out = t;
    if (*n > EXT_TABLE_MAX)
        return cs_fail(err, "the job uses %d hosts of a %d-host platform; at most %d are "
                            "supported on platforms over %d hosts", *n, raw->nhosts,
                       EXT_TABLE_MAX, EXT_ALL_PAIRS_MAX);
    return 0;
}

static int read_routes(fill_job *j, int simgrid_loaded, ext_raw *raw, cs_error *err)
{
    int rc = ext_cache_read_routes(j->hash, j->table, j->ntable, raw, err);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    if (simgrid_loaded) {
        if (ext_sg_routes(raw, j->table, j->ntable, err) < 0)
            return -1;
        return ext_cache_write_routes(j->hash, raw, err);
    }
    void *payload;
    size_t len;
    if (sim_run_in_child(fill_cache, j, &payload, &len, err) < 0)
        return -1;
    free(payload);
    rc = ext_cache_read_routes(j->hash, j->table, j->ntable, raw, err);
    return rc == 1 ? 0 : rc < 0 ? -1 : cs_fail(err, "internal: no route cache after SimGrid");
}

static int place(const ext_raw *raw, const group_map *map, const placement_spec *pl, int32_t P,
                 int32_t Q, int32_t *host_of_rank, cs_error *err)
{
    topology *shell;
    if (ext_host_shell(raw, map, &shell, err) < 0)
        return -1;
    int rc = placement_compute(pl, shell, P, Q, host_of_rank, err);
    topo_free(shell);
    return rc;
}

/* The group map against the job's hosts: none matched is an error, some a warning line on
 * stderr (the CSV / JSON row stays on stdout; groupmap.h: group_map_cover_check). */
static int check_map_cover(const ext_raw *raw, const group_map *map, const int32_t *host_of_rank,
                           int32_t P, cs_error *err)
{
    const char **names = xmalloc((size_t)P * sizeof *names);
    int32_t *group = xmalloc((size_t)P * sizeof *group);
    for (int32_t r = 0; r < P; r++)
        names[r] = raw->host_names[host_of_rank[r]];
    group_ids *ids = group_ids_new();
    group_map_cover cover;
    int rc = group_map_assign(map, names, P, ids, group, err);
    if (rc == 0)
        rc = group_map_cover_check(map, names, group, P, &cover, err);
    char line[700];
    if (rc == 0) {
        group_map_cover_warning(map, &cover, line, sizeof line);
        if (line[0])
            fprintf(stderr, "collsim: %s\n", line);
    }
    group_ids_free(ids);
    free(group);
    free(names);
    return rc;
}

int sim_external_prepare(const char *platform, const char *groups, const placement_spec *pl,
                         int32_t P, int32_t Q, int simgrid_loaded, topology **out,
                         int32_t *host_of_rank, cs_error *err)
{
    *out = NULL;
    fill_job j = {platform, 0, NULL, 0};
    if (ext_platform_hash(platform, &j.hash, err) < 0)
        return -1;
    group_map *map = NULL;
    if (groups && *groups && group_map_load(groups, &map, err) < 0)
        return -1;
    ext_raw raw;
    memset(&raw, 0, sizeof raw);
    int32_t *table = NULL;
    int rc = read_hosts(&j, simgrid_loaded, &raw, err);
    if (rc == 0 && raw.nhosts < 1)
        rc = cs_fail(err, "%s: the platform has no host", platform);
    if (rc == 0)
        rc = place(&raw, map, pl, P, Q, host_of_rank, err);
    if (rc == 0 && map)
        rc = check_map_cover(&raw, map, host_of_rank, P, err);
    if (rc == 0)
        rc = table_hosts(&raw, host_of_rank, P, &table, &j.ntable, err);
    j.table = table;
    if (rc == 0)
        rc = read_routes(&j, simgrid_loaded, &raw, err);
    if (rc == 0)
        rc = ext_topology_build(&raw, platform, map, out, err);
    free(table);
    ext_raw_free(&raw);
    group_map_free(map);
    return rc;
}

int sim_external_describe(const char *platform, const char *groups, topology **out,
                          cs_error *err)
{
    placement_spec first = {.kind = PLACE_LINEAR};
    int32_t host;
    return sim_external_prepare(platform, groups, &first, 1, 1, 0, out, &host, err);
}
