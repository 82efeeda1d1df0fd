/* layout_groups.c - Dragonfly and Dragonfly+: groups around a circle (layout.h).
 *
 * Group i sits at angle -90 + 360 i / g degrees (group 0 at the top, clockwise) on a
 * light disc. Inside a group, in a frame whose "out" axis points away from the centre:
 *   - the switches without hosts (Dragonfly+ spines) in a row nearest the centre;
 *   - the switches with hosts (Dragonfly routers, Dragonfly+ leaves) in a row further
 *     out, and their hosts in a row further out still;
 *   - links among switches of one row (the Dragonfly's all-to-all local links) as arcs
 *     bulging towards the centre; spine-leaf links straight.
 * Global links are curves between the groups, pulled half-way towards the centre so that
 * those between neighbouring groups stay visible. Switches are assigned to groups by
 * t->group (both families give every router its group).
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "draw/layout.h"

typedef struct group_frame {
    double ox, oy; /* the group's reference point */
    double ux, uy; /* along the rows */
    double wx, wy; /* out, away from the centre */
} group_frame;

static void put(draw_layout *l, int32_t v, const group_frame *f, double u, double w)
{
    l->x[v] = f->ox + u * f->ux + w * f->wx;
    l->y[v] = f->oy + u * f->uy + w * f->wy;
}

typedef struct group_geom {
    double low_pitch;  /* between switches with hosts */
    double row_gap;    /* spine row to leaf row */
    double host_gap;   /* switch row to host row */
    double arc_max;    /* deepest local arc */
    double disc_r;     /* the group's disc */
    double disc_w;     /* disc centre on the out axis */
} group_geom;

/* Counts, per group, its switches with and without hosts (the largest group decides). */
static void measure(const topology *t, const int32_t *nhosts_of, int32_t *max_low,
                    int32_t *max_up, int32_t *max_p)
{
    int32_t G = t->ngroups > 0 ? t->ngroups : 1;
    int32_t *low = xcalloc((size_t)G, sizeof *low), *up = xcalloc((size_t)G, sizeof *up);
    *max_low = *max_up = *max_p = 0;
    for (int32_t s = t->nhosts; s < topo_nnodes(t); s++) {
        int32_t g = t->group[s] >= 0 ? t->group[s] : 0, k = nhosts_of[s - t->nhosts];
        if (k)
            low[g]++;
        else
            up[g]++;
        if (k > *max_p)
            *max_p = k;
    }
    for (int32_t g = 0; g < G; g++) {
        if (low[g] > *max_low) *max_low = low[g];
        if (up[g] > *max_up) *max_up = up[g];
    }
    free(low);
    free(up);
}

static double arc_height(const draw_layout *l, int32_t k)
{
    return (l->switch_r + 6) * (1 + 0.6 * (k - 2));
}

static group_geom geometry(const draw_layout *l, int32_t nlow, int32_t nup, int32_t p)
{
    group_geom g;
    double hp = 2 * l->host_r + 4;
    g.low_pitch = fmax(p * hp + 8, 2 * l->switch_r + 14);
    g.row_gap = nup ? 5 * l->host_r + 10 : 0;
    g.host_gap = 3.2 * l->host_r + 6;
    g.arc_max = nup == 0 && nlow > 2 ? arc_height(l, nlow - 1) : 0;
    double width = nlow * g.low_pitch, w0 = -g.arc_max, w1 = g.row_gap + g.host_gap + l->host_r;
    g.disc_w = (w0 + w1) / 2;
    g.disc_r = hypot(width / 2, (w1 - w0) / 2) + 4;
    return g;
}

static int in_group(const topology *t, int32_t v, int32_t grp)
{
    return t->group[v] == grp || (t->group[v] < 0 && grp == 0);
}

/* Places group `grp` (switches, then each switch's hosts across its slot) with its frame
 * at angle a on the circle of radius R. u_of: scratch, per switch. */
static void place_group(draw_layout *l, const topology *t, int32_t grp, const group_geom *g,
                        double R, double a, const int32_t *nhosts_of, double *u_of)
{
    group_frame f = {R * cos(a), R * sin(a), -sin(a), cos(a), cos(a), sin(a)};
    int32_t nlow = 0, nup = 0;
    for (int32_t s = t->nhosts; s < topo_nnodes(t); s++)
        if (in_group(t, s, grp)) {
            if (nhosts_of[s - t->nhosts])
                nlow++;
            else
                nup++;
        }
    double width = nlow * g->low_pitch, hp = 2 * l->host_r + 4;
    int32_t il = 0, iu = 0;
    for (int32_t s = t->nhosts; s < topo_nnodes(t); s++) {
        if (!in_group(t, s, grp))
            continue;
        int low = nhosts_of[s - t->nhosts] > 0;
        double u = low ? -width / 2 + (il++ + 0.5) * g->low_pitch
                       : -width / 2 + (iu++ + 0.5) * width / nup;
        u_of[s - t->nhosts] = u;
        put(l, s, &f, u, low ? g->row_gap : 0);
    }
    for (int32_t h = 0, k = 0, prev = -1; h < t->nhosts; h++) {
        int32_t sw = topo_host_switch(t, h);
        if (!in_group(t, sw, grp))
            continue;
        k = sw == prev ? k + 1 : 0; /* hosts of a switch are consecutive */
        prev = sw;
        int32_t n = nhosts_of[sw - t->nhosts];
        put(l, h, &f, u_of[sw - t->nhosts] + (k - (n - 1) / 2.0) * hp,
            g->row_gap + g->host_gap);
    }
    char label[32];
    snprintf(label, sizeof label, "group %d", grp);
    draw_deco *d = layout_add_deco(l, DECO_DISC, f.ox + g->disc_w * f.wx,
                                   f.oy + g->disc_w * f.wy, g->disc_r, 0, label);
    double lw = g->disc_w + g->disc_r + 12;
    d->lx = f.ox + lw * f.wx;
    d->ly = f.oy + lw * f.wy + 4;
}

/* Global links bend towards the centre; links inside a row (Dragonfly local links) arc
 * towards the centre, deeper the further apart their routers are. */
static void shape_links(draw_layout *l, const topology *t, double pitch)
{
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        if (k->cls == LINK_HOST)
            continue;
        double ax = l->x[k->a], ay = l->y[k->a], bx = l->x[k->b], by = l->y[k->b];
        double mx = (ax + bx) / 2, my = (ay + by) / 2, nm = hypot(mx, my);
        if (t->group[k->a] != t->group[k->b]) {
            layout_curve(l, id, mx / 2, my / 2);
            continue;
        }
        if (fabs(hypot(ax, ay) - hypot(bx, by)) > 1 || nm == 0) /* spine - leaf */
            continue;
        int32_t kpos = (int32_t)lround(hypot(bx - ax, by - ay) / pitch);
        if (kpos >= 2)
            layout_curve(l, id, mx - 2 * arc_height(l, kpos) * mx / nm,
                         my - 2 * arc_height(l, kpos) * my / nm);
    }
}

void layout_groups(draw_layout *l, const topology *t)
{
    int32_t *nhosts_of = xcalloc((size_t)(t->nswitches ? t->nswitches : 1), sizeof *nhosts_of);
    for (int32_t h = 0; h < t->nhosts; h++)
        nhosts_of[topo_host_switch(t, h) - t->nhosts]++;
    int32_t nlow, nup, p, G = t->ngroups > 0 ? t->ngroups : 1;
    measure(t, nhosts_of, &nlow, &nup, &p);
    group_geom g = geometry(l, nlow, nup, p);
    double gap = 3 * l->host_r + 20;
    double R = G > 1 ? (g.disc_r + gap / 2) / sin(M_PI / G) - g.disc_w : 0;
    if (G > 1 && R < 2 * g.disc_r)
        R = 2 * g.disc_r;
    double *u_of = xcalloc((size_t)(t->nswitches ? t->nswitches : 1), sizeof *u_of);
    for (int32_t i = 0; i < G; i++)
        place_group(l, t, i, &g, R, -M_PI / 2 + 2 * M_PI * i / G, nhosts_of, u_of);
    shape_links(l, t, g.low_pitch);
    free(u_of);
    free(nhosts_of);
}
