/* layout.c - choosing a family's layout, and the helpers the layouts share (layout.h). */
#include "draw/layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void layout_alloc(draw_layout *l, const topology *t, const char *style, double host_r)
{
    memset(l, 0, sizeof *l);
    l->style = style;
    l->host_r = host_r;
    l->switch_r = host_r * 0.85;
    size_t n = (size_t)topo_nnodes(t);
    l->x = xcalloc(n ? n : 1, sizeof *l->x);
    l->y = xcalloc(n ? n : 1, sizeof *l->y);
    l->link = xcalloc((size_t)(t->nlinks ? t->nlinks : 1), sizeof *l->link);
}

void draw_layout_free(draw_layout *l)
{
    free(l->x);
    free(l->y);
    free(l->link);
    free(l->deco);
    memset(l, 0, sizeof *l);
}

draw_deco *layout_add_deco(draw_layout *l, draw_deco_kind kind, double x, double y, double w,
                           double h, const char *label)
{
    size_t cap = (size_t)l->cap_deco;
    VEC_RESERVE(l->deco, cap, (size_t)l->ndeco + 1);
    l->cap_deco = (int)cap;
    draw_deco *d = &l->deco[l->ndeco++];
    memset(d, 0, sizeof *d);
    d->kind = (uint8_t)kind;
    d->x = x;
    d->y = y;
    d->w = w;
    d->h = h;
    snprintf(d->label, sizeof d->label, "%s", label ? label : "");
    return d;
}

void layout_bend(draw_layout *l, const topology *t, int64_t id, double bulge)
{
    const topo_link *k = &t->links[id];
    double ax = l->x[k->a], ay = l->y[k->a], bx = l->x[k->b], by = l->y[k->b];
    double dx = bx - ax, dy = by - ay, n = hypot(dx, dy);
    if (n == 0)
        n = 1;
    /* left of the direction a -> b on a y-down canvas: (dy, -dx) / n */
    layout_curve(l, id, (ax + bx) / 2 + 2 * bulge * dy / n, (ay + by) / 2 - 2 * bulge * dx / n);
}

void layout_curve(draw_layout *l, int64_t id, double cx, double cy)
{
    draw_link_shape *s = &l->link[id];
    memset(s, 0, sizeof *s);
    s->kind = LINK_SHAPE_CURVE;
    s->px[0] = cx;
    s->py[0] = cy;
}

void layout_bracket(draw_layout *l, int64_t id, double cx0, double cy0, double ax1, double ay1,
                    double bx1, double by1, double cx3, double cy3)
{
    l->link[id] = (draw_link_shape){LINK_SHAPE_BRACKET, {cx0, ax1, bx1, cx3}, {cy0, ay1, by1, cy3}};
}

void layout_hosts_below(draw_layout *l, const topology *t, double dx, double dy)
{
    int32_t S = t->nswitches;
    int32_t *count = xcalloc((size_t)(S ? S : 1), sizeof *count);
    int32_t *seen = xcalloc((size_t)(S ? S : 1), sizeof *seen);
    for (int32_t h = 0; h < t->nhosts; h++)
        if (topo_host_switch(t, h) >= 0)
            count[topo_host_switch(t, h) - t->nhosts]++;
    double pitch = 2 * l->host_r + 4;
    for (int32_t h = 0; h < t->nhosts; h++) {
        int32_t sw = topo_host_switch(t, h);
        if (sw < 0)
            continue;
        int32_t i = sw - t->nhosts, k = seen[i]++;
        l->x[h] = l->x[sw] + dx + (k - (count[i] - 1) / 2.0) * pitch;
        l->y[h] = l->y[sw] + dy;
    }
    free(count);
    free(seen);
}

/* ---- fitting the drawing into its canvas -------------------------------------------- */

typedef struct bbox {
    double x0, y0, x1, y1;
} bbox;

static void bbox_add(bbox *b, double x, double y, double pad)
{
    if (x - pad < b->x0) b->x0 = x - pad;
    if (y - pad < b->y0) b->y0 = y - pad;
    if (x + pad > b->x1) b->x1 = x + pad;
    if (y + pad > b->y1) b->y1 = y + pad;
}

static bbox extent(const draw_layout *l, const topology *t)
{
    bbox b = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (int32_t v = 0; v < topo_nnodes(t); v++)
        bbox_add(&b, l->x[v], l->y[v], topo_is_host(t, v) ? l->host_r : l->switch_r);
    for (int64_t i = 0; i < t->nlinks; i++) {
        const draw_link_shape *s = &l->link[i];
        const topo_link *k = &t->links[i];
        if (s->kind == LINK_SHAPE_BRACKET) /* its curves stay inside their control points */
            for (int j = 0; j < 4; j++)
                bbox_add(&b, s->px[j], s->py[j], 2);
        if (s->kind != LINK_SHAPE_CURVE)
            continue;
        for (int j = 1; j < 8; j++) { /* a quadratic curve stays near these samples */
            double u = j / 8.0, a = (1 - u) * (1 - u), c = 2 * u * (1 - u), e = u * u;
            bbox_add(&b, a * l->x[k->a] + c * s->px[0] + e * l->x[k->b],
                     a * l->y[k->a] + c * s->py[0] + e * l->y[k->b], 2);
        }
    }
    for (int i = 0; i < l->ndeco; i++) {
        const draw_deco *d = &l->deco[i];
        if (d->kind == DECO_DISC)
            bbox_add(&b, d->x, d->y, d->w);
        else {
            bbox_add(&b, d->x, d->y, 0);
            bbox_add(&b, d->x + d->w, d->y + d->h, 0);
        }
        if (d->label[0]) /* labels: 11 px, centred */
            bbox_add(&b, d->lx, d->ly, 4 + 0.66 * 11 * (double)strlen(d->label) / 2);
    }
    return b;
}

void layout_fit(draw_layout *l, const topology *t, double margin)
{
    bbox b = extent(l, t);
    double dx = margin - b.x0, dy = margin - b.y0;
    for (int32_t v = 0; v < topo_nnodes(t); v++) {
        l->x[v] += dx;
        l->y[v] += dy;
    }
    for (int64_t i = 0; i < t->nlinks; i++)
        for (int j = 0; j < 4; j++) {
            l->link[i].px[j] += dx;
            l->link[i].py[j] += dy;
        }
    for (int i = 0; i < l->ndeco; i++) {
        l->deco[i].x += dx;
        l->deco[i].y += dy;
        l->deco[i].lx += dx;
        l->deco[i].ly += dy;
    }
    l->width = b.x1 - b.x0 + 2 * margin;
    l->height = b.y1 - b.y0 + 2 * margin;
}

/* ---- choosing the layout ----------------------------------------------------------- */

/* Straight links that join the same two nodes as an earlier straight link (a 2-ring's two
 * links, the two directions of a one-way pair) are bent apart. */
static void separate_parallel_links(draw_layout *l, const topology *t)
{
    for (int32_t v = 0; v < topo_nnodes(t); v++) {
        for (int64_t e = t->inc_first[v]; e < t->inc_first[v + 1]; e++) {
            int32_t w = t->inc_node[e];
            int64_t id = t->inc_link[e];
            if (w < v || l->link[id].kind != LINK_SHAPE_STRAIGHT)
                continue;
            /* the incidence list is sorted by neighbour: parallel links are adjacent */
            int copy = 0;
            for (int64_t f = t->inc_first[v]; f < e; f++)
                if (t->inc_node[f] == w)
                    copy++;
            if (copy)
                layout_bend(l, t, id, (copy % 2 ? 1 : -1) * l->host_r * (1 + copy / 2));
        }
    }
}

/* Which layout draws which family. */
static const struct {
    const char *family, *style;
    void (*lay_out)(draw_layout *l, const topology *t);
} LAYOUTS[] = {
    {"torus", "grid", layout_grid},
    {"hyperx", "hyperx", layout_hyperx},
    {"2dfc", "hyperx", layout_hyperx},
    {"hammingmesh", "hammingmesh", layout_hammingmesh},
    {"dragonfly", "groups", layout_groups},
    {"dragonflyplus", "groups", layout_groups},
    {"fattree", "tree", layout_tree},
    {"", "circle", layout_circle}, /* Kautz and anything else */
};

int draw_layout_check_size(const char *what, double nodes, double links, cs_error *err)
{
    if (nodes > DRAW_MAX_NODES || links > DRAW_MAX_LINKS)
        return cs_fail(err, "%s has %.0f nodes and %.0f links: too many to draw (at most %d "
                            "nodes and %d links)",
                       what, nodes, links, DRAW_MAX_NODES, DRAW_MAX_LINKS);
    return 0;
}

int draw_layout_build(const topology *t, double host_r, draw_layout *out, cs_error *err)
{
    if (draw_layout_check_size(t->params, topo_nnodes(t), (double)t->nlinks, err) < 0)
        return -1;
    size_t i = 0; /* the last row, the circle, takes any other family */
    while (i + 1 < sizeof LAYOUTS / sizeof LAYOUTS[0] && strcmp(LAYOUTS[i].family, t->family))
        i++;
    layout_alloc(out, t, LAYOUTS[i].style, host_r);
    LAYOUTS[i].lay_out(out, t);
    separate_parallel_links(out, t);
    layout_fit(out, t, 8);
    return 0;
}

draw_deco *layout_group_box(draw_layout *l, const topology *t, int32_t g, int32_t nnodes,
                            double pad, const char *label)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (int32_t v = 0; v < nnodes; v++) {
        if (t->group[v] != g)
            continue;
        x0 = fmin(x0, l->x[v]);
        y0 = fmin(y0, l->y[v]);
        x1 = fmax(x1, l->x[v]);
        y1 = fmax(y1, l->y[v]);
    }
    if (x0 > x1)
        return NULL;
    return layout_add_deco(l, DECO_BOX, x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad,
                           label);
}
