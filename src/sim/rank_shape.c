/* rank_shape.c - the shape of a placed job and the dims rule of topology-aware algorithms
 * (see rank_shape.h). */
#include "sim/rank_shape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* The physical grid of ranks: the slot on the host first when Q > 1, then the host grid.
 * Returns its number of dimensions, 0 when it does not fit SPEC_MAX_DIMS. */
static int physical_grid(const topology *t, int32_t Q, int32_t *dims)
{
    int nd = 0;
    if (t->host_ndims + (Q > 1) > SPEC_MAX_DIMS)
        return 0;
    if (Q > 1)
        dims[nd++] = Q;
    for (int j = 0; j < t->host_ndims; j++)
        dims[nd++] = t->host_dims[j];
    return nd;
}

/* Physical coordinates of every rank, in rank order, through visit(); slot[] counts the
 * ranks already seen on each host. */
typedef struct grid_walk {
    const topology *t;
    const int32_t *host_of_rank;
    int32_t P, Q;
    int nd;
    int32_t dims[SPEC_MAX_DIMS];
    int32_t *slot;
} grid_walk;

static void coords_of_rank(grid_walk *w, int32_t r, int32_t *c)
{
    int j = 0;
    int32_t h = w->host_of_rank[r];
    if (w->Q > 1)
        c[j++] = w->slot[h]++;
    for (; j < w->nd; j++) {
        c[j] = h % w->dims[j];
        h /= w->dims[j];
    }
}

int rank_shape_of_job(const topology *t, const int32_t *host_of_rank, int32_t P, int32_t Q,
                      int32_t *dims)
{
    grid_walk w = {t, host_of_rank, P, Q, 0, {0}, NULL};
    if (t->host_ndims == 0 || P < 1 || (w.nd = physical_grid(t, Q, w.dims)) == 0)
        return 0;
    int32_t lo[SPEC_MAX_DIMS], hi[SPEC_MAX_DIMS], c[SPEC_MAX_DIMS];
    for (int j = 0; j < w.nd; j++) {
        lo[j] = INT32_MAX;
        hi[j] = -1;
    }
    w.slot = xcalloc((size_t)t->nhosts, sizeof *w.slot);
    for (int32_t r = 0; r < P; r++) { /* the bounding box */
        coords_of_rank(&w, r, c);
        for (int j = 0; j < w.nd; j++) {
            lo[j] = c[j] < lo[j] ? c[j] : lo[j];
            hi[j] = c[j] > hi[j] ? c[j] : hi[j];
        }
    }
    int64_t volume = 1;
    for (int j = 0; j < w.nd; j++)
        volume *= hi[j] - lo[j] + 1;
    int ok = volume == P;
    memset(w.slot, 0, (size_t)t->nhosts * sizeof *w.slot);
    for (int32_t r = 0; ok && r < P; r++) { /* rank r at the box's r-th place */
        coords_of_rank(&w, r, c);
        int32_t rest = r;
        for (int j = 0; j < w.nd && ok; j++) {
            int32_t size = hi[j] - lo[j] + 1;
            ok = c[j] - lo[j] == rest % size;
            rest /= size;
        }
    }
    free(w.slot);
    if (!ok)
        return 0;
    int nd = 0;
    for (int j = 0; j < w.nd; j++)
        if (hi[j] > lo[j])
            dims[nd++] = hi[j] - lo[j] + 1;
    if (nd == 0) /* one rank */
        dims[nd++] = 1;
    return nd;
}

void rank_shape_format(int ndims, const int32_t *dims, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int j = 0; j < ndims && len < n; j++)
        len += (size_t)snprintf(buf + len, n - len, "%s%d", j ? "x" : "", dims[j]);
}

/* The sizes other than 1 (the dimensions that carry communication). */
static int without_ones(int ndims, const int32_t *dims, int32_t *out)
{
    int n = 0;
    for (int j = 0; j < ndims; j++)
        if (dims[j] != 1)
            out[n++] = dims[j];
    return n;
}

int rank_shape_resolve(const alg_desc *alg, coll_spec *spec, const topology *t,
                       const int32_t *host_of_rank, cs_error *err)
{
    if (!(alg->flags & ALG_READS_DIMS))
        return 0;
    int32_t job[SPEC_MAX_DIMS];
    int nd = rank_shape_of_job(t, host_of_rank, spec->P, spec->ranks_per_node, job);
    if (nd == 0)
        return 0;
    if (spec->ndims == 0) {
        spec->ndims = nd;
        memcpy(spec->dims, job, (size_t)nd * sizeof *job);
        return 0;
    }
    int32_t given[SPEC_MAX_DIMS], placed[SPEC_MAX_DIMS];
    int ng = without_ones(spec->ndims, spec->dims, given);
    int np = without_ones(nd, job, placed);
    if (ng == np && memcmp(given, placed, (size_t)ng * sizeof *given) == 0)
        return 0;
    char a[96], b[96];
    rank_shape_format(spec->ndims, spec->dims, a, sizeof a);
    rank_shape_format(nd, job, b, sizeof b);
    return cs_fail(err,
                   "%s %s: dims=%s do not match the rank-to-node mapping: the %d ranks sit on "
                   "\"%s\" as a %s grid (dimension 0 varies fastest, docs/topologies.md "
                   "\"Dimension order\"); give dims=%s or leave dims out",
                   coll_name(spec->coll), alg->name, a, spec->P, t->params, b, b);
}
