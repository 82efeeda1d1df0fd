/* fluid_heap.c - the fluid network's flow dates (a flow's latency end or completion),
 * ordered by (date, seq), seq the order the dates were set in (SimGrid's action heap is
 * stable: ties in insertion order). Two parts that together give one heap's order:
 *
 *   heap   an indexed 4-ary min-heap of flow ids; every flow in it knows its index
 *          (fl_flow.heap), so a date can change or leave in O(log n). An entry carries a
 *          copy of its flow's (date, seq), refreshed whenever the flow's date changes:
 *          comparing two entries reads the heap's own array only;
 *   lanes  the latency ends: a flow waits its route's latency d from now, now never
 *          decreases from one such push to the next and seq grows, so the flows of one d
 *          are in (date, seq) order as pushed: a FIFO whose head alone is in the heap
 *          (its entry's `lane`). A route's latency takes few values (one per route shape),
 *          so the heap holds the flows sharing bandwidth plus a few lane heads, and a
 *          flow's latency costs no heap operation but its turn as a head.
 *
 * A flow behind its lane's head has fl_flow.heap = FL_IN_LANE; when a head leaves, the
 * lane's next takes its place in the heap. */
#include <stdlib.h>

#include "common/util.h"
#include "sim/fluid_internal.h"

#define FL_IN_LANE (-2)

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
        int64_t p = (i - 1) / 4;
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
        int64_t c = 4 * i + 1, end = c + 4 < h->n ? c + 4 : h->n;
        if (c >= h->n)
            break;
        int64_t best = c;
        for (int64_t j = c + 1; j < end; j++)
            if (before(&h->e[j], &h->e[best]))
                best = j;
        if (!before(&h->e[best], &e))
            break;
        place(h, f, i, h->e[best]);
        i = best;
    }
    place(h, f, i, e);
}

static fl_hent entry(const fl_flow *flows, int32_t id, int32_t lane)
{
    return (fl_hent){.date = flows[id].date, .seq = flows[id].seq, .id = id, .lane = lane};
}

static void insert(fl_heap *h, fl_flow *flows, fl_hent e)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->e = xrealloc(h->e, (size_t)h->cap * sizeof *h->e);
    }
    h->e[h->n] = e;
    flows[e.id].heap = h->n++;
    sift_up(h, flows, flows[e.id].heap);
}

void fl_heap_push(fl_heap *h, fl_flow *flows, int32_t id)
{
    insert(h, flows, entry(flows, id, -1));
}

void fl_heap_push_latency(fl_heap *h, fl_flow *flows, int32_t id, double d)
{
    int lane = delay_lane(&h->delays, d);
    if (lane < 0) {
        fl_heap_push(h, flows, id);
        return;
    }
    fl_lane *q = &h->lanes[lane];
    if (q->n == q->cap)
        q->ids = fifo_ring_grow(q->ids, sizeof *q->ids, &q->head, q->n, &q->cap);
    q->ids[(q->head + q->n++) & (q->cap - 1)] = id;
    if (q->n == 1) { /* the head: into the heap */
        insert(h, flows, entry(flows, id, lane));
        return;
    }
    flows[id].heap = FL_IN_LANE;
    h->queued++;
}

void fl_heap_update(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (flows[id].heap < 0) {
        fl_heap_push(h, flows, id);
        return;
    }
    h->e[flows[id].heap] = entry(flows, id, -1);
    sift_up(h, flows, flows[id].heap);
    sift_down(h, flows, flows[id].heap);
}

/* Heap entry i leaves; a lane head's successor takes its place. */
static void take(fl_heap *h, fl_flow *flows, int64_t i)
{
    fl_hent gone = h->e[i];
    flows[gone.id].heap = -1;
    if (gone.lane >= 0) {
        fl_lane *q = &h->lanes[gone.lane];
        q->head = (q->head + 1) & (q->cap - 1);
        if (--q->n > 0) {
            h->queued--;
            h->e[i] = entry(flows, q->ids[q->head], gone.lane);
            flows[h->e[i].id].heap = i;
            sift_up(h, flows, i);
            sift_down(h, flows, flows[h->e[i].id].heap);
            return;
        }
    }
    fl_hent last = h->e[--h->n];
    if (i == h->n)
        return;
    place(h, flows, i, last);
    sift_up(h, flows, i);
    sift_down(h, flows, flows[last.id].heap);
}

void fl_heap_remove(fl_heap *h, fl_flow *flows, int32_t id)
{
    if (flows[id].heap >= 0)
        take(h, flows, flows[id].heap);
}

int32_t fl_heap_top(const fl_heap *h)
{
    return h->n > 0 ? h->e[0].id : -1;
}

int64_t fl_heap_size(const fl_heap *h)
{
    return h->n + h->queued;
}

void fl_heap_free(fl_heap *h)
{
    free(h->e);
    for (int i = 0; i < h->delays.n; i++)
        free(h->lanes[i].ids);
    *h = (fl_heap){0};
}
