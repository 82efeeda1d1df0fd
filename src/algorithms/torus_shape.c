/* torus_shape.c - logical torus shapes and the step order of torus products
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
    for (int i = 0; i < t->ndims; i++) { /* dimension 0 fastest */
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

/* The sequence of (dim, local step) pairs of TORUS_ROUND_ROBIN or TORUS_ROTATION; returns
 * its length. */
static int sequence(torus_step *out, int ndims, const int *steps, int start, torus_seq seq)
{
    int rounds = 0, total = 0, n = 0, next[SPEC_MAX_DIMS] = {0};
    for (int k = 0; k < ndims; k++) {
        rounds = steps[k] > rounds ? steps[k] : rounds;
        total += steps[k];
    }
    if (total > TORUS_MAX_STEPS)
        total = TORUS_MAX_STEPS;
    if (seq == TORUS_ROTATION) {
        for (; n < total; n++) /* some dimension has steps left: fewer than total taken */
            for (int o = 0;; o++) {
                int k = (start + n + o) % ndims;
                if (next[k] < steps[k]) {
                    out[n] = (torus_step){(int8_t)k, (int8_t)next[k]++};
                    break;
                }
            }
        return n;
    }
    for (int round = 0; round < rounds; round++) /* round-robin, skipping exhausted dims */
        for (int kk = 0; kk < ndims; kk++) {
            int k = (start + kk) % ndims;
            if (round < steps[k] && n < total)
                out[n++] = (torus_step){(int8_t)k, (int8_t)round};
        }
    return n;
}

void torus_order_init(torus_order *o, int ndims, const int *steps, int start, torus_seq seq)
{
    memset(o, 0, sizeof *o);
    int n = sequence(o->step, ndims, steps, start, seq);
    int reverse = seq == TORUS_ROUND_ROBIN_REVERSED;
    o->nsteps = n;
    for (int i = 0; reverse && i < n / 2; i++) {
        torus_step t = o->step[i];
        o->step[i] = o->step[n - 1 - i];
        o->step[n - 1 - i] = t;
    }
    for (int i = 0; i < n; i++) {
        torus_step *st = &o->step[i];
        if (reverse)
            st->rel = (int8_t)(steps[st->dim] - 1 - st->rel);
        o->global[st->dim][st->rel] = (int8_t)i;
        memcpy(o->done[i + 1], o->done[i], sizeof o->done[i]);
        o->done[i + 1][st->dim]++;
    }
}
