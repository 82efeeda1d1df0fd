/* test_swing.c - Swing allreduce: the digest's test vectors (shared/reference/swing.md,
 * models/swing_blocks.py, swing_blocks_nonpow2.py) and the verifier over every even P
 * in 2..128, odd P, powers of two up to 4096 and the paper's / digest's tori.
 *
 * COLLSIM_TEST_MAX_P lowers the largest P of the sweeps (the sanitizer build sets it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "algorithms/torus_bfly.h"
#include "testutil.h"

static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 4096;
}

/* Peers of `node` at every step of `port` on a torus; returns the number of steps. */
static int peers(int nd, const int32_t *dims, torus_peer_rule rule, int port, int32_t node,
                 int32_t *out)
{
    torus_shape t;
    torus_shape_init(&t, nd, dims);
    torus_bfly tb;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&tb, &t, rule, port, 0, &err), 0);
    for (int s = 0; s < tb.nsteps; s++)
        out[s] = torus_bfly_peer(&tb, node, s);
    torus_bfly_free(&tb);
    return tb.nsteps;
}

static void test_rho(void)
{
    /* digest Sec. 1.2 table, and both closed forms */
    static const int64_t rho[13] = {1, -1, 3, -5, 11, -21, 43, -85, 171, -341, 683, -1365, 2731};
    int64_t pow2 = 2, sign = -1; /* 2^(s+1), (-1)^(s+1) */
    for (int s = 0; s < 13; s++, pow2 *= 2, sign = -sign) {
        CU_ASSERT_EQUAL(swing_rho(s), rho[s]);
        CU_ASSERT_EQUAL(llabs(swing_rho(s)), (pow2 - sign) / 3);
    }
}

static void test_peer_table_16(void)
{
    /* digest Sec. 1.2: the 16-node 1D torus of Fig. 1, pi(r, s) for s = 0..3 */
    static const int32_t table[16][4] = {
        {1, 15, 3, 11}, {0, 2, 14, 6},  {3, 1, 5, 13},  {2, 4, 0, 8},
        {5, 3, 7, 15},  {4, 6, 2, 10},  {7, 5, 9, 1},   {6, 8, 4, 12},
        {9, 7, 11, 3},  {8, 10, 6, 14}, {11, 9, 13, 5}, {10, 12, 8, 0},
        {13, 11, 15, 7}, {12, 14, 10, 2}, {15, 13, 1, 9}, {14, 0, 12, 4}};
    int32_t dims[1] = {16}, got[TORUS_MAX_STEPS];
    for (int32_t r = 0; r < 16; r++) {
        CU_ASSERT_EQUAL_FATAL(peers(1, dims, swing_peer_rule, 0, r, got), 4);
        for (int s = 0; s < 4; s++)
            CU_ASSERT_EQUAL(got[s], table[r][s]);
    }
}

static void test_peer_table_8x8(void)
{
    /* digest Sec. 1.6: node 0 of the 8x8 torus, per port (0, 1 plain; 2, 3 mirrored) */
    static const int32_t table[4][6] = {{8, 1, 56, 7, 24, 3},
                                        {1, 8, 7, 56, 3, 24},
                                        {56, 7, 8, 1, 40, 5},
                                        {7, 56, 1, 8, 5, 40}};
    int32_t dims[2] = {8, 8}, got[TORUS_MAX_STEPS];
    for (int port = 0; port < 4; port++) {
        CU_ASSERT_EQUAL_FATAL(peers(2, dims, swing_peer_rule, port, 0, got), 6);
        for (int s = 0; s < 6; s++)
            CU_ASSERT_EQUAL(got[s], test_from_row_major(table[port][s], 8, 8));
    }
    /* Fig. 4 (4x4, first step of node 0 per port): 4, 1, 12, 3 */
    int32_t dims44[2] = {4, 4};
    static const int32_t first44[4] = {4, 1, 12, 3};
    for (int port = 0; port < 4; port++) {
        peers(2, dims44, swing_peer_rule, port, 0, got);
        CU_ASSERT_EQUAL(got[0], test_from_row_major(first44[port], 4, 4));
    }
}

static void test_peers_2x4(void)
{
    /* digest Sec. 1.7 / Fig. 5: 2 rows x 4 columns, node 0; the last step of every port
     * is horizontal (dimension 1 is the only one left) */
    static const int32_t table[4][3] = {{4, 1, 3}, {1, 4, 3}, {4, 3, 1}, {3, 4, 1}};
    int32_t dims[2] = {2, 4}, got[TORUS_MAX_STEPS];
    for (int port = 0; port < 4; port++) {
        CU_ASSERT_EQUAL_FATAL(peers(2, dims, swing_peer_rule, port, 0, got), 3);
        for (int s = 0; s < 3; s++)
            CU_ASSERT_EQUAL(got[s], test_from_row_major(table[port][s], 2, 4));
    }
}

/* The send set of (v, step) as a sorted list of ranks (positions mapped back). */
static int send_set_ranks(const torus_bfly *tb, int32_t v, int step, int32_t *out)
{
    range_list pos = {0};
    torus_bfly_send_set(tb, v, step, &pos);
    int n = 0;
    for (int32_t x = 0; x < tb->shape.P; x++) {
        int32_t px = torus_bfly_position(tb, x);
        for (size_t k = 0; k < pos.n; k++)
            if (px >= pos.r[k].lo && px < pos.r[k].hi)
                out[n++] = x;
    }
    rl_free(&pos);
    return n;
}

/* Rectangular tori skip the exhausted dimensions. The Swing digest (Sec. 1.6 pseudo-code):
 * global step i goes to dimension (j + i + o) mod D for the smallest o >= 0 with steps
 * left; on 2x8x8 (1, 3, 3 steps) from dimension 0 that is 0 1 2 | 1 (i = 3: 0 is done)
 * 1 (i = 4) | 2 (i = 5) 2 (i = 6: 0 done, 1 done). Bine's round-robin gives 0 1 2 1 2 1 2. */
static void test_rotation_rectangular(void)
{
    static const int steps[3] = {1, 3, 3};
    static const int rotation[7] = {0, 1, 2, 1, 1, 2, 2}, round_robin[7] = {0, 1, 2, 1, 2, 1, 2};
    torus_order rot, rr;
    torus_order_init(&rot, 3, steps, 0, TORUS_ROTATION);
    torus_order_init(&rr, 3, steps, 0, TORUS_ROUND_ROBIN);
    CU_ASSERT_EQUAL(rot.nsteps, 7);
    CU_ASSERT_EQUAL(rr.nsteps, 7);
    for (int i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(rot.step[i].dim, rotation[i]);
        CU_ASSERT_EQUAL(rr.step[i].dim, round_robin[i]);
    }
    /* the local step counts up in each dimension: dimension 2 at i = 5, 6 */
    CU_ASSERT_EQUAL(rot.step[5].rel, 1);
    CU_ASSERT_EQUAL(rot.step[6].rel, 2);
}

static void test_rs_blocks_16(void)
{
    /* digest Sec. 1.3 worked example: p = 16, rank 0, blocks sent per step */
    static const int32_t s0[] = {1, 2, 5, 6, 9, 10, 13, 14}, s1[] = {4, 7, 12, 15}, s2[] = {3, 8},
                         s3[] = {11};
    static const int32_t *sets[4] = {s0, s1, s2, s3};
    static const int sizes[4] = {8, 4, 2, 1};
    torus_shape t;
    int32_t dims[1] = {16}, got[16];
    torus_shape_init(&t, 1, dims);
    cs_error err;
    for (int contiguous = 0; contiguous <= 1; contiguous++) {
        torus_bfly tb;
        CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&tb, &t, swing_peer_rule, 0, contiguous, &err), 0);
        CU_ASSERT_EQUAL(tb.pos != NULL, contiguous); /* 16 = 2^4: a true butterfly */
        for (int s = 0; s < 4; s++) {
            CU_ASSERT_EQUAL_FATAL(send_set_ranks(&tb, 0, s, got), sizes[s]);
            CU_ASSERT_EQUAL(memcmp(got, sets[s], sizeof(int32_t) * (size_t)sizes[s]), 0);
            range_list pos = {0};
            torus_bfly_send_set(&tb, 0, s, &pos);
            if (contiguous) /* remapped: one range per message */
                CU_ASSERT_EQUAL(pos.n, 1);
            rl_free(&pos);
        }
        torus_bfly_free(&tb);
    }
}

/* Blocks rank 0 sends per step on port 0 (explicit rule), against the models' output. */
static void check_block_counts(int nd, const int32_t *dims, const int *want)
{
    torus_shape t;
    torus_shape_init(&t, nd, dims);
    torus_bfly tb;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&tb, &t, swing_peer_rule, 0, 1, &err), 0);
    for (int s = 0; s < tb.nsteps; s++) {
        range_list pos = {0};
        torus_bfly_send_set(&tb, 0, s, &pos);
        int64_t n = 0;
        for (size_t k = 0; k < pos.n; k++)
            n += pos.r[k].hi - pos.r[k].lo;
        if (n != want[s])
            fprintf(stderr, "\n  dims[0]=%d nd=%d step %d: %lld blocks, want %d\n", dims[0], nd, s,
                    (long long)n, want[s]);
        CU_ASSERT_EQUAL(n, want[s]);
        rl_free(&pos);
    }
    torus_bfly_free(&tb);
}

static void test_block_counts_nonpow2(void)
{
    /* models/swing_blocks.py and swing_blocks_nonpow2.py, rank 0, port 0 */
    static const int32_t d6[] = {6}, d10[] = {10}, d12[] = {12}, d14[] = {14}, d24[] = {24},
                         d88[] = {8, 8}, d66[] = {6, 6}, d1010[] = {10, 10}, d610[] = {6, 10},
                         d126[] = {12, 6}, d666[] = {6, 6, 6}, d104[] = {10, 4},
                         d148[] = {14, 8}, d244[] = {24, 4}, d888[] = {8, 8, 8};
    check_block_counts(1, d6, (const int[]){2, 2, 1});
    check_block_counts(1, d10, (const int[]){2, 4, 2, 1});
    check_block_counts(1, d12, (const int[]){6, 2, 2, 1});
    check_block_counts(1, d14, (const int[]){6, 4, 2, 1});
    check_block_counts(1, d24, (const int[]){12, 6, 2, 2, 1});
    check_block_counts(2, d88, (const int[]){32, 16, 8, 4, 2, 1});
    check_block_counts(2, d66, (const int[]){12, 8, 8, 4, 2, 1});
    check_block_counts(2, d1010, (const int[]){20, 16, 32, 16, 8, 4, 2, 1});
    check_block_counts(2, d610, (const int[]){20, 8, 16, 8, 4, 2, 1});
    check_block_counts(2, d126, (const int[]){36, 12, 8, 8, 4, 2, 1});
    check_block_counts(3, d666, (const int[]){72, 48, 32, 32, 16, 8, 4, 2, 1});
    check_block_counts(2, d104, (const int[]){8, 16, 8, 4, 2, 1});
    check_block_counts(2, d148, (const int[]){48, 32, 16, 8, 4, 2, 1});
    check_block_counts(2, d244, (const int[]){48, 24, 12, 6, 2, 2, 1});
    check_block_counts(3, d888, (const int[]){256, 128, 64, 32, 16, 8, 4, 2, 1});
    /* 10x10 takes 4 + 4 steps, not ceil(log2 100) = 7 */
    torus_shape t;
    torus_shape_init(&t, 2, d1010);
    CU_ASSERT_EQUAL(torus_total_steps(&t), 8);
}

/* A symmetric peer rule that is no butterfly: the same neighbour at every step. */
static int64_t same_neighbour_rule(int32_t c, int rel)
{
    (void)rel;
    return c % 2 ? -1 : 1;
}

static void test_bad_shapes(void)
{
    /* the contiguous remapping is checked: a pattern that is no butterfly keeps the
     * explicit block rule even on a power of two */
    torus_shape t16;
    int32_t d16[1] = {16};
    torus_shape_init(&t16, 1, d16);
    torus_bfly nb;
    cs_error e16;
    CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&nb, &t16, same_neighbour_rule, 0, 1, &e16), 0);
    CU_ASSERT_PTR_NULL(nb.pos);
    torus_bfly_free(&nb);

    /* Swing's peer relation is not symmetric on an odd dimension: rejected */
    torus_shape t;
    int32_t d5[1] = {5};
    torus_shape_init(&t, 1, d5);
    torus_bfly tb;
    cs_error err;
    CU_ASSERT_EQUAL(torus_bfly_init(&tb, &t, swing_peer_rule, 0, 1, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not symmetric"));
    /* dims whose product is not P */
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, "swing_bandwidth", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 64, 1 << 20);
    spec.ndims = 2;
    spec.dims[0] = 8;
    spec.dims[1] = 4;
    alg_run run;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, a, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "product"));
}

/* ---- schedules --------------------------------------------------------------------------- */

static int prepare(const char *name, int32_t P, int nd, const int32_t *dims, const char *ports,
                   alg_run *run)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, P, 1 << 20);
    spec.ndims = nd;
    for (int i = 0; i < nd; i++)
        spec.dims[i] = dims[i];
    if (ports)
        coll_spec_set_param(&spec, "ports", ports, &err);
    int rc = alg_run_prepare(run, a, &spec, &err);
    if (rc < 0)
        fprintf(stderr, "\n  %s P=%d: %s\n", name, P, err.msg);
    CU_ASSERT_EQUAL(rc, 0);
    return rc;
}

/* Power-of-two tori: every step of every rank is one single-range message per port. */
static void check_one_message_per_port(int nd, const int32_t *dims, int nparts)
{
    int32_t P = 1;
    for (int i = 0; i < nd; i++)
        P *= dims[i];
    alg_run run;
    if (prepare("swing_bandwidth", P, nd, dims, NULL, &run) < 0)
        return;
    sched_builder b;
    sb_init(&b, &run.layout);
    for (int32_t r = 0; r < P; r++) {
        alg_run_gen(&run, r, &b);
        for (uint32_t s = 0; s < b.rs.nsteps; s++) {
            int sends = 0, single = 1;
            for (uint32_t o = rs_step_begin(&b.rs, s); o < rs_step_end(&b.rs, s); o++)
                if (b.rs.ops[o].kind == OP_SEND) {
                    sends++;
                    single &= b.rs.ops[o].nranges == 1;
                }
            CU_ASSERT_EQUAL(sends, nparts);
            CU_ASSERT_TRUE(single);
        }
    }
    sb_free(&b);
    alg_run_release(&run);
}

static void test_contiguous_messages(void)
{
    static const int32_t d16[] = {16}, d88[] = {8, 8}, d24[] = {2, 4}, d888[] = {8, 8, 8};
    check_one_message_per_port(1, d16, 2);
    check_one_message_per_port(2, d88, 4);
    check_one_message_per_port(2, d24, 4);
    check_one_message_per_port(3, d888, 6);
}

static void test_odd_extra_rank(void)
{
    /* Fig. 3, p = 7: ranks 0..5 run the even algorithm, rank 6 exchanges directly with 3, 2
     * and 1 ranks at reduce-scatter steps 0, 1, 2 ({0,1,2}, {3,4}, {5}) and in reverse
     * order in the allgather */
    static const int32_t groups[6][3] = {{0, 1, 2}, {3, 4, -1}, {5, -1, -1},
                                         {5, -1, -1}, {3, 4, -1}, {0, 1, 2}};
    alg_run run;
    if (prepare("swing_bandwidth", 7, 0, NULL, "1", &run) < 0)
        return;
    sched_builder b;
    sb_init(&b, &run.layout);
    alg_run_gen(&run, 6, &b);
    CU_ASSERT_EQUAL_FATAL(b.rs.nsteps, 6);
    for (uint32_t s = 0; s < 6; s++) {
        int n = 0;
        for (uint32_t o = rs_step_begin(&b.rs, s); o < rs_step_end(&b.rs, s); o++)
            if (b.rs.ops[o].kind == OP_SEND)
                CU_ASSERT_EQUAL(b.rs.ops[o].peer, groups[s][n++]);
        CU_ASSERT_EQUAL(n, s == 0 || s == 5 ? 3 : s == 1 || s == 4 ? 2 : 1);
    }
    sb_free(&b);
    alg_run_release(&run);
}

/* ---- the verifier --------------------------------------------------------------------------- */

static const char *const variants[] = {"swing_bandwidth", "swing_latency"};
static const char *const ports[] = {"multi", "1"};

static void verify_case(int32_t P, int nd, const int32_t *dims, verify_mode mode)
{
    for (int v = 0; v < 2; v++)
        for (int p = 0; p < 2; p++) {
            alg_run run;
            if (prepare(variants[v], P, nd, dims, ports[p], &run) < 0)
                continue;
            verify_options opt;
            verify_options_default(&opt);
            opt.mode = mode;
            verify_result res;
            cs_error err;
            int rc = verify_run(&run, &opt, &res, &err);
            alg_run_release(&run);
            CU_ASSERT_EQUAL(rc, 0);
            if (rc == 0 && !res.ok)
                fprintf(stderr, "\n  %s ports=%s P=%d nd=%d: %s\n", variants[v], ports[p], P, nd,
                        res.error);
            CU_ASSERT_TRUE(res.ok);
            CU_ASSERT_TRUE(res.deadlock_checked);
        }
}

static void test_verify_even(void)
{
    for (int32_t P = 2; P <= 128 && P <= max_p(); P += 2)
        verify_case(P, 0, NULL, VERIFY_FULL);
}

static void test_verify_odd(void)
{
    for (int32_t P = 3; P <= 127 && P <= max_p(); P += 2)
        verify_case(P, 0, NULL, VERIFY_FULL);
}

static void test_verify_pow2(void)
{
    for (int32_t P = 256; P <= max_p(); P *= 2)
        verify_case(P, 0, NULL, P <= 1024 ? VERIFY_FULL : VERIFY_STREAM);
}

static void test_verify_tori(void)
{
    static const int32_t shapes[][4] = {{2, 6, 6},   {2, 10, 10}, {3, 6, 6, 6}, {2, 8, 8},
                                        {2, 64, 16}, {3, 8, 8, 8}, {2, 2, 4},   {2, 12, 6},
                                        {2, 14, 8},  {3, 4, 2, 6}, {2, 3, 5},   {3, 4, 3, 2}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        int nd = shapes[i][0];
        int32_t P = 1;
        for (int k = 0; k < nd; k++)
            P *= shapes[i][1 + k];
        if (P <= max_p())
            verify_case(P, nd, shapes[i] + 1, VERIFY_FULL);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case vectors[] = {
        {"rho(s) and delta(s)", test_rho},
        {"16-node peer table (Fig. 1)", test_peer_table_16},
        {"8x8 per-port peers, 4x4 first step (Fig. 4)", test_peer_table_8x8},
        {"2x4 torus peers (Fig. 5)", test_peers_2x4},
        {"rectangular tori: rotation skips exhausted dimensions", test_rotation_rectangular},
        {"reduce-scatter block sets, p = 16 rank 0", test_rs_blocks_16},
        {"blocks per step, non-powers of two (models)", test_block_counts_nonpow2},
        {"no butterfly: explicit blocks; odd dimension, wrong dims: refused", test_bad_shapes},
        {NULL, NULL}};
    static const test_case schedules[] = {
        {"one contiguous message per port per step", test_contiguous_messages},
        {"odd P: the extra rank's groups (Fig. 3)", test_odd_extra_rank},
        {"verify L and B, ports multi and 1: even P 2..128", test_verify_even},
        {"verify L and B, ports multi and 1: odd P 3..127", test_verify_odd},
        {"verify L and B, ports multi and 1: powers of two 256..4096", test_verify_pow2},
        {"verify L and B, ports multi and 1: tori", test_verify_tori},
        {NULL, NULL}};
    test_add_suite("swing vectors", vectors);
    test_add_suite("swing schedules", schedules);
    return test_run_suites();
}
