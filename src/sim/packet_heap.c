/* packet_heap.c - the loop engine's event queue: events ordered by time, then by the
 * order they were pushed (so events of one instant run first come, first served, and a
 * run is deterministic).
 *
 * Three parts (packet_internal.h), which together give exactly one heap's order:
 *
 *   heap   a 4-ary min-heap of 24-byte entries (a node's four children share a cache
 *          line or two);
 *   ring   the events pushed for the current instant (the time of the last pop): a port
 *          or NIC woken now. Pushed after every heap event of that instant, they keep
 *          push order in a FIFO;
 *   lanes  the events pushed for `now + d` with one of a few delays d (a port's
 *          serialization of a full packet): with now never decreasing, each lane's
 *          events are in (time, push number) order as pushed, so a lane is a FIFO whose
 *          head alone is in the heap (its entry's `what` carries the lane).
 *
 * A pop takes the ring's head or the heap's top, whichever comes first by (time, push
 * number); a lane's head popped from the heap is replaced there by the lane's next. The
 * heap then holds one entry per lane plus the other events, a few dozen instead of one
 * per busy port. Arrays only grow (doubling); never one entry per packet.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/util.h"
#include "sim/packet_internal.h"

/* `what` of a lane's head in the heap: (lane + 1) << 40 | id (never a PK_EV_MSG_DONE,
 * whose `what` is a pointer) */
#define LANE_SHIFT 40

static int before(const pk_heap_entry *a, const pk_heap_entry *b)
{
    return a->t < b->t || (a->t == b->t && a->seq_kind < b->seq_kind);
}

/* ---- rings ------------------------------------------------------------------------ */

/* Unrolls the full ring into one twice as large. */
static void ring_grow(pk_ring *r)
{
    r->ev = fifo_ring_grow(r->ev, sizeof *r->ev, &r->head, r->n, &r->cap);
}

/* Appends the entry (t, seq_kind, what), written field by field (no struct copy through
 * the stack on the hot path). */
static inline void ring_put(pk_ring *r, double t, uint64_t seq_kind, int64_t what)
{
    if (r->n == r->cap)
        ring_grow(r);
    pk_heap_entry *e = &r->ev[(r->head + r->n++) & (r->cap - 1)];
    e->t = t;
    e->seq_kind = seq_kind;
    e->what = what;
}

static void ring_append(pk_ring *r, pk_heap_entry e)
{
    ring_put(r, e.t, e.seq_kind, e.what);
}

static pk_heap_entry ring_take(pk_ring *r)
{
    pk_heap_entry e = r->ev[r->head];
    r->head = (r->head + 1) & (r->cap - 1);
    r->n--;
    return e;
}

/* ---- the heap --------------------------------------------------------------------- */

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

/* Puts e at the root (whose entry is gone) and sifts it down. */
static void heap_replace_top(pk_heap *h, pk_heap_entry e)
{
    int64_t i = 0;
    for (;;) {
        int64_t c = 4 * i + 1, end = c + 4 < h->n ? c + 4 : h->n;
        if (c >= h->n)
            break;
        int64_t best = c;
        for (int64_t j = c + 1; j < end; j++)
            if (before(&h->ev[j], &h->ev[best]))
                best = j;
        if (!before(&h->ev[best], &e))
            break;
        h->ev[i] = h->ev[best];
        i = best;
    }
    h->ev[i] = e;
}

static pk_heap_entry entry(pk_heap *h, double t, int kind, int64_t what)
{
    return (pk_heap_entry){.t = t, .seq_kind = h->seq++ << 3 | (uint64_t)kind, .what = what};
}

static void push_entry(pk_heap *h, pk_heap_entry e)
{
    if (h->ring.n > 0 ? e.t == h->ring_t : e.t == h->now) {
        h->ring_t = e.t;
        ring_append(&h->ring, e);
    } else {
        heap_insert(h, e);
    }
}

void pk_heap_push(pk_heap *h, double t, int kind, int64_t id, pk_msg *msg)
{
    push_entry(h, entry(h, t, kind, kind == PK_EV_MSG_DONE ? (int64_t)(intptr_t)msg : id));
}

void pk_heap_push_after(pk_heap *h, double now, double d, int kind, int64_t id)
{
    double t = now + d;
    uint64_t seq_kind = h->seq++ << 3 | (uint64_t)kind;
    int lane = t == (h->ring.n > 0 ? h->ring_t : h->now) ? -1 : delay_lane(&h->delays, d);
    if (lane < 0) {
        push_entry(h, (pk_heap_entry){.t = t, .seq_kind = seq_kind, .what = id});
        return;
    }
    pk_ring *r = &h->lanes[lane];
    ring_put(r, t, seq_kind, id);
    if (r->n == 1) /* the lane's head goes into the heap */
        heap_insert(h, (pk_heap_entry){.t = t, .seq_kind = seq_kind,
                                       .what = id | (int64_t)(lane + 1) << LANE_SHIFT});
}

/* Removes the heap's top into *top (its lane's next taking its place). */
static void heap_take_top(pk_heap *h, pk_heap_entry *top)
{
    *top = h->ev[0];
    int lane = (top->seq_kind & 7) == PK_EV_MSG_DONE ? -1 : (int)(top->what >> LANE_SHIFT) - 1;
    if (lane >= 0) {
        pk_ring *r = &h->lanes[lane];
        *top = ring_take(r);
        if (r->n > 0) {
            pk_heap_entry next = r->ev[r->head];
            next.what |= (int64_t)(lane + 1) << LANE_SHIFT;
            heap_replace_top(h, next);
            return;
        }
    }
    pk_heap_entry last = h->ev[--h->n];
    if (h->n > 0)
        heap_replace_top(h, last);
}

int pk_heap_pop(pk_heap *h, pk_event *out)
{
    if (h->n == 0 && h->ring.n == 0)
        return 0;
    pk_heap_entry top;
    if (h->ring.n > 0 && (h->n == 0 || before(&h->ring.ev[h->ring.head], &h->ev[0])))
        top = ring_take(&h->ring);
    else
        heap_take_top(h, &top);
    int kind = (int)(top.seq_kind & 7);
    *out = (pk_event){.t = top.t, .kind = kind};
    if (kind == PK_EV_MSG_DONE)
        out->msg = (pk_msg *)(intptr_t)top.what;
    else
        out->id = top.what;
    h->now = top.t;
    return 1;
}

int pk_heap_peek(const pk_heap *h, int *kind, int64_t *id)
{
    const pk_heap_entry *top;
    if (h->ring.n > 0 && (h->n == 0 || before(&h->ring.ev[h->ring.head], &h->ev[0])))
        top = &h->ring.ev[h->ring.head];
    else if (h->n > 0)
        top = &h->ev[0];
    else
        return 0;
    *kind = (int)(top->seq_kind & 7);
    /* a lane's head carries its lane above the id (never a PK_EV_MSG_DONE) */
    *id = *kind == PK_EV_MSG_DONE ? top->what : top->what & (((int64_t)1 << LANE_SHIFT) - 1);
    return 1;
}

double pk_heap_top(const pk_heap *h)
{
    double t = h->n > 0 ? h->ev[0].t : INFINITY;
    return h->ring.n > 0 && h->ring_t < t ? h->ring_t : t;
}

void pk_heap_free(pk_heap *h)
{
    free(h->ev);
    free(h->ring.ev);
    for (int i = 0; i < h->delays.n; i++)
        free(h->lanes[i].ev);
    *h = (pk_heap){0};
}
