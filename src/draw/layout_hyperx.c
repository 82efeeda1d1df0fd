/* layout_hyperx.c - HyperX and 2dfc: a grid of switches whose rows and columns are
 * cliques (layout.h).
 *
 * Switch (c0, c1) sits at column c0, row c1 (hyperx.c / 2dfc.c numbering, dimension 0
 * fastest); a third dimension puts planes side by side, further ones stack rows of
 * planes. In a row, neighbours are joined by straight links and the other pairs by arcs
 * above the row, higher the further apart they are (high enough to clear the nodes in
 * between); columns likewise with arcs on their left. Hosts of indirect HyperX (T > 0)
 * hang in a row below and to the right of their switch. A one-dimensional HyperX (a
 * clique) is drawn on a circle.
 */
#include <math.h>
#include <stdlib.h>

#include "draw/layout.h"

/* Height of the arc between two nodes k positions apart (k >= 2): enough to pass the
 * node next to either end, rising by half of that for every extra position. */
static double arc_height(const draw_layout *l, int32_t k)
{
    return (l->host_r + 7) * (1 + 0.5 * (k - 2));
}

static void coords(const topology *t, int32_t v, int32_t *c)
{
    for (int j = 0; j < t->ndims; j++) {
        c[j] = v % t->dims[j];
        v /= t->dims[j];
    }
}

static void clique_circle(draw_layout *l, const topology *t, int32_t first, int32_t n)
{
    double s = 2 * l->host_r + 28, R = fmax(n * s / (2 * M_PI), s);
    for (int32_t v = 0; v < n; v++) {
        double a = -M_PI / 2 + 2 * M_PI * v / n;
        l->x[first + v] = R * cos(a);
        l->y[first + v] = R * sin(a);
    }
    if (t->nswitches)
        layout_hosts_below(l, t, 0, 2.4 * l->host_r);
}

void layout_hyperx(draw_layout *l, const topology *t)
{
    int32_t first = t->direct ? 0 : t->nhosts;
    int32_t nv = t->direct ? t->nhosts : t->nswitches;
    if (t->ndims < 2) {
        clique_circle(l, t, first, nv);
        return;
    }
    int32_t T = t->direct ? 0 : t->nhosts / t->nswitches;
    double pitch = 2 * l->host_r + 4;
    double hx = arc_height(l, t->dims[1] > 2 ? t->dims[1] - 1 : 2); /* column arcs */
    double hy = arc_height(l, t->dims[0] > 2 ? t->dims[0] - 1 : 2); /* row arcs */
    double sx = fmax(2 * l->host_r + 22, T * pitch + l->host_r) + hx;
    double sy = 2 * l->host_r + 22 + hy + (T ? 2.6 * l->host_r : 0);
    double plane_w = t->dims[0] * sx + 2 * l->host_r;
    double plane_h = t->dims[1] * sy + 2 * l->host_r;
    int32_t c[TOPO_MAX_DIMS];
    for (int32_t v = 0; v < nv; v++) {
        coords(t, v, c);
        int32_t upper = 0, scale = 1;
        for (int j = 3; j < t->ndims; j++) {
            upper += c[j] * scale;
            scale *= t->dims[j];
        }
        l->x[first + v] = c[0] * sx + (t->ndims > 2 ? c[2] * plane_w : 0);
        l->y[first + v] = c[1] * sy + upper * plane_h;
    }
    if (T)
        layout_hosts_below(l, t, l->host_r + (T - 1) * pitch / 2, 2.5 * l->host_r);
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        if (k->cls == LINK_HOST)
            continue;
        int32_t ca[TOPO_MAX_DIMS], cb[TOPO_MAX_DIMS];
        coords(t, k->a - first, ca);
        coords(t, k->b - first, cb);
        int j = 0;
        while (j < t->ndims - 1 && ca[j] == cb[j])
            j++;
        int32_t dist = abs(ca[j] - cb[j]);
        double ax = l->x[k->a], ay = l->y[k->a], bx = l->x[k->b], by = l->y[k->b];
        if (j >= 2) /* between planes */
            layout_curve(l, id, (ax + bx) / 2, (ay + by) / 2 + 0.3 * sy * dist);
        else if (dist >= 2 && j == 0)
            layout_curve(l, id, (ax + bx) / 2, ay - 2 * arc_height(l, dist));
        else if (dist >= 2)
            layout_curve(l, id, ax - 2 * arc_height(l, dist), (ay + by) / 2);
    }
}
