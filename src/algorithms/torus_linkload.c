/* torus_linkload.c - routes a schedule's sends on its logical torus and keeps the load
 * of every directed link per step (see torus_linkload.h). */
#include "algorithms/torus_linkload.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/torus_shape.h"
#include "common/util.h"

typedef struct load_acc {
    torus_shape t;
    int64_t nlinks;  /* P x D x 2: link (x, dim, way), way 0 = +1, 1 = -1 */
    double **loads;  /* per step, NULL until a send uses it */
    size_t nsteps, cap;
} load_acc;

static double *step_loads(load_acc *a, uint32_t step)
{
    if (step >= a->nsteps) {
        VEC_RESERVE(a->loads, a->cap, (size_t)step + 1);
        memset(a->loads + a->nsteps, 0, ((size_t)step + 1 - a->nsteps) * sizeof *a->loads);
        a->nsteps = (size_t)step + 1;
    }
    if (!a->loads[step])
        a->loads[step] = xcalloc((size_t)a->nlinks, sizeof(double));
    return a->loads[step];
}

/* Walks `hops` hops from x in dimension dim, way +1 or -1, adding w to every link. */
static int32_t walk(const load_acc *a, double *load, int32_t x, int dim, int way, int32_t hops,
                    double w)
{
    for (int32_t h = 0; h < hops; h++) {
        load[((int64_t)x * a->t.ndims + dim) * 2 + (way < 0)] += w;
        x = torus_move(&a->t, x, dim, way);
    }
    return x;
}

static void route(const load_acc *a, double *load, int32_t src, int32_t dst, double w)
{
    int32_t x = src;
    for (int dim = 0; dim < a->t.ndims; dim++) {
        int32_t d = a->t.dims[dim];
        int32_t up = (int32_t)mod_i64((int64_t)torus_coord(&a->t, dst, dim) -
                                          torus_coord(&a->t, x, dim), d);
        if (up == 0)
            continue;
        if (2 * up < d) {
            x = walk(a, load, x, dim, 1, up, w);
        } else if (2 * up > d) {
            x = walk(a, load, x, dim, -1, d - up, w);
        } else { /* both ways are minimal: half each, both end at the same node */
            walk(a, load, x, dim, -1, up, w / 2);
            x = walk(a, load, x, dim, 1, up, w / 2);
        }
    }
}

static void sink(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    load_acc *a = ctx;
    for (uint32_t s = 0; s < chunk->nsteps; s++)
        for (uint32_t o = rs_step_begin(chunk, s); o < rs_step_end(chunk, s); o++) {
            const sched_op *op = &chunk->ops[o];
            if (op->kind == OP_SEND && op->bytes > 0)
                route(a, step_loads(a, first_step + s), chunk->rank, op->peer, (double)op->bytes);
        }
}

int torus_linkload(const alg_run *run, torus_load *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    load_acc a = {0};
    if (torus_shape_from_spec(&a.t, &run->spec, err) < 0)
        return -1;
    a.nlinks = (int64_t)a.t.P * a.t.ndims * 2;
    sched_builder b;
    sb_init_streaming(&b, &run->layout, sink, &a);
    for (int32_t r = 0; r < run->spec.P; r++)
        alg_run_gen(run, r, &b);
    sb_free(&b);
    out->nsteps = (int32_t)a.nsteps;
    out->ndims = a.t.ndims;
    out->step_max = xcalloc(a.nsteps ? a.nsteps : 1, sizeof(double));
    for (size_t s = 0; s < a.nsteps; s++) {
        for (int64_t i = 0; a.loads[s] && i < a.nlinks; i++)
            if (a.loads[s][i] > out->step_max[s])
                out->step_max[s] = a.loads[s][i];
        free(a.loads[s]);
    }
    free(a.loads);
    return 0;
}

void torus_load_free(torus_load *l)
{
    free(l->step_max);
    memset(l, 0, sizeof *l);
}

double torus_load_bandwidth_factor(const torus_load *l, int64_t bytes)
{
    double sum = 0;
    for (int32_t s = 0; s < l->nsteps; s++)
        sum += l->step_max[s];
    return bytes > 0 ? sum / ((double)bytes / l->ndims) : 0;
}
