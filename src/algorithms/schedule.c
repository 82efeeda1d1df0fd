/* schedule.c - the schedule IR: collectives, block layouts, rank schedules, builder. */
#include "algorithms/schedule.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* ---- collectives ----------------------------------------------------------------- */

static const char *const coll_names[COLL__COUNT] = {
    "bcast",     "reduce",         "gather",    "scatter",  "allgather",
    "reduce_scatter", "allreduce", "alltoall",  "alltoallv", "p2p"};

const char *coll_name(coll_kind c)
{
    return (unsigned)c < COLL__COUNT ? coll_names[c] : "?";
}

int coll_from_name(const char *name, coll_kind *out, cs_error *err)
{
    for (int c = 0; c < COLL__COUNT; c++) {
        if (name && strcmp(name, coll_names[c]) == 0) {
            *out = (coll_kind)c;
            return 0;
        }
    }
    return cs_fail(err,
                   "unknown collective '%s' (allowed: bcast, reduce, gather, scatter, allgather, "
                   "reduce_scatter, allreduce, alltoall, alltoallv, p2p)",
                   name ? name : "");
}

int coll_is_reduction(coll_kind c)
{
    return c == COLL_REDUCE || c == COLL_ALLREDUCE || c == COLL_REDUCE_SCATTER;
}

int coll_has_root(coll_kind c)
{
    return c == COLL_BCAST || c == COLL_REDUCE || c == COLL_GATHER || c == COLL_SCATTER ||
           c == COLL_P2P;
}

const char *op_kind_name(op_kind k)
{
    switch (k) {
    case OP_SEND: return "send";
    case OP_RECV: return "recv";
    case OP_REDUCE: return "reduce";
    case OP_COPY: return "copy";
    }
    return "?";
}

/* ---- layouts ------------------------------------------------------------------------ */

void layout_init(sched_layout *l, coll_kind c, int32_t P, int32_t root, int64_t bytes,
                 int64_t units)
{
    memset(l, 0, sizeof *l);
    l->coll = c;
    l->P = P;
    l->root = root;
    if (units < 1)
        units = 1;
    l->pair_blocks = 1;
    switch (c) {
    case COLL_BCAST:
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_P2P:
        l->nblocks = units;
        l->row_len = units;
        l->row_bytes = bytes;
        l->blocks_per_rank = 1; /* not partitioned among ranks */
        break;
    case COLL_GATHER:
    case COLL_SCATTER:
    case COLL_ALLGATHER:
    case COLL_REDUCE_SCATTER:
        l->nblocks = (int64_t)P * units;
        l->row_len = l->nblocks;
        l->row_bytes = bytes;
        l->blocks_per_rank = units;
        break;
    case COLL_ALLTOALL:
        l->pair_blocks = units;
        l->nblocks = (int64_t)P * P * units;
        l->row_len = (int64_t)P * units;
        l->row_bytes = bytes;
        l->blocks_per_rank = (int64_t)P * units;
        break;
    case COLL_ALLTOALLV:
    default:
        l->nblocks = (int64_t)P * P;
        l->row_len = P;
        l->row_bytes = bytes;
        l->blocks_per_rank = P;
        break;
    }
    layout_set_rows(l, l->row_len, l->row_bytes);
}

void layout_set_rows(sched_layout *l, int64_t row_len, int64_t row_bytes)
{
    l->row_len = row_len;
    l->row_bytes = row_bytes;
    l->row_q = row_bytes / row_len;
    l->row_rem = row_bytes % row_len;
}

int64_t layout_block_bytes(const sched_layout *l, int64_t b)
{
    if (l->block_bytes_fn)
        return l->block_bytes_fn(l->bytes_ctx, b);
    int64_t i = l->row_len == l->nblocks ? b : b % l->row_len;
    return l->row_q + (i < l->row_rem ? 1 : 0);
}

/* Bytes of blocks with indices a..z-1 within one row. */
static inline int64_t row_part_bytes(const sched_layout *l, int64_t a, int64_t z)
{
    int64_t extra = 0; /* how many of a..z-1 are < row_rem: they have one byte more */
    if (a < l->row_rem)
        extra = (z < l->row_rem ? z : l->row_rem) - a;
    return (z - a) * l->row_q + extra;
}

int64_t layout_range_bytes_slow(const sched_layout *l, int64_t lo, int64_t hi)
{
    if (hi <= lo)
        return 0;
    if (l->block_bytes_fn) {
        int64_t sum = 0;
        for (int64_t b = lo; b < hi; b++)
            sum += l->block_bytes_fn(l->bytes_ctx, b);
        return sum;
    }
    if (l->row_len == l->nblocks) /* one row: no division */
        return row_part_bytes(l, lo, hi);
    int64_t first_row = lo / l->row_len, last_row = (hi - 1) / l->row_len;
    int64_t base = first_row * l->row_len;
    if (first_row == last_row)
        return row_part_bytes(l, lo - base, hi - base);
    int64_t sum = row_part_bytes(l, lo - base, l->row_len);
    sum += (last_row - first_row - 1) * l->row_bytes;
    sum += row_part_bytes(l, 0, hi - last_row * l->row_len);
    return sum;
}

int64_t layout_owner(const sched_layout *l, int64_t b)
{
    return b / l->blocks_per_rank;
}

static void push_range(blk_range **out, size_t *n, size_t *cap, int64_t lo, int64_t hi)
{
    if (*n > 0 && (*out)[*n - 1].hi == lo) {
        (*out)[*n - 1].hi = hi;
        return;
    }
    vec_reserve((void **)out, cap, *n + 1, sizeof **out);
    (*out)[*n].lo = lo;
    (*out)[*n].hi = hi;
    (*n)++;
}

void layout_initial_blocks(const sched_layout *l, int32_t rank, blk_range **out, size_t *n,
                           size_t *cap)
{
    switch (l->coll) {
    case COLL_BCAST:
    case COLL_SCATTER:
        if (rank == l->root)
            push_range(out, n, cap, 0, l->nblocks);
        break;
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
    case COLL_REDUCE_SCATTER:
        push_range(out, n, cap, 0, l->nblocks);
        break;
    case COLL_GATHER:
    case COLL_ALLGATHER:
        push_range(out, n, cap, (int64_t)rank * l->blocks_per_rank,
                   (int64_t)(rank + 1) * l->blocks_per_rank);
        break;
    case COLL_P2P:
        if (rank == l->root)
            push_range(out, n, cap, 0, l->nblocks);
        break;
    default: /* alltoall(v): my row */
        push_range(out, n, cap, (int64_t)rank * l->P * l->pair_blocks,
                   (int64_t)(rank + 1) * l->P * l->pair_blocks);
        break;
    }
}

void layout_final_blocks(const sched_layout *l, int32_t rank, blk_range **out, size_t *n,
                         size_t *cap)
{
    switch (l->coll) {
    case COLL_BCAST:
    case COLL_ALLREDUCE:
    case COLL_ALLGATHER:
        push_range(out, n, cap, 0, l->nblocks);
        break;
    case COLL_REDUCE:
    case COLL_GATHER:
        if (rank == l->root)
            push_range(out, n, cap, 0, l->nblocks);
        break;
    case COLL_SCATTER:
    case COLL_REDUCE_SCATTER:
        push_range(out, n, cap, (int64_t)rank * l->blocks_per_rank,
                   (int64_t)(rank + 1) * l->blocks_per_rank);
        break;
    case COLL_P2P:
        if (rank == l->dst)
            push_range(out, n, cap, 0, l->nblocks);
        break;
    default: /* alltoall(v): column `rank`; alltoallv needs no block of 0 bytes */
        for (int64_t s = 0; s < l->P; s++) {
            int64_t lo = (s * l->P + rank) * l->pair_blocks, hi = lo + l->pair_blocks;
            if (l->coll != COLL_ALLTOALLV || layout_range_bytes(l, lo, hi) > 0)
                push_range(out, n, cap, lo, hi);
        }
        break;
    }
}

/* ---- rank schedules ----------------------------------------------------------------- */

void rank_sched_init(rank_sched *rs)
{
    memset(rs, 0, sizeof *rs);
    VEC_RESERVE(rs->step_first, rs->cap_steps, 1);
    rs->step_first[0] = 0;
}

void rank_sched_free(rank_sched *rs)
{
    free(rs->step_first);
    free(rs->ops);
    free(rs->ranges);
    free(rs->tags);
    free(rs->dep_first);
    free(rs->deps);
    memset(rs, 0, sizeof *rs);
}

void rank_sched_clear(rank_sched *rs)
{
    rs->nsteps = 0;
    rs->nops = 0;
    rs->nranges = 0;
    rs->step_first[0] = 0;
    rs->ntags = rs->ndep_ops = rs->ndeps = 0;
}

int rank_sched_has_deps(const rank_sched *rs)
{
    for (uint32_t i = 0; i < rs->nops; i++)
        if ((rs->ops[i].flags & OPF_DEPS) || rs_op_tag(rs, i) != 0)
            return 1;
    return 0;
}

size_t rank_sched_memory(const rank_sched *rs)
{
    return rs->cap_steps * sizeof *rs->step_first + rs->cap_ops * sizeof *rs->ops +
           rs->cap_ranges * sizeof *rs->ranges + rs->cap_tags * sizeof *rs->tags +
           rs->cap_dep_first * sizeof *rs->dep_first + rs->cap_deps * sizeof *rs->deps;
}

/* ---- builder -------------------------------------------------------------------------- */

enum { DEFAULT_FLUSH_STEPS = 256 };

void sb_init(sched_builder *b, const sched_layout *layout)
{
    memset(b, 0, sizeof *b);
    b->layout = layout;
    rank_sched_init(&b->rs);
}

void sb_init_streaming(sched_builder *b, const sched_layout *layout, sched_sink_fn sink,
                       void *ctx)
{
    sb_init(b, layout);
    b->sink = sink;
    b->sink_ctx = ctx;
    b->flush_every = DEFAULT_FLUSH_STEPS;
}

void sb_free(sched_builder *b)
{
    rank_sched_free(&b->rs);
}

void sb_begin_rank(sched_builder *b, int32_t rank)
{
    rank_sched_clear(&b->rs);
    b->rs.rank = rank;
    b->step_base = 0;
    b->step_open = 0;
    b->hold = 0;
}

void sb_hold_rank(sched_builder *b)
{
    b->hold = 1;
}

void sb_tag(sched_builder *b, int32_t tag)
{
    rank_sched *rs = &b->rs;
    b->hold = 1; /* a generator should have said so before its first op */
    uint32_t i = rs->nops - 1;
    VEC_RESERVE(rs->tags, rs->cap_tags, (size_t)i + 1);
    while (rs->ntags <= i)
        rs->tags[rs->ntags++] = 0;
    rs->tags[i] = tag;
}

void sb_dep(sched_builder *b, uint32_t on, int start_only)
{
    rank_sched *rs = &b->rs;
    b->hold = 1;
    uint32_t i = rs->nops - 1;
    VEC_RESERVE(rs->dep_first, rs->cap_dep_first, (size_t)i + 2);
    if (rs->ndep_ops == 0)
        rs->dep_first[0] = 0;
    while (rs->ndep_ops <= i) /* ops since the last dependency: none of their own */
        rs->dep_first[++rs->ndep_ops] = rs->ndeps;
    rs->ops[i].flags |= OPF_DEPS;
    if (on == UINT32_MAX)
        return;
    VEC_RESERVE(rs->deps, rs->cap_deps, (size_t)rs->ndeps + 1);
    rs->deps[rs->ndeps++] = on | (start_only ? SCHED_DEP_START : 0);
    rs->dep_first[rs->ndep_ops] = rs->ndeps;
}

static void flush(sched_builder *b)
{
    if (b->rs.nsteps == 0)
        return;
    b->sink(b->sink_ctx, &b->rs, b->step_base);
    b->step_base += b->rs.nsteps;
    int32_t rank = b->rs.rank;
    rank_sched_clear(&b->rs);
    b->rs.rank = rank;
}

void sb_end_rank(sched_builder *b)
{
    if (b->sink)
        flush(b);
    b->step_open = 0;
}

uint32_t sb_step_general(sched_builder *b)
{
    rank_sched *rs = &b->rs;
    if (b->sink && rs->nsteps >= b->flush_every && !b->hold)
        flush(b);
    VEC_RESERVE(rs->step_first, rs->cap_steps, rs->nsteps + 2);
    rs->nsteps++;
    rs->step_first[rs->nsteps] = rs->nops;
    b->step_open = 1;
    return b->step_base + rs->nsteps - 1;
}

uint32_t sb_current_step(const sched_builder *b)
{
    return b->step_base + (b->rs.nsteps ? b->rs.nsteps - 1 : 0);
}

static int range_cmp(const void *a, const void *b)
{
    const blk_range *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Copies the ranges into the rank's pool in canonical form: empty ranges dropped, sorted
 * by lo, adjacent ranges merged (overlaps are kept for the verifier to report). */
static void add_ranges(rank_sched *rs, sched_op *op, const blk_range *r, uint32_t n)
{
    op->range_first = rs->nranges;
    op->nranges = 0;
    if (n == 0) /* a byte-only message: the pool may still be NULL */
        return;
    VEC_RESERVE(rs->ranges, rs->cap_ranges, (size_t)rs->nranges + n);
    if (n == 1) { /* the common case: one range, already canonical */
        op->range_first = rs->nranges;
        op->nranges = r[0].hi > r[0].lo;
        rs->ranges[rs->nranges] = r[0];
        rs->nranges += op->nranges;
        return;
    }
    blk_range *dst = rs->ranges + rs->nranges;
    uint32_t m = 0;
    int sorted = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (r[i].hi <= r[i].lo)
            continue;
        if (m > 0 && r[i].lo < dst[m - 1].lo)
            sorted = 0;
        dst[m++] = r[i];
    }
    if (!sorted)
        qsort(dst, m, sizeof *dst, range_cmp);
    uint32_t k = 0;
    for (uint32_t i = 0; i < m; i++) {
        if (k > 0 && dst[k - 1].hi == dst[i].lo)
            dst[k - 1].hi = dst[i].hi;
        else
            dst[k++] = dst[i];
    }
    op->range_first = rs->nranges;
    op->nranges = k;
    rs->nranges += k;
}

static sched_op *new_op(sched_builder *b, op_kind kind)
{
    if (!b->step_open)
        sb_step(b);
    rank_sched *rs = &b->rs;
    VEC_RESERVE(rs->ops, rs->cap_ops, (size_t)rs->nops + 1);
    sched_op *op = &rs->ops[rs->nops++];
    memset(op, 0, sizeof *op);
    op->kind = (uint8_t)kind;
    op->peer = -1;
    rs->step_first[rs->nsteps] = rs->nops;
    return op;
}

void sb_msg_general(sched_builder *b, op_kind kind, int32_t peer, int64_t bytes,
                    const blk_range *r, uint32_t n, int flags, int bytes_from_layout)
{
    sched_op *op = new_op(b, kind);
    op->peer = peer;
    op->flags = (uint8_t)flags;
    add_ranges(&b->rs, op, r, n);
    op->bytes = bytes_from_layout ? ranges_bytes(b->layout, rs_op_ranges(&b->rs, op), op->nranges)
                                  : bytes;
}

void sb_send_bytes(sched_builder *b, int32_t peer, int64_t bytes, const blk_range *r,
                   uint32_t n)
{
    sb_msg_general(b, OP_SEND, peer, bytes, r, n, 0, 0);
}

void sb_recv_bytes(sched_builder *b, int32_t peer, int64_t bytes, const blk_range *r,
                   uint32_t n, int flags)
{
    sb_msg_general(b, OP_RECV, peer, bytes, r, n, flags, 0);
}

void sb_reduce(sched_builder *b, int64_t bytes)
{
    new_op(b, OP_REDUCE)->bytes = bytes;
}

void sb_copy(sched_builder *b, int64_t bytes)
{
    new_op(b, OP_COPY)->bytes = bytes;
}

void sb_dissemination(sched_builder *b, int32_t P, int32_t rank, int64_t bytes)
{
    for (int64_t d = 1; d < P; d *= 2) {
        sb_step(b);
        sb_send_bytes(b, (int32_t)((rank + d) % P), bytes, NULL, 0);
        sb_recv_bytes(b, (int32_t)mod_i64(rank - d, P), bytes, NULL, 0, 0);
    }
}

void sb_replay(sched_builder *b, const rank_sched *src)
{
    int extended = src->ntags > 0 || src->ndep_ops > 0;
    if (extended)
        sb_hold_rank(b);
    uint32_t base = b->rs.nops; /* a barrier prefix shifts the op indices */
    for (uint32_t s = 0; s < src->nsteps; s++) {
        sb_step(b);
        for (uint32_t i = rs_step_begin(src, s); i < rs_step_end(src, s); i++) {
            const sched_op *o = &src->ops[i];
            const blk_range *r = rs_op_ranges(src, o);
            switch ((op_kind)o->kind) {
            case OP_SEND: sb_send_bytes(b, o->peer, o->bytes, r, o->nranges); break;
            case OP_RECV: sb_recv_bytes(b, o->peer, o->bytes, r, o->nranges, o->flags); break;
            case OP_REDUCE: sb_reduce(b, o->bytes); break;
            case OP_COPY: sb_copy(b, o->bytes); break;
            }
            if (!extended)
                continue;
            b->rs.ops[b->rs.nops - 1].flags = o->flags;
            if (rs_op_tag(src, i))
                sb_tag(b, rs_op_tag(src, i));
            uint32_t nd;
            const uint32_t *d = rs_op_deps(src, i, &nd);
            if (o->flags & OPF_DEPS)
                sb_dep(b, UINT32_MAX, 0);
            for (uint32_t k = 0; k < nd; k++)
                sb_dep(b, base + SCHED_DEP_OP(d[k]), (d[k] & SCHED_DEP_START) != 0);
        }
    }
}
