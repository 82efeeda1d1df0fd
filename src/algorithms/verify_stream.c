/* verify_stream.c - the streaming verification engine (see verify.h).
 *
 * Ranks are generated one at a time, by several threads, each rank's steps consumed in
 * batches by a sink and then forgotten. What one rank can check alone it checks at once
 * (well-formed ops, holding, final blocks for non-reductions). What needs two ranks, the
 * matching of sends and receives, is checked through sums of per-message hashes:
 *
 *   send k from a to b in step s   adds H(a, b, k, s, bytes, blocks) to sent[a]
 *   recv k at b from a in step s   adds the same H to received[a]
 *
 * and the same by destination. When every sum agrees, every send has a receive with the
 * same bytes and blocks *in the same step index*: such a step-aligned schedule cannot
 * deadlock (all ranks can advance step by step together). When a sum disagrees, a second
 * pass without the step in H tells "not aligned" (deadlock freedom then needs the full
 * engine) from "mismatched", and the ranks whose sums disagree are regenerated whole to
 * name the first bad message.
 *
 * Speed matters here: a ring allgather at P = 65,536 has 4.3 * 10^9 messages, each built
 * twice (by its sender and its receiver) and checked twice. The per-op path is therefore
 * inline from the generator to these checks (builder fast paths in schedule.h, lint_op
 * in verify_internal.h, the bitmap in blockset.h), specialised per holding mode, with the
 * running sums in locals; see scripts/bench/verify_scale.sh for the figures.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/blockset.h"
#include "algorithms/verify_internal.h"
#include "common/util.h"

typedef struct stream_shared {
    const alg_run *run;
    const sched_layout *l;
    int32_t P;
    int reductions;
    int with_step;         /* include the step index in the message hash */
    uint64_t *sent_by_src; /* [P], written by the worker that checks the rank */
    uint64_t *recv_by_dst; /* [P], idem */
    /* Work sharing: workers take the ranks in chunks, in increasing order, so that a
     * worker slowed down (by a busy CPU, or by heavier ranks such as a root) takes
     * fewer. A failure at rank r makes the chunks above r useless: stop_at is the
     * lowest failing rank so far (P while none failed). */
    int32_t chunk;
    atomic_int next_rank;
    atomic_int stop_at;
} stream_shared;

/* What a worker keeps per peer (kept together: one cache line per message). */
typedef struct peer_acc {
    uint64_t sent_to;       /* hash sum of this worker's sends to the peer */
    uint64_t received_from; /* hash sum of this worker's receives from the peer */
    uint32_t nsent, nreceived; /* messages of the rank `owner` to / from the peer */
    int32_t owner;             /* the rank the counts are for (-1: none yet) */
} peer_acc;

typedef struct stream_worker {
    stream_shared *sh;
    peer_acc *peers;       /* [P] */
    /* The blocks the rank holds (non-reductions; for reductions the stream engine does
     * not track contents): a bitmap for small layouts, else an interval map. */
    int use_bits;
    blockset bits;
    imap state;
    ival_buf scratch;
    blk_range *pending; /* blocks received in the current step */
    size_t npending, cap_pending;
    uint64_t rank_sent, rank_recv;
    uint32_t last_step; /* 1 + last step with an op, for the current rank */
    int failed;
    int32_t error_rank;
    char error[CS_ERROR_MAX];
    int64_t messages, bytes;
    int32_t steps;
} stream_worker;

/* Mixes two 64-bit words into one: their 128-bit product folded in half (the "mum" step
 * of wyhash). One multiply, where two rounds of mix64 take two in a row: the message hash
 * below is computed twice per message, 8.6 * 10^9 times for a ring at P = 65,536. */
static inline uint64_t mum_mix(uint64_t a, uint64_t b)
{
    unsigned __int128 p = (unsigned __int128)(a ^ 0xa0761d6478bd642fULL) * (b ^ 0xe7037ed1a0b428dbULL);
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/* The message hash. The fields are spread over two words, (src, dst) and (k, step) packed
 * as 32-bit pairs, the blocks added with odd random multipliers, and the words mixed
 * (mum_mix), so that two messages differing in any field get unrelated hashes and sums
 * of hashes do not cancel. The bytes of a message naming blocks are those of its blocks
 * (lint_op checks it before hashing), so only messages without blocks hash their bytes.
 * One range (the usual message) is fixed by (lo, hi); several ranges are mixed in order
 * with a multiply per range, since a linear sum over ranges could not tell
 * {[0,2), [3,4)} from {[0,1), [3,5)}. */
CS_HOT_INLINE uint64_t msg_hash(int32_t src, int32_t dst, uint32_t k, uint32_t step,
                                int64_t bytes, const blk_range *r, uint32_t n)
{
    uint64_t a = (uint64_t)(uint32_t)src << 32 | (uint32_t)dst;
    uint64_t b = (uint64_t)k << 32 | step;
    if (n == 1)
        return mum_mix(a + (uint64_t)r[0].lo * 0x2545F4914F6CDD1DULL,
                       b + (uint64_t)r[0].hi * 0x9FB21C651E98DF25ULL);
    if (n == 0)
        return mum_mix(a + (uint64_t)bytes * 0xFF51AFD7ED558CCDULL, b);
    uint64_t rh = n * 0x27D4EB2F165667C5ULL;
    for (uint32_t i = 0; i < n; i++)
        rh = (rh ^ ((uint64_t)r[i].lo * 0x2545F4914F6CDD1DULL +
                    (uint64_t)r[i].hi * 0x9FB21C651E98DF25ULL)) * 0xBF58476D1CE4E5B9ULL;
    return mum_mix(a ^ 0x5851F42D4C957F2DULL, b + rh);
}

static void worker_fail(stream_worker *w, int32_t rank, const char *msg)
{
    if (w->failed)
        return;
    w->failed = 1;
    w->error_rank = rank;
    snprintf(w->error, sizeof w->error, "%s", msg);
}

/* The accumulator of a peer of rank r, its counts reset at r's first message with it.
 * (The owner field makes resetting free; it is a field of its own because testing the
 * counts themselves would read them as one word right after storing one of them, which
 * defeats the processor's store-to-load forwarding.) */
static inline peer_acc *touch(stream_worker *w, int32_t r, int32_t peer)
{
    peer_acc *a = &w->peers[peer];
    if (a->owner != r) {
        a->owner = r;
        a->nsent = a->nreceived = 0;
    }
    return a;
}

static int cmp_lo(const void *a, const void *b)
{
    const blk_range *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* ---- what the rank holds --------------------------------------------------------------- */

static void held_start(stream_worker *w, int32_t r)
{
    if (!w->use_bits) {
        initial_state(w->sh->l, r, &w->state);
        return;
    }
    blk_range *init = NULL;
    size_t n = 0, cap = 0;
    layout_initial_blocks(w->sh->l, r, &init, &n, &cap);
    blockset_clear(&w->bits);
    for (size_t i = 0; i < n; i++)
        blockset_add(&w->bits, init[i].lo, init[i].hi);
    free(init);
}

/* How the stream engine tracks what a rank holds. */
typedef enum { HOLD_NONE, HOLD_BITS, HOLD_IMAP } hold_mode; /* NONE: reductions */

/* The first block of the sorted ranges the rank does not hold, or -1. */
CS_HOT_INLINE int64_t held_first_missing(const stream_worker *w, const blk_range *r, uint32_t n,
                                         hold_mode mode)
{
    if (mode == HOLD_IMAP)
        return imap_first_missing(&w->state, r, n);
    for (uint32_t i = 0; i < n; i++) {
        int64_t miss = blockset_first_missing(&w->bits, r[i].lo, r[i].hi);
        if (miss >= 0)
            return miss;
    }
    return -1;
}

/* Checks that the rank ends with every block it must hold; -1 with a message if not. */
static int held_final_check(const stream_worker *w, int32_t r, char *msg, size_t msglen)
{
    if (!w->use_bits)
        return check_final(w->sh->l, r, &w->state, 0, 0, w->last_step, msg, msglen);
    blk_range *fin = NULL;
    size_t n = 0, cap = 0;
    layout_final_blocks(w->sh->l, r, &fin, &n, &cap);
    int64_t miss = held_first_missing(w, fin, (uint32_t)n, HOLD_BITS);
    free(fin);
    return miss < 0 ? 0 : format_missing_final(w->sh->l, r, miss, w->last_step, msg, msglen);
}

/* A rank's running figures while a batch of its steps is consumed. They live in the
 * sink's locals, not in the worker, so that the compiler keeps them in registers: stores
 * through the worker's arrays might alias them and force a reload after every op. */
typedef struct rank_sums {
    uint64_t sent, recv; /* hash sums of the rank's sends and receives */
    int64_t messages, bytes;
} rank_sums;

CS_COLD static void fail_not_held(stream_worker *w, int32_t r, uint32_t step, const sched_op *o,
                                  int64_t block)
{
    char b[96], msg[CS_ERROR_MAX];
    describe_block(w->sh->l, block, b, sizeof b);
    snprintf(msg, sizeof msg, "rank %d step %u: sends %s to %d but does not hold it at that step",
             r, step, b, o->peer);
    worker_fail(w, r, msg);
}

/* One step of one rank: rules, hashes, holding; received blocks are added at the end.
 * Returns -1 on the first problem (recorded in w). `mode` is a constant in each call
 * (see sink), so that each of the three copies the compiler makes is free of the tests
 * that do not concern it. */
CS_HOT_INLINE int consume_step(stream_worker *w, const sched_layout *l, const rank_sched *rs,
                               uint32_t s, uint32_t abs, rank_sums *sum, const hold_mode mode)
{
    int32_t r = rs->rank;
    char msg[CS_ERROR_MAX];
    uint32_t hstep = w->sh->with_step ? abs : 0;
    uint32_t begin = rs_step_begin(rs, s), end = rs_step_end(rs, s);
    w->npending = 0;
    if (end > begin)
        w->last_step = abs + 1;
    for (uint32_t i = begin; i < end; i++) {
        const sched_op *o = &rs->ops[i];
        const blk_range *rg = rs_op_ranges(rs, o);
        if (lint_op(l, r, abs, o, rg, msg, sizeof msg) < 0) {
            worker_fail(w, r, msg);
            return -1;
        }
        if (o->kind == OP_SEND) {
            peer_acc *a = touch(w, r, o->peer);
            uint64_t h = msg_hash(r, o->peer, a->nsent++, hstep, o->bytes, rg, o->nranges);
            sum->sent += h;
            a->sent_to += h;
            sum->messages++;
            sum->bytes += o->bytes;
            int64_t miss = mode == HOLD_NONE ? -1 : held_first_missing(w, rg, o->nranges, mode);
            if (miss >= 0) {
                fail_not_held(w, r, abs, o, miss);
                return -1;
            }
        } else if (o->kind == OP_RECV) {
            peer_acc *a = touch(w, r, o->peer);
            uint64_t h = msg_hash(o->peer, r, a->nreceived++, hstep, o->bytes, rg, o->nranges);
            sum->recv += h;
            a->received_from += h;
            if (mode != HOLD_NONE) {
                VEC_RESERVE(w->pending, w->cap_pending, w->npending + o->nranges);
                for (uint32_t j = 0; j < o->nranges; j++) /* mostly one: no memcpy call */
                    w->pending[w->npending++] = rg[j];
            }
        }
    }
    if (mode == HOLD_NONE && lint_step(l, rs, s, abs, msg, sizeof msg) < 0) {
        worker_fail(w, r, msg);
        return -1;
    }
    if (mode == HOLD_BITS) {
        for (size_t i = 0; i < w->npending; i++)
            blockset_add(&w->bits, w->pending[i].lo, w->pending[i].hi);
    } else if (mode == HOLD_IMAP && w->npending > 0) {
        if (w->npending > 1)
            qsort(w->pending, w->npending, sizeof *w->pending, cmp_lo);
        imap_add_ranges(&w->state, w->pending, w->npending, &w->scratch);
    }
    return 0;
}

/* Consumes a batch of steps of one rank (mode: see consume_step). */
CS_HOT_INLINE void consume_batch(stream_worker *w, const rank_sched *chunk, uint32_t first_step,
                                 const hold_mode mode)
{
    /* A private copy of the layout: the compiler then knows that no store of the loop
     * changes it and keeps its fields in registers instead of reloading them per op. */
    const sched_layout layout = *w->sh->l;
    rank_sums sum = {0, 0, 0, 0};
    for (uint32_t s = 0; s < chunk->nsteps; s++)
        if (consume_step(w, &layout, chunk, s, first_step + s, &sum, mode) < 0)
            break;
    w->rank_sent += sum.sent;
    w->rank_recv += sum.recv;
    w->messages += sum.messages;
    w->bytes += sum.bytes;
}

static void sink(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    stream_worker *w = ctx;
    if (w->failed)
        return;
    if (w->sh->reductions)
        consume_batch(w, chunk, first_step, HOLD_NONE);
    else if (w->use_bits)
        consume_batch(w, chunk, first_step, HOLD_BITS);
    else
        consume_batch(w, chunk, first_step, HOLD_IMAP);
}

static void finish_rank(stream_worker *w, int32_t r)
{
    stream_shared *sh = w->sh;
    char msg[CS_ERROR_MAX];
    if (!w->failed && !sh->reductions && held_final_check(w, r, msg, sizeof msg) < 0)
        worker_fail(w, r, msg);
    sh->sent_by_src[r] = w->rank_sent;
    sh->recv_by_dst[r] = w->rank_recv;
    if ((int32_t)w->last_step > w->steps)
        w->steps = (int32_t)w->last_step;
}

/* Lowers sh->stop_at to r if r is lower. */
static void stop_at_most(stream_shared *sh, int32_t r)
{
    int cur = atomic_load(&sh->stop_at);
    while (r < cur && !atomic_compare_exchange_weak(&sh->stop_at, &cur, r))
        ;
}

static void *worker_main(void *arg)
{
    stream_worker *w = arg;
    stream_shared *sh = w->sh;
    sched_builder b;
    sb_init_streaming(&b, sh->l, sink, w);
    while (!w->failed) {
        int32_t first = atomic_fetch_add(&sh->next_rank, sh->chunk);
        if (first >= sh->P || first > atomic_load(&sh->stop_at))
            break;
        int32_t end = first + sh->chunk < sh->P ? first + sh->chunk : sh->P;
        for (int32_t r = first; r < end && !w->failed; r++) {
            w->rank_sent = w->rank_recv = 0;
            w->last_step = 0;
            if (!sh->reductions)
                held_start(w, r);
            alg_run_gen(sh->run, r, &b);
            finish_rank(w, r);
        }
        if (w->failed) /* the chunks still to come start above this rank */
            stop_at_most(sh, w->error_rank);
    }
    sb_free(&b);
    return NULL;
}

static void worker_init(stream_worker *w, stream_shared *sh)
{
    memset(w, 0, sizeof *w);
    w->sh = sh;
    size_t P = (size_t)sh->P;
    w->peers = xcalloc(P, sizeof *w->peers);
    for (size_t p = 0; p < P; p++)
        w->peers[p].owner = -1;
    w->use_bits = !sh->reductions && sh->l->nblocks <= BLOCKSET_MAX_BLOCKS;
    if (w->use_bits)
        blockset_init(&w->bits, sh->l->nblocks);
}

static void worker_free(stream_worker *w)
{
    free(w->peers);
    free(w->pending);
    imap_free(&w->state);
    blockset_free(&w->bits);
    ival_buf_free(&w->scratch);
}

/* One pass over every rank. Returns the worker error (lowest rank) in res, and in
 * *bad_src / *bad_dst the first rank whose hash sums disagree (-1 if none). */
static void stream_pass(const alg_run *run, int threads, int with_step, verify_result *res,
                        int32_t *bad_src, int32_t *bad_dst)
{
    stream_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.run = run;
    sh.l = &run->layout;
    sh.P = run->spec.P;
    sh.reductions = coll_is_reduction(run->spec.coll);
    sh.with_step = with_step;
    int32_t P = sh.P;
    sh.sent_by_src = xcalloc((size_t)P, sizeof *sh.sent_by_src);
    sh.recv_by_dst = xcalloc((size_t)P, sizeof *sh.recv_by_dst);
    if (threads > P)
        threads = P;
    /* About 64 chunks per thread, of at most 256 ranks: fine enough to even out. */
    int64_t chunk = P / ((int64_t)threads * 64);
    sh.chunk = chunk < 1 ? 1 : chunk > 256 ? 256 : (int32_t)chunk;
    atomic_init(&sh.next_rank, 0);
    atomic_init(&sh.stop_at, P);
    stream_worker *w = xcalloc((size_t)threads, sizeof *w);
    pthread_t *tid = xcalloc((size_t)threads, sizeof *tid);
    for (int t = 0; t < threads; t++)
        worker_init(&w[t], &sh);
    for (int t = 1; t < threads; t++)
        pthread_create(&tid[t], NULL, worker_main, &w[t]);
    worker_main(&w[0]);
    for (int t = 1; t < threads; t++)
        pthread_join(tid[t], NULL);

    res->ok = 1;
    res->messages = res->bytes = 0;
    res->steps = 0;
    int32_t failed_rank = P;
    for (int t = 0; t < threads; t++) {
        res->messages += w[t].messages;
        res->bytes += w[t].bytes;
        if (w[t].steps > res->steps)
            res->steps = w[t].steps;
        /* Every rank below stop_at was checked: the lowest failure is the first one. */
        if (w[t].failed && w[t].error_rank < failed_rank) {
            failed_rank = w[t].error_rank;
            res->ok = 0;
            snprintf(res->error, sizeof res->error, "%s", w[t].error);
        }
    }
    *bad_src = *bad_dst = -1;
    for (int32_t r = 0; r < P && res->ok && (*bad_src < 0 || *bad_dst < 0); r++) {
        uint64_t recv = 0, sent = 0;
        for (int t = 0; t < threads; t++) {
            recv += w[t].peers[r].received_from;
            sent += w[t].peers[r].sent_to;
        }
        if (*bad_src < 0 && recv != sh.sent_by_src[r])
            *bad_src = r;
        if (*bad_dst < 0 && sent != sh.recv_by_dst[r])
            *bad_dst = r;
    }
    for (int t = 0; t < threads; t++)
        worker_free(&w[t]);
    free(w);
    free(tid);
    free(sh.sent_by_src);
    free(sh.recv_by_dst);
}

/* ---- naming the bad message ------------------------------------------------------------ */

static void materialize(const alg_run *run, int32_t rank, rank_sched *out)
{
    sched_builder b;
    sb_init(&b, &run->layout);
    alg_run_gen(run, rank, &b);
    *out = b.rs;
}

static uint32_t step_of(const rank_sched *rs, uint32_t op)
{
    uint32_t s = 0;
    while (s + 1 < rs->nsteps + 1 && rs_step_end(rs, s) <= op)
        s++;
    return s;
}

/* Compares the messages src -> dst as src sends them and dst receives them; writes the
 * first difference into res and returns 1, or returns 0 when they agree. */
static int compare_channel(const rank_sched *a, const rank_sched *b, verify_result *res)
{
    int32_t src = a->rank, dst = b->rank;
    uint32_t i = 0, j = 0, k = 0;
    size_t nsend = 0, nrecv = 0;
    for (uint32_t x = 0; x < a->nops; x++)
        nsend += a->ops[x].kind == OP_SEND && a->ops[x].peer == dst;
    for (uint32_t x = 0; x < b->nops; x++)
        nrecv += b->ops[x].kind == OP_RECV && b->ops[x].peer == src;
    for (;; k++) {
        while (i < a->nops && !(a->ops[i].kind == OP_SEND && a->ops[i].peer == dst))
            i++;
        while (j < b->nops && !(b->ops[j].kind == OP_RECV && b->ops[j].peer == src))
            j++;
        if (i >= a->nops && j >= b->nops)
            return 0;
        res->ok = 0;
        if (j >= b->nops) {
            format_unmatched(res->error, sizeof res->error, 1, src, step_of(a, i), &a->ops[i],
                             rs_op_ranges(a, &a->ops[i]), k, nrecv);
            return 1;
        }
        if (i >= a->nops) {
            format_unmatched(res->error, sizeof res->error, 0, dst, step_of(b, j), &b->ops[j],
                             rs_op_ranges(b, &b->ops[j]), k, nsend);
            return 1;
        }
        const sched_op *s = &a->ops[i], *r = &b->ops[j];
        if (s->bytes != r->bytes || s->nranges != r->nranges ||
            (s->nranges > 0 && /* no blocks: the range arrays may be NULL */
             memcmp(rs_op_ranges(a, s), rs_op_ranges(b, r), s->nranges * sizeof(blk_range)) != 0)) {
            format_mismatch(res->error, sizeof res->error, src, step_of(a, i), s,
                            rs_op_ranges(a, s), dst, step_of(b, j), r, rs_op_ranges(b, r));
            return 1;
        }
        res->ok = 1;
        i++;
        j++;
    }
}

/* Regenerates the ranks around a disagreeing hash sum and names the first bad message. */
static void diagnose(const alg_run *run, int32_t bad_src, int32_t bad_dst, verify_result *res)
{
    int32_t focus = bad_src >= 0 ? bad_src : bad_dst;
    rank_sched me;
    materialize(run, focus, &me);
    /* Candidate peers: everyone `focus` talks to, plus the other disagreeing rank. */
    int32_t *cand = xmalloc(((size_t)me.nops + 1) * sizeof *cand);
    size_t nc = 0;
    for (uint32_t i = 0; i < me.nops; i++)
        if (op_is_comm(&me.ops[i]))
            cand[nc++] = me.ops[i].peer;
    int32_t other = bad_src >= 0 ? bad_dst : -1;
    if (other >= 0 && other != focus)
        cand[nc++] = other;
    int found = 0;
    for (size_t c = 0; c < nc && !found; c++) {
        rank_sched peer;
        materialize(run, cand[c], &peer);
        found = bad_src >= 0 ? compare_channel(&me, &peer, res) : compare_channel(&peer, &me, res);
        if (!found)
            found = bad_src >= 0 ? compare_channel(&peer, &me, res) : compare_channel(&me, &peer, res);
        rank_sched_free(&peer);
    }
    if (!found) {
        res->ok = 0;
        snprintf(res->error, sizeof res->error,
                 "the messages %s rank %d do not match the other side (hash sums differ), but "
                 "no single differing message was found among its peers; run with --full",
                 bad_src >= 0 ? "sent by" : "received by", focus);
    }
    free(cand);
    rank_sched_free(&me);
}

int verify_stream(const alg_run *run, int threads, verify_result *res, cs_error *err)
{
    (void)err;
    res->engine = VERIFY_STREAM;
    res->semantics_checked = !coll_is_reduction(run->spec.coll);
    res->deadlock_checked = 1;
    int32_t bad_src, bad_dst;
    stream_pass(run, threads, 1, res, &bad_src, &bad_dst);
    if (!res->ok || (bad_src < 0 && bad_dst < 0))
        return 0;
    /* Some sum differs: misaligned steps, or a real mismatch? */
    stream_pass(run, threads, 0, res, &bad_src, &bad_dst);
    if (!res->ok)
        return 0;
    if (bad_src < 0 && bad_dst < 0) {
        res->deadlock_checked = 0; /* matched, but not step-aligned */
        return 0;
    }
    diagnose(run, bad_src, bad_dst, res);
    return 0;
}
