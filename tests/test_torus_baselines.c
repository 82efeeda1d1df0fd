/* test_torus_baselines.c - the Swing paper's baselines on tori: recursive doubling with
 * dimension rotation (single port and mirrored), bucket, Hamiltonian rings.
 *
 * Vectors from the digest (shared/reference/swing.md Sec. 1.6, 2.1, 2.4 and
 * models/hamiltonian_rings.py); every algorithm verified on the paper's and the digest's
 * tori with both port settings. COLLSIM_TEST_MAX_P lowers the largest torus.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/hamiltonian.h"
#include "algorithms/registry.h"
#include "algorithms/torus_bfly.h"
#include "testutil.h"

static int32_t max_p(void)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : 4096;
}

static int prepare(const char *name, int nd, const int32_t *dims, const char *ports,
                   alg_run *run, cs_error *err)
{
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, name, err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    int32_t P = 1;
    for (int i = 0; i < nd; i++)
        P *= dims[i];
    coll_spec_init(&spec, COLL_ALLREDUCE, P, 1 << 20);
    spec.ndims = nd;
    memcpy(spec.dims, dims, sizeof(int32_t) * (size_t)nd);
    if (ports)
        coll_spec_set_param(&spec, "ports", ports, err);
    return alg_run_prepare(run, a, &spec, err);
}

static void verify(const char *name, int nd, const int32_t *dims, const char *ports,
                   verify_mode mode)
{
    alg_run run;
    cs_error err;
    int rc = prepare(name, nd, dims, ports, &run, &err);
    if (rc < 0)
        fprintf(stderr, "\n  %s: %s\n", name, err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = mode;
    verify_result res;
    rc = verify_run(&run, &opt, &res, &err);
    alg_run_release(&run);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc == 0 && !res.ok)
        fprintf(stderr, "\n  %s ports=%s %dx..: %s\n", name, ports ? ports : "-", dims[0],
                res.error);
    CU_ASSERT_TRUE(res.ok);
}

/* Every send of every rank goes to a torus neighbour (one hop). */
static void check_one_hop(const char *name, int nd, const int32_t *dims, const char *ports)
{
    alg_run run;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(prepare(name, nd, dims, ports, &run, &err), 0);
    torus_shape t;
    torus_shape_init(&t, nd, dims);
    sched_builder b;
    sb_init(&b, &run.layout);
    int bad = 0;
    for (int32_t r = 0; r < t.P; r++) {
        alg_run_gen(&run, r, &b);
        for (uint32_t o = 0; o < b.rs.nops; o++) {
            if (b.rs.ops[o].kind != OP_SEND)
                continue;
            int hops = 0;
            for (int k = 0; k < t.ndims; k++) {
                int32_t d = t.dims[k];
                int32_t diff = abs(torus_coord(&t, r, k) - torus_coord(&t, b.rs.ops[o].peer, k));
                hops += diff < d - diff ? diff : d - diff;
            }
            bad += hops != 1;
        }
    }
    CU_ASSERT_EQUAL(bad, 0);
    sb_free(&b);
    alg_run_release(&run);
}

/* ---- recursive doubling on tori ----------------------------------------------------------- */

static void test_rd_peers(void)
{
    /* digest Sec. 1.6: torus-optimized RD on 8x8, node 0, port 0: 8, 1, 16, 2, 32, 4 */
    static const int32_t want[6] = {8, 1, 16, 2, 32, 4};
    torus_shape t;
    int32_t dims[2] = {8, 8};
    torus_shape_init(&t, 2, dims);
    torus_bfly tb;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&tb, &t, xor_peer_rule, 0, 1, &err), 0);
    CU_ASSERT_EQUAL_FATAL(tb.nsteps, 6);
    for (int s = 0; s < 6; s++)
        CU_ASSERT_EQUAL(torus_bfly_peer(&tb, 0, s), test_from_row_major(want[s], 8, 8));
    CU_ASSERT_PTR_NOT_NULL(tb.pos); /* a butterfly: contiguous blocks */
    torus_bfly_free(&tb);
    /* the mirrored port goes the other way, at the same distances: 56, 7, 48, 6, 32, 4 */
    static const int32_t mirrored[6] = {56, 7, 48, 6, 32, 4};
    CU_ASSERT_EQUAL_FATAL(torus_bfly_init(&tb, &t, xor_peer_rule, 2, 1, &err), 0);
    for (int s = 0; s < 6; s++)
        CU_ASSERT_EQUAL(torus_bfly_peer(&tb, 0, s), test_from_row_major(mirrored[s], 8, 8));
    torus_bfly_free(&tb);
}

static const int32_t tori[][4] = {{2, 8, 8},  {2, 6, 6},  {2, 10, 10}, {3, 6, 6, 6},
                                  {3, 8, 8, 8}, {2, 2, 4}, {2, 3, 5},   {2, 64, 16},
                                  {1, 12, 0}, {3, 4, 3, 2}};

static int32_t shape_p(const int32_t *s)
{
    int32_t P = 1;
    for (int k = 0; k < s[0]; k++)
        P *= s[1 + k];
    return P;
}

static void test_rd_verify(void)
{
    static const char *const names[] = {"recursive_doubling_torus", "rabenseifner_torus"};
    static const char *const ports[] = {"1", "multi"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++)
        if (shape_p(tori[i]) <= max_p())
            for (int a = 0; a < 2; a++)
                for (int p = 0; p < 2; p++)
                    verify(names[a], tori[i][0], tori[i] + 1, ports[p], VERIFY_FULL);
}

/* ---- bucket ------------------------------------------------------------------------------- */

static void test_bucket_synchronized(void)
{
    /* 2x4, four parts: each phase lasts max(d) - 1 = 3 steps for every part; the two parts
     * in the 2-long dimension send at the phase's first step only (Fig. 9) */
    static const int want[12] = {4, 2, 2, 4, 2, 2, 4, 2, 2, 4, 2, 2};
    int32_t dims[2] = {2, 4};
    alg_run run;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(prepare("bucket", 2, dims, NULL, &run, &err), 0);
    sched_builder b;
    sb_init(&b, &run.layout);
    alg_run_gen(&run, 0, &b);
    CU_ASSERT_EQUAL_FATAL(b.rs.nsteps, 12);
    for (uint32_t s = 0; s < 12; s++) {
        int sends = 0;
        for (uint32_t o = rs_step_begin(&b.rs, s); o < rs_step_end(&b.rs, s); o++)
            sends += b.rs.ops[o].kind == OP_SEND;
        CU_ASSERT_EQUAL(sends, want[s]);
    }
    sb_free(&b);
    alg_run_release(&run);
    check_one_hop("bucket", 2, dims, NULL);
    int32_t d88[2] = {8, 8};
    check_one_hop("bucket", 2, d88, "multi");
    /* bucket needs dims */
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 16, 1 << 20);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, registry_find(NULL, COLL_ALLREDUCE, "bucket", &err),
                                    &spec, &err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "dimensions"));
}

static void test_bucket_verify(void)
{
    static const char *const ports[] = {"multi", "1"};
    for (size_t i = 0; i < sizeof tori / sizeof tori[0]; i++) {
        int32_t P = shape_p(tori[i]);
        if (P <= max_p())
            for (int p = 0; p < 2; p++)
                verify("bucket", tori[i][0], tori[i] + 1, ports[p],
                       P <= 512 ? VERIFY_FULL : VERIFY_STREAM);
    }
}

/* ---- Hamiltonian rings -------------------------------------------------------------------- */

/* Independent check of two cycles: every rank once, one hop per move, no shared link. */
static int cycles_ok(int32_t rows, int32_t cols, const int32_t *o0, const int32_t *o1)
{
    int32_t P = rows * cols;
    char *seen = calloc((size_t)P, 1);
    char *link = calloc((size_t)P * (size_t)P, 1); /* link[a*P+b], undirected */
    int ok = 1;
    const int32_t *o[2] = {o0, o1};
    for (int c = 0; c < 2; c++) {
        memset(seen, 0, (size_t)P);
        for (int32_t X = 0; X < P; X++) {
            int32_t a = o[c][X], b = o[c][(X + 1) % P];
            int32_t dr = abs(a / cols - b / cols), dc = abs(a % cols - b % cols);
            int one_hop = (dr == 0 && (dc == 1 || dc == cols - 1)) ||
                          (dc == 0 && (dr == 1 || dr == rows - 1));
            if (seen[a]++ || !one_hop || link[(size_t)a * P + b])
                ok = 0;
            link[(size_t)a * P + b] = link[(size_t)b * P + a] = 1;
        }
    }
    free(seen);
    free(link);
    return ok;
}

static void test_hamiltonian_shapes(void)
{
    /* models/hamiltonian_rings.py: valid (rows x cols) and invalid shapes */
    static const int32_t valid[][2] = {{8, 8},   {16, 16}, {32, 32}, {64, 64}, {128, 128},
                                       {64, 16}, {128, 8}, {256, 4}, {32, 8}, {6, 6}, {9, 3}};
    static const int32_t invalid[][2] = {{16, 64}, {8, 128}, {12, 4}};
    cs_error err;
    for (size_t i = 0; i < sizeof valid / sizeof valid[0]; i++) {
        int32_t P = valid[i][0] * valid[i][1];
        int32_t *o0 = malloc(sizeof(int32_t) * (size_t)P);
        int32_t *o1 = malloc(sizeof(int32_t) * (size_t)P);
        CU_ASSERT_EQUAL(hamiltonian_rings_build(valid[i][0], valid[i][1], o0, o1, &err), 0);
        if (P <= 4096 && P <= max_p()) /* the independent check is quadratic in memory */
            CU_ASSERT_TRUE(cycles_ok(valid[i][0], valid[i][1], o0, o1));
        free(o0);
        free(o1);
    }
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        int32_t P = invalid[i][0] * invalid[i][1];
        int32_t *o0 = malloc(sizeof(int32_t) * (size_t)P);
        int32_t *o1 = malloc(sizeof(int32_t) * (size_t)P);
        CU_ASSERT_EQUAL(hamiltonian_rings_build(invalid[i][0], invalid[i][1], o0, o1, &err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Hamiltonian"));
        CU_ASSERT_FALSE(cycles_ok(invalid[i][0], invalid[i][1], o0, o1));
        free(o0);
        free(o1);
    }
}

static void test_hamiltonian_verify(void)
{
    /* the rows along dimension 1 (3x9, 6x12, 8x32) or dimension 0 (9x3, 32x8) */
    static const int32_t shapes[][2] = {{8, 8}, {6, 6}, {3, 9}, {9, 3}, {6, 12}, {8, 32}, {32, 8}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (shapes[i][0] * shapes[i][1] <= max_p()) {
            verify("hamiltonian_rings", 2, shapes[i], NULL, VERIFY_FULL);
            check_one_hop("hamiltonian_rings", 2, shapes[i], NULL);
        }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"torus recursive doubling peers (8x8, plain and mirrored)", test_rd_peers},
        {"verify recursive_doubling_torus, rabenseifner_torus, ports 1 and multi", test_rd_verify},
        {"bucket: synchronized dimension switching, one-hop messages", test_bucket_synchronized},
        {"verify bucket, ports multi and 1", test_bucket_verify},
        {"Hamiltonian rings: edge-disjoint on the listed shapes, others refused",
         test_hamiltonian_shapes},
        {"verify hamiltonian_rings", test_hamiltonian_verify},
        {NULL, NULL}};
    test_add_suite("torus baselines", cases);
    return test_run_suites();
}
