/* layout_tree.c - fat trees as layered trees (layout.h).
 *
 * Levels are distances from the hosts: hosts 0, leaves 1, spines / aggregation switches
 * 2, cores 3. Leaves sit side by side in id order (pod-major), each over its hosts (rows
 * of at most 8); every higher level is spread evenly over the whole width, ordered by the
 * mean position of the switches below it (then by id), which puts a pod's aggregation
 * switches over the pod and keeps the core planes in order. Groups (fattree `group=`:
 * leaves or pods below the taper) get a light box with their label underneath; links
 * are straight.
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "draw/layout.h"

#define HOSTS_PER_ROW 8

/* Level of every node: breadth-first from the hosts. Returns the highest level. */
static int32_t levels(const topology *t, int32_t *level)
{
    int32_t n = topo_nnodes(t), top = 0;
    int32_t *queue = xmalloc((size_t)n * sizeof *queue);
    int32_t head = 0, tail = 0;
    for (int32_t v = 0; v < n; v++) {
        level[v] = v < t->nhosts ? 0 : -1;
        if (v < t->nhosts)
            queue[tail++] = v;
    }
    while (head < tail) {
        int32_t v = queue[head++];
        for (int64_t e = t->inc_first[v]; e < t->inc_first[v + 1]; e++) {
            int32_t w = t->inc_node[e];
            if (level[w] < 0) {
                level[w] = level[v] + 1;
                top = level[w] > top ? level[w] : top;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    return top;
}

typedef struct ordered {
    double key;
    int32_t node;
} ordered;

static int cmp_ordered(const void *a, const void *b)
{
    const ordered *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

/* Level lv >= 2: ordered by the mean x of the neighbours one level down, evenly spread. */
static void place_level(draw_layout *l, const topology *t, const int32_t *level, int32_t lv,
                        double width, double y)
{
    ordered *o = xmalloc((size_t)t->nswitches * sizeof *o);
    int32_t n = 0;
    for (int32_t s = t->nhosts; s < topo_nnodes(t); s++) {
        if (level[s] != lv)
            continue;
        double sum = 0;
        int32_t k = 0;
        for (int64_t e = t->inc_first[s]; e < t->inc_first[s + 1]; e++)
            if (level[t->inc_node[e]] == lv - 1) {
                sum += l->x[t->inc_node[e]];
                k++;
            }
        o[n++] = (ordered){k ? sum / k : 0, s};
    }
    qsort(o, (size_t)n, sizeof *o, cmp_ordered);
    for (int32_t i = 0; i < n; i++) {
        l->x[o[i].node] = (i + 0.5) * width / n;
        l->y[o[i].node] = y;
    }
    free(o);
}

static void group_boxes(draw_layout *l, const topology *t)
{
    if (t->ngroups < 2)
        return;
    double pad = l->host_r + 6;
    for (int32_t g = 0; g < t->ngroups; g++) {
        char label[32];
        snprintf(label, sizeof label, "group %d", g);
        draw_deco *d = layout_group_box(l, t, g, topo_nnodes(t), pad, label);
        if (d) { /* the label under the box */
            d->lx = d->x + d->w / 2;
            d->ly = d->y + d->h + 13;
        }
    }
}

void layout_tree(draw_layout *l, const topology *t)
{
    int32_t *level = xmalloc((size_t)topo_nnodes(t) * sizeof *level);
    int32_t top = levels(t, level);
    double hp = 2 * l->host_r + 4;
    int32_t nleaves = 0, most = 0; /* hosts on the fullest leaf */
    int32_t *count = xcalloc((size_t)t->nswitches, sizeof *count);
    for (int32_t h = 0; h < t->nhosts; h++) {
        int32_t i = topo_host_switch(t, h) - t->nhosts;
        if (++count[i] > most)
            most = count[i];
    }
    double slot = fmax((most < HOSTS_PER_ROW ? most : HOSTS_PER_ROW) * hp, 2 * l->switch_r) + 26;
    for (int32_t s = t->nhosts; s < topo_nnodes(t); s++)
        if (level[s] == 1) {
            l->x[s] = (nleaves++ + 0.5) * slot;
            l->y[s] = 0;
        }
    double pitch = 2 * l->host_r + 4, layer = 7 * l->host_r + 40;
    for (int32_t h = 0, k = 0, prev = -1; h < t->nhosts; h++) {
        int32_t sw = topo_host_switch(t, h), n = count[sw - t->nhosts];
        k = sw == prev ? k + 1 : 0;
        prev = sw;
        int32_t row = k / HOSTS_PER_ROW, col = k % HOSTS_PER_ROW;
        int32_t in_row = n - row * HOSTS_PER_ROW < HOSTS_PER_ROW ? n - row * HOSTS_PER_ROW : HOSTS_PER_ROW;
        l->x[h] = l->x[sw] + (col - (in_row - 1) / 2.0) * pitch;
        l->y[h] = 4 * l->host_r + 20 + row * pitch;
    }
    for (int32_t lv = 2; lv <= top; lv++)
        place_level(l, t, level, lv, nleaves * slot, -(lv - 1) * layer);
    group_boxes(l, t);
    free(count);
    free(level);
}
