/* render.c - one panel of a figure: decorations, links, the chosen rank's messages,
 * nodes and labels (render.h). Titles and legends: render_legend.c. */
#include "draw/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw/render_internal.h"

double draw_host_radius(int32_t max_rank)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%d", max_rank > 0 ? max_rank : 0);
    double r = scene_text_width(buf, LABEL_SIZE) / 2 + 3.5;
    return r > 9 ? r : 9;
}

void draw_format_bytes(int64_t bytes, char *buf, size_t n)
{
    static const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    if (u == 0 || v >= 100)
        snprintf(buf, n, "%.0f %s", v, units[u]);
    else if (v >= 10)
        snprintf(buf, n, "%.1f %s", v, units[u]);
    else
        snprintf(buf, n, "%.2f %s", v, units[u]);
    /* "1.50 MiB" -> "1.5 MiB", "2.00 KiB" -> "2 KiB" */
    char *dot = strchr(buf, '.'), *sp = strchr(buf, ' ');
    if (dot && sp) {
        char *e = sp - 1;
        while (e > dot && *e == '0')
            e--;
        if (e == dot)
            e--;
        memmove(e + 1, sp, strlen(sp) + 1);
    }
}

uint32_t draw_load_color(int64_t bytes, int64_t max)
{
    /* light yellow, orange, red, dark red */
    static const uint32_t stops[] = {0xfed976, 0xfd8d3c, 0xe31a1c, 0x800026};
    double f = max > 0 ? (double)bytes / (double)max : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    double pos = f * 3;
    int i = pos >= 3 ? 2 : (int)pos;
    double u = pos - i;
    uint32_t c = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        double a = (stops[i] >> sh) & 0xff, b = (stops[i + 1] >> sh) & 0xff;
        c |= (uint32_t)lround(a + (b - a) * u) << sh;
    }
    return c;
}

static void put_decorations(scene *s, const draw_layout *l)
{
    for (int i = 0; i < l->ndeco; i++) {
        const draw_deco *d = &l->deco[i];
        scene_item *it = d->kind == DECO_DISC ? scene_circle(s, d->x, d->y, d->w)
                                              : scene_rect(s, d->x, d->y, d->w, d->h, 8);
        it->fill = COLOR_DECO_FILL;
        it->stroke = COLOR_DECO_STROKE;
        it->cls = "group";
        if (d->label[0]) {
            it = scene_text(s, d->lx, d->ly, DECO_LABEL_SIZE, SCENE_MIDDLE, d->label);
            it->fill = COLOR_MUTED;
            it->cls = "group-label";
        }
    }
}

static double node_radius(const draw_layout *l, const topology *t, int32_t v)
{
    return topo_is_host(t, v) ? l->host_r : l->switch_r * 1.2;
}

/* The link's path from a to b; for one-way links it stops at b's rim and gets an
 * arrowhead of length `arrow`. */
static void put_link_path(scene *s, const draw_layout *l, const topology *t, int64_t id,
                          double arrow)
{
    const topo_link *k = &t->links[id];
    const draw_link_shape *sh = &l->link[id];
    double ax = l->x[k->a], ay = l->y[k->a], bx = l->x[k->b], by = l->y[k->b];
    double px = ax, py = ay; /* the point the path comes into b from */
    if (sh->kind == LINK_SHAPE_CURVE) {
        px = sh->px[0];
        py = sh->py[0];
    } else if (sh->kind == LINK_SHAPE_BRACKET) {
        px = sh->px[3];
        py = sh->py[3];
    }
    double dx = bx - px, dy = by - py, n = hypot(dx, dy);
    if (arrow > 0 && n > 0) {
        double r = node_radius(l, t, k->b) + 1;
        bx -= r * dx / n;
        by -= r * dy / n;
    }
    scene_move(s, ax, ay);
    if (sh->kind == LINK_SHAPE_CURVE)
        scene_quad(s, sh->px[0], sh->py[0], bx, by);
    else if (sh->kind == LINK_SHAPE_BRACKET) {
        scene_quad(s, sh->px[0], sh->py[0], sh->px[1], sh->py[1]);
        scene_line(s, sh->px[2], sh->py[2]);
        scene_quad(s, sh->px[3], sh->py[3], bx, by);
    } else
        scene_line(s, bx, by);
    if (arrow > 0)
        scene_arrowhead(s, bx, by, dx, dy, arrow);
}

void draw_node_name(const topology *t, int32_t v, char *buf, size_t n)
{
    snprintf(buf, n, "%c%d", topo_is_host(t, v) ? 'h' : 's', v);
}

/* Failed links: red and dashed; degraded links: dashed in their colour. Appends the fault
 * to the link's title; returns the characters appended. */
static int fault_style(const topology *t, int64_t id, scene_item *it, char *title, size_t n)
{
    if (topo_link_failed(t, id)) {
        it->stroke = COLOR_FAILED;
        it->dashed = 1;
        it->opacity = 1;
        return snprintf(title, n, " FAILED");
    }
    double f = topo_link_factor(t, id);
    if (f == 1.0)
        return 0;
    it->dashed = 1;
    return snprintf(title, n, " degraded: bandwidth x%g", f);
}

static void put_links(scene *s, const draw_figure *f, const draw_panel *p, const char *idp)
{
    const topology *t = f->t;
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        int64_t fwd = 0, rev = 0;
        if (p->loads) {
            fwd = draw_loads_bytes(p->loads, p->step, 2 * id);
            rev = draw_loads_bytes(p->loads, p->step, 2 * id + 1);
        }
        int64_t load = fwd > rev ? fwd : rev;
        double width = CLASS_WIDTH[k->cls];
        if (p->loads && load > 0)
            width = LOAD_MIN_WIDTH + LOAD_EXTRA_WIDTH * (double)load / (double)f->scale_max;
        int oneway = k->sharing == LINK_ONE_WAY;
        scene_item *it = scene_path(s);
        put_link_path(s, f->layout, t, id, oneway ? 6 + width : 0);
        it = &s->items[s->nitems - 1]; /* the path item (segments do not move it) */
        snprintf(it->id, sizeof it->id, "%sl%lld", idp, (long long)id);
        it->cls = "link";
        it->width = width;
        it->stroke = CLASS_COLOR[k->cls];
        if (p->loads) {
            it->data_fwd = fwd;
            it->data_rev = rev;
            if (load > 0)
                it->stroke = draw_load_color(load, f->scale_max);
            else
                it->opacity = UNLOADED_OPACITY;
        }
        char a[16], b[16], title[160], fb[32], rb[32];
        draw_node_name(t, k->a, a, sizeof a);
        draw_node_name(t, k->b, b, sizeof b);
        int len = snprintf(title, sizeof title, "link %lld (%s): %s %s %s", (long long)id,
                           link_class_name((link_class)k->cls), a, oneway ? "->" : "-", b);
        len += fault_style(t, id, it, title + len, sizeof title - (size_t)len);
        if (p->loads) {
            draw_format_bytes(fwd, fb, sizeof fb);
            draw_format_bytes(rev, rb, sizeof rb);
            if (k->sharing == LINK_FULL_DUPLEX)
                snprintf(title + len, sizeof title - (size_t)len, "; %s->%s %s, %s->%s %s", a, b,
                         fb, b, a, rb);
            else
                snprintf(title + len, sizeof title - (size_t)len, "; %s", fb);
        }
        scene_item_set_title(it, title);
    }
}

/* The chosen rank's own messages of this step: a dashed path over every link they cross
 * (each link once). */
static void put_routes(scene *s, const draw_figure *f, const draw_panel *p)
{
    const draw_loads *ld = p->loads;
    if (!ld || ld->rank < 0)
        return;
    const topology *t = f->t;
    for (size_t i = 0; i < ld->nroute; i++) {
        const draw_route_hop *h = &ld->route[i];
        if (p->step != DRAW_TOTAL && (int32_t)h->step != p->step)
            continue;
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = ld->route[j].resource / 2 == h->resource / 2 &&
                   (p->step == DRAW_TOTAL || (int32_t)ld->route[j].step == p->step);
        if (seen)
            continue;
        scene_item *it = scene_path(s);
        put_link_path(s, f->layout, t, h->resource / 2, 0);
        it = &s->items[s->nitems - 1];
        it->cls = "route";
        it->stroke = COLOR_HIGHLIGHT;
        it->dashed = 1;
        it->width = 1.5;
    }
}

/* 2: the chosen rank's host, 1: the host of one of its peers in this step, 0: neither. */
static int host_role(const draw_figure *f, const draw_panel *p, int32_t host)
{
    if (f->rank < 0)
        return 0;
    if (f->host_of_rank[f->rank] == host)
        return 2;
    const draw_loads *ld = p->loads;
    for (size_t i = 0; ld && i < ld->npeers; i++)
        if (f->host_of_rank[ld->peers[i].peer] == host &&
            (p->step == DRAW_TOTAL || (int32_t)ld->peers[i].step == p->step))
            return 1;
    return 0;
}

static void put_nodes(scene *s, const draw_figure *f, const draw_panel *p, const char *idp)
{
    const topology *t = f->t;
    const draw_layout *l = f->layout;
    char buf[64];
    for (int32_t v = t->nhosts; v < topo_nnodes(t); v++) {
        double q = l->switch_r;
        scene_item *it = scene_rect(s, l->x[v] - q, l->y[v] - q, 2 * q, 2 * q, 3);
        snprintf(it->id, sizeof it->id, "%ss%d", idp, v);
        it->cls = "switch";
        it->fill = COLOR_SWITCH_FILL;
        it->stroke = COLOR_MUTED;
        snprintf(buf, sizeof buf, "switch s%d", v);
        scene_item_set_title(it, buf);
    }
    for (int32_t h = 0; h < t->nhosts; h++) {
        int role = host_role(f, p, h);
        int32_t rank = role == 2 ? f->rank : f->rank_of_host[h];
        scene_item *it = scene_circle(s, l->x[h], l->y[h], l->host_r);
        snprintf(it->id, sizeof it->id, "%sh%d", idp, h);
        it->cls = "host";
        it->fill = role == 2 ? COLOR_HIGHLIGHT : role == 1 ? COLOR_PEER_FILL : 0xffffff;
        it->stroke = role ? COLOR_HIGHLIGHT : rank < 0 ? 0xadb5bd : COLOR_TEXT;
        it->width = role ? 2.5 : 1.2;
        it->dashed = rank < 0;
        if (rank < 0)
            snprintf(buf, sizeof buf, "host h%d (no rank)", h);
        else
            snprintf(buf, sizeof buf, "host h%d: rank %d", h, rank);
        scene_item_set_title(it, buf);
        if (rank < 0)
            continue;
        snprintf(buf, sizeof buf, "%d", rank);
        it = scene_text(s, l->x[h], l->y[h] + LABEL_SIZE * 0.36, LABEL_SIZE, SCENE_MIDDLE, buf);
        it->cls = "label";
        it->fill = role == 2 ? 0xffffff : COLOR_TEXT;
    }
}

/* Draws panel p of f into s at the origin (the caller shifts it into place). */
void draw_render_panel(const draw_figure *f, const draw_panel *p, const char *idp, scene *s)
{
    put_decorations(s, f->layout);
    put_links(s, f, p, idp);
    put_routes(s, f, p);
    put_nodes(s, f, p, idp);
}
