/* test_deps.c - schedules with dependencies and tags (issue 27): the builder keeps them,
 * sched_ready releases ops by the rule of schedule.h, the verifier's op-level engine
 * accepts a correct schedule and rejects planted bugs (a send before the receive that
 * supplies its block, a rendezvous deadlock, a wrong tag).
 *
 * The test algorithm: a ring allgather written with dependencies, the receive of round
 * k + 1 posted as soon as that of round k is (start-only dependency), the send of round
 * k after the receive of round k - 1 (it forwards that block), message tag k.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/sched_ready.h"
#include "testutil.h"

enum { BUG_NONE, BUG_SEND_EARLY, BUG_TAG, BUG_SSRR };
static int g_bug; /* the planted bug of the next verification */

static int ring_prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    layout_init(l, s->coll, s->P, s->root, s->bytes, 1);
    *ctx = NULL;
    return 0;
}

/* Both ranks send, then receive (the receive requires the send): needs eager sends. */
static void gen_ssrr(int32_t r, sched_builder *b)
{
    int32_t peer = 1 - r;
    sb_step(b);
    sb_send_blocks(b, peer, r, r + 1);
    sb_dep(b, UINT32_MAX, 0);
    sb_recv_blocks(b, peer, peer, peer + 1, 0);
    sb_dep(b, sb_last_op(b) - 1, 0);
}

static void ring_gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int32_t P = s->P, next = (r + 1) % P, prev = (r + P - 1) % P;
    sb_begin_rank(b, r);
    sb_hold_rank(b);
    if (g_bug == BUG_SSRR) {
        gen_ssrr(r, b);
        sb_end_rank(b);
        return;
    }
    uint32_t last_recv = UINT32_MAX;
    for (int32_t k = 0; k < P - 1; k++) {
        int64_t out = ((int64_t)r - k + P) % P, in = ((int64_t)r - k - 1 + 2 * P) % P;
        sb_step(b);
        sb_send_blocks(b, next, out, out + 1);
        sb_tag(b, k);
        sb_dep(b, UINT32_MAX, 0);
        if (last_recv != UINT32_MAX && g_bug != BUG_SEND_EARLY)
            sb_dep(b, last_recv, 0);
        sb_recv_blocks(b, prev, in, in + 1, 0);
        sb_tag(b, g_bug == BUG_TAG && r == 1 && k == 1 ? 7 : k);
        sb_dep(b, UINT32_MAX, 0);
        if (last_recv != UINT32_MAX)
            sb_dep(b, last_recv, 1); /* posted ahead: once the previous one is posted */
        last_recv = sb_last_op(b);
    }
    sb_end_rank(b);
}

static const alg_desc ring_ahead = {
    .coll = COLL_ALLGATHER, .name = "test_ring_ahead", .summary = "test",
    .constraints = "any P", .prepare = ring_prepare, .gen_rank = ring_gen,
    .flags = ALG_DEPS};

static int verify_with(int bug, int32_t P, int64_t eager, verify_result *res)
{
    g_bug = bug;
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, P, 64 * (int64_t)P);
    alg_run run;
    cs_error err;
    if (alg_run_prepare(&run, &ring_ahead, &spec, &err) < 0)
        return -1;
    verify_options opt;
    verify_options_default(&opt);
    opt.eager_limit = eager;
    int rc = verify_run(&run, &opt, res, &err);
    alg_run_release(&run);
    return rc;
}

static void test_correct_ring_passes(void)
{
    verify_result res;
    for (int32_t P = 2; P <= 9; P++) {
        CU_ASSERT_EQUAL_FATAL(verify_with(BUG_NONE, P, -1, &res), 0);
        CU_ASSERT_EQUAL(res.engine, VERIFY_FULL); /* ALG_DEPS: never the stream engine */
        if (!res.ok)
            printf("\nP=%d: %s\n", P, res.error);
        CU_ASSERT(res.ok);
        CU_ASSERT_EQUAL(res.messages, (int64_t)P * (P - 1));
    }
}

static void test_send_before_its_block(void)
{
    verify_result res;
    CU_ASSERT_EQUAL_FATAL(verify_with(BUG_SEND_EARLY, 5, -1, &res), 0);
    CU_ASSERT(!res.ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "does not hold it when the send starts"));
}

static void test_wrong_tag(void)
{
    verify_result res;
    CU_ASSERT_EQUAL_FATAL(verify_with(BUG_TAG, 4, -1, &res), 0);
    CU_ASSERT(!res.ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "rank 1"));
}

static void test_rendezvous_deadlock(void)
{
    verify_result res;
    CU_ASSERT_EQUAL_FATAL(verify_with(BUG_SSRR, 2, -1, &res), 0);
    CU_ASSERT(!res.ok);
    CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "deadlock"));
    CU_ASSERT_EQUAL_FATAL(verify_with(BUG_SSRR, 2, 64, &res), 0); /* eager: runs */
    CU_ASSERT(res.ok);
    CU_ASSERT_EQUAL_FATAL(verify_with(BUG_SSRR, 2, 63, &res), 0); /* 64-byte sends wait */
    CU_ASSERT(!res.ok);
}

static void test_stream_engine_refuses(void)
{
    g_bug = BUG_NONE;
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, 4, 256);
    alg_run run;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, &ring_ahead, &spec, &err), 0);
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = VERIFY_STREAM;
    verify_result res;
    CU_ASSERT_EQUAL(verify_run(&run, &opt, &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "step schedules only"));
    alg_run_release(&run);
}

/* ---- the builder and sched_ready ----------------------------------------------------- */

static void build_ring_rank(sched_builder *b, int32_t P, int32_t r)
{
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, P, 64 * (int64_t)P);
    g_bug = BUG_NONE;
    ring_gen(&spec, NULL, r, b);
}

static void test_builder_keeps_deps_and_replay(void)
{
    sched_layout l;
    layout_init(&l, COLL_ALLGATHER, 4, 0, 256, 1);
    sched_builder b, c;
    sb_init(&b, &l);
    build_ring_rank(&b, 4, 2);
    const rank_sched *rs = &b.rs;
    CU_ASSERT_EQUAL(rs->nops, 6);
    CU_ASSERT(rank_sched_has_deps(rs));
    uint32_t n;
    const uint32_t *d = rs_op_deps(rs, 2, &n); /* the second send: after the first recv */
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(d[0], 1u);
    d = rs_op_deps(rs, 3, &n); /* the second recv: once the first one is posted */
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(d[0], 1u | SCHED_DEP_START);
    CU_ASSERT_EQUAL(rs_op_tag(rs, 5), 2);
    sb_init(&c, &l);
    sb_begin_rank(&c, 2);
    sb_replay(&c, rs);
    sb_end_rank(&c);
    CU_ASSERT_EQUAL(c.rs.nops, rs->nops);
    CU_ASSERT_EQUAL(c.rs.ndeps, rs->ndeps);
    CU_ASSERT_EQUAL(memcmp(c.rs.deps, rs->deps, rs->ndeps * sizeof *rs->deps), 0);
    CU_ASSERT_EQUAL(rs_op_tag(&c.rs, 5), 2);
    sb_free(&b);
    sb_free(&c);
}

static void test_ready_rule(void)
{
    sched_layout l;
    layout_init(&l, COLL_ALLGATHER, 4, 0, 256, 1);
    sched_builder b;
    sb_init(&b, &l);
    build_ring_rank(&b, 4, 0);
    sched_ready r;
    sr_init(&r);
    sr_reset(&r, &b.rs);
    uint32_t item, got[8], n = 0;
    while (sr_pop(&r, &item))
        got[n++] = item;
    /* at the start: the first send and the first recv (no dependency) */
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(got[0], 0u);
    CU_ASSERT_EQUAL(got[1], 1u);
    sr_started(&r, 1); /* the first recv is posted: the second is released (start-only) */
    CU_ASSERT(sr_pop(&r, &item));
    CU_ASSERT_EQUAL(item, 3u);
    CU_ASSERT(!sr_pop(&r, &item));
    sr_started(&r, 0);
    sr_completed(&r, 0);
    CU_ASSERT(!sr_pop(&r, &item)); /* the second send waits for the first recv */
    sr_completed(&r, 1);
    CU_ASSERT(sr_pop(&r, &item));
    CU_ASSERT_EQUAL(item, 2u);
    sr_free(&r);

    /* a step schedule: a step's messages come together, its local ops as one item ~s
     * once they completed, and the next step after it */
    sb_begin_rank(&b, 0);
    sb_step(&b);
    sb_send_blocks(&b, 1, 0, 1);
    sb_recv_blocks(&b, 3, 3, 4, 0);
    sb_copy(&b, 10);
    sb_copy(&b, 20);
    sb_step(&b);
    sb_send_blocks(&b, 1, 3, 4);
    sb_end_rank(&b);
    sr_init(&r);
    sr_reset(&r, &b.rs);
    n = 0;
    while (sr_pop(&r, &item))
        got[n++] = item;
    CU_ASSERT_EQUAL_FATAL(n, 2);
    CU_ASSERT_EQUAL(got[0], 0u);
    CU_ASSERT_EQUAL(got[1], 1u);
    for (uint32_t i = 0; i < 2; i++) {
        sr_started(&r, i);
        sr_completed(&r, i);
    }
    CU_ASSERT(sr_pop(&r, &item));
    CU_ASSERT(sr_item_is_step(&r, item));
    CU_ASSERT_EQUAL(sr_item_step(item), 0u);
    CU_ASSERT(!sr_pop(&r, &item));
    for (uint32_t i = 2; i < 4; i++) {
        sr_started(&r, i);
        sr_completed(&r, i);
    }
    CU_ASSERT(sr_pop(&r, &item));
    CU_ASSERT_EQUAL(item, 4u);
    sr_free(&r);
    sb_free(&b);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"a ring with receives posted ahead verifies", test_correct_ring_passes},
        {"planted: a send before the receive of its block", test_send_before_its_block},
        {"planted: a receive with a wrong tag", test_wrong_tag},
        {"planted: send-send-recv-recv needs eager sends", test_rendezvous_deadlock},
        {"the stream engine refuses dependencies", test_stream_engine_refuses},
        {"the builder keeps dependencies and tags; replay too", test_builder_keeps_deps_and_replay},
        {"sched_ready: dependencies and the step rule", test_ready_rule},
        {NULL, NULL}};
    test_add_suite("schedules with dependencies", cases);
    return test_run_suites();
}
