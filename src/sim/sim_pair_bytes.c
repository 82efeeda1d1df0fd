/* sim_pair_bytes.c - bytes per host pair, counted on the links once (sim_pair_bytes.h). */
#include "sim/sim_pair_bytes.h"

#include <stdlib.h>
#include <string.h>

#include <xbt/dynar.h>

#include "common/util.h"
#include "sim/sim_internal.h"

static void *route_scratch(sim_pair_bytes *p)
{
    if (!p->route)
        p->route = xbt_dynar_new(sizeof(sg_link_t), NULL);
    return p->route;
}

void sim_pair_bytes_add(sim_pair_bytes *p, traffic_tally *tally, int32_t src_id, int32_t dst_id,
                        sg_host_t src, sg_host_t dst, int64_t bytes)
{
    uint64_t key = (uint64_t)(uint32_t)src_id << 32 | (uint32_t)dst_id;
    int64_t e;
    if (!u64map_get(&p->index, key, &e)) {
        if (p->n == p->cap) {
            p->cap = p->cap ? 2 * p->cap : 256;
            p->src = xrealloc(p->src, p->cap * sizeof *p->src);
            p->dst = xrealloc(p->dst, p->cap * sizeof *p->dst);
            p->bytes = xrealloc(p->bytes, p->cap * sizeof *p->bytes);
        }
        e = (int64_t)p->n++;
        p->src[e] = src;
        p->dst[e] = dst;
        p->bytes[e] = 0;
        u64map_put(&p->index, key, e);
    }
    if (p->bytes[e] > INT64_MAX - bytes) { /* the sum would not fit: count what we had */
        int64_t had = p->bytes[e];
        p->bytes[e] = bytes; /* first: no state of the table is held across SimGrid calls */
        sim_links_count_route(tally, src, dst, had, route_scratch(p));
        return;
    }
    p->bytes[e] += bytes;
}

void sim_pair_bytes_flush(sim_pair_bytes *p, traffic_tally *tally)
{
    for (size_t e = 0; e < p->n; e++)
        if (p->bytes[e] > 0)
            sim_links_count_route(tally, p->src[e], p->dst[e], p->bytes[e], route_scratch(p));
    u64map_free(&p->index);
    p->n = 0;
}

void sim_pair_bytes_free(sim_pair_bytes *p)
{
    u64map_free(&p->index);
    free(p->src);
    free(p->dst);
    free(p->bytes);
    if (p->route) {
        xbt_dynar_t d = p->route;
        xbt_dynar_free(&d);
    }
    memset(p, 0, sizeof *p);
}
