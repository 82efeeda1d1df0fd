/* topology.c - building topologies: nodes, links, link parameters, SimGrid names, and
 * the family dispatch (topo_build / topo_build_spec). */
#include "topologies/topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "topologies/endpoint_keys.h"
#include "topologies/external.h"
#include "topologies/families.h"
#include "topologies/faults.h"

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
    t->links[t->nlinks] = (topo_link){a, b, (uint8_t)cls, (uint8_t)sharing, 1, bw, lat};
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

int topo_hop_between(const topology *t, int32_t u, int32_t v, topo_hop *hop)
{
    int64_t lo = t->inc_first[u], hi = t->inc_first[u + 1];
    while (lo < hi) { /* first entry with neighbour >= v */
        int64_t mid = lo + (hi - lo) / 2;
        if (t->inc_node[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < t->inc_first[u + 1] && t->inc_node[lo] == v; lo++) {
        const topo_link *l = &t->links[t->inc_link[lo]];
        int rev = l->a != u;
        if (rev && l->sharing == LINK_ONE_WAY)
            continue;
        *hop = (topo_hop){t->inc_link[lo], (int8_t)rev};
        return 0;
    }
    return -1;
}

void topo_free_routing(topology *t)
{
    if (t->pred_cache)
        for (int32_t v = 0; v < t->nvert; v++)
            free(t->pred_cache[v]);
    free(t->pred_cache);
    free(t->inc_first);
    free(t->inc_node);
    free(t->inc_link);
    free(t->adj_first);
    free(t->adj_link);
    free(t->adj_rev);
    free(t->sg_order);
    t->pred_cache = NULL;
    t->inc_first = t->adj_first = t->inc_link = t->adj_link = NULL;
    t->inc_node = t->sg_order = NULL;
    t->adj_rev = NULL;
    t->pred_cached = 0;
}

void topo_free(topology *t)
{
    if (!t)
        return;
    topo_free_routing(t);
    free(t->group);
    free(t->host_link);
    free(t->links);
    free(t->zone);
    free(t->fam_links);
    topo_external_free(t->ext);
    topo_faults_free(t->faults);
    free(t);
}

/* ---- SimGrid names (emit.c creates exactly these) ---------------------------------------- */

void topo_host_name(int32_t h, char *buf, size_t n)
{
    snprintf(buf, n, "h%d", h);
}

void topo_link_name(int64_t id, char *buf, size_t n)
{
    snprintf(buf, n, "l%lld", (long long)id);
}

void topo_sg_link_name(const topology *t, topo_hop hop, char *buf, size_t n)
{
    const topo_link *l = &t->links[hop.link];
    const char *dir = l->sharing != LINK_FULL_DUPLEX ? "" : hop.reverse ? "_DOWN" : "_UP";
    if (t->ext) /* an external platform: SimGrid's own names, per direction */
        snprintf(buf, n, "%s", t->ext->sg_names[2 * hop.link + (hop.reverse ? 1 : 0)]);
    else if (t->routing == TOPO_ROUTE_TORUS && !topo_fault_table(t))
        snprintf(buf, n, "torus_link_from_%d_to_%d%s", l->a, l->b, dir);
    else
        snprintf(buf, n, "l%lld%s", (long long)hop.link, dir);
}

void topo_loopback_link_name(const topology *t, int32_t h, char *buf, size_t n)
{
    if (t->routing == TOPO_ROUTE_TORUS && !topo_fault_table(t))
        snprintf(buf, n, "torus_link_%d_loopback", h);
    else if (t->direct || (t->flat_groups && !topo_fault_table(t)))
        snprintf(buf, n, "__loopback__");
    else
        snprintf(buf, n, "lo%d", h);
}

/* ---- link parameters ------------------------------------------------------------------ */

static int refuse_key(kv_list *kv, const char *key, const char *why, cs_error *err)
{
    if (kv_get(kv, key))
        return cs_fail(err, "%s does not apply: %s", key, why);
    return 0;
}

int topo_link_params_read_for(kv_list *kv, unsigned classes, link_sharing def_sharing,
                              topo_link_params *lp, cs_error *err)
{
    static const char *const names[LINK__COUNT] = {"host", "local", "global"};
    static const char *const why[LINK__COUNT] = {
        "this network has no host links (hosts are the routers)",
        "this network has no local links", "this network has no global links"};
    for (int c = 0; c < LINK__COUNT; c++) {
        char bw_key[32], lat_key[32];
        snprintf(bw_key, sizeof bw_key, "%s_bw", names[c]);
        snprintf(lat_key, sizeof lat_key, "%s_lat", names[c]);
        if (!(classes & TOPO_CLASS_BIT(c))) {
            if (refuse_key(kv, bw_key, why[c], err) < 0 || refuse_key(kv, lat_key, why[c], err) < 0)
                return -1;
            lp->bw[c] = lp->lat[c] = 0;
            continue;
        }
        if (kv_bandwidth(kv, bw_key, "200Gbps", &lp->bw[c], err) < 0 ||
            kv_time(kv, lat_key, "100ns", &lp->lat[c], err) < 0)
            return -1;
    }
    int64_t ports = 1;
    if (classes & TOPO_CLASS_BIT(LINK_HOST)) {
        if (kv_int(kv, "nic_ports", 1, 1, 64, &ports, err) < 0)
            return -1;
    } else if (refuse_key(kv, "nic_ports", why[LINK_HOST], err) < 0) {
        return -1;
    }
    int sharing;
    if (kv_time(kv, "router_lat", "0ns", &lp->router_lat, err) < 0 ||
        kv_choice(kv, "sharing", def_sharing == LINK_SHARED ? "shared" : "full", "full|shared",
                  &sharing, err) < 0 ||
        kv_bandwidth(kv, "intra_bw", "20GBps", &lp->intra_bw, err) < 0 ||
        kv_time(kv, "intra_lat", "200ns", &lp->intra_lat, err) < 0)
        return -1;
    lp->nic_ports = (int)ports;
    lp->sharing = sharing ? LINK_SHARED : LINK_FULL_DUPLEX;
    return 0;
}

int topo_link_params_read(kv_list *kv, topo_link_params *lp, cs_error *err)
{
    return topo_link_params_read_for(kv, TOPO_ALL_CLASSES, LINK_FULL_DUPLEX, lp, err);
}

/* The per-hop router latency is folded into link latencies so that SimGrid's route
 * latency (the sum of link latencies) includes it: see topology.h. */
void topo_apply_link_params(topology *t, const topo_link_params *lp)
{
    t->router_latency = lp->router_lat;
    t->nic_ports = lp->nic_ports;
    t->intra_bw = lp->intra_bw;
    t->intra_lat = lp->intra_lat;
    for (int64_t i = 0; i < t->nlinks; i++) {
        topo_link *l = &t->links[i];
        int host_link = l->cls == LINK_HOST && !t->direct;
        l->bw = lp->bw[l->cls] * l->mult * (host_link ? lp->nic_ports : 1);
        l->lat = lp->lat[l->cls] + (host_link ? lp->router_lat / 2 : lp->router_lat);
        if (l->sharing != LINK_ONE_WAY)
            l->sharing = (uint8_t)lp->sharing;
    }
}

/* ---- families ----------------------------------------------------------------------------- */

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

static int cmp_item_key(const void *x, const void *y)
{
    return strcmp(((const kv_item *)x)->key, ((const kv_item *)y)->key);
}

/* The canonical parameter string (family + keys sorted) and its hash. The hash covers a
 * format tag too, so that a change of the emitted platform layout invalidates caches. */
#define TOPO_PLATFORM_FORMAT "collsim-platform-6"
static void set_params(topology *t, const char *family, const kv_list *params)
{
    kv_item sorted[KV_MAX];
    memcpy(sorted, params->items, (size_t)params->n * sizeof sorted[0]);
    qsort(sorted, (size_t)params->n, sizeof sorted[0], cmp_item_key);
    uint64_t h = 0xcbf29ce484222325ULL;
    const char *parts[2] = {TOPO_PLATFORM_FORMAT, family};
    for (int i = 0; i < 2; i++)
        for (const char *c = parts[i]; *c; c++)
            h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    size_t len = (size_t)snprintf(t->params, sizeof t->params, "%s", family);
    for (int k = 0; k < params->n; k++) {
        char item[256];
        snprintf(item, sizeof item, " %s=%s", sorted[k].key, sorted[k].value);
        for (const char *c = item; *c; c++)
            h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
        if (len < sizeof t->params)
            len += (size_t)snprintf(t->params + len, sizeof t->params - len, "%s", item);
    }
    t->params_hash = mix64(h);
}

/* The family named `family`, or NULL with the "unknown topology family" error. */
static const topo_family *find_family(const char *family, cs_error *err)
{
    char names[512] = "";
    for (size_t i = 0; topo_families[i].name; i++) {
        if (strcmp(topo_families[i].name, family) == 0)
            return &topo_families[i];
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", len ? ", " : "", topo_families[i].name);
    }
    cs_fail(err, "unknown topology family '%s' (allowed: %s)", family, names);
    return NULL;
}

/* Builds, checks unknown keys and finishes (families.h); errors are not prefixed. */
int topo_build_kv(const char *family, kv_list *params, topology **out, cs_error *err)
{
    *out = NULL;
    const topo_family *f = find_family(family, err);
    topo_size size; /* every parameter error (an unknown key too) before anything is built */
    if (!f || topo_size_kv(family, params, &size, err) < 0)
        return -1;
    topology *t = NULL;
    if (f->build(params, &t, err) < 0 || kv_check_unused(params, f->keys, err) < 0 ||
        topo_finish(t, err) < 0) {
        topo_free(t);
        return -1;
    }
    set_params(t, family, params);
    *out = t;
    return 0;
}

int topo_size_kv(const char *family, const kv_list *params, topo_size *out, cs_error *err)
{
    const topo_family *f = find_family(family, err);
    kv_list copy = *params; /* reading marks keys used: keep the caller's list as it was */
    return f && f->size(&copy, out, err) == 0 && kv_check_unused(&copy, f->keys, err) == 0 ? 0 : -1;
}

/* Prefixes a family's error with its name, as topo_build does. */
static int family_error(const char *family, cs_error *err)
{
    if (strncmp(err->msg, "unknown topology family", 23) != 0)
        cs_error_prefix(err, "%s", family);
    return -1;
}

int topo_build(const char *family, kv_list *params, topology **out, cs_error *err)
{
    return topo_build_kv(family, params, out, err) < 0 ? family_error(family, err) : 0;
}

static int is_preset_name(const char *s)
{
    size_t n = strlen(s);
    return (n > 5 && strcmp(s + n - 5, ".yaml") == 0) || (n > 4 && strcmp(s + n - 4, ".yml") == 0);
}

/* Splits "name k=v ..." (buf holds the words) into the name and the key=value list. */
static int split_spec(const char *spec, char *buf, size_t n, const char **name, kv_list *kv,
                      cs_error *err)
{
    if (strlen(spec) >= n)
        return cs_fail(err, "topology specification too long");
    snprintf(buf, n, "%s", spec);
    char *argv[KV_MAX + 2], *save = NULL;
    int argc = 0;
    for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
        if (argc > KV_MAX)
            return cs_fail(err, "too many parameters (at most %d)", KV_MAX);
        argv[argc++] = tok;
    }
    if (argc == 0)
        return cs_fail(err, "empty topology specification");
    *name = argv[0];
    kv_init(kv);
    return kv_parse_args(kv, argc - 1, argv + 1, err);
}

/* Builds (out) or sizes (size) the topology of a spec: a family or a preset file. */
static int from_spec(const char *spec, topology **out, topo_size *size, cs_error *err)
{
    char buf[4096];
    const char *name;
    kv_list kv;
    if (split_spec(spec, buf, sizeof buf, &name, &kv, err) < 0)
        return -1;
    topo_endpoint_keys endpoint = {.n = 0}; /* the simulator's keys (sim/endpoint.h) */
    int endpoint_off;                       /* endpoint=none: the simulator's concern too */
    if (topo_endpoint_keys_take(&kv, &endpoint, &endpoint_off, err) < 0)
        return -1;
    topo_fault_spec faults; /* applied to the built topology (faults.h) */
    if (topo_fault_keys_take(&kv, &faults, err) < 0)
        return -1;
    if (!out) {
        if (is_preset_name(name))
            return topo_size_preset(name, &kv, size, err);
        return topo_size_kv(name, &kv, size, err) < 0 ? family_error(name, err) : 0;
    }
    int rc = is_preset_name(name) ? topo_build_preset(name, &kv, out, err)
                                  : topo_build(name, &kv, out, err);
    if (rc == 0 && topo_faults_apply(*out, &faults, err) < 0) {
        topo_free(*out);
        *out = NULL;
        return -1;
    }
    return rc;
}

int topo_build_spec(const char *spec, topology **out, cs_error *err)
{
    *out = NULL;
    return from_spec(spec, out, NULL, err);
}

int topo_size_spec(const char *spec, topo_size *out, cs_error *err)
{
    return from_spec(spec, NULL, out, err);
}
