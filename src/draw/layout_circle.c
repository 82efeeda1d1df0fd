/* layout_circle.c - Kautz graphs, and any family without a layout of its own, on a
 * circle (layout.h).
 *
 * The routing vertices (the hosts of a direct network, else the switches) sit on a
 * circle in id order, clockwise from the top; hosts hanging off a switch sit further out
 * in a short row across it. One-way links (Kautz) are bent slightly to the left of their
 * direction, so that the two links of a pair u -> v, v -> u are both visible (and the
 * renderer gives them arrowheads); two-way links are straight chords.
 */
#include <math.h>

#include "draw/layout.h"

void layout_circle(draw_layout *l, const topology *t)
{
    int32_t first = t->direct || t->nswitches == 0 ? 0 : t->nhosts;
    int32_t n = t->direct || t->nswitches == 0 ? t->nhosts : t->nswitches;
    int32_t T = first ? (t->nhosts + n - 1) / n : 0;
    double hp = 2 * l->host_r + 4;
    double pitch = fmax(2 * l->host_r + 16, T * hp + 8);
    /* at least 150 px: a small Kautz graph's d * n chords need room to be told apart */
    double R = fmax(n * pitch / (2 * M_PI), 150);
    for (int32_t i = 0; i < n; i++) {
        double a = -M_PI / 2 + 2 * M_PI * i / n;
        l->x[first + i] = R * cos(a);
        l->y[first + i] = R * sin(a);
    }
    for (int32_t h = 0, k = 0, prev = -1; first && h < t->nhosts; h++) {
        int32_t sw = topo_host_switch(t, h);
        k = sw == prev ? k + 1 : 0;
        prev = sw;
        double wx = l->x[sw] / R, wy = l->y[sw] / R, u = (k - (T - 1) / 2.0) * hp;
        l->x[h] = l->x[sw] + 2.8 * l->host_r * wx - u * wy;
        l->y[h] = l->y[sw] + 2.8 * l->host_r * wy + u * wx;
    }
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        if (k->sharing != LINK_ONE_WAY)
            continue;
        double len = hypot(l->x[k->b] - l->x[k->a], l->y[k->b] - l->y[k->a]);
        layout_bend(l, t, id, 0.05 * len + 3);
    }
}
