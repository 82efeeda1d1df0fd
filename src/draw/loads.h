/* loads.h - what a collective puts on every link, step by step, for the pictures.
 *
 * draw_loads_count() walks a prepared algorithm run over a placed topology once, with the
 * traffic counter (traffic_count_ex and its per-send visitor: the same routes and the
 * same link resources as `collsim sim --model traffic`), and keeps:
 *
 *   step_bytes[k][r]   bytes on link resource r (traffic.h: 2 * link + direction) sent in
 *                      step k (a rank's k-th step, 0-based);
 *   total[r]           the whole run (equal to the sum over the steps);
 *   the messages of one chosen rank: whom it sends to and receives from in each step, and
 *   the resources its own messages cross (for the highlight).
 */
#ifndef COLLSIM_DRAW_LOADS_H
#define COLLSIM_DRAW_LOADS_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"
#include "topologies/topology.h"
#include "traffic/traffic.h"

/* A message of the chosen rank: `peer` sends to it (incoming = 1) or receives from it. */
typedef struct draw_peer {
    uint32_t step;
    int32_t peer;
    uint8_t incoming;
} draw_peer;

/* A resource crossed by one of the chosen rank's own messages in `step`. */
typedef struct draw_route_hop {
    uint32_t step;
    int64_t resource;
} draw_route_hop;

typedef struct draw_loads {
    int64_t nres;            /* 2 * t->nlinks */
    int32_t nsteps;          /* steps of the longest rank */
    int64_t **step_bytes;    /* nsteps arrays of nres */
    int64_t *total;          /* nres */
    traffic_counts counts;   /* whole-run totals (traffic_count's) */
    int32_t rank;            /* the chosen rank, -1: none */
    draw_peer *peers;
    size_t npeers, cap_peers;
    draw_route_hop *route;
    size_t nroute, cap_route;
} draw_loads;

/* The largest nsteps x nres kept (8 bytes each): 2^27 entries, 1 GiB. */
#define DRAW_MAX_STEP_ENTRIES (INT64_C(1) << 27)

/* Counts `run` on t with ranks placed on host_of_rank; rank: the rank whose messages are
 * recorded (-1: none). Errors: a missing route, too many steps x links to keep. */
int draw_loads_count(const alg_run *run, topology *t, const int32_t *host_of_rank, int32_t rank,
                     draw_loads *out, cs_error *err);
void draw_loads_free(draw_loads *l);

/* Bytes of resource r in step k (k = DRAW_TOTAL: the whole run; a step past the run's
 * end: 0). */
#define DRAW_TOTAL (-1)
int64_t draw_loads_bytes(const draw_loads *l, int32_t step, int64_t r);

#endif
