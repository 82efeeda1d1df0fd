/* verify_common.c - rules shared by the full and streaming verification engines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/verify_internal.h"
#include "common/util.h"

uint64_t contributor_total(int32_t P)
{
    uint64_t sum = 0;
    for (int32_t r = 0; r < P; r++)
        sum += contributor_key(r);
    return sum;
}

void describe_block(const sched_layout *l, int64_t block, char *buf, size_t n)
{
    switch (l->coll) {
    case COLL_ALLTOALL:
    case COLL_ALLTOALLV: {
        int64_t pair = block / l->pair_blocks;
        if (l->pair_blocks == 1)
            snprintf(buf, n, "block %lld (%lld->%lld)", (long long)block,
                     (long long)(pair / l->P), (long long)(pair % l->P));
        else
            snprintf(buf, n, "block %lld (%lld->%lld part %lld)", (long long)block,
                     (long long)(pair / l->P), (long long)(pair % l->P),
                     (long long)(block % l->pair_blocks));
        break;
    }
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
        if (l->blocks_per_rank == 1)
            snprintf(buf, n, "block %lld", (long long)block);
        else
            snprintf(buf, n, "block %lld (rank %lld's part %lld)", (long long)block,
                     (long long)(block / l->blocks_per_rank),
                     (long long)(block % l->blocks_per_rank));
        break;
    default:
        snprintf(buf, n, "block %lld", (long long)block);
    }
}

void describe_ranges(const blk_range *r, uint32_t n, char *buf, size_t len)
{
    if (n == 0) {
        snprintf(buf, len, "no blocks");
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "blocks ");
    for (uint32_t i = 0; i < n && used + 40 < len; i++) {
        if (i == 6 && n > 7) {
            snprintf(buf + used, len - used, "+... (%u ranges)", n);
            return;
        }
        if (r[i].hi == r[i].lo + 1)
            used += (size_t)snprintf(buf + used, len - used, "%s%lld", i ? "+" : "",
                                     (long long)r[i].lo);
        else
            used += (size_t)snprintf(buf + used, len - used, "%s[%lld,%lld)", i ? "+" : "",
                                     (long long)r[i].lo, (long long)r[i].hi);
    }
}

int lint_op_fail(lint_rule rule, const sched_layout *l, int32_t rank, uint32_t step,
                 const sched_op *op, const blk_range *ranges, uint32_t i, char *msg,
                 size_t msglen)
{
    const char *what = op->kind == OP_SEND ? "send to" : "recv from";
    char b[256];
    switch (rule) {
    case LINT_NEGATIVE_BYTES:
        snprintf(msg, msglen, "rank %d step %u: %s of negative size %lld", rank, step,
                 op_kind_name((op_kind)op->kind), (long long)op->bytes);
        break;
    case LINT_PEER:
        snprintf(msg, msglen, "rank %d step %u: %s %d: the peer must be another rank in 0..%d",
                 rank, step, what, op->peer, l->P - 1);
        break;
    case LINT_OUTSIDE:
        snprintf(msg, msglen, "rank %d step %u: %s %d names blocks [%lld,%lld) outside 0..%lld",
                 rank, step, what, op->peer, (long long)ranges[i].lo, (long long)ranges[i].hi,
                 (long long)l->nblocks - 1);
        break;
    case LINT_TWICE:
        describe_block(l, ranges[i].lo, b, sizeof b);
        snprintf(msg, msglen, "rank %d step %u: %s %d lists %s twice", rank, step, what,
                 op->peer, b);
        break;
    case LINT_BYTES:
        describe_ranges(ranges, op->nranges, b, sizeof b);
        snprintf(msg, msglen, "rank %d step %u: %s %d carries %s (%lld bytes) but says %lld bytes",
                 rank, step, what, op->peer, b, (long long)ranges_bytes(l, ranges, op->nranges),
                 (long long)op->bytes);
        break;
    case LINT_COMBINE:
        snprintf(msg, msglen,
                 "rank %d step %u: %s %d combines data, which only receives of reductions "
                 "(reduce, allreduce, reduce_scatter) may do",
                 rank, step, what, op->peer);
        break;
    }
    return -1;
}

int lint_step(const sched_layout *l, const rank_sched *rs, uint32_t local_step,
              uint32_t abs_step, char *msg, size_t msglen)
{
    if (!coll_is_reduction(l->coll))
        return 0;
    int64_t combined = 0, reduced = 0;
    for (uint32_t i = rs_step_begin(rs, local_step); i < rs_step_end(rs, local_step); i++) {
        const sched_op *o = &rs->ops[i];
        if (o->kind == OP_RECV && (o->flags & OPF_COMBINE))
            combined += o->bytes;
        else if (o->kind == OP_REDUCE)
            reduced += o->bytes;
    }
    if (combined != reduced) {
        snprintf(msg, msglen,
                 "rank %d step %u: combines %lld received bytes but its reduce ops cover %lld "
                 "bytes (every combined byte must be reduced in the same step)",
                 rs->rank, abs_step, (long long)combined, (long long)reduced);
        return -1;
    }
    return 0;
}

void initial_state(const sched_layout *l, int32_t rank, imap *state)
{
    blk_range *r = NULL;
    size_t n = 0, cap = 0;
    layout_initial_blocks(l, rank, &r, &n, &cap);
    int red = coll_is_reduction(l->coll);
    imap_set(state, r, n, 1, red ? contributor_key(rank) : 0);
    free(r);
}

int format_missing_final(const sched_layout *l, int32_t rank, int64_t block, uint32_t nsteps,
                         char *msg, size_t msglen)
{
    char b[96];
    describe_block(l, block, b, sizeof b);
    snprintf(msg, msglen, "rank %d ends (after step %u) without %s, which %s requires", rank,
             nsteps ? nsteps - 1 : 0, b, coll_name(l->coll));
    return -1;
}

int check_final(const sched_layout *l, int32_t rank, const imap *state, int reductions,
                uint64_t total, uint32_t nsteps, char *msg, size_t msglen)
{
    blk_range *r = NULL;
    size_t n = 0, cap = 0;
    layout_final_blocks(l, rank, &r, &n, &cap);
    int rc = 0;
    char b[96];
    int64_t miss = imap_first_missing(state, r, n);
    if (miss >= 0) {
        rc = format_missing_final(l, rank, miss, nsteps, msg, msglen);
    } else if (reductions) {
        ival_buf pieces = {0};
        imap_extract(state, r, n, &pieces);
        for (size_t i = 0; i < pieces.n && rc == 0; i++) {
            const ival *p = &pieces.v[i];
            if (p->count == (uint64_t)l->P && p->hash == total)
                continue;
            describe_block(l, p->lo, b, sizeof b);
            uint32_t last = nsteps ? nsteps - 1 : 0;
            if (p->count < (uint64_t)l->P)
                snprintf(msg, msglen,
                         "rank %d ends (after step %u) with %s reduced from %llu of the %d "
                         "contributions (missing contributions)",
                         rank, last, b, (unsigned long long)p->count, l->P);
            else
                snprintf(msg, msglen,
                         "rank %d ends (after step %u) with %s reduced from %llu contributions "
                         "for %d ranks: some contributions were reduced twice and others are "
                         "missing",
                         rank, last, b, (unsigned long long)p->count, l->P);
            rc = -1;
        }
        ival_buf_free(&pieces);
    }
    free(r);
    return rc;
}

void format_unmatched(char *msg, size_t len, int is_send, int32_t rank, uint32_t step,
                      const sched_op *op, const blk_range *ranges, uint32_t k, size_t have)
{
    char rb[256];
    describe_ranges(ranges, op->nranges, rb, sizeof rb);
    if (is_send)
        snprintf(msg, len,
                 "rank %d step %u: send to %d (message %u from %d to %d, %lld bytes, %s) is never "
                 "received: rank %d posts %zu receive(s) from %d",
                 rank, step, op->peer, k + 1, rank, op->peer, (long long)op->bytes, rb, op->peer,
                 have, rank);
    else
        snprintf(msg, len,
                 "rank %d step %u: recv from %d (message %u from %d to %d, %lld bytes, %s) has no "
                 "matching send: rank %d sends %zu message(s) to %d",
                 rank, step, op->peer, k + 1, op->peer, rank, (long long)op->bytes, rb, op->peer,
                 have, rank);
}

void format_mismatch(char *msg, size_t len, int32_t src, uint32_t send_step, const sched_op *send,
                     const blk_range *send_ranges, int32_t dst, uint32_t recv_step,
                     const sched_op *recv, const blk_range *recv_ranges)
{
    char ra[256], rb[256];
    describe_ranges(send_ranges, send->nranges, ra, sizeof ra);
    describe_ranges(recv_ranges, recv->nranges, rb, sizeof rb);
    snprintf(msg, len,
             "rank %d step %u: send to %d (%lld bytes, %s) does not match rank %d step %u: recv "
             "from %d (%lld bytes, %s)",
             src, send_step, dst, (long long)send->bytes, ra, dst, recv_step, src,
             (long long)recv->bytes, rb);
}
