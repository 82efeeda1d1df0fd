/* verify_internal.h - what the two verification engines share (not a public header). */
#ifndef COLLSIM_VERIFY_INTERNAL_H
#define COLLSIM_VERIFY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/algorithm.h"
#include "algorithms/imap.h"
#include "common/util.h"
#include "algorithms/verify.h"

/* Random 64-bit key of a contributing rank; a reduced block's hash is the sum of the keys
 * of its contributions. */
static inline uint64_t contributor_key(int32_t rank)
{
    return mix64(0x5eed0c011c7ULL ^ ((uint64_t)rank * 0x9e3779b97f4a7c15ULL));
}
uint64_t contributor_total(int32_t P);

/* The rules lint_op checks, in order; lint_op_fail writes the message of a broken one. */
typedef enum lint_rule {
    LINT_NEGATIVE_BYTES, LINT_PEER, LINT_OUTSIDE, LINT_TWICE, LINT_BYTES, LINT_COMBINE
} lint_rule;
CS_COLD int lint_op_fail(lint_rule rule, const sched_layout *l, int32_t rank, uint32_t step,
                         const sched_op *op, const blk_range *ranges, uint32_t range_index,
                         char *msg, size_t msglen);

/* Checks one op on its own (peer, ranges, bytes, flags); on a problem writes a message
 * naming rank and step into msg and returns -1. Inline because the stream engine runs it
 * on every op of every rank; the messages are written out of line by lint_op_fail. */
CS_HOT_INLINE int lint_op(const sched_layout *l, int32_t rank, uint32_t step,
                          const sched_op *op, const blk_range *ranges, char *msg,
                          size_t msglen)
{
    if (op->bytes < 0)
        return lint_op_fail(LINT_NEGATIVE_BYTES, l, rank, step, op, ranges, 0, msg, msglen);
    if (!op_is_comm(op))
        return 0;
    if (op->peer < 0 || op->peer >= l->P || op->peer == rank)
        return lint_op_fail(LINT_PEER, l, rank, step, op, ranges, 0, msg, msglen);
    if (op->nranges == 1) { /* the usual message: no loop */
        if (ranges[0].lo < 0 || ranges[0].hi > l->nblocks)
            return lint_op_fail(LINT_OUTSIDE, l, rank, step, op, ranges, 0, msg, msglen);
    } else {
        for (uint32_t i = 0; i < op->nranges; i++) {
            if (ranges[i].lo < 0 || ranges[i].hi > l->nblocks)
                return lint_op_fail(LINT_OUTSIDE, l, rank, step, op, ranges, i, msg, msglen);
            if (i > 0 && ranges[i].lo < ranges[i - 1].hi)
                return lint_op_fail(LINT_TWICE, l, rank, step, op, ranges, i, msg, msglen);
        }
    }
    if (op->nranges > 0 && ranges_bytes(l, ranges, op->nranges) != op->bytes)
        return lint_op_fail(LINT_BYTES, l, rank, step, op, ranges, 0, msg, msglen);
    if ((op->flags & OPF_COMBINE) && (op->kind != OP_RECV || !coll_is_reduction(l->coll)))
        return lint_op_fail(LINT_COMBINE, l, rank, step, op, ranges, 0, msg, msglen);
    return 0;
}

/* Checks one step as a whole (combined bytes = reduced bytes in reductions). */
int lint_step(const sched_layout *l, const rank_sched *rs, uint32_t local_step,
              uint32_t abs_step, char *msg, size_t msglen);

/* "block 17 (2->1)" / "block 5 (rank 5's)" / "block 3" for messages. */
void describe_block(const sched_layout *l, int64_t block, char *buf, size_t n);
/* "blocks [0,4)+[8,9)" (shortened when long) or "no blocks". */
void describe_ranges(const blk_range *r, uint32_t n, char *buf, size_t len);

/* The blocks a rank must hold at the end, and its initial state (imap values: count 1 and
 * the rank's key for reductions, count 1 hash 0 otherwise). */
void initial_state(const sched_layout *l, int32_t rank, imap *state);

/* The message for a rank that ends without a block it must hold; returns -1. */
int format_missing_final(const sched_layout *l, int32_t rank, int64_t block, uint32_t nsteps,
                         char *msg, size_t msglen);

/* Checks a rank's final state; on a problem writes the message and returns -1. */
int check_final(const sched_layout *l, int32_t rank, const imap *state, int reductions,
                uint64_t total, uint32_t nsteps, char *msg, size_t msglen);

/* Messages for matching problems, the same from both engines. `k` counts from 0 the
 * messages of the (src, dst) pair; `have` is how many the other side posts. */
void format_unmatched(char *msg, size_t len, int is_send, int32_t rank, uint32_t step,
                      const sched_op *op, const blk_range *ranges, uint32_t k, size_t have);
void format_mismatch(char *msg, size_t len, int32_t src, uint32_t send_step, const sched_op *send,
                     const blk_range *send_ranges, int32_t dst, uint32_t recv_step,
                     const sched_op *recv, const blk_range *recv_ranges);

/* The full engine's state (verify_full.c), shared with its op-level progress simulation
 * for schedules with dependencies (verify_deps.c). */
typedef struct msg_rec {
    int32_t src, dst, tag;
    uint32_t k;    /* k-th message on the (src, dst, tag) channel */
    uint64_t gop;  /* global op index */
} msg_rec;

typedef struct full_ctx {
    const sched_layout *l;
    int32_t P;
    rank_sched *ranks;
    uint64_t *op_base;   /* global index of rank r's first op; op_base[P] = total */
    int64_t *match;      /* global op -> matching op, -1 for local ops */
    uint32_t *op_step;   /* global op -> its step */
    ival_buf *payload;   /* global send op -> contents in flight */
    imap *state;
    ival_buf scratch;
    uint32_t *cur;       /* step each rank is in (nsteps when done) */
    int deps;            /* some rank has dependencies or tags: verify_deps.c's engine */
    int64_t eager_limit; /* verify_deps.c: sends of at most this many bytes are eager */
    uint64_t total;      /* sum of all contributor keys */
    int reductions;
    verify_result *res;
} full_ctx;

static inline const sched_op *gop_op(const full_ctx *c, int32_t r, uint64_t g)
{
    return &c->ranks[r].ops[g - c->op_base[r]];
}
/* Writes the verdict into c->res (ok = 0); returns -1. */
int full_fail(full_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The progress simulation op by op, with the dependency rule of sched_ready.h: a send
 * takes its contents when it starts; it completes at once if eager (at most
 * c->eager_limit bytes), else once its receive is posted; a receive completes once its
 * send has started, and applies the contents then. Deadlock: ops left that never start
 * or never complete. */
int verify_deps_progress(full_ctx *c);

/* Engines. Each fills res (ok, error, figures) and returns 0, or -1 with err. */
/* verify_full: eager_limit as verify_options (-1: every send waits for its receive). */
int verify_full(const alg_run *run, int64_t eager_limit, verify_result *res, cs_error *err);
int verify_stream(const alg_run *run, int threads, verify_result *res, cs_error *err);

/* Bytes the full engine would need, estimated from a few sampled ranks. */
int64_t verify_full_estimate(const alg_run *run);

#endif
