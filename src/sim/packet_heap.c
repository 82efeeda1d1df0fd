/* packet_heap.c - the loop engine's event queue: a 4-ary min-heap of events ordered by
 * time, then by the order they were pushed (so events of one instant run first come,
 * first served, and a run is deterministic). Entries are 24 bytes (packet_internal.h) and
 * a node's four children share a cache line or two, which halves the depth of a binary
 * heap. The array only grows (doubling); its size is the events pending at once: about
 * one per busy port or NIC, never one per packet.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/util.h"
#include "sim/packet_internal.h"

static int before(const pk_heap_entry *a, const pk_heap_entry *b)
{
    return a->t < b->t || (a->t == b->t && a->seq_kind < b->seq_kind);
}

void pk_heap_push(pk_heap *h, double t, int kind, int64_t id, pk_msg *msg)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->ev = xrealloc(h->ev, (size_t)h->cap * sizeof *h->ev);
    }
    pk_heap_entry e = {.t = t, .seq_kind = h->seq++ << 3 | (uint64_t)kind,
                       .what = kind == PK_EV_MSG_DONE ? (int64_t)(intptr_t)msg : id};
    int64_t i = h->n++;
    while (i > 0) {
        int64_t up = (i - 1) / 4;
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
    const pk_heap_entry *top = &h->ev[0];
    int kind = (int)(top->seq_kind & 7);
    *out = (pk_event){.t = top->t, .kind = kind};
    if (kind == PK_EV_MSG_DONE)
        out->msg = (pk_msg *)(intptr_t)top->what;
    else
        out->id = top->what;
    pk_heap_entry last = h->ev[--h->n];
    int64_t i = 0;
    for (;;) {
        int64_t c = 4 * i + 1, end = c + 4 < h->n ? c + 4 : h->n;
        if (c >= h->n)
            break;
        int64_t best = c;
        for (int64_t j = c + 1; j < end; j++)
            if (before(&h->ev[j], &h->ev[best]))
                best = j;
        if (!before(&h->ev[best], &last))
            break;
        h->ev[i] = h->ev[best];
        i = best;
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
