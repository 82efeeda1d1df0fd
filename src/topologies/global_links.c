/* global_links.c - global link arrangements between groups (see global_links.h). */
#include "topologies/global_links.h"

#include <math.h>
#include <stdlib.h>

#include "common/util.h"

static int global_plan_check(const global_plan *gp, const char *routers_key, cs_error *err)
{
    int64_t ports = (int64_t)gp->routers * gp->h;
    if (gp->g < 1)
        return cs_fail(err, "g must be at least 1");
    if (gp->g > 1 && ports < gp->g - 1)
        return cs_fail(err, "g=%d groups need %s*h >= g-1 global ports per group (%s*h = %lld)",
                       gp->g, routers_key, routers_key, (long long)ports);
    if (gp->g > 1 && ports / (gp->g - 1) > 65535)
        return cs_fail(err, "more than 65535 global links per group pair");
    return 0;
}

int global_plan_read(kv_list *kv, int32_t routers, const char *routers_key, global_plan *gp,
                     cs_error *err)
{
    int64_t h, g;
    if (kv_int(kv, "h", 2, 0, 4096, &h, err) < 0 ||
        kv_int(kv, "g", routers * h + 1, 1, 1 << 16, &g, err) < 0 ||
        kv_choice(kv, "arrangement", "absolute", ARRANGE_CHOICES, &gp->arrangement, err) < 0 ||
        kv_bool(kv, "trunk", 0, &gp->trunk, err) < 0)
        return -1;
    gp->g = (int32_t)g;
    gp->routers = routers;
    gp->h = (int32_t)h;
    gp->first = gp->group_stride = 0;
    return global_plan_check(gp, routers_key, err);
}

/* The group reached by "other group" index c of group i. */
static int32_t target(const global_plan *gp, int32_t i, int32_t c)
{
    switch (gp->arrangement) {
    case ARRANGE_ABSOLUTE: return c < i ? c : c + 1;
    case ARRANGE_RELATIVE: return (i + c + 1) % gp->g;
    default: {
        int32_t o = c % 2 == 0 ? c / 2 + 1 : -(c / 2 + 1);
        return (int32_t)mod_i64(i + o, gp->g);
    }
    }
}

void global_links_size(const global_plan *gp, topo_size *s)
{
    double g = gp->g, pairs = g * (g - 1) / 2;
    double m = g > 1 ? floor((double)gp->routers * gp->h / (g - 1)) : 0;
    s->links += gp->trunk ? pairs : pairs * m;
    s->extra_bytes += g * g * (sizeof(int64_t) + sizeof(int32_t));
}

int64_t *global_links_add(topology *t, const global_plan *gp)
{
    int32_t g = gp->g, others = g - 1;
    int64_t *pair = xmalloc((size_t)g * (size_t)g * sizeof *pair);
    for (int64_t k = 0; k < (int64_t)g * g; k++)
        pair[k] = -1;
    if (g < 2)
        return pair;
    int32_t m = (int32_t)((int64_t)gp->routers * gp->h / others);
    /* inv[j*g + i]: the "other group" index c of group j that reaches group i */
    int32_t *inv = xmalloc((size_t)g * (size_t)g * sizeof *inv);
    for (int32_t j = 0; j < g; j++)
        for (int32_t c = 0; c < others; c++)
            inv[(int64_t)j * g + target(gp, j, c)] = c;
    for (int32_t q = 0; q < (gp->trunk ? 1 : m); q++)
        for (int32_t i = 0; i < g; i++)
            for (int32_t c = 0; c < others; c++) {
                int32_t j = target(gp, i, c);
                if (j < i)
                    continue; /* each pair once, from its lower group */
                int64_t ki = (int64_t)q * others + c, kj = (int64_t)q * others + inv[(int64_t)j * g + i];
                int32_t ri = gp->first + i * gp->group_stride + (int32_t)(ki / gp->h);
                int32_t rj = gp->first + j * gp->group_stride + (int32_t)(kj / gp->h);
                int64_t id = topo_add_link(t, ri, rj, LINK_GLOBAL, LINK_FULL_DUPLEX, 0, 0);
                t->links[id].mult = (uint16_t)(gp->trunk ? m : 1);
                if (q == 0)
                    pair[(int64_t)i * g + j] = pair[(int64_t)j * g + i] = id;
            }
    free(inv);
    return pair;
}

int global_zone_route(const topology *t, int32_t g, int32_t a, int32_t b, topo_zone_path *out)
{
    int64_t id = t->fam_links[(int64_t)a * g + b];
    if (id < 0)
        return -1;
    const topo_link *l = &t->links[id];
    int a_side_is_a = t->group[l->a] == a; /* link ends are routers of groups a and b */
    out->gw_src = a_side_is_a ? l->a : l->b;
    out->gw_dst = a_side_is_a ? l->b : l->a;
    out->n = 1;
    out->hops[0] = (topo_hop){id, (int8_t)!a_side_is_a};
    return 1;
}

int32_t global_link_holder(const topology *t, int32_t g, int32_t from, int32_t to, topo_hop *hop)
{
    int64_t id = t->fam_links[(int64_t)from * g + to];
    const topo_link *l = &t->links[id];
    int a_side = t->group[l->a] == from;
    *hop = (topo_hop){id, (int8_t)!a_side};
    return a_side ? l->a : l->b;
}
