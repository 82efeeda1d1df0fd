/* test_bine.c - Bine arithmetic, trees and butterflies against the test vectors of
 * shared/reference/bine.md (and models/bine_peers.py), and the modular-distance ratio
 * of the paper's Eq. 2 measured on generated schedules.
 *
 * Expected tables are copied from the digest, never from the code under test.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/bine_core.h"
#include "algorithms/bine_patterns.h"
#include "algorithms/registry.h"
#include "algorithms/torus_product.h"
#include "testutil.h"

/* ---- negabinary, v, nu ------------------------------------------------------------- */

static uint32_t bits(const char *s)
{
    return (uint32_t)strtoul(s, NULL, 2);
}

static void test_negabinary_examples(void)
{
    CU_ASSERT_EQUAL(bine_int_to_nb(2) & 7, bits("110"));
    CU_ASSERT_EQUAL(bine_nb_to_int(bits("011")), -1);
    CU_ASSERT_EQUAL(bine_nb_to_int(bits("010101")), 21); /* largest on six bits */
    CU_ASSERT_EQUAL(bine_nb_largest(6), 21);
    CU_ASSERT_EQUAL(bine_nb_largest(3), 5);
    CU_ASSERT_EQUAL(bine_nb_smallest(3), -2);
    CU_ASSERT_EQUAL(bine_nb_smallest(4), -10);
    CU_ASSERT_EQUAL(bine_rank2nb(2, 8), bits("110"));
    CU_ASSERT_EQUAL(bine_rank2nb(6, 8), bits("010")); /* 6 - 8 = -2 */
    static const int64_t rho[] = {1, -1, 3, -5, 11, -21, 43, -85, 171, -341, 683, -1365};
    for (int i = 0; i < 12; i++)
        CU_ASSERT_EQUAL(bine_rho(i), rho[i]);
}

typedef struct nb_row {
    const char *nb, *v;
    uint32_t nu;
} nb_row;

static void check_nb_table(int32_t p, const nb_row *rows)
{
    for (int32_t r = 0; r < p; r++) {
        CU_ASSERT_EQUAL(bine_rank2nb(r, p), bits(rows[r].nb));
        CU_ASSERT_EQUAL(bine_v(r, p), bits(rows[r].v));
        CU_ASSERT_EQUAL(bine_nu(r, p), rows[r].nu);
        CU_ASSERT_EQUAL(bine_nb2rank(bine_rank2nb(r, p), p), r);
    }
}

static void test_nb_v_nu_tables(void)
{
    static const nb_row p8[] = {{"000", "000", 0}, {"001", "001", 4}, {"110", "011", 6},
                                {"111", "100", 1}, {"100", "110", 3}, {"101", "111", 7},
                                {"010", "101", 5}, {"011", "010", 2}};
    static const nb_row p16[] = {
        {"0000", "0000", 0},  {"0001", "0001", 8},  {"0110", "0011", 12}, {"0111", "0100", 2},
        {"0100", "1010", 5},  {"0101", "0111", 14}, {"1010", "1001", 9},  {"1011", "1110", 7},
        {"1000", "1100", 3},  {"1001", "1101", 11}, {"1110", "1111", 15}, {"1111", "1000", 1},
        {"1100", "0110", 6},  {"1101", "1011", 13}, {"0010", "0101", 10}, {"0011", "0010", 4}};
    check_nb_table(8, p8);
    check_nb_table(16, p16);
}

/* ---- butterfly peers ----------------------------------------------------------------- */

static void test_peer_tables(void)
{
    static const int32_t dh8[8][3] = {{3, 7, 1}, {6, 2, 0}, {5, 1, 3}, {0, 4, 2},
                                      {7, 3, 5}, {2, 6, 4}, {1, 5, 7}, {4, 0, 6}};
    static const int32_t dd8[8][3] = {{1, 7, 3}, {0, 2, 6}, {3, 1, 5}, {2, 4, 0},
                                      {5, 3, 7}, {4, 6, 2}, {7, 5, 1}, {6, 0, 4}};
    static const int32_t dh16[16][4] = {
        {11, 3, 15, 1}, {6, 14, 2, 0},  {13, 5, 1, 3},  {8, 0, 4, 2},
        {15, 7, 3, 5},  {10, 2, 6, 4},  {1, 9, 5, 7},   {12, 4, 8, 6},
        {3, 11, 7, 9},  {14, 6, 10, 8}, {5, 13, 9, 11}, {0, 8, 12, 10},
        {7, 15, 11, 13}, {2, 10, 14, 12}, {9, 1, 13, 15}, {4, 12, 0, 14}};
    static const int32_t dd16[16][4] = {
        {1, 15, 3, 11}, {0, 2, 14, 6},  {3, 1, 5, 13},  {2, 4, 0, 8},
        {5, 3, 7, 15},  {4, 6, 2, 10},  {7, 5, 9, 1},   {6, 8, 4, 12},
        {9, 7, 11, 3},  {8, 10, 6, 14}, {11, 9, 13, 5}, {10, 12, 8, 0},
        {13, 11, 15, 7}, {12, 14, 10, 2}, {15, 13, 1, 9}, {14, 0, 12, 4}};
    bine_bfly c;
    bfly_pattern dd, dh;
    for (int32_t r = 0; r < 8; r++)
        for (int i = 0; i < 3; i++) {
            CU_ASSERT_EQUAL(bine_pi(r, 2 - i, 8), dh8[r][i]);
            CU_ASSERT_EQUAL(bine_pi(r, i, 8), dd8[r][i]);
        }
    /* the engine patterns: natural = distance-doubling, halving = distance-halving */
    bine_natural_bfly(&dd, &c, 16);
    bine_bfly dhc;
    bine_halving_bfly(&dh, &dhc, 16);
    for (int32_t r = 0; r < 16; r++)
        for (int i = 0; i < 4; i++) {
            CU_ASSERT_EQUAL(dh.peer(dh.ctx, r, i), dh16[r][i]);
            CU_ASSERT_EQUAL(dd.peer(dd.ctx, r, i), dd16[r][i]);
        }
    bine_bfly_free(&c);
    bine_bfly_free(&dhc);
}

/* ---- trees -------------------------------------------------------------------------- */

static void check_tree(const tree_pattern *t, const int *recv, const int32_t *parent)
{
    for (int32_t v = 0; v < t->n; v++) {
        CU_ASSERT_EQUAL(t->recv_step(t->ctx, v), recv[v]);
        if (v == 0)
            continue;
        CU_ASSERT_EQUAL(t->parent(t->ctx, v), parent[v]);
        /* the parent's child at that step is v */
        CU_ASSERT_EQUAL(t->child(t->ctx, parent[v], recv[v]), v);
    }
}

/* Edge lists of the digest (sender -> receiver @ step), as receive step and parent. */
static void test_tree_edges(void)
{
    static const int dh8_recv[] = {-1, 2, 2, 0, 1, 2, 2, 1};
    static const int32_t dh8_parent[] = {-1, 0, 3, 0, 3, 4, 7, 0};
    static const int dd8_recv[] = {-1, 0, 1, 2, 2, 2, 2, 1};
    static const int32_t dd8_parent[] = {-1, 0, 1, 0, 7, 2, 1, 0};
    static const int dh16_recv[] = {-1, 3, 3, 1, 2, 3, 3, 2, 1, 3, 3, 0, 2, 3, 3, 2};
    static const int32_t dh16_parent[] = {-1, 0, 3, 0, 3, 4, 7, 8, 11, 8, 11, 0, 11, 12, 15, 0};
    static const int dd16_recv[] = {-1, 0, 1, 2, 3, 2, 3, 3, 3, 3, 3, 3, 2, 3, 2, 1};
    static const int32_t dd16_parent[] = {-1, 0, 1, 0, 15, 2, 1, 12, 3, 14, 5, 0, 15, 2, 1, 0};
    bine_tree t;
    tree_pattern tp;
    bine_dh_tree_init(&t, 8);
    bine_dh_tree_pattern(&tp, &t);
    check_tree(&tp, dh8_recv, dh8_parent);
    bine_tree_free(&t);
    bine_dh_tree_init(&t, 16);
    bine_dh_tree_pattern(&tp, &t);
    check_tree(&tp, dh16_recv, dh16_parent);
    bine_tree_free(&t);
    bine_dd_tree_init(&t, 8);
    bine_dd_tree_pattern(&tp, &t);
    check_tree(&tp, dd8_recv, dd8_parent);
    bine_dd_tree_init(&t, 16);
    bine_dd_tree_pattern(&tp, &t);
    check_tree(&tp, dd16_recv, dd16_parent);
}

/* Eq. 1 (closed form) and the first-arrival construction agree for powers of two, and
 * the DH subtree of v received at step i is its 2^(s-1-i) ranks sharing the top i+1
 * negabinary bits (e.g. the subtree of 11 in p = 16 is [6, 13]). */
static void test_closed_forms_match_arrivals(void)
{
    for (int32_t p = 2; p <= 4096; p *= 2) {
        bine_arrivals a;
        bine_arrivals_init(&a, p);
        for (int32_t r = 0; r < p; r++) {
            CU_ASSERT_EQUAL(a.step[r], bine_dh_recv_step(r, p));
            for (int i = bine_dh_recv_step(r, p) + 1; i < a.s; i++)
                CU_ASSERT_EQUAL(bine_dh_forward(r, i, p), bine_pi(r, a.s - 1 - i, p));
        }
        bine_arrivals_free(&a);
    }
    bine_tree t;
    tree_pattern tp;
    bine_dh_tree_init(&t, 16);
    bine_dh_tree_pattern(&tp, &t);
    range_list sub = {0};
    tp.subtree(tp.ctx, 11, &sub);
    CU_ASSERT_EQUAL(sub.n, 1);
    CU_ASSERT(sub.n == 1 && sub.r[0].lo == 6 && sub.r[0].hi == 14);
    rl_clear(&sub);
    tp.subtree(tp.ctx, 8, &sub); /* {6, 7, 8, 9}: nb prefix "10" */
    CU_ASSERT(sub.n == 1 && sub.r[0].lo == 6 && sub.r[0].hi == 10);
    rl_free(&sub);
    bine_tree_free(&t);
}

/* ---- generated schedules --------------------------------------------------------- */

/* A registered algorithm prepared at P ranks, with a builder to generate its ranks. */
typedef struct gen_run {
    alg_run run;
    sched_builder b;
} gen_run;

static void gen_open(gen_run *g, coll_kind coll, const char *name, int32_t P, int64_t bytes)
{
    const alg_desc *alg = registry_find(NULL, coll, name, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alg);
    coll_spec spec;
    coll_spec_init(&spec, coll, P, bytes);
    cs_error err;
    CU_ASSERT_FATAL(alg_run_prepare(&g->run, alg, &spec, &err) == 0);
    sb_init(&g->b, &g->run.layout);
}

static void gen_close(gen_run *g)
{
    sb_free(&g->b);
    alg_run_release(&g->run);
}

/* App. C: p = 6 and p = 10 first arrivals and the dropped (later) transmissions. */
static void check_pruning(int32_t p, const int *first, const int32_t (*pruned)[3], int npruned)
{
    bine_arrivals a;
    bine_arrivals_init(&a, p);
    for (int32_t r = 0; r < p; r++)
        CU_ASSERT_EQUAL(a.step[r], first[r]);
    /* in the generated bcast, holders whose peer was reached earlier send nothing */
    gen_run g;
    gen_open(&g, COLL_BCAST, "bine", p, 1000);
    int sends = 0;
    for (int32_t r = 0; r < p; r++) {
        alg_run_gen(&g.run, r, &g.b);
        for (uint32_t s = 0; s < g.b.rs.nsteps; s++)
            for (uint32_t i = rs_step_begin(&g.b.rs, s); i < rs_step_end(&g.b.rs, s); i++) {
                const sched_op *o = &g.b.rs.ops[i];
                if (o->kind == OP_RECV)
                    CU_ASSERT_EQUAL((int)s, first[r]);
                if (o->kind != OP_SEND)
                    continue;
                sends++;
                CU_ASSERT_EQUAL(first[o->peer], (int)s);
                for (int k = 0; k < npruned; k++)
                    CU_ASSERT_FALSE((int)s == pruned[k][0] && r == pruned[k][1] &&
                                    o->peer == pruned[k][2]);
            }
    }
    CU_ASSERT_EQUAL(sends, p - 1);
    gen_close(&g);
    bine_arrivals_free(&a);
}

static void test_non_power_of_two_pruning(void)
{
    static const int first6[] = {-1, 2, 2, 0, 1, 1};
    static const int32_t pruned6[][3] = {{2, 4, 5}, {2, 5, 4}};
    static const int first10[] = {-1, 2, 1, 1, 2, 0, 2, 3, 3, 2};
    static const int32_t pruned10[][3] = {{3, 0, 1}, {3, 1, 0}, {3, 2, 3},
                                          {3, 3, 2}, {3, 4, 5}, {3, 5, 4}};
    check_pruning(6, first6, pruned6, 2);
    check_pruning(10, first10, pruned10, 6);
    /* every even p is spanned by its first arrivals */
    for (int32_t p = 2; p <= 1024; p += 2) {
        bine_arrivals a;
        bine_arrivals_init(&a, p);
        CU_ASSERT_EQUAL(a.first[a.s], p - 1);
        bine_arrivals_free(&a);
    }
}

/* ---- gather ranges, torus partners --------------------------------------------------- */

/* Sec. 4.1 trace, p = 8: rank 0 gets [0,1] from 1, then [6,7] from 7, then [2,5] from 3. */
static void test_gather_trace(void)
{
    gen_run g;
    gen_open(&g, COLL_GATHER, "bine", 8, 8);
    alg_run_gen(&g.run, 0, &g.b);
    static const int32_t from[] = {1, 7, 3};
    static const int64_t lo[] = {1, 6, 2}, hi[] = {2, 8, 6};
    CU_ASSERT_EQUAL_FATAL(g.b.rs.nsteps, 3);
    for (uint32_t s = 0; s < 3; s++) {
        CU_ASSERT_EQUAL_FATAL(rs_step_end(&g.b.rs, s) - rs_step_begin(&g.b.rs, s), 1);
        const sched_op *o = &g.b.rs.ops[rs_step_begin(&g.b.rs, s)];
        const blk_range *r = rs_op_ranges(&g.b.rs, o);
        CU_ASSERT_EQUAL(o->peer, from[s]);
        CU_ASSERT(o->nranges == 1 && r[0].lo == lo[s] && r[0].hi == hi[s]);
    }
    gen_close(&g);
}

/* App. D.1: on a 4x4 torus (rank = 4x + y) rank 0 talks to 3, 12, 1, 4. */
static void test_torus_partners(void)
{
    bine_tree t;
    tree_pattern dim, prod;
    bine_dh_tree_init(&t, 4);
    bine_dh_tree_pattern(&dim, &t);
    const tree_pattern *dims_tp[2] = {&dim, &dim};
    int32_t dims[2] = {4, 4};
    torus_shape shape;
    torus_shape_init(&shape, 2, dims);
    tp_tree tt;
    tp_tree_init(&tt, &shape, dims_tp, 0, 0, 0);
    tp_tree_pattern(&prod, &tt);
    static const int32_t want[] = {3, 12, 1, 4};
    for (int step = 0; step < 4; step++)
        CU_ASSERT_EQUAL(prod.child(prod.ctx, 0, step), want[step]);
    /* the allgather of the product butterfly meets them in the same order */
    bine_bfly bf;
    bfly_pattern f, pb;
    bfly_remap rm;
    bine_remap_bfly(&f, &rm, &bf, 4);
    const bfly_pattern *fs[2] = {&f, &f};
    const bfly_remap *rms[2] = {&rm, &rm};
    tp_bfly tb;
    tp_bfly_init(&tb, &shape, fs, rms, 0, TORUS_ROUND_ROBIN_REVERSED, 0);
    tp_bfly_pattern(&pb, &tb);
    for (int j = 0; j < 4; j++)
        CU_ASSERT_EQUAL(pb.peer(pb.ctx, 0, pb.nsteps - 1 - j), want[j]);
    bine_bfly_free(&bf);
    bine_tree_free(&t);
}

/* ---- Eq. 2: modular distance 2/3 of binomial, per step, from the schedules -------------- */

/* Mean modular distance of the messages of each step of algorithm `name` at P ranks. */
static void step_distances(coll_kind coll, const char *name, int32_t P, double *mean, int *nsteps)
{
    gen_run g;
    gen_open(&g, coll, name, P, 1 << 20);
    double sum[64] = {0};
    int count[64] = {0};
    *nsteps = 0;
    for (int32_t r = 0; r < P; r++) {
        alg_run_gen(&g.run, r, &g.b);
        for (uint32_t s = 0; s < g.b.rs.nsteps && s < 64; s++)
            for (uint32_t i = rs_step_begin(&g.b.rs, s); i < rs_step_end(&g.b.rs, s); i++) {
                const sched_op *o = &g.b.rs.ops[i];
                if (o->kind != OP_SEND)
                    continue;
                int64_t d = ((int64_t)o->peer - r + P) % P;
                sum[s] += (double)(d < P - d ? d : P - d);
                count[s]++;
            }
        if ((int)g.b.rs.nsteps > *nsteps)
            *nsteps = (int)g.b.rs.nsteps;
    }
    for (int s = 0; s < *nsteps; s++)
        mean[s] = count[s] ? sum[s] / count[s] : 0;
    gen_close(&g);
}

/* The paper's bound: delta_bine / delta_binomial = |1/3 - (-2)^k/3| / 2^(k-1) at the step
 * whose binomial distance is 2^(k-1), i.e. 2/3 within 1/(3 2^(k-1)). */
static void check_ratio(coll_kind coll, const char *bine, const char *binomial, int32_t P)
{
    double mb[64], mr[64];
    int nb, nr;
    step_distances(coll, bine, P, mb, &nb);
    step_distances(coll, binomial, P, mr, &nr);
    CU_ASSERT_EQUAL_FATAL(nb, nr);
    double tb = 0, tr = 0;
    for (int s = 0; s < nb; s++) {
        double ratio = mb[s] / mr[s];
        double slack = 1 / (3 * mr[s]) + 1e-9;
        CU_ASSERT(ratio >= 2.0 / 3 - slack && ratio <= 2.0 / 3 + slack);
        tb += mb[s];
        tr += mr[s];
    }
    CU_ASSERT(tb / tr > 2.0 / 3 - 0.01 && tb / tr < 2.0 / 3 + 0.01);
}

static void test_two_thirds_distance(void)
{
    for (int32_t P = 64; P <= 1024; P *= 2) {
        check_ratio(COLL_ALLREDUCE, "bine_latency", "recursive_doubling", P);
        check_ratio(COLL_BCAST, "bine", "binomial_halving", P);
    }
}

/* Fig. 1 in message terms (the PICO "external bytes" count): 8 ranks in groups of 2
 * consecutive ranks; a broadcast of n bytes puts 3n on inter-group messages with the
 * distance-halving Bine tree and 6n with the distance-doubling binomial tree. */
static int64_t intergroup_bytes(const char *name, int32_t P, int32_t group)
{
    gen_run g;
    gen_open(&g, COLL_BCAST, name, P, 1000);
    int64_t bytes = 0;
    for (int32_t r = 0; r < P; r++) {
        alg_run_gen(&g.run, r, &g.b);
        for (uint32_t i = 0; i < g.b.rs.nops; i++)
            if (g.b.rs.ops[i].kind == OP_SEND && g.b.rs.ops[i].peer / group != r / group)
                bytes += g.b.rs.ops[i].bytes;
    }
    gen_close(&g);
    return bytes;
}

static void test_fig1_messages(void)
{
    CU_ASSERT_EQUAL(intergroup_bytes("bine", 8, 2), 3 * 1000);
    CU_ASSERT_EQUAL(intergroup_bytes("binomial_doubling", 8, 2), 6 * 1000);
    CU_ASSERT_EQUAL(intergroup_bytes("binomial_halving", 8, 2), 3 * 1000);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"negabinary examples and rho", test_negabinary_examples},
        {"nb / v / nu tables, p = 8 and 16", test_nb_v_nu_tables},
        {"DH and DD peer tables, p = 8 and 16", test_peer_tables},
        {"DH and DD tree edges, p = 8 and 16", test_tree_edges},
        {"Eq. 1 closed forms = first arrivals, subtrees", test_closed_forms_match_arrivals},
        {"App. C pruning, p = 6 and 10", test_non_power_of_two_pruning},
        {"gather ranges, p = 8", test_gather_trace},
        {"torus partners, 4x4", test_torus_partners},
        {"Eq. 2: 2/3 modular distance per step", test_two_thirds_distance},
        {"Fig. 1 in inter-group message bytes", test_fig1_messages},
        {NULL, NULL}};
    test_add_suite("bine", cases);
    return test_run_suites();
}
