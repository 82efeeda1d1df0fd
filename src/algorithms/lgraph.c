/* lgraph.c - logical graphs: adjacency arrays, Kautz K(d,2) and 2dfc (see lgraph.h). */
#include "algorithms/lgraph.h"

#include <stdlib.h>

#include "common/util.h"

void lgraph_free(lgraph *g)
{
    free(g->out_first);
    free(g->out);
    free(g->in_first);
    free(g->in);
    g->out_first = g->out = g->in_first = g->in = NULL;
    g->n = 0;
}

lgraph lgraph_transposed(const lgraph *g)
{
    lgraph t = {g->n, g->in_first, g->in, g->out_first, g->out};
    return t;
}

/* Counting sort of the edges by `key` into CSR arrays: list[first[v] .. first[v+1]) holds
 * the `val` of every edge whose key is v, in edge order (lgraph_from_edges sorts them). */
static void csr(int32_t n, int64_t e, const int32_t *key, const int32_t *val, int32_t **first,
                int32_t **list)
{
    int32_t *f = xcalloc((size_t)n + 1, sizeof *f);
    int32_t *l = xmalloc((size_t)(e ? e : 1) * sizeof *l);
    for (int64_t i = 0; i < e; i++)
        f[key[i] + 1]++;
    for (int32_t v = 0; v < n; v++)
        f[v + 1] += f[v];
    int32_t *pos = xmalloc((size_t)n * sizeof *pos);
    for (int32_t v = 0; v < n; v++)
        pos[v] = f[v];
    for (int64_t i = 0; i < e; i++)
        l[pos[key[i]]++] = val[i];
    free(pos);
    *first = f;
    *list = l;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

void lgraph_from_edges(lgraph *g, int32_t n, int64_t e, const int32_t *from, const int32_t *to)
{
    g->n = n;
    csr(n, e, from, to, &g->out_first, &g->out);
    csr(n, e, to, from, &g->in_first, &g->in);
    for (int32_t v = 0; v < n; v++) {
        qsort(g->out + g->out_first[v], (size_t)(g->out_first[v + 1] - g->out_first[v]),
              sizeof *g->out, cmp_i32);
        qsort(g->in + g->in_first[v], (size_t)(g->in_first[v + 1] - g->in_first[v]),
              sizeof *g->in, cmp_i32);
    }
}

/* ---- Kautz K(d,2) ------------------------------------------------------------------- */

int kautz_degree_of(int32_t P, int32_t *d, cs_error *err)
{
    int32_t x = 1;
    while ((int64_t)(x + 1) * (x + 2) <= P)
        x++;
    if (x < 2 || (int64_t)x * (x + 1) != P)
        return cs_fail(err,
                       "requires P = d(d+1) with d >= 2 (the vertices of Kautz K(d,2): 6, 12, "
                       "20, 30, 42, ..., 272, ...; got P=%d)",
                       P);
    *d = x;
    return 0;
}

int32_t kautz_out(int32_t d, int32_t r, int32_t k)
{
    int32_t x, y;
    kautz_word(d, r, &x, &y);
    int32_t z = k + (k >= y);
    return kautz_rank(d, y, z);
}

int32_t kautz_in(int32_t d, int32_t r, int32_t k)
{
    int32_t x, y;
    kautz_word(d, r, &x, &y);
    int32_t z = k + (k >= x);
    return kautz_rank(d, z, x);
}

int32_t kautz_partner(int32_t d, int32_t r)
{
    int32_t x, y;
    kautz_word(d, r, &x, &y);
    return kautz_rank(d, y, x);
}

/* Index k of a partner-first order -> index in the rank order, where the partner sits at
 * position p of the rank order. */
static int32_t partner_first_index(int32_t k, int32_t p)
{
    if (k == 0)
        return p;
    return k - 1 + (k - 1 >= p);
}

int32_t kautz_out_partner_first(int32_t d, int32_t r, int32_t k)
{
    int32_t x, y;
    kautz_word(d, r, &x, &y);
    return kautz_out(d, r, partner_first_index(k, x - (x > y))); /* partner yx: z = x */
}

int32_t kautz_in_partner_first(int32_t d, int32_t r, int32_t k)
{
    int32_t x, y;
    kautz_word(d, r, &x, &y);
    return kautz_in(d, r, partner_first_index(k, y - (y > x))); /* partner yx: z = y */
}

int kautz_is_link(int32_t d, int32_t r, int32_t s)
{
    int32_t x, y, z, t;
    kautz_word(d, r, &x, &y);
    kautz_word(d, s, &z, &t);
    return y == z;
}

void lgraph_kautz(int32_t d, lgraph *g)
{
    int32_t n = d * (d + 1);
    int64_t e = (int64_t)n * d;
    int32_t *from = xmalloc((size_t)e * sizeof *from), *to = xmalloc((size_t)e * sizeof *to);
    int64_t i = 0;
    for (int32_t r = 0; r < n; r++)
        for (int32_t k = 0; k < d; k++) {
            from[i] = r;
            to[i++] = kautz_out(d, r, k);
        }
    lgraph_from_edges(g, n, e, from, to);
    free(from);
    free(to);
}

/* ---- 2dfc ------------------------------------------------------------------------------ */

int dfc_shape_of(const coll_spec *s, dfc_shape *shape, cs_error *err)
{
    if (s->ndims != 2 || s->dims[0] < 2 || s->dims[1] < 2)
        return cs_fail(err,
                       "requires the 2dfc shape as two dimensions m1xm2, each >= 2 (e.g. "
                       "--dims 4x4; m1 = row length, rank = row*m1 + column)");
    if ((int64_t)s->dims[0] * s->dims[1] != s->P)
        return cs_fail(err, "requires m1*m2 = P (dims %dx%d give %lld ranks, P=%d)", s->dims[0],
                       s->dims[1], (long long)s->dims[0] * s->dims[1], s->P);
    shape->m[0] = s->dims[0];
    shape->m[1] = s->dims[1];
    return 0;
}

void lgraph_2dfc(const dfc_shape *s, lgraph *g)
{
    int32_t n = dfc_ranks(s);
    int64_t e = (int64_t)n * (s->m[0] + s->m[1] - 2);
    int32_t *from = xmalloc((size_t)e * sizeof *from), *to = xmalloc((size_t)e * sizeof *to);
    int64_t i = 0;
    for (int32_t r = 0; r < n; r++)
        for (int dim = 0; dim < 2; dim++)
            for (int32_t c = 0; c < s->m[dim]; c++) {
                if (c == dfc_coord(s, r, dim))
                    continue;
                from[i] = r;
                to[i++] = dfc_with(s, r, dim, c);
            }
    lgraph_from_edges(g, n, e, from, to);
    free(from);
    free(to);
}
