/* lgraph.h - the logical graphs of graph-aware algorithms: Kautz K(d,2) and the 2D
 * fully-connected network (2dfc), one rank per vertex.
 *
 * Algorithms never see a topology (DESIGN.md); the ones that only talk to neighbours of a
 * known graph rebuild that graph here from P and the collective spec. The topology
 * generators number their hosts the same way, so that rank r of a schedule runs on vertex
 * r of the network.
 *
 * Kautz K(d,2), d >= 2, P = d(d+1). A vertex is a word xy of two symbols from {0..d} with
 * x != y. Vertices are numbered in lexicographic order of (x, y):
 *
 *     rank(xy) = x*d + y - [y > x]          (K(2,2): 01=0 02=1 10=2 12=3 20=4 21=5)
 *
 * (the thesis artifact's host "x.y" <-> rank d*x + y - [y > x]). The links are one-way:
 * xy -> yz for every z != y. So xy has d out-neighbours yz and d in-neighbours zx, both
 * listed in increasing rank order; its partner yx is both. Every other vertex is at
 * distance 2 over the unique path xy -> yz -> zt.
 *
 * 2dfc m2 x m1 (spec dims = {m1, m2}, i.e. `--dims m1xm2`: dimension 0 varies fastest,
 * as in every collsim shape). Vertex (a2, a1), 0 <= a1 < m1 (X, the column) and
 * 0 <= a2 < m2 (Y, the row), is rank a2*m1 + a1 (thesis Sec. 4.1.1). Every row is a
 * clique of m1 vertices (the "X links"), every column a clique of m2 ("Y links"); links
 * are bidirectional, so the graph lists both directions. The thesis' 16x17 "Dragonfly"
 * (16 groups of 17) is m2 = 16, m1 = 17: `--dims 17x16`, rank = group*17 + index.
 */
#ifndef COLLSIM_LGRAPH_H
#define COLLSIM_LGRAPH_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

/* A directed graph as adjacency arrays (CSR): the out-neighbours of v are
 * out[out_first[v] .. out_first[v+1]) and its in-neighbours in[in_first[v] ..
 * in_first[v+1]), both in increasing order. */
typedef struct lgraph {
    int32_t n;
    int32_t *out_first, *out;
    int32_t *in_first, *in;
} lgraph;

void lgraph_free(lgraph *g);
/* The reverse graph (every edge turned around). It shares g's arrays: never free it. */
lgraph lgraph_transposed(const lgraph *g);
/* Builds a graph from n vertices and e directed edges (from[i] -> to[i]). */
void lgraph_from_edges(lgraph *g, int32_t n, int64_t e, const int32_t *from, const int32_t *to);

/* ---- Kautz K(d,2) ------------------------------------------------------------------- */

/* d with P = d(d+1), d >= 2; otherwise an error naming the constraint. */
int kautz_degree_of(int32_t P, int32_t *d, cs_error *err);

static inline int32_t kautz_rank(int32_t d, int32_t x, int32_t y)
{
    return x * d + y - (y > x);
}
static inline void kautz_word(int32_t d, int32_t r, int32_t *x, int32_t *y)
{
    *x = r / d;
    int32_t j = r % d;
    *y = j + (j >= *x);
}
/* The k-th (k = 0..d-1) out-neighbour yz and in-neighbour zx of r = xy, by rank. */
int32_t kautz_out(int32_t d, int32_t r, int32_t k);
int32_t kautz_in(int32_t d, int32_t r, int32_t k);
/* The partner yx of r = xy: r's out-neighbour and in-neighbour at once. */
int32_t kautz_partner(int32_t d, int32_t r);
/* The same neighbours ordered partner first, then the others by rank (the order in
 * which the thesis' Kautz-M serializes its forwards). */
int32_t kautz_out_partner_first(int32_t d, int32_t r, int32_t k);
int32_t kautz_in_partner_first(int32_t d, int32_t r, int32_t k);
/* Whether r -> s is a link. */
int kautz_is_link(int32_t d, int32_t r, int32_t s);
void lgraph_kautz(int32_t d, lgraph *g);

/* ---- 2dfc ------------------------------------------------------------------------------ */

typedef struct dfc_shape {
    int32_t m[2]; /* m[0] = m1 (X, row length), m[1] = m2 (Y, column length) */
} dfc_shape;

/* The shape from spec dims {m1, m2} (two sizes >= 2 with m1*m2 = P), or an error. */
int dfc_shape_of(const coll_spec *s, dfc_shape *shape, cs_error *err);
static inline int32_t dfc_ranks(const dfc_shape *s) { return s->m[0] * s->m[1]; }
/* Coordinate of r in dimension dim (0: a1, 1: a2). */
static inline int32_t dfc_coord(const dfc_shape *s, int32_t r, int dim)
{
    return dim == 0 ? r % s->m[0] : r / s->m[0];
}
/* The rank equal to r except that its coordinate in dimension dim is c. */
static inline int32_t dfc_with(const dfc_shape *s, int32_t r, int dim, int32_t c)
{
    return dim == 0 ? r - r % s->m[0] + c : c * s->m[0] + r % s->m[0];
}
void lgraph_2dfc(const dfc_shape *s, lgraph *g);

#endif
