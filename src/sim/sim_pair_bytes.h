/* sim_pair_bytes.h - bytes sent per (source host, destination host), routed once.
 *
 * Counting a message on the links of its route used to ask SimGrid for the route and walk
 * it for every message. The tally is linear, so the bytes of all messages of a host pair
 * can be summed first and walked once along that pair's route at the end of the run
 * (sim_pair_bytes_flush): the same per-link totals, one route lookup per pair instead of
 * one per message. It lives in the point's sim_state (actors run one at a time). */
#ifndef COLLSIM_SIM_PAIR_BYTES_H
#define COLLSIM_SIM_PAIR_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include <simgrid/forward.h>

#include "common/u64map.h"
#include "traffic/traffic.h"

typedef struct sim_pair_bytes {
    u64map index;        /* (src id, dst id) -> entry */
    sg_host_t *src, *dst;
    int64_t *bytes;      /* per entry: not yet counted on the links */
    size_t n, cap;
    void *route;         /* scratch xbt_dynar_t of sg_link_t */
} sim_pair_bytes;

/* Adds a message of `bytes` from host src (topology id src_id) to dst (dst_id); a zeroed
 * struct is empty. Same-host messages are the caller's to skip (they use no link). */
void sim_pair_bytes_add(sim_pair_bytes *p, traffic_tally *tally, int32_t src_id, int32_t dst_id,
                        sg_host_t src, sg_host_t dst, int64_t bytes);
/* Counts every pair's bytes on the links of its SimGrid route (sim_links_count_route)
 * and empties the table. */
void sim_pair_bytes_flush(sim_pair_bytes *p, traffic_tally *tally);
void sim_pair_bytes_free(sim_pair_bytes *p);

#endif
