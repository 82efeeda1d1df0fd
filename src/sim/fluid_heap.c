/* fluid_heap.c - the fluid network's flow dates (a flow's latency end or completion): an
 * indexed binary heap of flow ids ordered by (date, seq), seq the order the dates were
 * set in (SimGrid's action heap is stable: ties in insertion order); every flow knows its index
 * (fl_flow.heap), so a date can change or leave in O(log n). */
#include <stdlib.h>

#include "common/util.h"
#include "sim/fluid_internal.h"

static int before(const fl_flow *f, int32_t a, int32_t b)
{
    return f[a].date < f[b].date || (f[a].date == f[b].date && f[a].seq < f[b].seq);
}

static void place(fl_heap *h, fl_flow *f, int64_t i, int32_t id)
{
    h->id[i] = id;
    f[id].heap = i;
}

static void sift_up(fl_heap *h, fl_flow *f, int64_t i)
{
    int32_t id = h->id[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!before(f, id, h->id[p]))
            break;
        place(h, f, i, h->id[p]);
        i = p;
    }
    place(h, f, i, id);
}

static void sift_down(fl_heap *h, fl_flow *f, int64_t i)
{
    int32_t id = h->id[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(f, h->id[c + 1], h->id[c]))
            c++;
        if (!before(f, h->id[c], id))
            break;
        place(h, f, i, h->id[c]);
        i = c;
    }
    place(h, f, i, id);
}

void fl_heap_push(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->id = xrealloc(h->id, (size_t)h->cap * sizeof *h->id);
    }
    h->id[h->n] = id;
    flows[id].heap = h->n++;
    sift_up(h, flows, flows[id].heap);
}

void fl_heap_update(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (flows[id].heap < 0) {
        fl_heap_push(h, flows, id);
        return;
    }
    sift_up(h, flows, flows[id].heap);
    sift_down(h, flows, flows[id].heap);
}

void fl_heap_remove(fl_heap *h, fl_flow *flows, int32_t id)
{
    int64_t i = flows[id].heap;
    if (i < 0)
        return;
    flows[id].heap = -1;
    int32_t last = h->id[--h->n];
    if (i == h->n)
        return;
    place(h, flows, i, last);
    sift_up(h, flows, i);
    sift_down(h, flows, flows[last].heap);
}

int32_t fl_heap_top(const fl_heap *h)
{
    return h->n > 0 ? h->id[0] : -1;
}

void fl_heap_free(fl_heap *h)
{
    free(h->id);
    h->id = NULL;
    h->n = h->cap = 0;
}
