/* aggregate.c - a large Dragonfly drawn by its groups (aggregate.h). */
#include "draw/aggregate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* Every pair of groups joined by a global link? Fills how many global links there are. */
static int all_pairs_joined(const topology *t, int64_t *nglobal)
{
    int32_t G = t->ngroups;
    unsigned char *joined = xcalloc((size_t)G * (size_t)G, 1);
    int64_t pairs = 0;
    *nglobal = 0;
    for (int64_t i = 0; i < t->nlinks; i++) {
        const topo_link *k = &t->links[i];
        int32_t a = t->group[k->a], b = t->group[k->b];
        if (k->cls != LINK_GLOBAL || a < 0 || b < 0 || a == b)
            continue;
        *nglobal += k->mult ? k->mult : 1;
        unsigned char *c = &joined[(size_t)(a < b ? a : b) * (size_t)G + (size_t)(a < b ? b : a)];
        pairs += !*c;
        *c = 1;
    }
    free(joined);
    return pairs == (int64_t)G * (G - 1) / 2;
}

int draw_aggregate_groups(topology **t, char *note, char *whole, cs_error *err)
{
    const topology *full = *t;
    int64_t nglobal;
    if (strcmp(full->family, "dragonfly") != 0 || full->nhosts <= DRAW_AGGREGATE_HOSTS ||
        full->ngroups < 2 || !all_pairs_joined(full, &nglobal))
        return 0;
    int32_t G = full->ngroups;
    char spec[128];
    snprintf(spec, sizeof spec, "dragonfly p=1 a=1 h=%d g=%d", G - 1, G);
    topology *groups;
    if (topo_build_spec(spec, &groups, err) < 0)
        return -1;
    snprintf(note, DRAW_AGGREGATE_NOTE, "drawn by groups: each router and host stands for a "
             "group of %d routers and %d hosts", full->nswitches / G, full->nhosts / G);
    snprintf(whole, DRAW_AGGREGATE_NOTE, "the whole machine: %d hosts, %d routers, %lld links; "
             "%lld global links join every pair of its %d groups", full->nhosts,
             full->nswitches, (long long)full->nlinks, (long long)nglobal, G);
    topo_free(*t);
    *t = groups;
    return 1;
}
