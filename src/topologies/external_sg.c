/* external_sg.c - reading an external platform's hosts and routes from SimGrid (external.h:
 * ext_sg_hosts, ext_sg_routes). SimGrid is initialised and the platform loaded by the
 * caller; routes are asked from an actor, under simgrid_run() (the platform is sealed
 * then). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "common/hostlist.h"
#include "common/util.h"
#include "topologies/external.h"

static int cmp_host_names(const void *x, const void *y)
{
    return hostname_cmp(sg_host_get_name(*(const sg_host_t *)x),
                        sg_host_get_name(*(const sg_host_t *)y));
}

void ext_sg_hosts(ext_raw *r)
{
    size_t n = sg_host_count();
    sg_host_t *list = sg_host_list();
    qsort(list, n, sizeof *list, cmp_host_names);
    r->nhosts = (int32_t)n;
    r->host_names = xmalloc((n ? n : 1) * sizeof *r->host_names);
    r->host_group = xmalloc((n ? n : 1) * sizeof *r->host_group);
    for (size_t h = 0; h < n; h++) {
        r->host_names[h] = xstrdup(sg_host_get_name(list[h]));
        const char *g = sg_host_get_property_value(list[h], "group");
        r->host_group[h] = g ? xstrdup(g) : NULL;
    }
    free(list);
}

typedef struct extract_ctx {
    ext_raw *r;
    sg_host_t *host; /* per host id */
} extract_ctx;

/* Asks every pair's route. A SimGrid link is tagged with its raw index + 1 while the
 * actor runs (one lookup per hop instead of a name search); the tags are removed at the
 * end, so that the simulator can tag links its own way afterwards. */
static void extract_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    extract_ctx *c = sg_actor_self_get_data();
    ext_raw *r = c->r;
    strmap index;
    strmap_init(&index);
    xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
    sg_link_t *tagged = NULL;
    size_t cap_tagged = 0, cap_buf = 0;
    int32_t *buf = NULL;
    for (int64_t p = 0; p < r->npairs; p++) {
        int32_t s = r->pair_src[p], d = r->pair_dst[p];
        int n = 0;
        if (s != d) {
            xbt_dynar_reset(route);
            sg_host_get_route(c->host[s], c->host[d], route);
            n = (int)xbt_dynar_length(route);
            VEC_RESERVE(buf, cap_buf, (size_t)n);
            for (int i = 0; i < n; i++) {
                sg_link_t l = xbt_dynar_get_as(route, i, sg_link_t);
                intptr_t tag = (intptr_t)sg_link_get_data(l);
                if (tag == 0) {
                    tag = 1 + ext_raw_link(r, &index, sg_link_get_name(l), sg_link_get_bandwidth(l),
                                           sg_link_get_latency(l));
                    sg_link_set_data(l, (void *)tag);
                    VEC_RESERVE(tagged, cap_tagged, (size_t)r->nlinks);
                    tagged[r->nlinks - 1] = l;
                }
                buf[i] = (int32_t)(tag - 1);
            }
        }
        ext_raw_add_route(r, buf, n);
    }
    for (int32_t l = 0; l < r->nlinks; l++)
        sg_link_set_data(tagged[l], NULL);
    free(tagged);
    free(buf);
    xbt_dynar_free(&route);
    strmap_free(&index);
}

int ext_sg_routes(ext_raw *r, const int32_t *table_hosts, int32_t ntable, cs_error *err)
{
    if (ntable < 1)
        return cs_fail(err, "internal: an empty route table");
    ext_raw_set_table(r, table_hosts, ntable);
    extract_ctx c = {r, xmalloc((size_t)r->nhosts * sizeof *c.host)};
    for (int32_t h = 0; h < r->nhosts; h++)
        c.host[h] = sg_host_by_name(r->host_names[h]);
    sg_actor_t a = sg_actor_init("collsim-routes", c.host[table_hosts[0]]);
    sg_actor_set_data(a, &c);
    sg_actor_start(a, extract_actor, 0, NULL);
    simgrid_run();
    free(c.host);
    if (r->nroutes != r->npairs)
        return cs_fail(err, "internal: %lld of %lld routes read from SimGrid",
                       (long long)r->nroutes, (long long)r->npairs);
    return 0;
}
