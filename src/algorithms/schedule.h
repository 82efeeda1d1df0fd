/* schedule.h - the schedule IR: the contract between algorithms and everything else.
 *
 * A schedule says, for each rank, what it does during a collective: an ordered list of
 * steps, each a set of operations.
 *
 *   send(peer, bytes, blocks)   start sending `bytes` to `peer`; `blocks` names the data
 *   recv(peer, bytes, blocks)   start receiving from `peer`; with OPF_COMBINE the received
 *                               partial results are reduced into the local ones, otherwise
 *                               they replace (or add to) what the rank holds
 *   reduce(bytes)               local reduction work (timing only)
 *   copy(bytes)                 local copy / permutation work (timing only)
 *
 * Step semantics (what the simulator executes and the verifier assumes):
 *   - all sends and receives of a step start together; the step's communication ends when
 *     every one of them has completed (a send completes only once the peer has posted
 *     the matching receive: rendezvous, the conservative assumption for deadlocks);
 *   - then the step's local operations run, one after the other;
 *   - then the next step starts. A send carries the data the rank holds at the start of
 *     its step; received data is available from the next step on.
 *   - messages on one (src, dst) pair match in order per tag: the k-th send from a to b
 *     with tag t matches the k-th receive at b from a with tag t (MPI's non-overtaking
 *     rule; built-in generators use tag 0 only).
 *
 * Dependencies. An op flagged OPF_DEPS does not follow the step rule: it starts as soon
 * as the ops it depends on (earlier ops of its rank) have completed, or started for a
 * start-only dependency (GOAL's `irequires`), whatever their steps; with no dependency it
 * starts at time 0. Its step is then only a label (drawing, dumping). The step rule in
 * these terms: an op without OPF_DEPS depends on every op of the previous step (a local
 * op also on every message of its own step and on the local op before it in the step),
 * so a step schedule is the special case with no OPF_DEPS op. A rank with explicit
 * dependencies or tags is held whole by the builder (sb_hold_rank): memory stays linear
 * in its number of ops, and step schedules still stream step by step.
 *
 * Blocks. The data of a collective is cut into nblocks logical blocks, numbered
 * 0..nblocks-1; an operation names the blocks it moves as a list of half-open ranges
 * [lo, hi), so a message costs memory linear in its number of ranges, not its number of
 * blocks. The meaning of a block depends on the collective (sched_layout below):
 *
 *   bcast, reduce, allreduce          the vector, cut into nblocks pieces
 *   gather, scatter, allgather,       the vector, cut into P * blocks_per_rank pieces;
 *   reduce_scatter                    block b belongs to rank b / blocks_per_rank
 *   alltoall                          nblocks = P * P * u (u parts per message, usually
 *                                     1); block (s * P + d) * u + i is part i of the data
 *                                     that goes from s to d
 *   alltoallv                         nblocks = P * P; block s * P + d goes from s to d
 *   p2p                               the message from the source (root) to the
 *                                     destination (dst), cut into nblocks pieces
 *
 * Block ids are logical: a local permutation of a buffer does not rename blocks (it is a
 * `copy` op for its cost). Bytes per block: a uniform split of each "row" (see
 * sched_layout), or a callback for non-uniform collectives (alltoallv).
 *
 * Streaming. A generator writes one rank's operations into a sched_builder. A builder
 * either keeps them (materialized: the simulator, small verifications) or hands each
 * batch of finished steps to a sink and forgets them (streaming: verifying or counting
 * traffic at 10^5..10^6 ranks without holding every rank in memory).
 */
#ifndef COLLSIM_SCHEDULE_H
#define COLLSIM_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/util.h"

/* ---- collectives ----------------------------------------------------------------- */

typedef enum coll_kind {
    COLL_BCAST,
    COLL_REDUCE,
    COLL_GATHER,
    COLL_SCATTER,
    COLL_ALLGATHER,
    COLL_REDUCE_SCATTER,
    COLL_ALLREDUCE,
    COLL_ALLTOALL,
    COLL_ALLTOALLV,
    COLL_P2P, /* one message from rank root to rank dst (e.g. split over several paths) */
    COLL__COUNT
} coll_kind;

/* "bcast", "reduce", "gather", "scatter", "allgather", "reduce_scatter", "allreduce",
 * "alltoall", "alltoallv", "p2p". */
const char *coll_name(coll_kind c);
/* Parses a collective name; the error lists the allowed names. */
int coll_from_name(const char *name, coll_kind *out, cs_error *err);
/* Reductions combine partial results (reduce, allreduce, reduce_scatter). */
int coll_is_reduction(coll_kind c);
/* Rooted collectives (bcast, reduce, gather, scatter; p2p, whose root is the source). */
int coll_has_root(coll_kind c);

/* ---- blocks ------------------------------------------------------------------------ */

typedef struct blk_range {
    int64_t lo, hi; /* blocks lo .. hi-1 */
} blk_range;

/* How a collective's data is cut into blocks, and the bytes of each block. */
typedef struct sched_layout {
    coll_kind coll;
    int32_t P;
    int32_t root;
    int32_t dst; /* p2p: the destination rank (set by alg_run_prepare from the spec) */
    int64_t nblocks;
    /* Uniform sizes: the blocks are grouped in consecutive rows of row_len blocks, and
     * each row's row_bytes are split as evenly as possible (the first row_bytes % row_len
     * blocks of a row get one byte more). */
    int64_t row_len;
    int64_t row_bytes;
    int64_t row_q, row_rem; /* row_bytes / row_len and row_bytes % row_len (layout_init) */
    /* Rooted/partitioned collectives: owner(b) = b / blocks_per_rank. */
    int64_t blocks_per_rank;
    /* alltoall: blocks per (src, dst) message (the u above); 1 for every other collective */
    int64_t pair_blocks;
    /* Non-uniform sizes (alltoallv): when set, overrides the uniform split. */
    int64_t (*block_bytes_fn)(const void *ctx, int64_t block);
    const void *bytes_ctx;
} sched_layout;

/* Sets up the usual layout (always use it, or call layout_set_rows after changing the
 * row fields: it caches the division) of a collective over P ranks with vector size `bytes`:
 *   bcast/reduce/allreduce: nblocks = units (one row of `bytes`);
 *   gather/scatter/allgather/reduce_scatter: nblocks = P * units, blocks_per_rank = units;
 *   alltoall: nblocks = P * P * units, rows of P * units blocks, each row `bytes` (one
 *   rank's send buffer), pair_blocks = units;
 *   alltoallv: nblocks = P * P, rows of P blocks; `units` is ignored;
 *   p2p: nblocks = units (one row of `bytes`); dst is left at 0 (alg_run_prepare sets it). */
void layout_init(sched_layout *l, coll_kind c, int32_t P, int32_t root, int64_t bytes,
                 int64_t units);
void layout_set_rows(sched_layout *l, int64_t row_len, int64_t row_bytes);
int64_t layout_block_bytes(const sched_layout *l, int64_t block);
int64_t layout_range_bytes_slow(const sched_layout *l, int64_t lo, int64_t hi);
/* Bytes of blocks [lo, hi). Inline: it is on the hot path of every generator. */
static inline int64_t layout_range_bytes(const sched_layout *l, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return 0;
    if (!l->block_bytes_fn) {
        if (l->row_rem == 0) /* all blocks have row_q bytes */
            return (hi - lo) * l->row_q;
        if (l->row_len == l->nblocks) { /* one row: the first row_rem blocks have one more */
            int64_t extra = lo < l->row_rem ? (hi < l->row_rem ? hi : l->row_rem) - lo : 0;
            return (hi - lo) * l->row_q + extra;
        }
    }
    return layout_range_bytes_slow(l, lo, hi);
}
int64_t layout_owner(const sched_layout *l, int64_t block);

/* The blocks a rank holds before the collective and must hold after it, as ranges
 * appended to *out (growable: *n used, *cap allocated). For reductions "hold" means
 * "hold a partial / the full reduction" (see verify.h). An alltoallv block of 0 bytes is
 * not required at the end (MPI_Alltoallv moves nothing for a zero count). */
void layout_initial_blocks(const sched_layout *l, int32_t rank, blk_range **out, size_t *n,
                           size_t *cap);
void layout_final_blocks(const sched_layout *l, int32_t rank, blk_range **out, size_t *n,
                         size_t *cap);

/* ---- operations -------------------------------------------------------------------- */

typedef enum op_kind { OP_SEND, OP_RECV, OP_REDUCE, OP_COPY } op_kind;

enum {
    OPF_COMBINE = 1, /* recv: reduce into the local partials instead of replacing them */
    OPF_DEPS = 2,    /* starts after its explicit dependencies, not at its step (above) */
    OPF_TIME = 4,    /* a local op whose `bytes` is a time in nanoseconds (GOAL's calc) */
};

/* A dependency entry: the index of an earlier op of the rank, | SCHED_DEP_START when the
 * op may start once that op has started (GOAL's irequires), not completed. */
#define SCHED_DEP_START 0x80000000u
#define SCHED_DEP_OP(d) ((d) & ~SCHED_DEP_START)

typedef struct sched_op {
    uint8_t kind;  /* op_kind */
    uint8_t flags; /* OPF_* */
    uint16_t reserved;
    int32_t peer;  /* send/recv only */
    int64_t bytes;
    uint32_t range_first; /* index into rank_sched.ranges */
    uint32_t nranges;     /* 0: a message without data blocks (e.g. metadata) */
} sched_op;

static inline int op_is_comm(const sched_op *o) { return o->kind == OP_SEND || o->kind == OP_RECV; }
const char *op_kind_name(op_kind k);

/* One rank's operations (or, when streaming, a batch of its consecutive steps). Ranges of
 * one op are sorted by lo and adjacent ranges merged; overlapping ranges are kept as
 * written, so that the verifier can report them. */
typedef struct rank_sched {
    int32_t rank;
    uint32_t nsteps;
    uint32_t *step_first; /* ops of step i: [step_first[i], step_first[i+1]) */
    sched_op *ops;
    uint32_t nops;
    blk_range *ranges;
    uint32_t nranges;
    size_t cap_steps, cap_ops, cap_ranges;
    /* Optional, NULL unless the rank uses them (sb_tag, sb_dep; never in a streamed chunk
     * of a rank that was not held): tags[i] is op i's message tag for i < ntags (0
     * beyond); op i < ndep_ops has the explicit dependencies deps[dep_first[i] ..
     * dep_first[i + 1]) (entries as SCHED_DEP_START above), later ops none. */
    int32_t *tags;
    uint32_t ntags;
    uint32_t *dep_first; /* ndep_ops + 1 entries */
    uint32_t ndep_ops;
    uint32_t *deps;
    uint32_t ndeps;
    size_t cap_tags, cap_dep_first, cap_deps;
} rank_sched;

void rank_sched_init(rank_sched *rs);
void rank_sched_free(rank_sched *rs);
void rank_sched_clear(rank_sched *rs);
static inline uint32_t rs_step_begin(const rank_sched *rs, uint32_t s) { return rs->step_first[s]; }
static inline uint32_t rs_step_end(const rank_sched *rs, uint32_t s) { return rs->step_first[s + 1]; }
static inline const blk_range *rs_op_ranges(const rank_sched *rs, const sched_op *o)
{
    return rs->ranges ? rs->ranges + o->range_first : NULL; /* no offset on a NULL pool */
}
static inline int32_t rs_op_tag(const rank_sched *rs, uint32_t i)
{
    return i < rs->ntags ? rs->tags[i] : 0;
}
/* Explicit dependencies of op i (n = 0 when it has none). */
static inline const uint32_t *rs_op_deps(const rank_sched *rs, uint32_t i, uint32_t *n)
{
    if (i >= rs->ndep_ops) {
        *n = 0;
        return NULL;
    }
    *n = rs->dep_first[i + 1] - rs->dep_first[i];
    return *n ? rs->deps + rs->dep_first[i] : NULL;
}
/* 1 when some op has OPF_DEPS or a non-zero tag (the rank is not a plain step schedule). */
int rank_sched_has_deps(const rank_sched *rs);
/* Bytes of memory the rank schedule holds (for memory figures). */
size_t rank_sched_memory(const rank_sched *rs);

/* ---- builder ------------------------------------------------------------------------ */

/* Receives finished steps when streaming: `chunk` holds steps first_step ..
 * first_step + chunk->nsteps - 1 of rank chunk->rank. */
typedef void (*sched_sink_fn)(void *ctx, const rank_sched *chunk, uint32_t first_step);

typedef struct sched_builder {
    const sched_layout *layout;
    rank_sched rs;
    uint32_t step_base; /* absolute index of rs's first step (non-zero only when streaming) */
    int step_open;
    sched_sink_fn sink; /* NULL: materialize */
    void *sink_ctx;
    uint32_t flush_every; /* streaming: hand steps to the sink in batches of this many */
    int hold;             /* sb_hold_rank: no flush before sb_end_rank */
} sched_builder;

void sb_init(sched_builder *b, const sched_layout *layout);
void sb_init_streaming(sched_builder *b, const sched_layout *layout, sched_sink_fn sink,
                       void *ctx);
void sb_free(sched_builder *b);

/* Starts a rank (clears what the builder holds). */
void sb_begin_rank(sched_builder *b, int32_t rank);
/* Ends the rank: a streaming builder flushes its last steps. */
void sb_end_rank(sched_builder *b);

/* Opens a new step and returns its absolute index. Ops added before the first sb_step
 * open step 0 implicitly. An empty step is allowed (it keeps ranks in step). */
static inline uint32_t sb_step(sched_builder *b);
/* Absolute index of the current step (the number of steps so far, minus one). */
uint32_t sb_current_step(const sched_builder *b);

/* Messages naming blocks; bytes = the blocks' bytes from the layout (inline, below). */
static inline void sb_send(sched_builder *b, int32_t peer, const blk_range *r, uint32_t n);
static inline void sb_recv(sched_builder *b, int32_t peer, const blk_range *r, uint32_t n,
                           int flags);
static inline void sb_send_blocks(sched_builder *b, int32_t peer, int64_t lo, int64_t hi);
static inline void sb_recv_blocks(sched_builder *b, int32_t peer, int64_t lo, int64_t hi,
                                  int flags);
/* Messages with explicit bytes (n may be 0: a message carrying no data blocks). */
void sb_send_bytes(sched_builder *b, int32_t peer, int64_t bytes, const blk_range *r,
                   uint32_t n);
void sb_recv_bytes(sched_builder *b, int32_t peer, int64_t bytes, const blk_range *r,
                   uint32_t n, int flags);
void sb_reduce(sched_builder *b, int64_t bytes);
void sb_copy(sched_builder *b, int64_t bytes);

/* A dissemination exchange of `bytes` (no data blocks) among P ranks: ceil(log2 P) steps,
 * step k sends to (rank + 2^k) mod P and receives from (rank - 2^k) mod P. With bytes 0
 * it is a barrier (no rank leaves before every rank has entered); with a small value it
 * is the allreduce of an idempotent operation such as max (any P works). */
void sb_dissemination(sched_builder *b, int32_t P, int32_t rank, int64_t bytes);

/* Keeps the rank whole until sb_end_rank (a streaming builder then hands it over as one
 * chunk). Call it after sb_begin_rank, before the first op, in a rank that uses sb_tag
 * or sb_dep: dependencies name ops by their index in the rank. */
void sb_hold_rank(sched_builder *b);
/* Index (in the rank) of the op added last. */
static inline uint32_t sb_last_op(const sched_builder *b) { return b->rs.nops - 1; }
/* Sets the tag of the op added last (a message). */
void sb_tag(sched_builder *b, int32_t tag);
/* Makes the op added last start after op `on` (an earlier op of the rank) completed, or
 * started with start_only; flags it OPF_DEPS (it no longer waits for its step). Call it
 * with on = UINT32_MAX to flag the op without any dependency (it starts at time 0). */
void sb_dep(sched_builder *b, uint32_t on, int start_only);

/* Appends every step of `src` (a materialized rank) to b, step by step, with its tags and
 * dependencies (b is then held, as by sb_hold_rank, if src has any). */
void sb_replay(sched_builder *b, const rank_sched *src);

/* Sum of the layout bytes of a range list. */
static inline int64_t ranges_bytes(const sched_layout *l, const blk_range *r, uint32_t n)
{
    int64_t sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += layout_range_bytes(l, r[i].lo, r[i].hi);
    return sum;
}

/* ---- builder fast paths ----------------------------------------------------------------
 * sb_step and the block messages run for every op of every rank: verifying a ring
 * allgather at P = 65,536 builds 8.6 * 10^9 ops. Their common case (the arrays have room,
 * a step is open, the message names one non-empty range, which is already canonical) is
 * written inline below; everything else goes through the general functions in
 * schedule.c, which do the same and more (growing, flushing, sorting and merging). */

uint32_t sb_step_general(sched_builder *b);
void sb_msg_general(sched_builder *b, op_kind kind, int32_t peer, int64_t bytes,
                    const blk_range *r, uint32_t n, int flags, int bytes_from_layout);

CS_HOT_INLINE uint32_t sb_step(sched_builder *b)
{
    rank_sched *rs = &b->rs;
    if ((b->sink && rs->nsteps >= b->flush_every) || rs->nsteps + 2 > rs->cap_steps)
        return sb_step_general(b);
    rs->nsteps++;
    rs->step_first[rs->nsteps] = rs->nops;
    b->step_open = 1;
    return b->step_base + rs->nsteps - 1;
}

CS_HOT_INLINE void sb_msg_blocks(sched_builder *b, op_kind kind, int32_t peer,
                                 const blk_range *r, uint32_t n, int flags)
{
    rank_sched *rs = &b->rs;
    if (n != 1 || r->hi <= r->lo || !b->step_open || rs->nops >= rs->cap_ops ||
        rs->nranges >= rs->cap_ranges) {
        sb_msg_general(b, kind, peer, 0, r, n, flags, 1);
        return;
    }
    sched_op *op = &rs->ops[rs->nops++];
    op->kind = (uint8_t)kind;
    op->flags = (uint8_t)flags;
    op->reserved = 0;
    op->peer = peer;
    op->bytes = layout_range_bytes(b->layout, r->lo, r->hi);
    op->range_first = rs->nranges;
    op->nranges = 1;
    rs->ranges[rs->nranges++] = *r;
    rs->step_first[rs->nsteps] = rs->nops;
}

static inline void sb_send(sched_builder *b, int32_t peer, const blk_range *r, uint32_t n)
{
    sb_msg_blocks(b, OP_SEND, peer, r, n, 0);
}

static inline void sb_recv(sched_builder *b, int32_t peer, const blk_range *r, uint32_t n,
                           int flags)
{
    sb_msg_blocks(b, OP_RECV, peer, r, n, flags);
}

/* A new step exchanging one message each way: send `out` to `to`, receive `in` from
 * `from` (flags as sb_recv). The same as sb_step + sb_send + sb_recv; the shape of every
 * ring step, written as one operation so that the common case (one range each way, room
 * in the arrays) checks and records the step once. */
CS_HOT_INLINE void sb_exchange(sched_builder *b, int32_t to, const blk_range *out, uint32_t nout,
                               int32_t from, const blk_range *in, uint32_t nin, int flags)
{
    rank_sched *rs = &b->rs;
    if (nout != 1 || nin != 1 || out->hi <= out->lo || in->hi <= in->lo ||
        (b->sink && rs->nsteps >= b->flush_every) || rs->nsteps + 2 > rs->cap_steps ||
        rs->nops + 2 > rs->cap_ops || rs->nranges + 2 > rs->cap_ranges) {
        sb_step(b);
        sb_send(b, to, out, nout);
        sb_recv(b, from, in, nin, flags);
        return;
    }
    sched_op *op = &rs->ops[rs->nops];
    op[0].kind = OP_SEND;
    op[0].flags = 0;
    op[0].reserved = 0;
    op[0].peer = to;
    op[0].bytes = layout_range_bytes(b->layout, out->lo, out->hi);
    op[0].range_first = rs->nranges;
    op[0].nranges = 1;
    op[1].kind = OP_RECV;
    op[1].flags = (uint8_t)flags;
    op[1].reserved = 0;
    op[1].peer = from;
    op[1].bytes = layout_range_bytes(b->layout, in->lo, in->hi);
    op[1].range_first = rs->nranges + 1;
    op[1].nranges = 1;
    rs->ranges[rs->nranges] = *out;
    rs->ranges[rs->nranges + 1] = *in;
    rs->nranges += 2;
    rs->nops += 2;
    rs->nsteps++;
    rs->step_first[rs->nsteps] = rs->nops;
    b->step_open = 1;
}

static inline void sb_send_blocks(sched_builder *b, int32_t peer, int64_t lo, int64_t hi)
{
    blk_range r = {lo, hi};
    sb_msg_blocks(b, OP_SEND, peer, &r, 1, 0);
}

static inline void sb_recv_blocks(sched_builder *b, int32_t peer, int64_t lo, int64_t hi,
                                  int flags)
{
    blk_range r = {lo, hi};
    sb_msg_blocks(b, OP_RECV, peer, &r, 1, flags);
}

#endif
