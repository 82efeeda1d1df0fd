/* test_verify_p2p.c - the verifier rules added for graph-aware algorithms: the p2p
 * collective (the source's blocks must reach the destination, forwarded only by ranks that
 * hold them) and alltoall messages cut into several parts (pair_blocks > 1). Each test
 * plants one bug into a small hand-written schedule and checks that both engines reject it
 * with a message naming the rank, step and block; a correct control schedule passes.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "testutil.h"

/* ---- p2p: 0 -> 1 -> 2 forwarding over P = 4 ranks, two blocks ----------------------- */

typedef enum { P2P_OK, P2P_WRONG_DST, P2P_EARLY_FORWARD, P2P_ONE_BLOCK_LOST } p2p_bug;

static int prepare_p2p(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    layout_init(l, s->coll, s->P, s->root, s->bytes, 2);
    *ctx = NULL;
    return 0;
}

static p2p_bug g_bug;

/* Source 0, destination 2 via rank 1 (block 0) and directly (block 1). */
static void gen_p2p(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    (void)ctx;
    int32_t last = g_bug == P2P_WRONG_DST ? 3 : 2;
    int early = g_bug == P2P_EARLY_FORWARD;
    sb_step(b); /* step 0 */
    if (r == 0) {
        sb_send_blocks(b, 1, 0, 1);
        if (g_bug != P2P_ONE_BLOCK_LOST)
            sb_send_blocks(b, 2, 1, 2);
    }
    if (r == 1)
        sb_recv_blocks(b, 0, 0, 1, 0);
    if (r == 2 && g_bug != P2P_ONE_BLOCK_LOST)
        sb_recv_blocks(b, 0, 1, 2, 0);
    if (early && r == 1) /* forwards block 0 in the step it receives it */
        sb_send_blocks(b, 2, 0, 1);
    if (early && r == 2)
        sb_recv_blocks(b, 1, 0, 1, 0);
    sb_step(b); /* step 1 */
    if (!early && r == 1)
        sb_send_blocks(b, last, 0, 1);
    if (!early && r == last)
        sb_recv_blocks(b, 1, 0, 1, 0);
}

static const char *verify_p2p(p2p_bug bug, verify_mode mode)
{
    static verify_result res;
    g_bug = bug;
    alg_desc a = {COLL_P2P, "planted", "", "", NULL, prepare_p2p, gen_p2p, NULL, 0};
    coll_spec spec;
    coll_spec_init(&spec, COLL_P2P, 4, 1000);
    spec.root = 0;
    spec.dst = 2;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(test_verify(&a, &spec, mode, &res, &err), 0);
    return res.ok ? NULL : res.error;
}

static void test_p2p_rules(void)
{
    static const verify_mode modes[] = {VERIFY_FULL, VERIFY_STREAM};
    for (int m = 0; m < 2; m++) {
        CU_ASSERT_PTR_NULL(verify_p2p(P2P_OK, modes[m]));
        const char *e = verify_p2p(P2P_WRONG_DST, modes[m]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        CU_ASSERT_PTR_NOT_NULL(strstr(e, "rank 2 ends"));
        CU_ASSERT_PTR_NOT_NULL(strstr(e, "block 0"));
        CU_ASSERT_PTR_NOT_NULL(strstr(e, "p2p requires"));
        e = verify_p2p(P2P_EARLY_FORWARD, modes[m]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        CU_ASSERT_PTR_NOT_NULL(strstr(e, "rank 1 step 0: sends block 0 to 2 but does not hold it"));
        e = verify_p2p(P2P_ONE_BLOCK_LOST, modes[m]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(e);
        CU_ASSERT_PTR_NOT_NULL(strstr(e, "block 1"));
    }
    /* the spec: the destination must be another rank */
    cs_error err;
    const alg_desc *direct = registry_find(NULL, COLL_P2P, "direct", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(direct);
    coll_spec spec;
    coll_spec_init(&spec, COLL_P2P, 4, 1000);
    spec.root = 3;
    spec.dst = 3;
    alg_run run;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, direct, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "p2p direct: p2p destination 3 must be a rank in 0..3 "
                                           "other than the source 3"));
    spec.dst = 4;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, direct, &spec, &err), -1);
    coll_kind k;
    CU_ASSERT_EQUAL(coll_from_name("p2p", &k, &err), 0);
    CU_ASSERT_EQUAL(k, COLL_P2P);
    CU_ASSERT_TRUE(coll_has_root(COLL_P2P));
}

/* ---- alltoall with two parts per message ----------------------------------------------------- */

static int g_drop_part; /* 1: rank 1 never sends part 1 of its block for rank 0 */

static int prepare_parts(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    layout_init(l, s->coll, s->P, s->root, s->bytes, 2);
    *ctx = NULL;
    return 0;
}

/* Linear alltoall, each (src, dst) message sent as its two parts in two steps. */
static void gen_parts(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P;
    for (int part = 0; part < 2; part++) {
        sb_step(b);
        for (int64_t q = 0; q < P; q++) {
            if (q == r)
                continue;
            int skip_send = g_drop_part && part == 1 && r == 1 && q == 0;
            int skip_recv = g_drop_part && part == 1 && r == 0 && q == 1;
            if (!skip_send)
                sb_send_blocks(b, (int32_t)q, (r * P + q) * 2 + part, (r * P + q) * 2 + part + 1);
            if (!skip_recv)
                sb_recv_blocks(b, (int32_t)q, (q * P + r) * 2 + part, (q * P + r) * 2 + part + 1,
                               0);
        }
    }
}

static void test_alltoall_parts(void)
{
    static const verify_mode modes[] = {VERIFY_FULL, VERIFY_STREAM};
    alg_desc a = {COLL_ALLTOALL, "planted", "", "", NULL, prepare_parts, gen_parts, NULL, 0};
    for (int m = 0; m < 2; m++) {
        coll_spec spec;
        coll_spec_init(&spec, COLL_ALLTOALL, 5, 5 * 1000);
        verify_result res;
        cs_error err;
        g_drop_part = 0;
        CU_ASSERT_EQUAL_FATAL(test_verify(&a, &spec, modes[m], &res, &err), 0);
        CU_ASSERT_TRUE(res.ok);
        CU_ASSERT_EQUAL(res.bytes, 5 * 4 * 1000);
        g_drop_part = 1;
        CU_ASSERT_EQUAL_FATAL(test_verify(&a, &spec, modes[m], &res, &err), 0);
        CU_ASSERT_FALSE(res.ok);
        CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "rank 0 ends"));
        CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "block 11 (1->0 part 1)"));
    }
    /* the layout: row r holds the parts of r -> 0..P-1; rank d needs parts of s -> d */
    sched_layout l;
    layout_init(&l, COLL_ALLTOALL, 3, 0, 600, 2);
    CU_ASSERT_EQUAL(l.nblocks, 18);
    CU_ASSERT_EQUAL(l.pair_blocks, 2);
    CU_ASSERT_EQUAL(layout_block_bytes(&l, 7), 100);
    blk_range *r = NULL;
    size_t n = 0, cap = 0;
    layout_final_blocks(&l, 1, &r, &n, &cap);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT_TRUE(n == 3 && r[0].lo == 2 && r[0].hi == 4 && r[2].lo == 14 && r[2].hi == 16);
    free(r);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"p2p: semantics and holding", test_p2p_rules},
                                      {"alltoall with parts per message", test_alltoall_parts},
                                      {NULL, NULL}};
    test_add_suite("verify p2p and parts", cases);
    return test_run_suites();
}
