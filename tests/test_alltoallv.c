/* test_alltoallv.c - the non-uniform all-to-all algorithms.
 *
 *   radix plans   K, D, B, digits and per-round block counts equal the tables of the
 *                 ParLogNa digest (../shared/reference/alltoallv.md section 3.7, printed by
 *                 models/parlogna_kdb.py and parlogna_parlinna.py);
 *   T slots       t(j) uses floor(log_r j), and replaying every round keeps each forwarded
 *                 block in its own slot below B (P = 2..100, every r);
 *   schedules     per-round message shapes of ParLogNa and ParLinNa;
 *   verification  ParLogNa for every P in 2..100 and r in [2, P], ParLinNa for Q in
 *                 {4, 8, 32} with several N, radices and batch sizes, every MPI baseline,
 *                 each with a non-uniform, a zero-heavy and an all-zero workload; and
 *                 P = 1024 with the paper's settings and each workload kind.
 * COLLSIM_TEST_MAX_P lowers the largest P of the sweeps; when it is set (the sanitizer
 * build), ParLogNa takes every radix up to P = 48 and eight radices per P above, and
 * ParLinNa three batch sizes instead of five.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/alltoallv.h"
#include "algorithms/registry.h"
#include "testutil.h"
#include "traffic/workload.h"

static int32_t max_p(int32_t want)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    int32_t m = e ? (int32_t)atoi(e) : want;
    return m < want ? m : want;
}

/* ---- radix plans: the digest's tables ----------------------------------------------- */

typedef struct kdb_row {
    int32_t P, r, w, K;
    int64_t D, B, max_round;
} kdb_row;

static const kdb_row kdb_rows[] = {
    /* P = 8: the paper's worked example (B = 4, 3, 3 for r = 2, 3, 4) */
    {8, 2, 3, 3, 12, 4, 4}, {8, 3, 2, 4, 10, 3, 3}, {8, 4, 2, 4, 10, 3, 4},
    {8, 7, 2, 7, 7, 0, 1}, {8, 8, 1, 7, 7, 0, 1},
    {2048, 2, 11, 11, 11264, 2036, 1024}, {2048, 4, 6, 16, 8704, 2031, 1024},
    {2048, 8, 4, 24, 6912, 2023, 512}, {2048, 16, 3, 37, 5632, 2010, 256},
    {2048, 32, 3, 63, 4992, 1984, 1024}, {2048, 45, 3, 89, 4005, 1958, 46},
    {2048, 64, 2, 94, 4000, 1953, 64}, {2048, 256, 2, 262, 3832, 1785, 256},
    {2048, 1024, 2, 1024, 3070, 1023, 1024}, {2048, 2047, 2, 2047, 2047, 0, 1},
    {2048, 2048, 1, 2047, 2047, 0, 1},
    {4096, 2, 12, 12, 24576, 4083, 2048}, {4096, 64, 2, 126, 8064, 3969, 64},
    {4096, 4096, 1, 4095, 4095, 0, 1},
    {8192, 2, 13, 13, 53248, 8178, 4096}, {8192, 8, 5, 29, 32768, 8162, 4096},
    {8192, 32, 3, 69, 23040, 8122, 1024}, {8192, 90, 3, 179, 16204, 8012, 92},
    {8192, 128, 2, 190, 16192, 8001, 128}, {8192, 1024, 2, 1030, 15352, 7161, 1024},
    {16384, 2, 14, 14, 114688, 16369, 8192}, {16384, 128, 2, 254, 32512, 16129, 128},
    {16384, 1024, 2, 1038, 31728, 15345, 1024},
    /* ParLinNa's intra-node phase, Q = 32 */
    {32, 2, 5, 5, 80, 26, 16}, {32, 4, 3, 7, 64, 24, 16}, {32, 8, 2, 10, 52, 21, 8},
    {32, 16, 2, 16, 46, 15, 16}, {32, 31, 2, 31, 31, 0, 1}, {32, 32, 1, 31, 31, 0, 1},
};

static void test_kdb_tables(void)
{
    for (size_t i = 0; i < sizeof kdb_rows / sizeof *kdb_rows; i++) {
        const kdb_row *e = &kdb_rows[i];
        radix_plan pl;
        cs_error err;
        CU_ASSERT_EQUAL_FATAL(radix_plan_init(&pl, e->P, e->r, &err), 0);
        int64_t sum = 0;
        for (int32_t k = 0; k < pl.K; k++)
            sum += pl.rounds[k].nblocks;
        if (pl.w != e->w || pl.K != e->K || pl.D != e->D || pl.B != e->B ||
            pl.max_round_blocks != e->max_round || sum != pl.D)
            fprintf(stderr, "\n  P=%d r=%d: w=%d K=%d D=%lld B=%lld max=%lld\n", e->P, e->r, pl.w,
                    pl.K, (long long)pl.D, (long long)pl.B, (long long)pl.max_round_blocks);
        CU_ASSERT_EQUAL(pl.w, e->w);
        CU_ASSERT_EQUAL(pl.K, e->K);
        CU_ASSERT_EQUAL(pl.D, e->D);
        CU_ASSERT_EQUAL(pl.B, e->B);
        CU_ASSERT_EQUAL(pl.max_round_blocks, e->max_round);
        CU_ASSERT_EQUAL(sum, pl.D);
        radix_plan_free(&pl);
    }
}

/* Per-round block counts and offsets, P = 8 (models/parlogna_parlinna.py rounds()). */
static void test_rounds_p8(void)
{
    static const int64_t counts[][8] = {
        {4, 4, 4}, {3, 2, 3, 2}, {2, 2, 2, 4}, {1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1}};
    static const int32_t radices[] = {2, 3, 4, 7, 8};
    for (int i = 0; i < 5; i++) {
        radix_plan pl;
        cs_error err;
        CU_ASSERT_EQUAL_FATAL(radix_plan_init(&pl, 8, radices[i], &err), 0);
        for (int32_t k = 0; k < pl.K; k++)
            CU_ASSERT_EQUAL(pl.rounds[k].nblocks, counts[i][k]);
        radix_plan_free(&pl);
    }
    /* r = 3: (x, z, distance) and offsets of each round */
    static const int64_t offs3[4][3] = {{1, 4, 7}, {2, 5}, {3, 4, 5}, {6, 7}};
    static const int32_t xz3[4][3] = {{0, 1, 1}, {0, 2, 2}, {1, 1, 3}, {1, 2, 6}};
    radix_plan pl;
    cs_error err;
    int64_t out[8];
    radix_plan_init(&pl, 8, 3, &err);
    for (int k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL(pl.rounds[k].x, xz3[k][0]);
        CU_ASSERT_EQUAL(pl.rounds[k].z, xz3[k][1]);
        CU_ASSERT_EQUAL(pl.rounds[k].s, xz3[k][2]);
        radix_round_offsets(&pl, &pl.rounds[k], out);
        for (int64_t j = 0; j < pl.rounds[k].nblocks; j++)
            CU_ASSERT_EQUAL(out[j], offs3[k][j]);
    }
    radix_plan_free(&pl);
    static const int64_t offs2[3][4] = {{1, 3, 5, 7}, {2, 3, 6, 7}, {4, 5, 6, 7}};
    radix_plan_init(&pl, 8, 2, &err);
    for (int k = 0; k < 3; k++) {
        radix_round_offsets(&pl, &pl.rounds[k], out);
        for (int j = 0; j < 4; j++)
            CU_ASSERT_EQUAL(out[j], offs2[k][j]);
    }
    radix_plan_free(&pl);
    /* near-sqrt(P) radices: first and last round sizes */
    radix_plan_init(&pl, 2048, 45, &err);
    CU_ASSERT_EQUAL(pl.rounds[0].nblocks, 46);
    CU_ASSERT_EQUAL(pl.rounds[pl.K - 1].nblocks, 23);
    radix_plan_free(&pl);
    radix_plan_init(&pl, 8192, 90, &err);
    CU_ASSERT_EQUAL(pl.rounds[0].nblocks, 92);
    CU_ASSERT_EQUAL(pl.rounds[1].nblocks, 91);
    CU_ASSERT_EQUAL(pl.rounds[pl.K - 1].nblocks, 92);
    radix_plan_free(&pl);
    CU_ASSERT_EQUAL(radix_plan_init(&pl, 8, 9, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "radix 9 is outside 2..8"));
    CU_ASSERT_EQUAL(radix_plan_init(&pl, 8, 1, &err), -1);
}

/* ---- T slots -------------------------------------------------------------------------- */

static void test_t_slot_values(void)
{
    CU_ASSERT_EQUAL(radix_t_slot(4, 3), 0); /* ceil(log_3 4) = 2 would give -1 */
    /* the paper's Figure 2(a), P = 8, r = 2: o = 3, 5, 6, 7 -> t = 0, 1, 2, 3 */
    CU_ASSERT_EQUAL(radix_t_slot(3, 2), 0);
    CU_ASSERT_EQUAL(radix_t_slot(5, 2), 1);
    CU_ASSERT_EQUAL(radix_t_slot(6, 2), 2);
    CU_ASSERT_EQUAL(radix_t_slot(7, 2), 3);
    /* r = 3 (models/parlogna_parlinna.py t_index) */
    static const int64_t j3[] = {5, 7, 8, 10, 11, 17, 19, 26};
    static const int64_t t3[] = {1, 2, 3, 4, 5, 11, 12, 19};
    for (int i = 0; i < 8; i++)
        CU_ASSERT_EQUAL(radix_t_slot(j3[i], 3), t3[i]);
}

/* Replays the rounds of (P, r) on slot numbers: a forwarded block is taken from slot t(j)
 * where it must be, a block that is not at its final hop goes to a free slot t(j) < B. */
static int replay_t_slots(int32_t P, int32_t r)
{
    radix_plan pl;
    cs_error err;
    if (radix_plan_init(&pl, P, r, &err) < 0)
        return -1;
    int64_t *slot = malloc(sizeof *slot * (size_t)(pl.B + 1));
    int64_t *offs = malloc(sizeof *offs * (size_t)(pl.max_round_blocks + 1));
    int ok = 1;
    for (int64_t t = 0; t < pl.B; t++)
        slot[t] = -1;
    for (int32_t k = 0; k < pl.K && ok; k++) {
        const radix_round *rd = &pl.rounds[k];
        radix_round_offsets(&pl, rd, offs);
        for (int64_t i = 0; i < rd->nblocks && ok; i++) { /* pack: forwarded blocks leave T */
            int64_t j = offs[i], t = radix_t_slot(j, r);
            if (radix_first_hop(rd, j))
                continue;
            ok = t >= 0 && t < pl.B && slot[t] == j;
            if (ok)
                slot[t] = -1;
        }
        for (int64_t i = 0; i < rd->nblocks && ok; i++) { /* unpack: not final -> T */
            int64_t j = offs[i], t = radix_t_slot(j, r);
            if (radix_final_hop(&pl, rd, j))
                continue;
            ok = t >= 0 && t < pl.B && slot[t] == -1;
            if (ok)
                slot[t] = j;
        }
    }
    for (int64_t t = 0; t < pl.B && ok; t++)
        ok = slot[t] == -1;
    free(slot);
    free(offs);
    radix_plan_free(&pl);
    return ok ? 0 : -1;
}

static void test_t_slot_replay(void)
{
    int32_t top = max_p(100);
    for (int32_t P = 2; P <= top; P++)
        for (int32_t r = 2; r <= P; r++) {
            int rc = replay_t_slots(P, r);
            if (rc < 0)
                fprintf(stderr, "\n  T slots collide or exceed B at P=%d r=%d\n", P, r);
            CU_ASSERT_EQUAL(rc, 0);
        }
}

/* ---- schedules -------------------------------------------------------------------------- */

typedef struct shape {
    int64_t data_blocks[64]; /* blocks of each data send, in order */
    int64_t meta_bytes[64];  /* bytes of each metadata send after the allreduce */
    int ndata, nmeta, steps;
} shape;

/* Generates one rank and records its sends; `skip_steps` steps (the allreduce) ignored. */
static void rank_shape(const char *alg, coll_spec *spec, int32_t rank, uint32_t skip_steps,
                       shape *sh)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLTOALLV, alg, &err);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, spec, &err), 0);
    sched_builder b;
    sb_init(&b, &run.layout);
    alg_run_gen(&run, rank, &b);
    memset(sh, 0, sizeof *sh);
    sh->steps = (int)b.rs.nsteps;
    for (uint32_t s = skip_steps; s < b.rs.nsteps; s++)
        for (uint32_t i = rs_step_begin(&b.rs, s); i < rs_step_end(&b.rs, s); i++) {
            const sched_op *o = &b.rs.ops[i];
            if (o->kind != OP_SEND)
                continue;
            if (o->nranges == 0 && sh->nmeta < 64) {
                sh->meta_bytes[sh->nmeta++] = o->bytes;
                continue;
            }
            int64_t n = 0;
            for (uint32_t k = 0; k < o->nranges; k++)
                n += rs_op_ranges(&b.rs, o)[k].hi - rs_op_ranges(&b.rs, o)[k].lo;
            if (sh->ndata < 64)
                sh->data_blocks[sh->ndata++] = n;
        }
    sb_free(&b);
    alg_run_release(&run);
}

static void test_parlogna_shape(void)
{
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLTOALLV, 8, 1 << 20);
    shape sh;
    coll_spec_set_param(&spec, "radix", "3", NULL);
    rank_shape("parlogna", &spec, 5, 3, &sh); /* allreduce: 3 steps at P = 8 */
    static const int64_t blocks3[] = {3, 2, 3, 2};
    CU_ASSERT_EQUAL(sh.ndata, 4);
    CU_ASSERT_EQUAL(sh.nmeta, 4);
    for (int k = 0; k < 4; k++) {
        CU_ASSERT_EQUAL(sh.data_blocks[k], blocks3[k]);
        CU_ASSERT_EQUAL(sh.meta_bytes[k], 4 * blocks3[k]);
    }
    CU_ASSERT_EQUAL(sh.steps, 3 + 1 + 2 * 4);
    coll_spec_set_param(&spec, "radix", "7", NULL); /* one block per round: no metadata */
    rank_shape("parlogna", &spec, 0, 3, &sh);
    CU_ASSERT_EQUAL(sh.ndata, 7);
    CU_ASSERT_EQUAL(sh.nmeta, 0);
    CU_ASSERT_EQUAL(sh.steps, 3 + 1 + 7);
}

/* ParLinNa, Q = 4, N = 3, r = 2: two intra rounds of N*2 blocks with metadata, then the
 * inter-node messages: coalesced N-1 of Q blocks, staggered (N-1)Q of one block. */
static void test_parlinna_shape(void)
{
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLTOALLV, 12, 1 << 20);
    spec.ranks_per_node = 4;
    shape sh;
    rank_shape("parlinna_coalesced", &spec, 5, 4, &sh); /* allreduce: 4 steps at P = 12 */
    CU_ASSERT_EQUAL(sh.nmeta, 2);
    CU_ASSERT_EQUAL(sh.meta_bytes[0], 4 * 6);
    CU_ASSERT_EQUAL(sh.ndata, 2 + 2);
    CU_ASSERT_EQUAL(sh.data_blocks[0], 6);
    CU_ASSERT_EQUAL(sh.data_blocks[1], 6);
    CU_ASSERT_EQUAL(sh.data_blocks[2], 4);
    CU_ASSERT_EQUAL(sh.data_blocks[3], 4);
    rank_shape("parlinna_staggered", &spec, 5, 4, &sh);
    CU_ASSERT_EQUAL(sh.nmeta, 2);
    CU_ASSERT_EQUAL(sh.ndata, 2 + 8);
    for (int k = 2; k < sh.ndata; k++)
        CU_ASSERT_EQUAL(sh.data_blocks[k], 1);
    /* batch_size 5 over the P = 12 slots (4 own-node): batches [4,5) [5,10) [10,12) */
    coll_spec_set_param(&spec, "batch_size", "5", NULL);
    shape sb;
    rank_shape("parlinna_staggered", &spec, 5, 4, &sb);
    CU_ASSERT_EQUAL(sb.steps, sh.steps + 2);
    coll_spec_set_param(&spec, "radix", "5", NULL);
    alg_run run;
    cs_error err;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, registry_find(NULL, COLL_ALLTOALLV, "parlinna_staggered",
                                                        &err), &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "radix 5 is outside 2..4"));
    spec.ranks_per_node = 1;
    coll_spec_set_param(&spec, "radix", "2", NULL);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, registry_find(NULL, COLL_ALLTOALLV, "parlinna_coalesced",
                                                        &err), &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Q >= 2"));
}

/* ---- verification sweeps ------------------------------------------------------------------ */

/* The three workload shapes every sweep uses, for P ranks. */
static const char *const sweep_workloads[] = {"uniform:S=64:seed=%d", "uniform:S=2:seed=%d",
                                              "constant:S=0"};

typedef struct wl_set {
    workload *w[3];
} wl_set;

static void wl_set_make(wl_set *s, int32_t P)
{
    for (int i = 0; i < 3; i++) {
        char text[64];
        workload_params p;
        cs_error err;
        snprintf(text, sizeof text, sweep_workloads[i], P);
        CU_ASSERT_EQUAL_FATAL(workload_parse(text, &p, &err), 0);
        CU_ASSERT_EQUAL_FATAL(workload_create(&p, P, &s->w[i], &err), 0);
        workload_materialize(s->w[i], 1 << 20); /* same sizes, faster lookups */
    }
}

static void wl_set_free(wl_set *s)
{
    for (int i = 0; i < 3; i++)
        workload_free(s->w[i]);
}

/* Verifies; returns the number of sends, or -1 when the algorithm refused the spec. */
static int64_t check(const char *alg, const coll_spec *spec, verify_mode mode)
{
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLTOALLV, alg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    verify_result res;
    int rc = test_verify(a, spec, mode, &res, &err);
    if (rc < 0 && strstr(err.msg, "requires P to be a power of two"))
        return -1;
    CU_ASSERT_EQUAL(rc, 0);
    if (rc < 0 || !res.ok) {
        char wl[256] = "even split";
        if (spec->workload)
            workload_format(workload_get_params(spec->workload), wl, sizeof wl);
        fprintf(stderr, "\n  %s P=%d Q=%d %s %s=%s: %s\n", alg, spec->P, spec->ranks_per_node, wl,
                spec->nparams ? spec->params[0].name : "", spec->nparams ? spec->params[0].value : "",
                rc < 0 ? err.msg : res.error);
        return 0;
    }
    CU_ASSERT_TRUE(res.ok);
    CU_ASSERT_TRUE(res.deadlock_checked);
    return res.messages;
}

/* The quick sweep: COLLSIM_TEST_MAX_P is set (sanitizer build). */
static int quick_sweep(void)
{
    return getenv("COLLSIM_TEST_MAX_P") != NULL;
}

/* In the quick sweep above P = 48: the radices 2, 3, 4, about sqrt(P), P/2, P-2, P-1, P. */
static int radix_in_sweep(int32_t P, int32_t r)
{
    if (!quick_sweep() || P <= 48)
        return 1;
    int32_t root = 1;
    while ((root + 1) * (root + 1) <= P)
        root++;
    return r <= 4 || r == root || r == P / 2 || r >= P - 2;
}

static void test_verify_parlogna(void)
{
    int32_t top = max_p(100);
    int64_t cases = 0;
    for (int32_t P = 2; P <= top; P++) {
        wl_set ws;
        wl_set_make(&ws, P);
        for (int32_t r = 2; r <= P; r++) {
            if (!radix_in_sweep(P, r))
                continue;
            cases++;
            coll_spec spec;
            coll_spec_init(&spec, COLL_ALLTOALLV, P, 0);
            spec.workload = ws.w[(P + r) % 3];
            char rv[16];
            snprintf(rv, sizeof rv, "%d", r);
            coll_spec_set_param(&spec, "radix", rv, NULL);
            check("parlogna", &spec, VERIFY_STREAM);
        }
        wl_set_free(&ws);
    }
    CU_ASSERT(cases >= (quick_sweep() ? 1000 : (int64_t)(top - 1) * top / 2));
}

static void test_verify_parlinna(void)
{
    static const int32_t Qs[] = {4, 8, 32}, Ns[] = {1, 2, 3, 5};
    static const char *const batches[] = {"0", "1", "3", "2", "7"}; /* quick: first 3 */
    static const char *const variants[] = {"parlinna_coalesced", "parlinna_staggered"};
    int ran = 0;
    for (int qi = 0; qi < 3; qi++)
        for (int ni = 0; ni < 4; ni++) {
            int32_t Q = Qs[qi], P = Q * Ns[ni];
            if (P > max_p(160))
                continue;
            wl_set ws;
            wl_set_make(&ws, P);
            int32_t radices[] = {2, 3, Q};
            for (int ri = 0; ri < 3; ri++)
                for (int bi = 0; bi < (quick_sweep() ? 3 : 5); bi++)
                    for (int v = 0; v < 2; v++) {
                        coll_spec spec;
                        coll_spec_init(&spec, COLL_ALLTOALLV, P, 0);
                        spec.ranks_per_node = Q;
                        spec.workload = ws.w[(ri + bi + v) % 3];
                        char rv[16];
                        snprintf(rv, sizeof rv, "%d", radices[ri]);
                        coll_spec_set_param(&spec, "radix", rv, NULL);
                        coll_spec_set_param(&spec, "batch_size", batches[bi], NULL);
                        check(variants[v], &spec, VERIFY_FULL);
                        ran++;
                    }
            wl_set_free(&ws);
        }
    CU_ASSERT(ran >= (quick_sweep() ? 54 : 90));
}

/* Every other alltoallv algorithm (the MPI baselines and two-phase Bruck), both engines;
 * the baselines post no message for a zero-byte block, so the all-zero workload sends none. */
static void test_verify_baselines(void)
{
    static const char *const names[] = {"linear", "spread_out", "scattered", "pairwise", "xor",
                                        "bruck"};
    static const char *const batches[] = {"1", "3", "0"};
    int32_t top = max_p(40);
    for (int32_t P = 2; P <= top; P++) {
        wl_set ws;
        wl_set_make(&ws, P);
        for (size_t a = 0; a < sizeof names / sizeof *names; a++)
            for (int wi = 0; wi < 3; wi++) {
                coll_spec spec;
                coll_spec_init(&spec, COLL_ALLTOALLV, P, 0);
                spec.workload = ws.w[wi];
                if (strcmp(names[a], "scattered") == 0)
                    coll_spec_set_param(&spec, "batch_size", batches[(P + wi) % 3], NULL);
                verify_mode mode = P % 2 ? VERIFY_FULL : VERIFY_STREAM;
                int64_t sends = check(names[a], &spec, mode);
                if (wi == 2 && strcmp(names[a], "bruck") != 0)
                    CU_ASSERT(sends <= 0);
                if (wi == 0 && sends >= 0)
                    CU_ASSERT(sends > 0);
            }
        wl_set_free(&ws);
    }
}

/* P = 1024 with the paper's settings (32 ranks per node, radix ~ sqrt(P), batches) and
 * each workload kind, through the streaming engine. */
static void test_verify_large(void)
{
    static const struct {
        const char *alg, *workload, *radix, *batch;
        int32_t Q;
    } cases[] = {
        {"parlogna", "uniform:S=1KiB", "32", NULL, 1},
        {"parlinna_coalesced", "normal:mean=1000:sd=240:max=1KiB", "4", "8", 32},
        {"parlinna_staggered", "fft2", "8", "64", 32},
        {"scattered", "powerlaw:max=1KiB:x=0.95", NULL, "32", 1},
        {"pairwise", "fft1", NULL, NULL, 1},
        {"bruck", "uniform:S=64:unit=8B", NULL, NULL, 1},
    };
    int32_t P = 1024;
    if (max_p(P) < P)
        return;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        workload_params wp;
        cs_error err;
        workload *w;
        CU_ASSERT_EQUAL_FATAL(workload_parse(cases[i].workload, &wp, &err), 0);
        CU_ASSERT_EQUAL_FATAL(workload_create(&wp, P, &w, &err), 0);
        coll_spec spec;
        coll_spec_init(&spec, COLL_ALLTOALLV, P, 0);
        spec.workload = w;
        spec.ranks_per_node = cases[i].Q;
        if (cases[i].radix)
            coll_spec_set_param(&spec, "radix", cases[i].radix, NULL);
        if (cases[i].batch)
            coll_spec_set_param(&spec, "batch_size", cases[i].batch, NULL);
        CU_ASSERT(check(cases[i].alg, &spec, VERIFY_STREAM) > 0);
        workload_free(w);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"K, D, B, w, max blocks per round = digest tables", test_kdb_tables},
        {"per-round blocks and offsets, P = 8", test_rounds_p8},
        {"T slot t(j) uses floor(log_r j)", test_t_slot_values},
        {"T slots stay below B without collisions, P = 2..100, every r", test_t_slot_replay},
        {"ParLogNa message shapes", test_parlogna_shape},
        {"ParLinNa message shapes", test_parlinna_shape},
        {"ParLogNa verifies, P = 2..100, every r, three workloads", test_verify_parlogna},
        {"ParLinNa verifies, Q = 4, 8, 32, several N, radices, batch sizes",
         test_verify_parlinna},
        {"baselines verify with non-uniform, zero-size and all-zero workloads",
         test_verify_baselines},
        {"P = 1024: every workload kind, 32 ranks per node", test_verify_large},
        {NULL, NULL}};
    test_add_suite("alltoallv", cases);
    return test_run_suites();
}
