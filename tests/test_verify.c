/* test_verify.c - the verifier rejects broken schedules and says where.
 *
 * Each test plants one kind of bug into a correct algorithm (a wrapper generates the real
 * rank schedule, mutates it, and replays it into the verifier's builder) and checks that
 * both engines reject it with a message naming the rank and step (and block).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "testutil.h"
#include "traffic/workload.h"

/* ---- a mutating wrapper around a real algorithm ----------------------------------- */

typedef void (*mutate_fn)(rank_sched *rs, const sched_layout *l);

typedef struct wrap_ctx {
    const alg_desc *real;
    void *real_ctx;
    mutate_fn mutate;
} wrap_ctx;

static const alg_desc *g_real; /* set by each test before preparing the wrapper */
static mutate_fn g_mutate;
static const workload *g_workload; /* alltoallv block sizes (NULL: the even split) */

static int wrap_prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    wrap_ctx *w = calloc(1, sizeof *w);
    w->real = g_real;
    w->mutate = g_mutate;
    if (w->real->prepare(s, l, &w->real_ctx, err) < 0) {
        free(w);
        return -1;
    }
    *ctx = w;
    return 0;
}

static void wrap_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    const wrap_ctx *w = ctx;
    sched_builder tmp;
    sb_init(&tmp, b->layout);
    sb_begin_rank(&tmp, r);
    w->real->gen_rank(s, w->real_ctx, r, &tmp);
    sb_end_rank(&tmp);
    w->mutate(&tmp.rs, b->layout);
    sb_replay(b, &tmp.rs);
    sb_free(&tmp);
}

static void wrap_release(void *ctx)
{
    wrap_ctx *w = ctx;
    if (w->real->release)
        w->real->release(w->real_ctx);
    free(w);
}

/* Verifies `name` of `coll` with the mutation at P ranks; returns the error text (static
 * buffer) or NULL when the verifier accepted it. */
static const char *verify_mutated(coll_kind coll, const char *name, mutate_fn mutate, int32_t P,
                                  verify_mode mode)
{
    static verify_result res;
    cs_error err;
    g_real = registry_find(NULL, coll, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g_real);
    g_mutate = mutate;
    alg_desc wrapped = *g_real;
    wrapped.prepare = wrap_prepare;
    wrapped.gen_rank = wrap_gen;
    wrapped.release = wrap_release;
    coll_spec spec;
    coll_spec_init(&spec, coll, P, 1 << 20);
    spec.workload = g_workload;
    int rc = test_verify(&wrapped, &spec, mode, &res, &err);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    return res.ok ? NULL : res.error;
}

static int contains(const char *msg, const char *part)
{
    return msg && strstr(msg, part) != NULL;
}

/* The i-th op of `kind` in step `step` of rs, or NULL. */
static sched_op *find_op(rank_sched *rs, uint32_t step, op_kind kind, int i)
{
    if (step >= rs->nsteps)
        return NULL;
    for (uint32_t k = rs_step_begin(rs, step); k < rs_step_end(rs, step); k++)
        if (rs->ops[k].kind == kind && i-- == 0)
            return &rs->ops[k];
    return NULL;
}

/* Removes op o from rs (keeps step boundaries consistent). */
static void remove_op(rank_sched *rs, sched_op *o)
{
    uint32_t idx = (uint32_t)(o - rs->ops);
    memmove(rs->ops + idx, rs->ops + idx + 1, (rs->nops - idx - 1) * sizeof *rs->ops);
    rs->nops--;
    for (uint32_t s = 0; s <= rs->nsteps; s++)
        if (rs->step_first[s] > idx)
            rs->step_first[s]--;
}

/* ---- the planted bugs ------------------------------------------------------------------ */

static void no_mutation(rank_sched *rs, const sched_layout *l)
{
    (void)rs;
    (void)l;
}

/* Rank 3 forgets its send of step 1. */
static void drop_send(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 3 ? find_op(rs, 1, OP_SEND, 0) : NULL;
    if (o)
        remove_op(rs, o);
}

static void test_dropped_send(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        const char *e = verify_mutated(COLL_ALLREDUCE, "recursive_doubling", drop_send, 8, mode);
        CU_ASSERT_PTR_NOT_NULL(e);
        /* rank 3's peer at step 1 is rank 1: its receive has no matching send */
        CU_ASSERT(contains(e, "rank 1 step 1: recv from 3"));
        CU_ASSERT(contains(e, "no matching send"));
    }
}

/* Every rank repeats its last exchange: each partial is then combined twice. */
static void duplicate_last_step(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    uint32_t s = rs->nsteps - 1, first = rs_step_begin(rs, s), n = rs_step_end(rs, s) - first;
    rs->step_first = realloc(rs->step_first, (rs->nsteps + 2) * sizeof *rs->step_first);
    rs->ops = realloc(rs->ops, (rs->nops + n) * sizeof *rs->ops);
    memcpy(rs->ops + rs->nops, rs->ops + first, n * sizeof *rs->ops);
    rs->nops += n;
    rs->nsteps++;
    rs->step_first[rs->nsteps] = rs->nops;
    rs->cap_ops = rs->nops;
    rs->cap_steps = rs->nsteps + 1;
}

static void test_duplicated_reduction(void)
{
    const char *e = verify_mutated(COLL_ALLREDUCE, "recursive_doubling", duplicate_last_step, 8,
                                   VERIFY_FULL);
    CU_ASSERT_PTR_NOT_NULL(e);
    CU_ASSERT(contains(e, "step 3: recv from"));
    CU_ASSERT(contains(e, "reduced twice"));
    CU_ASSERT(contains(e, "block 0"));
    /* Same bug in a reduce-scatter, where the final hash (not the count) exposes it. */
    e = verify_mutated(COLL_REDUCE_SCATTER, "recursive_halving", duplicate_last_step, 8,
                       VERIFY_FULL);
    CU_ASSERT_PTR_NOT_NULL(e);
    CU_ASSERT(contains(e, "reduced twice"));
}

/* Rank 3 sends its step-1 message to the wrong rank (peer + 2). */
static void wrong_peer(rank_sched *rs, const sched_layout *l)
{
    sched_op *o = rs->rank == 3 ? find_op(rs, 1, OP_SEND, 0) : NULL;
    if (o)
        o->peer = (o->peer + 2) % l->P == 3 ? (o->peer + 3) % l->P : (o->peer + 2) % l->P;
}

static void test_wrong_peer(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        const char *e = verify_mutated(COLL_ALLGATHER, "recursive_doubling", wrong_peer, 16, mode);
        CU_ASSERT_PTR_NOT_NULL(e);
        /* rank 3 sends its step-1 message (blocks 2 and 3) to 4 instead of 1: either rank
         * 1's receive has no send or rank 3's send has no receive, whichever is met first */
        CU_ASSERT((contains(e, "rank 1 step 1: recv from 3") && contains(e, "no matching send")) ||
                  (contains(e, "rank 3 step 1: send to 4") && contains(e, "is never received")));
        CU_ASSERT(contains(e, "blocks [2,4)"));
    }
}

/* Ring allgather: at step 0 rank 2 sends block 1 (which it receives only at step 0) instead
 * of its own block 2, and rank 3 expects block 1. */
static void send_before_receive(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    if (rs->rank != 2 && rs->rank != 3)
        return;
    sched_op *o = find_op(rs, 0, rs->rank == 2 ? OP_SEND : OP_RECV, 0);
    blk_range *r = &rs->ranges[o->range_first];
    r->lo = 1;
    r->hi = 2;
}

static void test_send_before_receive(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        const char *e = verify_mutated(COLL_ALLGATHER, "ring", send_before_receive, 8, mode);
        CU_ASSERT_PTR_NOT_NULL(e);
        CU_ASSERT(contains(e, "rank 2 step 0: sends block 1 to 3 but does not hold it"));
    }
}

/* Rank 0 receives one message fewer than it should (its last receive is dropped, and so is
 * the matching send): it ends without a block. */
static void drop_last_exchange_with_0(rank_sched *rs, const sched_layout *l)
{
    uint32_t last = rs->nsteps - 1;
    if (rs->rank == 0) {
        sched_op *o = find_op(rs, last, OP_RECV, 0);
        if (o)
            remove_op(rs, o);
    } else if (rs->rank == l->P - 1) { /* ring: rank P-1 sends to 0 */
        sched_op *o = find_op(rs, last, OP_SEND, 0);
        if (o)
            remove_op(rs, o);
    }
}

static void test_missing_block(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        const char *e = verify_mutated(COLL_ALLGATHER, "ring", drop_last_exchange_with_0, 8, mode);
        CU_ASSERT_PTR_NOT_NULL(e);
        CU_ASSERT(contains(e, "rank 0 ends"));
        CU_ASSERT(contains(e, "without block 1"));
    }
}

/* The receiver expects half the bytes. */
static void short_recv(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 1 ? find_op(rs, 0, OP_RECV, 0) : NULL;
    if (o) {
        o->nranges = 0; /* a metadata-like message: bytes only */
        o->bytes /= 2;
    }
}

static void test_size_mismatch(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        const char *e = verify_mutated(COLL_ALLGATHER, "ring", short_recv, 4, mode);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e); /* the checks below read the message */
        if (mode == VERIFY_STREAM && contains(e, "does not hold")) {
            /* the stream engine checks each rank alone first: rank 1 never got block 0 */
            CU_ASSERT(contains(e, "rank 1 step 1: sends block 0"));
            continue;
        }
        CU_ASSERT(contains(e, "rank 0 step 0: send to 1"));
        CU_ASSERT(contains(e, "does not match rank 1 step 0: recv from 0"));
    }
}

/* Ranks 0 and 1 both receive first (step 0) and send second (step 1): with rendezvous
 * sends neither can proceed. */
static void recv_then_send(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    if (rs->rank > 1)
        return;
    sched_op *s = find_op(rs, 0, OP_SEND, 0);
    /* swap: the send goes to a new step 1 (after the receive's step) */
    sched_op send = *s;
    remove_op(rs, s);
    rs->step_first = realloc(rs->step_first, (rs->nsteps + 2) * sizeof *rs->step_first);
    rs->ops = realloc(rs->ops, (rs->nops + 1) * sizeof *rs->ops);
    /* shift later steps by one op and insert the send as step 1 of its own */
    uint32_t at = rs_step_end(rs, 0);
    memmove(rs->ops + at + 1, rs->ops + at, (rs->nops - at) * sizeof *rs->ops);
    rs->ops[at] = send;
    rs->nops++;
    memmove(rs->step_first + 2, rs->step_first + 1, rs->nsteps * sizeof *rs->step_first);
    rs->step_first[1] = at;
    rs->nsteps++;
    for (uint32_t k = 2; k <= rs->nsteps; k++)
        rs->step_first[k]++;
    rs->cap_ops = rs->nops;
    rs->cap_steps = rs->nsteps + 1;
}

static void test_deadlock(void)
{
    const char *e = verify_mutated(COLL_ALLREDUCE, "recursive_doubling", recv_then_send, 2,
                                   VERIFY_FULL);
    CU_ASSERT_PTR_NOT_NULL(e);
    CU_ASSERT(contains(e, "deadlock"));
    CU_ASSERT(contains(e, "rank 0 step 0: recv from 1 (blocks 0) waits for rank 1 to reach step 1"));
    /* The stream engine sees matching but no step alignment, and hands over to the full
     * engine (AUTO), which finds the deadlock. */
    e = verify_mutated(COLL_ALLREDUCE, "recursive_doubling", recv_then_send, 2, VERIFY_AUTO);
    CU_ASSERT(contains(e, "deadlock"));
}

static void test_correct_passes(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        CU_ASSERT_PTR_NULL(verify_mutated(COLL_ALLREDUCE, "rabenseifner", no_mutation, 12, mode));
        CU_ASSERT_PTR_NULL(verify_mutated(COLL_ALLGATHER, "ring", no_mutation, 9, mode));
    }
}

/* A combining receive in a collective that is not a reduction is rejected. */
static void combine_in_allgather(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 2 ? find_op(rs, 0, OP_RECV, 0) : NULL;
    if (o)
        o->flags |= OPF_COMBINE;
}

static void test_misused_combine(void)
{
    const char *e = verify_mutated(COLL_ALLGATHER, "ring", combine_in_allgather, 4, VERIFY_FULL);
    CU_ASSERT(contains(e, "rank 2 step 0"));
    CU_ASSERT(contains(e, "only receives of reductions"));
}

/* ---- alltoallv: zero-byte blocks and metadata messages ---------------------------- */

/* The op of `kind` with peer `peer` in rank rs, or NULL. */
static sched_op *find_peer_op(rank_sched *rs, op_kind kind, int32_t peer)
{
    for (uint32_t k = 0; k < rs->nops; k++)
        if (rs->ops[k].kind == kind && rs->ops[k].peer == peer)
            return &rs->ops[k];
    return NULL;
}

/* The message 0 -> g_drop_dst (block g_drop_dst) disappears: its send and its receive. */
static int32_t g_drop_dst;
static void drop_block_from_0(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 0            ? find_peer_op(rs, OP_SEND, g_drop_dst)
                  : rs->rank == g_drop_dst ? find_peer_op(rs, OP_RECV, 0)
                                           : NULL;
    if (o)
        remove_op(rs, o);
}

/* Zero-byte alltoallv blocks need not arrive (the baselines post nothing for them), but
 * that exemption must not hide a missing block that has bytes, nor apply to alltoall. */
static void test_alltoallv_zero_blocks(void)
{
    workload_params wp;
    cs_error err;
    workload *w;
    /* sizes in {0, 1, 2}: about a third of the blocks are empty; block 0->1 is not */
    CU_ASSERT_EQUAL_FATAL(workload_parse("uniform:S=2:seed=4", &wp, &err), 0);
    CU_ASSERT_EQUAL_FATAL(workload_create(&wp, 8, &w, &err), 0);
    CU_ASSERT(workload_bytes(w, 0, 1) > 0);
    workload_stats st;
    workload_compute_stats(w, &st);
    CU_ASSERT(st.zeros > 8);
    g_workload = w;
    g_drop_dst = 1;
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        CU_ASSERT_PTR_NULL(verify_mutated(COLL_ALLTOALLV, "linear", no_mutation, 8, mode));
        const char *e = verify_mutated(COLL_ALLTOALLV, "linear", drop_block_from_0, 8, mode);
        CU_ASSERT(contains(e, "rank 1 ends"));
        CU_ASSERT(contains(e, "without block 1 (0->1)"));
    }
    g_workload = NULL;
    workload_free(w);
    /* alltoall of 4 bytes over 8 ranks: block 0->5 has 0 bytes and is still required */
    static verify_result res;
    const alg_desc *lin = registry_find(NULL, COLL_ALLTOALL, "linear", &err);
    g_real = lin;
    g_mutate = drop_block_from_0;
    g_drop_dst = 5;
    alg_desc wrapped = *lin;
    wrapped.prepare = wrap_prepare;
    wrapped.gen_rank = wrap_gen;
    wrapped.release = wrap_release;
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLTOALL, 8, 4);
    CU_ASSERT_EQUAL(test_verify(&wrapped, &spec, VERIFY_FULL, &res, &err), 0);
    CU_ASSERT(!res.ok && contains(res.error, "rank 5 ends"));
    CU_ASSERT(!res.ok && contains(res.error, "without block 5 (0->5)"));
}

/* ParLogNa, P = 8, r = 2: steps 0-2 are the allreduce, 3 the own block, 4 the first
 * metadata exchange (4 blocks: 16 bytes, no blocks named). */
static void meta_short_recv(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 2 ? find_op(rs, 4, OP_RECV, 0) : NULL;
    if (o && o->nranges == 0)
        o->bytes -= 4;
}

static void meta_dropped_send(rank_sched *rs, const sched_layout *l)
{
    (void)l;
    sched_op *o = rs->rank == 3 ? find_op(rs, 4, OP_SEND, 0) : NULL;
    if (o && o->nranges == 0)
        remove_op(rs, o);
}

static void test_alltoallv_metadata(void)
{
    for (int mode = VERIFY_FULL; mode <= VERIFY_STREAM; mode++) {
        CU_ASSERT_PTR_NULL(verify_mutated(COLL_ALLTOALLV, "parlogna", no_mutation, 8, mode));
        const char *e = verify_mutated(COLL_ALLTOALLV, "parlogna", meta_short_recv, 8, mode);
        CU_ASSERT(contains(e, "rank 3 step 4: send to 2 (16 bytes, no blocks)"));
        CU_ASSERT(contains(e, "recv from 3 (12 bytes, no blocks)"));
        e = verify_mutated(COLL_ALLTOALLV, "parlogna", meta_dropped_send, 8, mode);
        /* messages match in order: the data send now meets the metadata receive */
        CU_ASSERT(contains(e, "rank 3 step 5: send to 2"));
        CU_ASSERT(contains(e, "does not match rank 2 step 4: recv from 3 (16 bytes, no blocks)"));
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"correct schedules pass", test_correct_passes},
        {"dropped send", test_dropped_send},
        {"duplicated reduction", test_duplicated_reduction},
        {"wrong peer", test_wrong_peer},
        {"block sent before it was received", test_send_before_receive},
        {"missing block at the end", test_missing_block},
        {"send/recv size mismatch", test_size_mismatch},
        {"deadlock", test_deadlock},
        {"combine outside reductions", test_misused_combine},
        {"alltoallv zero-byte blocks", test_alltoallv_zero_blocks},
        {"alltoallv metadata messages", test_alltoallv_metadata},
        {NULL, NULL}};
    test_add_suite("verifier rejects planted bugs", cases);
    return test_run_suites();
}
