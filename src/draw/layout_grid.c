/* layout_grid.c - tori and meshes on a grid (layout.h).
 *
 * Node coordinates (c0, c1, ...) as in torus.c (dimension 0 fastest). Dimension 0 runs
 * left to right, dimension 1 top to bottom; a third dimension puts the 2-D planes side
 * by side, further dimensions stack those rows of planes downwards. A ring (one
 * dimension, wrapped) is a circle.
 *
 * Links between neighbours are straight. A wrap-around link of dimension 0 is a bracket
 * that leaves the last node of its row to the right, runs back above the row, in the
 * gap between rows, and enters the first node from the left; dimension 1 likewise on
 * the left of its column. Links of higher dimensions join planes with gentle curves.
 * Groups (torus `group=` blocks) get a light box each.
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "draw/layout.h"
#include "topologies/faults.h"

typedef struct grid_geom {
    double s;        /* node pitch */
    double plane_w;  /* pitch of planes along dimension 2 */
    double plane_h;  /* pitch of rows of planes (dimensions 3 and up) */
} grid_geom;

static void coords(const topology *t, int32_t v, int32_t *c)
{
    for (int j = 0; j < t->ndims; j++) {
        c[j] = v % t->dims[j];
        v /= t->dims[j];
    }
}

static void place_nodes(draw_layout *l, const topology *t, const grid_geom *g)
{
    int32_t c[TOPO_MAX_DIMS];
    for (int32_t v = 0; v < t->nhosts; v++) {
        coords(t, v, c);
        int32_t upper = 0, scale = 1; /* index over dimensions 3 and up */
        for (int j = 3; j < t->ndims; j++) {
            upper += c[j] * scale;
            scale *= t->dims[j];
        }
        l->x[v] = c[0] * g->s + (t->ndims > 2 ? c[2] * g->plane_w : 0);
        l->y[v] = (t->ndims > 1 ? c[1] * g->s : 0) + upper * g->plane_h;
    }
}

/* The dimension along which a and b differ. */
static int link_dim(const topology *t, int32_t a, int32_t b, int32_t *ca, int32_t *cb)
{
    coords(t, a, ca);
    coords(t, b, cb);
    for (int j = 0; j < t->ndims; j++)
        if (ca[j] != cb[j])
            return j;
    return 0;
}

static void shape_link(draw_layout *l, const topology *t, const grid_geom *g, int64_t id)
{
    const topo_link *k = &t->links[id];
    int32_t ca[TOPO_MAX_DIMS], cb[TOPO_MAX_DIMS];
    int j = link_dim(t, k->a, k->b, ca, cb);
    int wrap = abs(ca[j] - cb[j]) > 1;
    double ax = l->x[k->a], ay = l->y[k->a], bx = l->x[k->b], by = l->y[k->b];
    double e = 0.38 * g->s, h = 0.45 * g->s;
    if (wrap && (j == 0 || j == 1)) {
        /* a is the far end (torus.c links node i to its +1 neighbour, wrapping) */
        double sgn = ca[j] > cb[j] ? 1 : -1;
        if (j == 0)
            layout_bracket(l, id, ax + sgn * e, ay, ax + sgn * e, ay - h, bx - sgn * e, by - h,
                           bx - sgn * e, by);
        else
            layout_bracket(l, id, ax, ay + sgn * e, ax - h, ay + sgn * e, bx - h, by - sgn * e,
                           bx, by - sgn * e);
    } else if (j >= 2) {
        /* between planes: bow downwards, more for the long way round */
        layout_curve(l, id, (ax + bx) / 2, (ay + by) / 2 + (wrap ? 0.9 : 0.3) * g->s);
    }
}

/* One ring: nodes on a circle, links as chords (a 2-ring's second link is bent apart by
 * the caller). */
static void ring(draw_layout *l, const topology *t, double s)
{
    int32_t n = t->nhosts;
    double R = n * s / (2 * M_PI);
    if (R < s)
        R = s;
    for (int32_t v = 0; v < n; v++) {
        double a = -M_PI / 2 + 2 * M_PI * v / n;
        l->x[v] = R * cos(a);
        l->y[v] = R * sin(a);
    }
}

/* Light boxes around the groups (torus blocks); labels would crowd the grid. */
static void group_boxes(draw_layout *l, const topology *t, double pad)
{
    if (t->ngroups < 2)
        return;
    for (int32_t g = 0; g < t->ngroups; g++)
        layout_group_box(l, t, g, t->nhosts, pad, "");
}

void layout_grid(draw_layout *l, const topology *t)
{
    grid_geom g;
    g.s = 2 * l->host_r + 28;
    int mesh = (t->faults ? t->faults->base_routing : (int)t->routing) != TOPO_ROUTE_TORUS;
    if (t->ndims <= 1 && !mesh) {
        ring(l, t, g.s);
        return;
    }
    g.plane_w = (t->ndims > 0 ? t->dims[0] - 1 : 0) * g.s + 2.5 * g.s;
    g.plane_h = (t->ndims > 1 ? t->dims[1] - 1 : 0) * g.s + 2.5 * g.s;
    place_nodes(l, t, &g);
    for (int64_t id = 0; id < t->nlinks; id++)
        shape_link(l, t, &g, id);
    group_boxes(l, t, l->host_r + 5);
}
