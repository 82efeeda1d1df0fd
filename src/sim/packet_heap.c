/* packet_heap.c - the loop engine's event queue: events ordered by time, then by the
 * order they were pushed (so events of one instant run first come, first served, and a
 * run is deterministic).
 *
 * Two parts (packet_internal.h): a 4-ary min-heap of 24-byte entries (a node's four
 * children share a cache line or two, which halves the depth of a binary heap), and a
 * ring of the events pushed for the current instant (the time of the last pop), which
 * are most of them: a port or NIC woken now. Those are pushed after every heap event of
 * that instant, so they keep push order in the ring, and a pop takes the heap's top or
 * the ring's head, whichever comes first by (time, push number): the order a single
 * heap gives, with no sifting for half the events. The arrays only grow (doubling);
 * their size is the events pending at once: about one per busy port or NIC, never one
 * per packet.
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

static void heap_insert(pk_heap *h, pk_heap_entry e)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 1024;
        h->ev = xrealloc(h->ev, (size_t)h->cap * sizeof *h->ev);
    }
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

static void ring_append(pk_heap *h, pk_heap_entry e)
{
    if (h->rn == h->rcap) { /* unroll into a ring twice as large */
        int64_t cap = h->rcap ? 2 * h->rcap : 1024;
        pk_heap_entry *r = xmalloc((size_t)cap * sizeof *r);
        for (int64_t i = 0; i < h->rn; i++)
            r[i] = h->ring[(h->rhead + i) & (h->rcap - 1)];
        free(h->ring);
        h->ring = r;
        h->rcap = cap;
        h->rhead = 0;
    }
    h->ring[(h->rhead + h->rn++) & (h->rcap - 1)] = e;
}

void pk_heap_push(pk_heap *h, double t, int kind, int64_t id, pk_msg *msg)
{
    pk_heap_entry e = {.t = t, .seq_kind = h->seq++ << 3 | (uint64_t)kind,
                       .what = kind == PK_EV_MSG_DONE ? (int64_t)(intptr_t)msg : id};
    if (h->rn > 0 ? t == h->ring_t : t == h->now) {
        h->ring_t = t;
        ring_append(h, e);
    } else {
        heap_insert(h, e);
    }
}

/* Removes the heap's top into *top. */
static void heap_remove_top(pk_heap *h, pk_heap_entry *top)
{
    *top = h->ev[0];
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
}

int pk_heap_pop(pk_heap *h, pk_event *out)
{
    if (h->n == 0 && h->rn == 0)
        return 0;
    pk_heap_entry top;
    if (h->rn > 0 && (h->n == 0 || before(&h->ring[h->rhead], &h->ev[0]))) {
        top = h->ring[h->rhead];
        h->rhead = (h->rhead + 1) & (h->rcap - 1);
        h->rn--;
    } else {
        heap_remove_top(h, &top);
    }
    int kind = (int)(top.seq_kind & 7);
    *out = (pk_event){.t = top.t, .kind = kind};
    if (kind == PK_EV_MSG_DONE)
        out->msg = (pk_msg *)(intptr_t)top.what;
    else
        out->id = top.what;
    h->now = top.t;
    return 1;
}

double pk_heap_top(const pk_heap *h)
{
    double t = h->n > 0 ? h->ev[0].t : INFINITY;
    return h->rn > 0 && h->ring_t < t ? h->ring_t : t;
}

void pk_heap_free(pk_heap *h)
{
    free(h->ev);
    free(h->ring);
    *h = (pk_heap){0};
}
