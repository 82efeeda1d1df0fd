/* packet_heap.c - the loop engine's event queue: a binary min-heap of events ordered by
 * time, then by the order they were pushed (so events of one instant run first come,
 * first served, and a run is deterministic). The array only grows (doubling); its size
 * is the events pending at once: about one per busy port or NIC, never one per packet.
 */
#include <math.h>
#include <stdlib.h>

#include "common/util.h"
#include "sim/packet_internal.h"

static int before(const pk_event *a, const pk_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void pk_heap_push(pk_heap *h, double t, int kind, int64_t id, pk_msg *msg)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->ev = xrealloc(h->ev, (size_t)h->cap * sizeof *h->ev);
    }
    pk_event e = {.t = t, .seq = h->seq++, .id = id, .msg = msg, .kind = kind};
    int64_t i = h->n++;
    while (i > 0) {
        int64_t up = (i - 1) / 2;
        if (!before(&e, &h->ev[up]))
            break;
        h->ev[i] = h->ev[up];
        i = up;
    }
    h->ev[i] = e;
}

int pk_heap_pop(pk_heap *h, pk_event *out)
{
    if (h->n == 0)
        return 0;
    *out = h->ev[0];
    pk_event last = h->ev[--h->n];
    int64_t i = 0;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (!before(&h->ev[c], &last))
            break;
        h->ev[i] = h->ev[c];
        i = c;
    }
    if (h->n > 0)
        h->ev[i] = last;
    return 1;
}

double pk_heap_top(const pk_heap *h)
{
    return h->n > 0 ? h->ev[0].t : INFINITY;
}

void pk_heap_free(pk_heap *h)
{
    free(h->ev);
    *h = (pk_heap){0};
}
