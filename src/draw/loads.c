/* loads.c - per-step link bytes through the traffic counter's visitor (loads.h). */
#include "draw/loads.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

typedef struct loads_ctx {
    draw_loads *l;
    const topology *t;
    int failed;
    cs_error *err;
} loads_ctx;

static int64_t *step_array(loads_ctx *c, uint32_t step)
{
    draw_loads *l = c->l;
    if ((int64_t)step >= l->nsteps) {
        if ((int64_t)(step + 1) * l->nres > DRAW_MAX_STEP_ENTRIES) {
            if (!c->failed)
                cs_fail(c->err, "%u steps x %lld link directions are too many to keep for "
                                "drawing (at most %lld entries)",
                        step + 1, (long long)l->nres, (long long)DRAW_MAX_STEP_ENTRIES);
            c->failed = 1;
            return NULL;
        }
        l->step_bytes = xrealloc(l->step_bytes, (size_t)(step + 1) * sizeof *l->step_bytes);
        for (int32_t k = l->nsteps; k <= (int32_t)step; k++)
            l->step_bytes[k] = xcalloc((size_t)l->nres, sizeof **l->step_bytes);
        l->nsteps = (int32_t)step + 1;
    }
    return l->step_bytes[step];
}

static void visit(void *ctx, int32_t rank, uint32_t step, const sched_op *op, int32_t src_host,
                  int32_t dst_host, const topo_hop *hops, int nhops)
{
    loads_ctx *c = ctx;
    draw_loads *l = c->l;
    (void)src_host;
    (void)dst_host;
    int64_t *bytes = step_array(c, step);
    if (!bytes)
        return;
    for (int i = 0; i < nhops; i++)
        bytes[traffic_resource(c->t, hops[i])] += op->bytes;
    if (l->rank < 0 || (rank != l->rank && op->peer != l->rank))
        return;
    VEC_RESERVE(l->peers, l->cap_peers, l->npeers + 1);
    l->peers[l->npeers++] = (draw_peer){step, rank == l->rank ? op->peer : rank,
                                        (uint8_t)(rank != l->rank)};
    if (rank != l->rank)
        return;
    for (int i = 0; i < nhops; i++) {
        VEC_RESERVE(l->route, l->cap_route, l->nroute + 1);
        l->route[l->nroute++] = (draw_route_hop){step, traffic_resource(c->t, hops[i])};
    }
}

int draw_loads_count(const alg_run *run, topology *t, const int32_t *host_of_rank, int32_t rank,
                     draw_loads *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    out->nres = 2 * t->nlinks;
    out->rank = rank;
    loads_ctx c = {out, t, 0, err};
    traffic_walk_opts opts;
    traffic_walk_opts_init(&opts);
    opts.visit = visit;
    opts.visit_ctx = &c;
    traffic_tally tally;
    int rc = traffic_count_ex(run, t, host_of_rank, &opts, &out->counts, &tally, err);
    out->total = tally.resource_bytes; /* kept: freed by draw_loads_free */
    /* steps without any send (a last step of local work) still count */
    while (rc == 0 && !c.failed && out->nsteps < out->counts.steps)
        step_array(&c, (uint32_t)out->nsteps);
    if (rc == 0 && c.failed)
        rc = -1;
    if (rc < 0)
        draw_loads_free(out);
    return rc;
}

void draw_loads_free(draw_loads *l)
{
    for (int32_t k = 0; k < l->nsteps; k++)
        free(l->step_bytes[k]);
    free(l->step_bytes);
    free(l->total);
    free(l->peers);
    free(l->route);
    memset(l, 0, sizeof *l);
}

int64_t draw_loads_bytes(const draw_loads *l, int32_t step, int64_t r)
{
    if (step == DRAW_TOTAL)
        return l->total[r];
    if (step < 0 || step >= l->nsteps)
        return 0;
    return l->step_bytes[step][r];
}
