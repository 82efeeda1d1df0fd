/* topology.c - building topologies, link parameters shared by every family. */
#include "topologies/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

const char *link_class_name(link_class c)
{
    switch (c) {
    case LINK_HOST: return "host";
    case LINK_LOCAL: return "local";
    case LINK_GLOBAL: return "global";
    default: return "?";
    }
}

topology *topo_new(const char *family, int32_t nhosts, int32_t nswitches)
{
    topology *t = xcalloc(1, sizeof *t);
    snprintf(t->family, sizeof t->family, "%s", family);
    t->nhosts = nhosts;
    t->nswitches = nswitches;
    t->group = xmalloc((size_t)(nhosts + nswitches) * sizeof *t->group);
    for (int32_t i = 0; i < nhosts + nswitches; i++)
        t->group[i] = -1;
    t->host_link = xmalloc((size_t)(nhosts ? nhosts : 1) * sizeof *t->host_link);
    for (int32_t h = 0; h < nhosts; h++)
        t->host_link[h] = -1;
    t->nic_ports = 1;
    return t;
}

int64_t topo_add_link(topology *t, int32_t a, int32_t b, link_class cls, link_sharing sharing,
                      double bw, double lat)
{
    size_t cap = (size_t)t->cap_links;
    VEC_RESERVE(t->links, cap, (size_t)t->nlinks + 1);
    t->cap_links = (int64_t)cap;
    t->links[t->nlinks] = (topo_link){a, b, (uint8_t)cls, (uint8_t)sharing, bw, lat};
    return t->nlinks++;
}

int64_t topo_attach_host(topology *t, int32_t h, int32_t sw, link_sharing sharing, double bw,
                         double lat)
{
    int64_t id = topo_add_link(t, h, sw, LINK_HOST, sharing, bw, lat);
    t->host_link[h] = (int32_t)id;
    return id;
}

int32_t topo_host_switch(const topology *t, int32_t h)
{
    int32_t l = t->host_link[h];
    return l < 0 ? -1 : t->links[l].b;
}

void topo_free(topology *t)
{
    if (!t)
        return;
    if (t->pred_cache)
        for (int32_t s = 0; s < t->nswitches; s++)
            free(t->pred_cache[s]);
    free(t->pred_cache);
    free(t->group);
    free(t->host_link);
    free(t->links);
    free(t->adj_first);
    free(t->adj_link);
    free(t->adj_rev);
    free(t->sg_order);
    free(t);
}

void topo_host_name(int32_t h, char *buf, size_t n)
{
    snprintf(buf, n, "h%d", h);
}

void topo_link_name(int64_t id, char *buf, size_t n)
{
    snprintf(buf, n, "l%lld", (long long)id);
}

/* ---- link parameters ------------------------------------------------------------------ */

int topo_link_params_read(kv_list *kv, topo_link_params *lp, cs_error *err)
{
    static const char *const names[LINK__COUNT] = {"host", "local", "global"};
    for (int c = 0; c < LINK__COUNT; c++) {
        char key[32];
        snprintf(key, sizeof key, "%s_bw", names[c]);
        if (kv_bandwidth(kv, key, "25GBps", &lp->bw[c], err) < 0)
            return -1;
        snprintf(key, sizeof key, "%s_lat", names[c]);
        if (kv_time(kv, key, "100ns", &lp->lat[c], err) < 0)
            return -1;
    }
    int64_t ports;
    int sharing;
    if (kv_time(kv, "router_lat", "0ns", &lp->router_lat, err) < 0 ||
        kv_int(kv, "nic_ports", 1, 1, 64, &ports, err) < 0 ||
        kv_choice(kv, "sharing", "full", "full|shared", &sharing, err) < 0)
        return -1;
    lp->nic_ports = (int)ports;
    lp->sharing = sharing ? LINK_SHARED : LINK_FULL_DUPLEX;
    return 0;
}

/* The per-hop router latency is folded into the latency of every link that enters a
 * switch, so SimGrid's route latency (sum of link latencies) includes it. */
void topo_apply_link_params(topology *t, const topo_link_params *lp)
{
    t->router_latency = lp->router_lat;
    t->nic_ports = lp->nic_ports;
    for (int64_t i = 0; i < t->nlinks; i++) {
        topo_link *l = &t->links[i];
        l->bw = lp->bw[l->cls] * (l->cls == LINK_HOST ? lp->nic_ports : 1);
        l->lat = lp->lat[l->cls] + lp->router_lat;
        if (l->sharing != LINK_ONE_WAY)
            l->sharing = (uint8_t)lp->sharing;
    }
}

/* ---- families ----------------------------------------------------------------------------- */

#include "topologies/families.h"

size_t topo_family_count(void)
{
    size_t n = 0;
    while (topo_families[n].name)
        n++;
    return n;
}

const topo_family *topo_family_at(size_t i)
{
    return i < topo_family_count() ? &topo_families[i] : NULL;
}

int topo_build(const char *family, kv_list *params, topology **out, cs_error *err)
{
    *out = NULL;
    char names[512] = "";
    for (size_t i = 0; topo_families[i].name; i++) {
        const topo_family *f = &topo_families[i];
        if (strcmp(f->name, family) == 0) {
            topology *t = NULL;
            if (f->build(params, &t, err) < 0) {
                topo_free(t);
                cs_error_prefix(err, "%s", family);
                return -1;
            }
            if (kv_check_unused(params, f->keys, err) < 0 || topo_finish(t, err) < 0) {
                topo_free(t);
                cs_error_prefix(err, "%s", family);
                return -1;
            }
            /* canonical parameter string: family + every key, in the order given */
            size_t len = (size_t)snprintf(t->params, sizeof t->params, "%s", family);
            for (int k = 0; k < params->n && len < sizeof t->params; k++)
                len += (size_t)snprintf(t->params + len, sizeof t->params - len, " %s=%s",
                                        params->items[k].key, params->items[k].value);
            *out = t;
            return 0;
        }
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", f->name);
    }
    return cs_fail(err, "unknown topology family '%s' (allowed: %s)", family, names);
}

int topo_build_spec(const char *spec, topology **out, cs_error *err)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    char *argv[KV_MAX + 1];
    int argc = 0;
    for (char *tok = strtok(buf, " \t"); tok && argc <= KV_MAX; tok = strtok(NULL, " \t"))
        argv[argc++] = tok;
    if (argc == 0)
        return cs_fail(err, "empty topology specification");
    kv_list kv;
    kv_init(&kv);
    if (kv_parse_args(&kv, argc - 1, argv + 1, err) < 0)
        return -1;
    return topo_build(argv[0], &kv, out, err);
}
