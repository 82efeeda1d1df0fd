/* alltoallv.h - what the non-uniform all-to-all (alltoallv) algorithms share.
 *
 * Blocks: alltoallv has P*P blocks, block s*P+d going from rank s to rank d; its bytes come
 * from the layout (a workload, see traffic/workload.h, bound by alg_run_prepare), and a
 * block may have 0 bytes.
 *
 * Radix plans (ParLogNa, HPDC'25 digest ../shared/reference/alltoallv.md section 3.6).
 * Block indices ("offsets") j in [1, P) are written in base r with w = ceil(log_r P)
 * digits. Round (x, z), for x ascending then z ascending, sends the blocks whose digit x
 * equals z over rank distance s = z * r^x, towards lower ranks: rank p sends to p - s and
 * receives from p + s. A block keeps its offset j on every hop; before round (x, z) rank p
 * holds at offset j the block from source p + (j mod r^x) to destination source - j
 * (radix_held). Its first hop is the round of its lowest non-zero digit (j mod r^x == 0:
 * it leaves the send buffer), its final hop the round of its highest (j < r^(x+1): it
 * lands in the receive buffer R); in between it waits in the temporary buffer T, slot
 * radix_t_slot(j). Counts: K rounds, D blocks sent per rank over all rounds, B = P-K-1 T
 * slots (each of the largest block size S).
 *
 * Two-phase exchange: a round of a store-and-forward algorithm on non-uniform blocks is a
 * blocking metadata exchange (4 bytes per block: the sizes, a message naming no blocks)
 * followed by the packed data; a `copy` op packs the outgoing blocks and another unpacks
 * the incoming ones.
 */
#ifndef COLLSIM_ALLTOALLV_H
#define COLLSIM_ALLTOALLV_H

#include <stdint.h>

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"
#include "common/error.h"

/* Bytes of one metadata entry (an MPI_INT block size). */
#define A2AV_META_BYTES 4

/* ---- radix plans ------------------------------------------------------------------- */

typedef struct radix_round {
    int32_t x, z;    /* digit position and value */
    int64_t dist;    /* r^x */
    int64_t s;       /* rank distance z * r^x */
    int64_t nblocks; /* offsets j in [1, P) whose digit x is z */
} radix_round;

typedef struct radix_plan {
    int32_t P, r;
    int32_t w;                /* digits: ceil(log_r P) (1 for P = 1) */
    int32_t K;                /* rounds */
    int64_t D;                /* blocks each rank sends over all rounds */
    int64_t B;                /* T slots: P - K - 1 */
    int64_t max_round_blocks; /* largest nblocks of a round */
    radix_round *rounds;      /* K rounds in execution order */
} radix_plan;

/* Plans P >= 1 ranks with radix 2 <= r <= P (error otherwise, naming the range). */
int radix_plan_init(radix_plan *pl, int32_t P, int32_t r, cs_error *err);
void radix_plan_free(radix_plan *pl);

/* The offsets of a round, ascending, into out (room for rd->nblocks). */
void radix_round_offsets(const radix_plan *pl, const radix_round *rd, int64_t *out);

/* The block a rank holds at offset j before a round of distance unit dist = r^x, within a
 * group of n ranks numbered 0..n-1: the rank `me` holds the block from rank *src to rank
 * *dst (both in 0..n-1). */
static inline void radix_held(int64_t n, int64_t me, int64_t j, int64_t dist, int64_t *src,
                              int64_t *dst)
{
    *src = (me + j % dist) % n;
    *dst = ((*src - j) % n + n) % n;
}

/* The block at offset j leaves the send buffer in this round / arrives in R. */
static inline int radix_first_hop(const radix_round *rd, int64_t j) { return j % rd->dist == 0; }
static inline int radix_final_hop(const radix_plan *pl, const radix_round *rd, int64_t j)
{
    return j < rd->dist * pl->r;
}

/* T slot of offset j (j not a round's first offset): j - 1 - dx*(r-1) - dz with
 * dx = floor(log_r j) and dz = floor(j / r^dx), i.e. j minus the number of direct offsets
 * (z * r^x) up to j. (The paper prints ceil(log_r j); r = 3, j = 4 shows floor is right.) */
int64_t radix_t_slot(int64_t j, int32_t r);

/* ---- schedule pieces ------------------------------------------------------------------ */

/* The rounds of plan pl (over Q = pl->P ranks) for `rank`, in groups of Q consecutive ranks
 * (rank = n*Q + g) each running the plan among themselves, on `ngroups` block groups at
 * once: at offset j rank (n, g) holds, for every group i < ngroups, the block from
 * (n, src) to (i, dst) with radix_held(Q, g, j, ..). P = ngroups * Q ranks in all.
 * ngroups = 1, Q = P is ParLogNa; ngroups = N nodes of Q ranks is ParLinNa's intra-node
 * phase. Each round is an a2av_exchange (metadata unless one block each way). */
void a2av_radix_rounds(sched_builder *b, const radix_plan *pl, int64_t ngroups, int32_t rank);

/* One two-phase round: send the blocks `out` to `to` while receiving `in` from `from`.
 * Unless both messages carry exactly one block (and !always_meta), a first step exchanges
 * the metadata (A2AV_META_BYTES per block) and then packs (copy of out's bytes), and a
 * second step exchanges the data and then unpacks (copy of in's bytes). A one-block round
 * is a single data step without copies (the block goes from the send buffer to R). */
void a2av_exchange(sched_builder *b, int32_t to, const range_list *out, int32_t from,
                   const range_list *in, int always_meta);

/* The small allreduce-max of the largest block size (one int): dissemination, one step
 * per distance 1, 2, 4, .. < P, sending A2AV_META_BYTES to rank+d and receiving from
 * rank-d (max is idempotent, so any P works). */
void a2av_allreduce_max(sched_builder *b, int32_t P, int32_t rank);

/* A step with the local copy of the rank's own block (rank -> rank). */
void a2av_self_copy(sched_builder *b, int32_t rank);

/* An alltoallv block of 0 bytes: the MPI algorithms post no message for it. Always 0 for
 * other collectives, so generators shared with alltoall keep their behaviour. */
static inline int a2av_block_empty(const sched_layout *l, int64_t block)
{
    return l->coll == COLL_ALLTOALLV && layout_block_bytes(l, block) == 0;
}

/* Bytes of the rank's send buffer (its row) and receive buffer (its column). */
int64_t a2av_row_bytes(const sched_layout *l, int32_t rank);
int64_t a2av_col_bytes(const sched_layout *l, int32_t rank);

/* Number of blocks in a range list. */
int64_t a2av_count_blocks(const range_list *l);

#endif
