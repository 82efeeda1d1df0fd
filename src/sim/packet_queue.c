/* packet_queue.c - an output port's queue: which of its waiting packets it sends next.
 *
 * The rule (packet.h): the port sends the oldest packet that has arrived, in the order
 * (ready, seq) - arrival time, then first queued first - whose downstream credit pool
 * has room for its bytes. A packet waiting for credits on one virtual channel never holds
 * up another channel, and a smaller packet may pass a larger one waiting on its own.
 *
 * One list in that order implements the rule with a walk past every waiting packet. A
 * congested port of a large all-to-all of small blocks holds thousands of them, and
 * credits come back a few bytes at a time, so that walk made P = 2048 with 16-byte blocks
 * quadratic (a point ran for hours). The queue is therefore split:
 *
 *   flying   packets still crossing the previous link, sorted by (ready, seq); a packet
 *            queued later is ready no earlier than now, so arrivals leave in order;
 *   lanes    arrived packets, one FIFO per (credit pool, size class), where the size
 *            class is the bit length of the bytes (0, 1, 2-3, 4-7, ...).
 *
 * In a lane whose packets are all no larger than the credits, the head is the first that
 * fits; only the lane whose class straddles the credits needs a walk, and its packets are
 * within a factor of two of each other. That walk resumes where the last one stopped
 * while the credits stay below every packet it passed (blocked_end). The port's choice is
 * the oldest of the lanes' first fitting packets: the same packet as the single list's.
 */
#include <stdlib.h>

#include "common/util.h"
#include "sim/packet_internal.h"

/* The bit length of bytes (0 for 0). */
static int32_t size_class(int32_t bytes)
{
    return bytes > 0 ? 32 - __builtin_clz((unsigned)bytes) : 0;
}

/* Queued at one port fewer than 2^31 packets apart, so the wrapping difference orders
 * their sequence numbers. */
static int older(const pk_packet *a, const pk_packet *b)
{
    return a->ready < b->ready || (a->ready == b->ready && (int32_t)(a->seq - b->seq) < 0);
}

/* A lane's key at its port: its virtual channel + 1 (0: no credit needed) and size class,
 * in one small integer, so that finding a lane reads the port's keys (one cache line for
 * a dozen lanes) rather than every lane. */
static int32_t lane_key(const pk_net *n, int64_t pool, int32_t cls)
{
    int32_t vc = pool < 0 ? 0 : pk_pool_vc(n, pool) + 1;
    return vc << 6 | cls;
}

/* Doubles the port's lane arrays (the keys move up with the active list's end). */
static void lanes_grow(pk_port *pt)
{
    int32_t cap = pt->cap_lanes ? 2 * pt->cap_lanes : 4;
    pt->lanes = xrealloc(pt->lanes, (size_t)cap * sizeof *pt->lanes);
    pt->active = xrealloc(pt->active, 2 * (size_t)cap * sizeof *pt->active);
    for (int32_t i = pt->nlanes - 1; i >= 0; i--)
        pt->active[cap + i] = pt->active[pt->cap_lanes + i];
    pt->cap_lanes = cap;
}

/* The index of the lane for packets of `pool` and `cls`, created if new. A port sees few
 * distinct lanes, and consecutive packets mostly share one: a linear search suffices. */
static int32_t lane_of(const pk_net *n, pk_port *pt, int64_t pool, int32_t cls)
{
    int32_t key = lane_key(n, pool, cls), *keys = pt->active + pt->cap_lanes;
    int32_t last = pt->last_lane;
    if (last < pt->nlanes && keys[last] == key)
        return last;
    for (int32_t i = 0; i < pt->nlanes; i++)
        if (keys[i] == key)
            return pt->last_lane = i;
    if (pt->nlanes == pt->cap_lanes)
        lanes_grow(pt);
    pt->active[pt->cap_lanes + pt->nlanes] = key;
    pk_lane *ln = &pt->lanes[pt->nlanes];
    *ln = (pk_lane){.pool = pool, .size_class = cls, .active = -1};
    return pt->last_lane = pt->nlanes++;
}

void pk_queue_push(const pk_net *n, pk_port *pt, pk_packet *p)
{
    p->seq = pt->seq++;
    p->lane = lane_of(n, pt, p->pool, size_class(p->bytes));
    pt->packets++;
    /* after the last flying packet ready no later: usually at the tail; one that came over
     * a shorter link than those before it goes a few places back (a walk from the head:
     * the list holds the packets crossing the links into this node, a few per link) */
    p->next = NULL;
    if (!pt->flying_tail || pt->flying_tail->ready <= p->ready) {
        if (pt->flying_tail)
            pt->flying_tail->next = p;
        else
            pt->flying = p;
        pt->flying_tail = p;
        return;
    }
    pk_packet **at = &pt->flying;
    while ((*at)->ready <= p->ready)
        at = &(*at)->next;
    p->next = *at;
    *at = p;
}

/* Moves the packets that have arrived by `now` from the flying list to their lanes. */
static void land_arrived(pk_port *pt, double now)
{
    while (pt->flying && pt->flying->ready <= now) {
        pk_packet *p = pt->flying;
        pt->flying = p->next;
        if (!pt->flying)
            pt->flying_tail = NULL;
        pk_lane *ln = &pt->lanes[p->lane];
        p->next = NULL;
        if (ln->tail)
            ln->tail->next = p;
        else
            ln->head = p;
        ln->tail = p;
        if (ln->active < 0) {
            ln->active = pt->nactive;
            pt->active[pt->nactive++] = p->lane;
        }
    }
}

/* The lane's first packet that `credit` bytes let through, NULL if none; *prev: the
 * packet before it. */
static pk_packet *lane_first_fit(pk_lane *ln, int64_t credit, pk_packet **prev)
{
    *prev = NULL;
    pk_packet *p = ln->head;
    int32_t cls = ln->size_class;
    if (cls > 0 && credit < (1 << (cls - 1))) /* smaller than any packet of the class */
        return NULL;
    if (cls < 31 && credit >= (1 << cls) - 1) { /* no smaller than any packet of the class */
        ln->blocked_end = NULL; /* no blocked prefix, and none ending at p, which may go */
        return p;
    }
    int32_t smallest = INT32_MAX;
    if (ln->blocked_end && credit < ln->blocked_min) {
        *prev = ln->blocked_end;
        p = ln->blocked_end->next;
        smallest = ln->blocked_min;
    }
    for (; p && p->bytes > credit; *prev = p, p = p->next)
        if (p->bytes < smallest)
            smallest = p->bytes;
    ln->blocked_end = *prev;
    ln->blocked_min = smallest;
    return p;
}

static void unlink_packet(pk_port *pt, pk_lane *ln, pk_packet *p, pk_packet *prev)
{
    if (prev)
        prev->next = p->next;
    else
        ln->head = p->next;
    if (ln->tail == p)
        ln->tail = prev;
    if (!ln->head) { /* out of the active list: the last one takes its place */
        int32_t moved = pt->active[--pt->nactive];
        pt->active[ln->active] = moved;
        pt->lanes[moved].active = ln->active;
        ln->active = -1;
        ln->blocked_end = NULL;
    }
    pt->packets--;
}

pk_packet *pk_queue_take(pk_net *n, pk_port *pt, double now)
{
    land_arrived(pt, now);
    pk_packet *best = NULL, *best_prev = NULL;
    for (int32_t i = 0; i < pt->nactive; i++) {
        pk_lane *ln = &pt->lanes[pt->active[i]];
        pk_packet *prev = NULL, *p = ln->head;
        if (ln->pool >= 0)
            p = lane_first_fit(ln, n->credit[ln->pool], &prev);
        if (p && (!best || older(p, best))) {
            best = p;
            best_prev = prev;
        }
    }
    if (!best)
        return NULL;
    unlink_packet(pt, &pt->lanes[best->lane], best, best_prev);
    if (best->pool >= 0) {
        n->credit[best->pool] -= best->bytes;
        pt->in_buffer += best->bytes;
    }
    pt->queued -= best->bytes;
    return best;
}

void pk_queue_free(pk_port *pt)
{
    free(pt->lanes);
    free(pt->active);
}
