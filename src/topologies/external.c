/* external.c - the topology of an external SimGrid platform from a raw extraction: hosts,
 * groups, links (external_graph.c infers their ends), classes and the route table (see
 * external.h). */
#include "topologies/external.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/external_internal.h"

/* ---- hosts and groups --------------------------------------------------------------------- */

int ext_host_groups(const ext_raw *raw, const group_map *map, int32_t *group_of_host,
                    cs_error *err)
{
    group_ids *ids = group_ids_new();
    int rc = 0;
    if (map)
        rc = group_map_assign(map, (const char *const *)raw->host_names, raw->nhosts, ids,
                              group_of_host, err);
    else
        for (int32_t h = 0; h < raw->nhosts; h++)
            group_of_host[h] = raw->host_group && raw->host_group[h]
                                   ? group_ids_get(ids, raw->host_group[h]) : -1;
    int32_t n = group_ids_count(ids);
    group_ids_free(ids);
    return rc < 0 ? -1 : n;
}

static topo_external *ext_new(const ext_raw *raw, const char *platform)
{
    topo_external *x = xcalloc(1, sizeof *x);
    snprintf(x->platform, sizeof x->platform, "%s", platform ? platform : "");
    x->nhosts = raw->nhosts;
    x->host_names = xmalloc((size_t)(raw->nhosts ? raw->nhosts : 1) * sizeof *x->host_names);
    strmap_init(&x->host_ids);
    x->table_index = xmalloc((size_t)(raw->nhosts ? raw->nhosts : 1) * sizeof *x->table_index);
    for (int32_t h = 0; h < raw->nhosts; h++) {
        x->host_names[h] = xstrdup(raw->host_names[h]);
        strmap_put(&x->host_ids, raw->host_names[h], h);
        x->table_index[h] = -1;
    }
    return x;
}

/* Family, canonical parameters and hash of an external topology. */
static void describe(topology *t, const char *platform)
{
    snprintf(t->params, sizeof t->params, "external %s", platform ? platform : "(raw)");
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *c = t->params; *c; c++)
        h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    t->params_hash = mix64(h);
}

static topology *new_external(const ext_raw *raw, int32_t nswitches, const char *platform)
{
    topology *t = topo_new("external", raw->nhosts, nswitches);
    t->ext = ext_new(raw, platform);
    t->routing = TOPO_ROUTE_TABLE;
    describe(t, platform);
    return t;
}

int ext_host_shell(const ext_raw *raw, const group_map *map, topology **out, cs_error *err)
{
    *out = NULL;
    if (raw->nhosts < 1)
        return cs_fail(err, "the platform has no host");
    topology *t = new_external(raw, 0, NULL);
    int n = ext_host_groups(raw, map, t->group, err);
    if (n < 0) {
        topo_free(t);
        return -1;
    }
    t->ngroups = n;
    *out = t;
    return 0;
}

/* ---- links ------------------------------------------------------------------------------ */

/* Hosts hang off routers: a link with exactly one host end runs host -> router. Swaps the
 * ends (and the SimGrid halves, and the recorded directions) of links the other way. */
static void orient_host_links(const ext_raw *raw, ext_graph *g, int32_t H)
{
    int8_t *flip = xcalloc((size_t)(g->nlinks ? g->nlinks : 1), 1);
    for (int32_t l = 0; l < g->nlinks; l++) {
        if (g->end_a[l] < H || g->end_b[l] >= H)
            continue;
        int32_t v = g->end_a[l];
        g->end_a[l] = g->end_b[l];
        g->end_b[l] = v;
        v = g->sg_fwd[l];
        g->sg_fwd[l] = g->sg_rev[l];
        g->sg_rev[l] = v;
        flip[l] = 1;
    }
    for (int64_t k = 0; k < raw->route_first[raw->npairs]; k++)
        if (flip[g->link_of_sg[raw->route_links[k]]])
            g->hop_rev[k] = (int8_t)!g->hop_rev[k];
    free(flip);
}

static void add_links(topology *t, const ext_raw *raw, const ext_graph *g)
{
    topo_external *x = t->ext;
    x->sg_names = xmalloc((size_t)(2 * g->nlinks + 1) * sizeof *x->sg_names);
    x->nlinks = g->nlinks;
    for (int32_t l = 0; l < g->nlinks; l++) {
        int32_t sg = g->sg_fwd[l];
        topo_add_link(t, g->end_a[l], g->end_b[l], LINK_LOCAL,
                      g->twin[l] ? LINK_FULL_DUPLEX : LINK_SHARED, raw->link_bw[sg],
                      raw->link_lat[sg]);
        x->sg_names[2 * l] = xstrdup(raw->link_names[sg]);
        x->sg_names[2 * l + 1] = xstrdup(raw->link_names[g->sg_rev[l]]);
    }
    int32_t *count = xcalloc((size_t)t->nhosts, sizeof *count);
    for (int32_t l = 0; l < g->nlinks; l++)
        if (g->end_a[l] < t->nhosts && g->end_b[l] >= t->nhosts) {
            count[g->end_a[l]]++;
            t->host_link[g->end_a[l]] = l;
        }
    t->direct = 1;
    for (int32_t h = 0; h < t->nhosts; h++) {
        if (count[h] != 1)
            t->host_link[h] = -1;
        else
            t->direct = 0;
    }
    free(count);
}

/* ---- route table ------------------------------------------------------------------------ */

static void fill_table(topology *t, const ext_raw *raw, const ext_graph *g)
{
    topo_external *x = t->ext;
    int64_t T = raw->ntable, npairs = T * T;
    x->ntable = raw->ntable;
    for (int32_t i = 0; i < raw->ntable; i++)
        x->table_index[raw->table_hosts[i]] = i;
    x->route_first = xmalloc((size_t)(npairs + 1) * sizeof *x->route_first);
    int64_t total = raw->route_first[npairs];
    x->route_hops = xmalloc((size_t)(total ? total : 1) * sizeof *x->route_hops);
    memcpy(x->route_first, raw->route_first, (size_t)(npairs + 1) * sizeof *x->route_first);
    for (int64_t k = 0; k < total; k++)
        x->route_hops[k] = g->link_of_sg[raw->route_links[k]] * 2 + g->hop_rev[k];
}

int topo_external_finish(topology *t, cs_error *err)
{
    topo_external *x = t->ext;
    if (!x || !x->route_first)
        return cs_fail(err, "internal: an external topology without a route table");
    int longest = 1;
    for (int64_t p = 0; p < (int64_t)x->ntable * x->ntable; p++)
        if (x->route_first[p + 1] - x->route_first[p] > longest)
            longest = (int)(x->route_first[p + 1] - x->route_first[p]);
    t->max_route_hops = longest;
    return 0;
}

int topo_external_route(const topology *t, int32_t src, int32_t dst, topo_hop *hops, int max)
{
    const topo_external *x = t->ext;
    int32_t i = x->table_index[src], j = x->table_index[dst];
    if (i < 0 || j < 0)
        return -1;
    int64_t p = (int64_t)i * x->ntable + j, first = x->route_first[p];
    int n = (int)(x->route_first[p + 1] - first);
    if (n > max)
        return -1;
    for (int k = 0; k < n; k++)
        hops[k] = (topo_hop){x->route_hops[first + k] >> 1, (int8_t)(x->route_hops[first + k] & 1)};
    return n;
}

void topo_external_free(topo_external *x)
{
    if (!x)
        return;
    for (int32_t h = 0; h < x->nhosts; h++)
        free(x->host_names[h]);
    free(x->host_names);
    for (int64_t l = 0; l < 2 * x->nlinks; l++)
        free(x->sg_names[l]);
    free(x->sg_names);
    strmap_free(&x->host_ids);
    free(x->table_index);
    free(x->route_first);
    free(x->route_hops);
    free(x);
}

/* ---- groups of routers and link classes ---------------------------------------------------- */

/* Breadth-first layers from the hosts; a router takes the group all its neighbours of the
 * previous layer agree on (external.h, rule 3). */
static void router_groups(topology *t)
{
    int32_t N = topo_nnodes(t), head = 0, tail = 0;
    int32_t *dist = xmalloc((size_t)N * sizeof *dist), *queue = xmalloc((size_t)N * sizeof *queue);
    for (int32_t v = 0; v < N; v++)
        dist[v] = v < t->nhosts ? 0 : -1;
    for (int32_t h = 0; h < t->nhosts; h++)
        queue[tail++] = h;
    while (head < tail) {
        int32_t v = queue[head++];
        if (v >= t->nhosts) { /* its previous layer is complete: decide its group */
            int32_t g = -2;
            for (int64_t k = t->inc_first[v]; k < t->inc_first[v + 1]; k++) {
                int32_t u = t->inc_node[k];
                if (dist[u] == dist[v] - 1)
                    g = g == -2 || g == t->group[u] ? t->group[u] : -1;
            }
            t->group[v] = g < 0 ? -1 : g;
        }
        for (int64_t k = t->inc_first[v]; k < t->inc_first[v + 1]; k++) {
            int32_t u = t->inc_node[k];
            if (dist[u] < 0) {
                dist[u] = dist[v] + 1;
                queue[tail++] = u;
            }
        }
    }
    free(dist);
    free(queue);
}

/* The class property of a SimGrid link (or of the SPLITDUPLEX link it is half of). */
static int prop_class(const strmap *props, const char *name, link_class *cls)
{
    int64_t v;
    if (strmap_get(props, name, &v)) {
        *cls = (link_class)v;
        return 1;
    }
    char base[1024];
    snprintf(base, sizeof base, "%s", name);
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, "_UP") == 0)
        base[n - 3] = '\0';
    else if (n > 5 && strcmp(base + n - 5, "_DOWN") == 0)
        base[n - 5] = '\0';
    else
        return 0;
    if (!strmap_get(props, base, &v))
        return 0;
    *cls = (link_class)v;
    return 1;
}

static void classify_links(topology *t, const strmap *props)
{
    int grouped = 0;
    for (int32_t h = 0; h < t->nhosts; h++)
        grouped |= t->group[h] >= 0;
    for (int64_t l = 0; l < t->nlinks; l++) {
        topo_link *k = &t->links[l];
        link_class cls = LINK_LOCAL;
        int source = 3;
        if (prop_class(props, t->ext->sg_names[2 * l], &cls)) {
            source = 0;
        } else if (topo_is_host(t, k->a) != topo_is_host(t, k->b)) {
            cls = LINK_HOST;
            source = 1;
        } else if (grouped) {
            int32_t ga = t->group[k->a], gb = t->group[k->b];
            cls = ga >= 0 && ga == gb ? LINK_LOCAL : LINK_GLOBAL;
            source = 2;
        }
        k->cls = (uint8_t)cls;
        t->ext->class_source[source]++;
    }
}

/* ---- the topology ------------------------------------------------------------------------ */

int ext_topology_build(const ext_raw *raw, const char *platform, const group_map *map,
                       topology **out, cs_error *err)
{
    *out = NULL;
    if (raw->nhosts < 1)
        return cs_fail(err, "%s: the platform has no host", platform ? platform : "platform");
    strmap props;
    strmap_init(&props);
    if (platform && ext_xml_link_classes(platform, &props, err) < 0)
        return -1;
    ext_graph g;
    ext_graph_infer(raw, &g);
    orient_host_links(raw, &g, raw->nhosts);
    topology *t = new_external(raw, g.nnodes - raw->nhosts, platform);
    add_links(t, raw, &g);
    fill_table(t, raw, &g);
    t->ext->conflicts = g.conflicts;
    int ngroups = ext_host_groups(raw, map, t->group, err);
    int rc = ngroups < 0 ? -1 : topo_finish(t, err);
    if (rc == 0) {
        t->ngroups = ngroups;
        router_groups(t);
        classify_links(t, &props);
        *out = t;
    } else {
        topo_free(t);
    }
    ext_graph_free(&g);
    strmap_free(&props);
    return rc;
}
