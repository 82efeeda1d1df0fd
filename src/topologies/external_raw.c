/* external_raw.c - building and freeing raw extractions of external platforms (see
 * external.h: ext_raw). */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/external.h"

void ext_raw_free(ext_raw *r)
{
    for (int32_t h = 0; h < r->nhosts; h++) {
        free(r->host_names[h]);
        free(r->host_group ? r->host_group[h] : NULL);
    }
    free(r->host_names);
    free(r->host_group);
    for (int32_t l = 0; l < r->nlinks; l++)
        free(r->link_names[l]);
    free(r->link_names);
    free(r->link_bw);
    free(r->link_lat);
    free(r->table_hosts);
    free(r->pair_src);
    free(r->pair_dst);
    free(r->route_first);
    free(r->route_links);
    memset(r, 0, sizeof *r);
}

void ext_raw_set_table(ext_raw *r, const int32_t *table_hosts, int32_t ntable)
{
    free(r->table_hosts);
    free(r->pair_src);
    free(r->pair_dst);
    free(r->route_first);
    r->ntable = ntable;
    r->table_hosts = xmalloc((size_t)(ntable ? ntable : 1) * sizeof *r->table_hosts);
    memcpy(r->table_hosts, table_hosts, (size_t)ntable * sizeof *r->table_hosts);
    int extra = ntable > 0 && ntable < r->nhosts;
    r->npairs = (int64_t)ntable * ntable + (extra ? 2 * (int64_t)(r->nhosts - 1) : 0);
    r->pair_src = xmalloc((size_t)(r->npairs ? r->npairs : 1) * sizeof *r->pair_src);
    r->pair_dst = xmalloc((size_t)(r->npairs ? r->npairs : 1) * sizeof *r->pair_dst);
    int64_t k = 0;
    for (int32_t i = 0; i < ntable; i++)
        for (int32_t j = 0; j < ntable; j++, k++) {
            r->pair_src[k] = table_hosts[i];
            r->pair_dst[k] = table_hosts[j];
        }
    for (int32_t h = 0; extra && h < r->nhosts; h++) {
        if (h == table_hosts[0])
            continue;
        r->pair_src[k] = table_hosts[0];
        r->pair_dst[k++] = h;
        r->pair_src[k] = h;
        r->pair_dst[k++] = table_hosts[0];
    }
    r->route_first = xcalloc((size_t)r->npairs + 1, sizeof *r->route_first);
    r->nroutes = 0;
}

int64_t ext_raw_add_route(ext_raw *r, const int32_t *links, int n)
{
    int64_t at = r->route_first[r->nroutes];
    VEC_RESERVE(r->route_links, r->cap_route_links, (size_t)(at + n));
    if (n > 0) /* an empty route (a host to itself) may come before any link: NULL array */
        memcpy(r->route_links + at, links, (size_t)n * sizeof *links);
    r->route_first[r->nroutes + 1] = at + n;
    return r->nroutes++;
}

int32_t ext_raw_link(ext_raw *r, strmap *index, const char *name, double bw, double lat)
{
    int64_t id;
    if (strmap_get(index, name, &id))
        return (int32_t)id;
    if ((size_t)r->nlinks + 1 > r->cap_links) { /* three parallel arrays grow together */
        r->cap_links = r->cap_links ? 2 * r->cap_links : 64;
        r->link_names = xrealloc(r->link_names, r->cap_links * sizeof *r->link_names);
        r->link_bw = xrealloc(r->link_bw, r->cap_links * sizeof *r->link_bw);
        r->link_lat = xrealloc(r->link_lat, r->cap_links * sizeof *r->link_lat);
    }
    r->link_names[r->nlinks] = xstrdup(name);
    r->link_bw[r->nlinks] = bw;
    r->link_lat[r->nlinks] = lat;
    strmap_put(index, name, r->nlinks);
    return r->nlinks++;
}
