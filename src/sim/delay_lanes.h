/* delay_lanes.h - which of a few fixed delays an event queue push belongs to.
 *
 * Both event queues (the fluid network's flow dates, fluid_heap.c, and the packet
 * network's events, packet_heap.c) keep a FIFO per fixed delay d: with now never
 * decreasing, the events pushed for now + d are in time order as pushed, so only each
 * FIFO's head needs a place in the heap. The delays are few (one per route latency or per
 * port speed), so they are found by remembering the last one used and otherwise a linear
 * search; a new delay takes the next free lane until DELAY_LANES are taken, after which
 * the caller pushes into its heap as usual. The FIFOs themselves are each queue's own
 * (flow ids there, heap entries here); this header only names the lanes. */
#ifndef COLLSIM_SIM_DELAY_LANES_H
#define COLLSIM_SIM_DELAY_LANES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#define DELAY_LANES 16

typedef struct delay_lanes {
    double d[DELAY_LANES]; /* the delay of each lane taken */
    int n, last;           /* lanes taken, the lane found last */
} delay_lanes;

/* The lane of delay d (taking a new one if there is room), -1 if all lanes hold other
 * delays. */
static inline int delay_lane(delay_lanes *dl, double d)
{
    if (dl->last < dl->n && dl->d[dl->last] == d)
        return dl->last;
    for (int i = 0; i < dl->n; i++)
        if (dl->d[i] == d)
            return dl->last = i;
    if (dl->n == DELAY_LANES)
        return -1;
    dl->d[dl->n] = d;
    return dl->last = dl->n++;
}

/* A full FIFO ring of n elements of `size` bytes from *head (capacity *cap, a power of
 * two) unrolled into one twice as large (256 at first), its first element at 0. Both
 * queues' lanes are such rings. */
static inline void *fifo_ring_grow(void *ring, size_t size, int64_t *head, int64_t n,
                                   int64_t *cap)
{
    int64_t new_cap = *cap ? 2 * *cap : 256;
    char *grown = xmalloc((size_t)new_cap * size);
    int64_t first = n < *cap - *head ? n : *cap - *head; /* up to the array's end */
    if (n > 0) {
        memcpy(grown, (char *)ring + (size_t)*head * size, (size_t)first * size);
        memcpy(grown + (size_t)first * size, ring, (size_t)(n - first) * size);
    }
    free(ring);
    *head = 0;
    *cap = new_cap;
    return grown;
}

#endif
