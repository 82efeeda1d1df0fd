/* concurrent.h - several collectives at once, each on its own slice of the data: the
 * multiport mechanism of every family.
 *
 * A multi-port collective runs k sub-collectives concurrently, each moving 1/k of the
 * data on its own port: on a D-dimensional torus the 2D ports of torus_shape.h (Bine's
 * and Swing's torus products, torus recursive doubling, bucket, Hamiltonian rings). Step
 * t of the whole is the union of step t of every sub-collective.
 *
 * Slices cut each rank's blocks for the partitioned collectives (gather, scatter,
 * allgather, reduce_scatter: of rank x's U = k*w blocks, slice c gets x*U + c*w ..
 * x*U + c*w + w - 1) and the vector for the others (bcast, reduce, allreduce: slice c gets
 * blocks c*w .. c*w + w - 1). Each slice has a layout of its own (conc_plan.sub) that
 * numbers its blocks 0.. in the same order and gives each exactly its bytes in the whole
 * layout, so any generator can produce a sub-collective; conc_gen renumbers the blocks
 * and keeps the bytes. Alltoall cannot be sliced this way.
 */
#ifndef COLLSIM_CONCURRENT_H
#define COLLSIM_CONCURRENT_H

#include "algorithms/schedule.h"

#define CONC_MAX_SLICES 16
#define CONC_MAX_LANES 4

typedef struct conc_plan {
    int nslices;
    int per_rank;  /* 1: slices of each rank's blocks; 0: slices of the vector */
    int64_t width; /* blocks of a slice (per rank when per_rank) */
    int64_t unit;  /* per_rank: blocks per rank of the whole layout (nslices * width) */
    sched_layout sub[CONC_MAX_SLICES];
} conc_plan;

/* Sets up *whole (the collective's layout, as layout_init would) and the slices:
 * 1 <= nslices <= CONC_MAX_SLICES, width >= 1, coll not alltoall(v). */
void conc_plan_init(conc_plan *cp, sched_layout *whole, coll_kind coll, int32_t P, int32_t root,
                    int64_t bytes, int nslices, int64_t width);

/* Writes rank r's slice `slice` of the collective into b (whose layout is cp->sub[slice]),
 * opening its own steps. b may already hold other slices' steps: the generator must not
 * depend on absolute step numbers (the return value of sb_step). */
typedef void (*conc_slice_fn)(const void *ctx, int slice, int32_t r, sched_builder *b);

/* Rank r of the whole: every slice generated, then merged step by step (slices in
 * order within a step, so that messages between two ranks match in the same order on
 * both sides). With one slice, gen writes into b directly. */
void conc_gen(sched_builder *b, const conc_plan *cp, int32_t r, conc_slice_fn gen,
              const void *ctx);

/* Lanes: a slice whose steps hold two kinds of operations (a butterfly's and an extra
 * rank's exchanges, torus_allreduce.c) generates each kind as a lane of its own, with
 * the same steps; step t of the whole is then lane 0 of every slice, lane 1 of every
 * slice, and so on; 1 <= nlanes <= CONC_MAX_LANES. conc_gen is the case of one lane. */
typedef void (*conc_lane_fn)(const void *ctx, int slice, int lane, int32_t r, sched_builder *b);
void conc_gen_lanes(sched_builder *b, const conc_plan *cp, int32_t r, int nlanes,
                    conc_lane_fn gen, const void *ctx);

#endif
