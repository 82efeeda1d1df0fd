/* torus_shape.c - logical torus shapes and torus butterfly dimension schedules
 * (see torus_shape.h). */
#include "algorithms/torus_shape.h"

#include <stdio.h>
#include <string.h>

#include "common/util.h"

void torus_shape_init(torus_shape *t, int ndims, const int32_t *dims)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < ndims; i++)
        if (dims[i] > 1)
            t->dims[t->ndims++] = dims[i];
    if (t->ndims == 0)
        t->dims[t->ndims++] = 1;
    int32_t stride = 1;
    for (int i = t->ndims - 1; i >= 0; i--) {
        t->stride[i] = stride;
        stride *= t->dims[i];
    }
    t->P = stride;
}

int torus_shape_from_spec(torus_shape *t, const coll_spec *s, cs_error *err)
{
    if (s->ndims == 0) {
        torus_shape_init(t, 1, &s->P);
        return 0;
    }
    if (require_dims(s, err) < 0)
        return -1;
    torus_shape_init(t, s->ndims, s->dims);
    return 0;
}

int torus_shape_is_pow2(const torus_shape *t)
{
    for (int i = 0; i < t->ndims; i++)
        if (!is_pow2_i64(t->dims[i]))
            return 0;
    return 1;
}

void torus_shape_format(const torus_shape *t, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < t->ndims; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%d", i ? "x" : "", t->dims[i]);
    }
}

int32_t torus_with_coord(const torus_shape *t, int32_t rank, int dim, int32_t coord)
{
    int32_t c = torus_coord(t, rank, dim);
    return rank + (coord - c) * t->stride[dim];
}

int32_t torus_move(const torus_shape *t, int32_t rank, int dim, int64_t offset)
{
    int32_t c = torus_coord(t, rank, dim);
    return torus_with_coord(t, rank, dim, (int32_t)mod_i64(c + offset, t->dims[dim]));
}

int torus_total_steps(const torus_shape *t)
{
    int L = 0;
    for (int i = 0; i < t->ndims; i++)
        L += ilog2_ceil((uint64_t)t->dims[i]);
    return L;
}

int torus_port_schedule(const torus_shape *t, int port, torus_step *out)
{
    int D = t->ndims, L = torus_total_steps(t);
    int next_rel[SPEC_MAX_DIMS] = {0};
    for (int i = 0; i < L; i++) {
        /* The first dimension from (port + i) mod D on that has steps left; there is one,
         * since fewer than L steps were taken. */
        for (int o = 0;; o++) {
            int dim = (port + i + o) % D;
            if (next_rel[dim] < ilog2_ceil((uint64_t)t->dims[dim])) {
                out[i].dim = (int8_t)dim;
                out[i].rel = (int8_t)next_rel[dim]++;
                break;
            }
        }
    }
    return L;
}

int32_t torus_embed(const torus_shape *sub, const torus_shape *full, int32_t v)
{
    int32_t r = 0;
    for (int i = 0; i < sub->ndims; i++)
        r += torus_coord(sub, v, i) * full->stride[i];
    return r;
}

int32_t torus_project(const torus_shape *sub, const torus_shape *full, int32_t rank)
{
    int32_t v = 0;
    for (int i = 0; i < full->ndims; i++) {
        int32_t c = torus_coord(full, rank, i);
        if (c >= sub->dims[i])
            return -1;
        v += c * sub->stride[i];
    }
    return v;
}
