/* fluid_heap.c - the fluid network's flow dates (a flow's latency end or completion): an
 * indexed binary heap of flow ids ordered by (date, seq), seq the order the dates were
 * set in (SimGrid's action heap is stable: ties in insertion order); every flow knows its index
 * (fl_flow.heap), so a date can change or leave in O(log n). An entry carries a copy of its
 * flow's (date, seq), refreshed whenever the flow's date changes (push, update): comparing
 * two entries reads the heap's array only, not two flows elsewhere in memory. */
#include <stdlib.h>

#include "common/util.h"
#include "sim/fluid_internal.h"

static int before(const fl_hent *a, const fl_hent *b)
{
    return a->date < b->date || (a->date == b->date && a->seq < b->seq);
}

static void place(fl_heap *h, fl_flow *f, int64_t i, fl_hent e)
{
    h->e[i] = e;
    f[e.id].heap = i;
}

static void sift_up(fl_heap *h, fl_flow *f, int64_t i)
{
    fl_hent e = h->e[i];
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!before(&e, &h->e[p]))
            break;
        place(h, f, i, h->e[p]);
        i = p;
    }
    place(h, f, i, e);
}

static void sift_down(fl_heap *h, fl_flow *f, int64_t i)
{
    fl_hent e = h->e[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
            c++;
        if (!before(&h->e[c], &e))
            break;
        place(h, f, i, h->e[c]);
        i = c;
    }
    place(h, f, i, e);
}

static fl_hent entry(const fl_flow *flows, int32_t id)
{
    return (fl_hent){.date = flows[id].date, .seq = flows[id].seq, .id = id};
}

void fl_heap_push(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->e = xrealloc(h->e, (size_t)h->cap * sizeof *h->e);
    }
    h->e[h->n] = entry(flows, id);
    flows[id].heap = h->n++;
    sift_up(h, flows, flows[id].heap);
}

void fl_heap_update(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (flows[id].heap < 0) {
        fl_heap_push(h, flows, id);
        return;
    }
    h->e[flows[id].heap] = entry(flows, id);
    sift_up(h, flows, flows[id].heap);
    sift_down(h, flows, flows[id].heap);
}

void fl_heap_remove(fl_heap *h, fl_flow *flows, int32_t id)
{
    int64_t i = flows[id].heap;
    if (i < 0)
        return;
    flows[id].heap = -1;
    fl_hent last = h->e[--h->n];
    if (i == h->n)
        return;
    place(h, flows, i, last);
    sift_up(h, flows, i);
    sift_down(h, flows, flows[last.id].heap);
}

int32_t fl_heap_top(const fl_heap *h)
{
    return h->n > 0 ? h->e[0].id : -1;
}

void fl_heap_free(fl_heap *h)
{
    free(h->e);
    h->e = NULL;
    h->n = h->cap = 0;
}
