/* test_kautz.c - Kautz K(d,2) collectives (kautz.c), the Kautz graph (lgraph.h) and
 * MULTITREE (multitree.h) against the thesis' closed forms (shared/reference/kautz-2dfc.md):
 * vertex numbering, message sizes per step (Kautz-C: d or d-1 blocks), step counts
 * (Kautz-M: d+1), the cost formulas of Table 3.2 under the per-step alpha-beta model, the
 * multi-path speed-up limit (2d^2+d-2)/(3(d+1)) (10.31 at d = 16), MULTITREE on K(2,2) in
 * 3 steps, neighbour-only messages, and the verifier accepting every algorithm for
 * d = 2..16.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/lgraph.h"
#include "algorithms/multitree.h"
#include "algorithms/registry.h"
#include "testutil.h"

/* The sweeps go up to P = 272 (K(16,2), 17x16). COLLSIM_TEST_MAX_P (512 in the sanitizer
 * build) shrinks them to P <= COLLSIM_TEST_MAX_P / 4, enough to exercise every code path. */
static int32_t sweep_max_p(void) { return test_max_p(4096) / 4; }

/* ---- helpers ------------------------------------------------------------------------- */

static int prepare(alg_run *run, coll_kind c, const char *name, int32_t P, int64_t bytes,
                   int32_t root, int32_t dst)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, c, name, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec spec;
    coll_spec_init(&spec, c, P, bytes);
    spec.root = root;
    spec.dst = dst;
    int rc = alg_run_prepare(run, a, &spec, &err);
    if (rc < 0)
        fprintf(stderr, "\n  prepare: %s\n", err.msg);
    return rc;
}

/* Per step: the largest message, how many sends; per send: blocks (in `unit`s). */
#define MAX_STEPS 64
typedef struct stats {
    int32_t d;
    int64_t unit;  /* blocks per counted unit */
    int steps;
    int64_t max_bytes[MAX_STEPS];
    int64_t sends[MAX_STEPS];
    int bad_hist;  /* a message whose block count the test does not expect */
    int64_t count_of_partner[MAX_STEPS], count_of_other[MAX_STEPS]; /* blocks, -1 = mixed */
    int not_a_link;
    int64_t sent_bytes;
} stats;

static int64_t op_blocks(const sched_op *o, const blk_range *r)
{
    int64_t k = 0;
    for (uint32_t i = 0; i < o->nranges; i++)
        k += r[i].hi - r[i].lo;
    return k;
}

static void note(int64_t *slot, int64_t v)
{
    if (*slot == 0)
        *slot = v;
    else if (*slot != v)
        *slot = -1;
}

static void collect(void *ctx, int32_t r, uint32_t s, const sched_op *o, const blk_range *rg)
{
    stats *st = ctx;
    if (o->kind != OP_SEND || s >= MAX_STEPS)
        return;
    if ((int)s + 1 > st->steps)
        st->steps = (int)s + 1;
    if (o->bytes > st->max_bytes[s])
        st->max_bytes[s] = o->bytes;
    st->sends[s]++;
    st->sent_bytes += o->bytes;
    int64_t k = op_blocks(o, rg) / st->unit;
    note(o->peer == kautz_partner(st->d, r) ? &st->count_of_partner[s] : &st->count_of_other[s],
         k);
    if (!kautz_is_link(st->d, r, o->peer))
        st->not_a_link++;
}

static stats gather_stats(const alg_run *run, int32_t d, int64_t unit)
{
    stats st;
    memset(&st, 0, sizeof st);
    st.d = d;
    st.unit = unit;
    test_walk_ops(run, collect, &st);
    return st;
}

/* The per-step alpha-beta model: every step costs alpha + beta * its largest message. */
static double step_time(const stats *st, double alpha, double beta)
{
    double t = 0;
    for (int s = 0; s < st->steps; s++)
        if (st->sends[s] > 0)
            t += alpha + beta * (double)st->max_bytes[s];
    return t;
}

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b) + 1e-15; }

/* ---- the graph ---------------------------------------------------------------------- */

static void test_numbering(void)
{
    /* K(2,2): 01=0 02=1 10=2 12=3 20=4 21=5 (thesis artifact: rank = d*a + b - [b > a]) */
    static const int32_t words[6][2] = {{0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 0}, {2, 1}};
    for (int32_t r = 0; r < 6; r++) {
        int32_t x, y;
        kautz_word(2, r, &x, &y);
        CU_ASSERT_EQUAL(x, words[r][0]);
        CU_ASSERT_EQUAL(y, words[r][1]);
        CU_ASSERT_EQUAL(kautz_rank(2, words[r][0], words[r][1]), r);
    }
    CU_ASSERT_EQUAL(kautz_out(2, 0, 0), 2); /* 01 -> 10, 12 */
    CU_ASSERT_EQUAL(kautz_out(2, 0, 1), 3);
    CU_ASSERT_EQUAL(kautz_in(2, 0, 0), 2); /* 10, 20 -> 01 */
    CU_ASSERT_EQUAL(kautz_in(2, 0, 1), 4);
    CU_ASSERT_EQUAL(kautz_partner(2, 0), 2);
    for (int32_t d = 2; d <= 9; d++) { /* edges xy -> yz from the definition, diameter 2 */
        lgraph g;
        lgraph_kautz(d, &g);
        CU_ASSERT_EQUAL(g.n, d * (d + 1));
        CU_ASSERT_EQUAL(g.out_first[g.n], d * d * (d + 1));
        for (int32_t r = 0; r < g.n; r++) {
            int32_t x, y, at1 = 0, at2 = 0;
            kautz_word(d, r, &x, &y);
            CU_ASSERT_EQUAL(g.in_first[r + 1] - g.in_first[r], d);
            for (int32_t e = g.out_first[r]; e < g.out_first[r + 1]; e++) {
                int32_t a, b2;
                kautz_word(d, g.out[e], &a, &b2);
                CU_ASSERT_EQUAL(a, y);
            }
            for (int32_t s = 0; s < g.n; s++) {
                int32_t a, b2;
                kautz_word(d, s, &a, &b2);
                if (s != r && a == y)
                    at1++;
                else if (s != r)
                    at2++;
            }
            CU_ASSERT_EQUAL(at1, d);
            CU_ASSERT_EQUAL(at2, d * d - 1);
            CU_ASSERT_EQUAL(kautz_in_partner_first(d, r, 0), kautz_partner(d, r));
            CU_ASSERT_EQUAL(kautz_out_partner_first(d, r, 0), kautz_partner(d, r));
        }
        lgraph_free(&g);
    }
    int32_t d;
    cs_error err;
    CU_ASSERT_EQUAL(kautz_degree_of(272, &d, &err), 0);
    CU_ASSERT_EQUAL(d, 16);
    CU_ASSERT_EQUAL(kautz_degree_of(271, &d, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "P = d(d+1)"));
}

/* ---- Kautz-C message sizes ----------------------------------------------------------- */

static void test_kautz_c_messages(void)
{
    for (int32_t d = 2; d <= 16; d++) {
        int32_t n = d * (d + 1);
        if (n > sweep_max_p())
            break;
        alg_run run;
        /* allgather: d sends of 1 chunk, then d of d chunks (d-1 to the partner) */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLGATHER, "kautz_c", n, 64 * n, 0, 1), 0);
        stats st = gather_stats(&run, d, 1);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.sends[0], (int64_t)n * d);
        CU_ASSERT_EQUAL(st.count_of_other[0], 1);
        CU_ASSERT_EQUAL(st.count_of_partner[1], d - 1);
        CU_ASSERT_EQUAL(st.count_of_other[1], d);
        CU_ASSERT_EQUAL(st.not_a_link, 0);
        alg_run_release(&run);
        /* alltoall: d+1 blocks (d to the partner), then d (d-1) */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "kautz_c", n, 64 * n, 0, 1), 0);
        st = gather_stats(&run, d, 1);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.count_of_partner[0], d);
        CU_ASSERT_EQUAL(st.count_of_other[0], d + 1);
        CU_ASSERT_EQUAL(st.count_of_partner[1], d - 1);
        CU_ASSERT_EQUAL(st.count_of_other[1], d);
        CU_ASSERT_EQUAL(st.not_a_link, 0);
        alg_run_release(&run);
        /* reduce-scatter: d blocks (d-1 to the partner), then 1 */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_REDUCE_SCATTER, "kautz_c", n, 64 * n, 0, 1), 0);
        st = gather_stats(&run, d, 1);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.count_of_partner[0], d - 1);
        CU_ASSERT_EQUAL(st.count_of_other[0], d);
        CU_ASSERT_EQUAL(st.count_of_other[1], 1);
        alg_run_release(&run);
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLREDUCE, "kautz_c", n, 64 * n, 0, 1), 0);
        st = gather_stats(&run, d, 1);
        CU_ASSERT_EQUAL(st.steps, 4);
        alg_run_release(&run);
    }
}

/* ---- Kautz-M and congestion ----------------------------------------------------------- */

static void test_kautz_m_steps(void)
{
    static const coll_kind colls[] = {COLL_ALLGATHER, COLL_ALLTOALL, COLL_REDUCE_SCATTER};
    for (int32_t d = 2; d <= 12; d++) {
        int32_t n = d * (d + 1);
        for (size_t c = 0; c < 3; c++) {
            alg_run run;
            CU_ASSERT_EQUAL_FATAL(prepare(&run, colls[c], "kautz_m", n, 64 * n, 0, 1), 0);
            stats st = gather_stats(&run, d, 1);
            CU_ASSERT_EQUAL(st.steps, d + 1);
            CU_ASSERT_EQUAL(st.not_a_link, 0);
            /* one block per message wherever the thesis serializes */
            int first = colls[c] == COLL_REDUCE_SCATTER ? 0 : 1;
            for (int s = first; s < first + d; s++)
                CU_ASSERT_TRUE(st.count_of_other[s] == 1 &&
                               (st.count_of_partner[s] == 1 || st.count_of_partner[s] == 0));
            if (colls[c] == COLL_ALLGATHER) { /* d sends, d-1, then d each (per rank) */
                CU_ASSERT_EQUAL(st.sends[0], (int64_t)n * d);
                CU_ASSERT_EQUAL(st.sends[1], (int64_t)n * (d - 1));
                for (int s = 2; s <= d; s++)
                    CU_ASSERT_EQUAL(st.sends[s], (int64_t)n * d);
            }
            alg_run_release(&run);
        }
        alg_run run;
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLREDUCE, "kautz_m", n, 64 * n, 0, 1), 0);
        CU_ASSERT_EQUAL(gather_stats(&run, d, 1).steps, 2 * (d + 1));
        alg_run_release(&run);
        /* congestion: 2 steps, every forward a single block, d*d - 1 per rank */
        CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_ALLTOALL, "kautz_congestion", n, 64 * n, 0, 1), 0);
        stats st = gather_stats(&run, d, 1);
        CU_ASSERT_EQUAL(st.steps, 2);
        CU_ASSERT_EQUAL(st.sends[1], (int64_t)n * (d * d - 1));
        CU_ASSERT_EQUAL(st.count_of_other[1], 1);
        alg_run_release(&run);
    }
}

/* ---- Table 3.2 under the per-step alpha-beta model ------------------------------------ */

static double model(coll_kind c, const char *name, int32_t d, int64_t bytes, double a, double b)
{
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(prepare(&run, c, name, d * (d + 1), bytes, 0, 1), 0);
    stats st = gather_stats(&run, d, 1);
    alg_run_release(&run);
    return step_time(&st, a, b);
}

static void test_table_3_2(void)
{
    const double a = 1e-6, b = 8e-11;
    for (int32_t d = 2; d <= 16; d += 7) {
        double n = d * (d + 1);
        double M = 1000.0 * n * n; /* divisible by every block count below */
        int64_t Mi = (int64_t)M;
        /* allgather: M is the block per node */
        CU_ASSERT_TRUE(close_to(model(COLL_ALLGATHER, "kautz_c", d, (int64_t)(M * n), a, b),
                                2 * a + (d + 1) * M * b));
        CU_ASSERT_TRUE(close_to(model(COLL_ALLGATHER, "kautz_m", d, (int64_t)(M * n), a, b),
                                (d + 1) * (a + M * b)));
        /* alltoall, scatter, allreduce: M is the whole buffer, chunks of M/n */
        CU_ASSERT_TRUE(close_to(model(COLL_ALLTOALL, "kautz_c", d, Mi, a, b),
                                2 * a + (2 * d + 1) * M / (d * (d + 1)) * b));
        CU_ASSERT_TRUE(close_to(model(COLL_ALLTOALL, "kautz_m", d, Mi, a, b),
                                (d + 1) * a + (2 * d + 1) * M / (d * (d + 1)) * b));
        CU_ASSERT_TRUE(close_to(model(COLL_SCATTER, "kautz_c", d, Mi, a, b),
                                2 * a + (d + 2) * M / (d * (d + 1)) * b));
        CU_ASSERT_TRUE(close_to(model(COLL_GATHER, "kautz_c", d, Mi, a, b),
                                2 * a + (d + 2) * M / (d * (d + 1)) * b));
        CU_ASSERT_TRUE(close_to(model(COLL_BCAST, "kautz_c", d, Mi, a, b), 2 * (a + M * b)));
        CU_ASSERT_TRUE(close_to(model(COLL_REDUCE, "kautz_c", d, Mi, a, b), 2 * (a + M * b)));
        CU_ASSERT_TRUE(close_to(model(COLL_ALLREDUCE, "kautz_c", d, Mi, a, b),
                                4 * a + 2 * M / d * b));
        CU_ASSERT_TRUE(close_to(model(COLL_ALLREDUCE, "kautz_m", d, Mi, a, b),
                                2 * (d + 1) * a + 2 * M / d * b));
    }
}

/* ---- MULTITREE ------------------------------------------------------------------------------ */

static void check_trees(const lgraph *g, const multitree *mt)
{
    int32_t n = g->n;
    int bad = 0;
    for (int32_t t = 0; t < n; t++)
        for (int32_t v = 0; v < n; v++) {
            int32_t p = mt->parent[(int64_t)t * n + v];
            if (v == t) {
                bad += p != -1;
                continue;
            }
            int linked = 0; /* p -> v must be a link, p in the tree before v */
            for (int32_t e = g->out_first[p]; e < g->out_first[p + 1]; e++)
                linked |= g->out[e] == v;
            bad += !linked || mt->step[(int64_t)t * n + p] >= mt->step[(int64_t)t * n + v];
        }
    CU_ASSERT_EQUAL(bad, 0);
    /* one use of a link per step */
    for (int s = 0; s < mt->nsteps; s++) {
        char *used = calloc((size_t)n * n, 1);
        int twice = 0;
        for (int32_t t = 0; t < n; t++)
            for (int32_t v = 0; v < n; v++)
                if (mt->step[(int64_t)t * n + v] == s) {
                    int64_t link = (int64_t)mt->parent[(int64_t)t * n + v] * n + v;
                    twice += used[link];
                    used[link] = 1;
                }
        CU_ASSERT_EQUAL(twice, 0);
        free(used);
    }
}

static void test_multitree(void)
{
    cs_error err;
    for (int32_t d = 2; d <= 16; d++) {
        if (d * (d + 1) > sweep_max_p())
            break;
        lgraph g;
        lgraph_kautz(d, &g);
        multitree mt;
        CU_ASSERT_EQUAL_FATAL(multitree_build(&g, &mt, &err), 0);
        check_trees(&g, &mt);
        /* at least ceil((n-1)/d) = d+1 steps; the thesis' d+1 on K(2,2), K(4,2), K(8,2),
         * K(16,2); at most one more elsewhere */
        CU_ASSERT_TRUE(mt.nsteps >= d + 1 && mt.nsteps <= d + 2);
        if (d == 2 || d == 4 || d == 8 || d == 16)
            CU_ASSERT_EQUAL(mt.nsteps, d + 1);
        if (d == 2) { /* thesis Fig. 3.1: 3 steps, the last one uses 6 of the 12 links */
            CU_ASSERT_EQUAL(mt.nsteps, 3);
            CU_ASSERT_EQUAL(multitree_edges_at(&mt, 0), 12);
            CU_ASSERT_EQUAL(multitree_edges_at(&mt, 2), 6);
        }
        multitree_free(&mt);
        lgraph_free(&g);
    }
    /* a graph that is not strongly connected */
    int32_t from[] = {0, 1}, to[] = {1, 2};
    lgraph g;
    lgraph_from_edges(&g, 3, 2, from, to);
    multitree mt;
    CU_ASSERT_EQUAL(multitree_build(&g, &mt, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "not strongly connected"));
    lgraph_free(&g);
}

/* ---- multi-path point to point -------------------------------------------------------------- */

static void test_multipath(void)
{
    for (int32_t d = 2; d <= 16; d++) {
        int32_t n = d * (d + 1);
        int64_t M = 1000LL * d * (d - 1) * 6; /* divisible by d and d-1 paths */
        double single = 0, multi = 0, single_small = 0, multi_small = 0;
        int paths[3] = {0, 0, 0}; /* how many destinations get d, d-1, 1 paths */
        for (int32_t dst = 1; dst < n; dst++) {
            alg_run run;
            CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_P2P, "kautz_shortest", n, M, 0, dst), 0);
            stats st = gather_stats(&run, d, 1);
            CU_ASSERT_EQUAL(st.not_a_link, 0);
            single += step_time(&st, 0, 1);
            single_small += step_time(&st, 1e-6, 8e-11 * 1024 / (double)M);
            alg_run_release(&run);
            CU_ASSERT_EQUAL_FATAL(prepare(&run, COLL_P2P, "kautz_multipath", n, M, 0, dst), 0);
            st = gather_stats(&run, d, 1);
            CU_ASSERT_EQUAL(st.not_a_link, 0);
            CU_ASSERT_TRUE(st.steps == 3 || (d == 2 && st.steps == 1));
            multi += step_time(&st, 0, 1);
            multi_small += step_time(&st, 1e-6, 8e-11 * 1024 / (double)M);
            paths[st.sends[0] == d ? 0 : st.sends[0] == d - 1 ? 1 : 2]++;
            alg_run_release(&run);
        }
        /* per source: d^2 destinations with d paths (types 1, 2), d-1 of type 3 */
        if (d > 2) {
            CU_ASSERT_EQUAL(paths[0], d * d);
            CU_ASSERT_EQUAL(paths[1], d - 1);
            /* Eq. 3.9: the large-message speed-up over single path */
            double expect = (2.0 * d * d + d - 2) / (3.0 * (d + 1));
            CU_ASSERT_TRUE(close_to(single / multi, expect));
            if (d == 16)
                CU_ASSERT_TRUE(fabs(single / multi - 10.31) < 0.01);
        }
        CU_ASSERT_TRUE(single_small < multi_small); /* 1 KiB: multi-path loses (Fig. 3.9) */
    }
}

/* ---- every algorithm verifies --------------------------------------------------------------- */

static int is_kautz_alg(const alg_desc *a) { return strncmp(a->name, "kautz_", 6) == 0; }

static void verify_one(const alg_desc *a, int32_t P, int32_t root, int32_t dst, int64_t bytes)
{
    coll_spec spec;
    coll_spec_init(&spec, a->coll, P, bytes);
    spec.root = root;
    spec.dst = dst;
    test_verify_expect_ok(a, &spec);
}

static void test_verify_all(void)
{
    size_t checked = 0;
    for (int32_t d = 2; d <= 16; d++) {
        int32_t n = d * (d + 1);
        if (n > sweep_max_p())
            break;
        for (size_t i = 0; i < registry_builtin_count(); i++) {
            const alg_desc *a = registry_builtin_at(i);
            if (!is_kautz_alg(a))
                continue;
            if (a->coll == COLL_P2P) { /* one destination of each type, both algorithms */
                int32_t partner = kautz_partner(d, 5 % n), one_way = kautz_out(d, 5 % n, 0);
                if (one_way == partner)
                    one_way = kautz_out(d, 5 % n, 1);
                verify_one(a, n, 5 % n, partner, 1000);
                verify_one(a, n, 5 % n, one_way, 1000);
                verify_one(a, n, 5 % n, (5 + n / 2) % n, 1000);
            } else {
                verify_one(a, n, 0, 1, 1 << 20);
                if (coll_has_root(a->coll))
                    verify_one(a, n, n - 1, 1, 999); /* uneven block sizes */
            }
            checked++;
        }
    }
    CU_ASSERT_TRUE(checked >= 22);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"Kautz numbering and graph", test_numbering},
        {"Kautz-C: 2 steps, d or d-1 blocks per message", test_kautz_c_messages},
        {"Kautz-M: d+1 steps of single blocks; congestion", test_kautz_m_steps},
        {"Table 3.2 costs under the per-step alpha-beta model", test_table_3_2},
        {"MULTITREE on K(d,2): K(2,2) in 3 steps, one use per link per step", test_multitree},
        {"multi-path p2p: path types and the (2d^2+d-2)/(3(d+1)) limit", test_multipath},
        {"every Kautz algorithm verifies on K(d,2), d = 2..16", test_verify_all},
        {NULL, NULL}};
    test_add_suite("kautz", cases);
    return test_run_suites();
}
