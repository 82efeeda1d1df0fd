/* layout_hammingmesh.c - HammingMesh: boards of a x b nodes on a grid, row and column
 * switches on the edges (layout.h).
 *
 * Host Y*W + X (hammingmesh.c numbering, W = a*x nodes per global row) sits at column X,
 * row Y, with a wider gap between boards; each board gets a light box. The switch of
 * global row Y (node N + Y) sits left of the grid on row Y, the switch of global column
 * X (node N + Hh + X) above the grid on column X. The dimensions are read back from the
 * graph: host 0 is linked to row switch N and to column switch N + Hh.
 *
 * A row link is a bracket: it leaves its node upwards into a lane of its own in the gap
 * above the row (lanes further from the row for nodes further from the switch, so that
 * no two row links cross), runs left to the switch's column and comes down into the
 * switch. Column links likewise, in lanes left of their column.
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "draw/layout.h"

typedef struct hm_shape {
    int32_t W, Hh;      /* nodes per row, rows */
    int32_t a, b;       /* board size */
} hm_shape;

/* Reads W, Hh from host 0's switches and the board size from the on-board links. */
static hm_shape read_shape(const topology *t)
{
    hm_shape s = {t->nhosts, 1, 1, 1};
    int32_t N = t->nhosts, col = -1;
    for (int64_t e = t->inc_first[0]; e < t->inc_first[1]; e++)
        if (t->inc_node[e] >= N && t->inc_node[e] > col)
            col = t->inc_node[e];
    if (col > N) {
        s.Hh = col - N;
        s.W = N / s.Hh;
    } else if (col == N) { /* one switch only: a single row or column */
        s.Hh = t->nswitches > 1 ? t->nswitches - 1 : 1;
        s.W = N / s.Hh;
    }
    /* a: the first X whose node has no on-board link to X+1 (the board's east edge) */
    for (s.a = 1; s.a < s.W; s.a++) {
        topo_hop h;
        if (topo_hop_between(t, s.a - 1, s.a, &h) < 0)
            break;
    }
    for (s.b = 1; s.b < s.Hh; s.b++) {
        topo_hop h;
        if (topo_hop_between(t, (s.b - 1) * s.W, s.b * s.W, &h) < 0)
            break;
    }
    return s;
}

static void board_boxes(draw_layout *l, const topology *t, const hm_shape *s)
{
    double pad = l->host_r + 5;
    for (int32_t by = 0; by < s->Hh; by += s->b)
        for (int32_t bx = 0; bx < s->W; bx += s->a) {
            int32_t v0 = by * s->W + bx;
            int32_t v1 = (by + s->b - 1 < s->Hh ? by + s->b - 1 : s->Hh - 1) * s->W +
                         (bx + s->a - 1 < s->W ? bx + s->a - 1 : s->W - 1);
            layout_add_deco(l, DECO_BOX, l->x[v0] - pad, l->y[v0] - pad,
                            l->x[v1] - l->x[v0] + 2 * pad, l->y[v1] - l->y[v0] + 2 * pad, "");
        }
    (void)t;
}

/* Lanes: the k-th row link of row Y (in order of X) runs k+1 lane widths above the row. */
static void route_links(draw_layout *l, const topology *t, const hm_shape *s, double lane)
{
    int32_t N = t->nhosts;
    int32_t *row_k = xcalloc((size_t)s->Hh, sizeof *row_k);
    int32_t *col_k = xcalloc((size_t)s->W, sizeof *col_k);
    double e = 0.6 * lane + 2;
    /* links are added node by node in id order (hammingmesh.c): row k counts in X order */
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        if (k->b < N)
            continue; /* on-board link: straight */
        int32_t v = k->a, X = v % s->W, Y = v / s->W;
        double ax = l->x[v], ay = l->y[v], sx = l->x[k->b], sy = l->y[k->b];
        if (k->b < N + s->Hh) {
            double ly = ay - l->host_r - (++row_k[Y]) * lane;
            layout_bracket(l, id, ax, ly, ax - e, ly, sx + e, ly, sx, ly);
        } else {
            double lx = ax - l->host_r - (++col_k[X]) * lane;
            layout_bracket(l, id, lx, ay, lx, ay - e, lx, sy + e, lx, sy);
        }
        (void)sy;
    }
    free(row_k);
    free(col_k);
}

void layout_hammingmesh(draw_layout *l, const topology *t)
{
    hm_shape s = read_shape(t);
    /* lanes: one per node of a row that reaches the row switch (west and east edges) */
    int32_t row_links = (s.W / s.a) * (s.a > 1 ? 2 : 1), col_links = (s.Hh / s.b) * (s.b > 1 ? 2 : 1);
    double lane = 4.5;
    double sx = 2 * l->host_r + 16 + col_links * lane, sy = 2 * l->host_r + 16 + row_links * lane;
    double gap = 2 * l->host_r;
    for (int32_t v = 0; v < t->nhosts; v++) {
        int32_t X = v % s.W, Y = v / s.W;
        l->x[v] = X * sx + (X / s.a) * gap;
        l->y[v] = Y * sy + (Y / s.b) * gap;
    }
    for (int32_t sw = t->nhosts; sw < topo_nnodes(t); sw++) {
        int32_t i = sw - t->nhosts;
        if (i < s.Hh) { /* row switch: left of the grid */
            l->x[sw] = -sx;
            l->y[sw] = l->y[i * s.W];
        } else { /* column switch: above the grid */
            l->x[sw] = l->x[(i - s.Hh) % s.W];
            l->y[sw] = -sy;
        }
    }
    route_links(l, t, &s, lane);
    board_boxes(l, t, &s);
}
