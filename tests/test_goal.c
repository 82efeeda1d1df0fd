/* test_goal.c - GOAL schedule files: export then import gives the identical schedule for
 * every built-in algorithm that can be prepared at small P; the documented example files
 * import and verify; malformed files fail with file:line messages; a planted bug in a
 * file is caught by the verifier. */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "schedio/file_alg.h"
#include "schedio/goal.h"
#include "schedio/user_alg.h"
#include "testutil.h"

/* ---- exact comparison of a run with an imported file ---------------------------------- */

static int same_layout(const sched_layout *a, const sched_layout *b)
{
    return a->coll == b->coll && a->P == b->P && a->root == b->root && a->dst == b->dst &&
           a->nblocks == b->nblocks && a->row_len == b->row_len &&
           a->row_bytes == b->row_bytes && a->blocks_per_rank == b->blocks_per_rank &&
           a->pair_blocks == b->pair_blocks;
}

/* 1 when rank r of the run equals rank r of the file, op by op and range by range. */
static int same_rank(const rank_sched *a, const rank_sched *b)
{
    if (a->nsteps != b->nsteps || a->nops != b->nops)
        return 0;
    for (uint32_t s = 0; s <= a->nsteps; s++)
        if (a->step_first[s] != b->step_first[s])
            return 0;
    for (uint32_t i = 0; i < a->nops; i++) {
        const sched_op *x = &a->ops[i], *y = &b->ops[i];
        if (x->kind != y->kind || x->flags != y->flags || x->bytes != y->bytes ||
            (op_is_comm(x) && x->peer != y->peer) || x->nranges != y->nranges)
            return 0;
        const blk_range *rx = rs_op_ranges(a, x), *ry = rs_op_ranges(b, y);
        for (uint32_t k = 0; k < x->nranges; k++)
            if (rx[k].lo != ry[k].lo || rx[k].hi != ry[k].hi)
                return 0;
    }
    return 1;
}

/* Exports the run, imports it back, compares; returns 1 when identical. */
static int round_trip(const alg_run *run)
{
    FILE *f = tmpfile();
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    goal_write_options wo;
    goal_write_options_default(&wo);
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(goal_write(f, run, &wo, &err), 0);
    rewind(f);
    goal_read_options ro;
    goal_read_options_default(&ro);
    sched_file sf;
    int rc = goal_read(f, "roundtrip.goal", &ro, &sf, &err);
    fclose(f);
    if (rc < 0) {
        printf("\n  %s: import failed: %s\n", run->alg->name, err.msg);
        return 0;
    }
    int same = sf.has_blocks == !run->layout.block_bytes_fn &&
               (!sf.has_blocks || same_layout(&run->layout, &sf.layout));
    sched_builder b;
    sb_init(&b, &run->layout);
    for (int32_t r = 0; same && r < run->spec.P; r++) {
        alg_run_gen(run, r, &b);
        same = same_rank(&b.rs, &sf.ranks[r]);
        if (!same)
            printf("\n  %s %s P=%d: rank %d differs after the round trip\n",
                   coll_name(run->alg->coll), run->alg->name, run->spec.P, r);
    }
    sb_free(&b);
    sched_file_free(&sf);
    return same;
}

/* Prepares alg at the first of a few shapes it accepts; returns 0 when none fits. */
static int prepare_small(const alg_desc *alg, alg_run *run)
{
    static const int32_t shapes[][3] = {{8, 2, 4}, {16, 4, 4}, {6, 2, 3}, {12, 3, 4},
                                        {9, 3, 3}, {32, 4, 8}, {64, 8, 8}, {20, 4, 5}};
    cs_error err;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int with_dims = 0; with_dims < 2; with_dims++) {
            coll_spec spec;
            coll_spec_init(&spec, alg->coll, shapes[i][0], 96 * 1024 + 5);
            if (with_dims) {
                spec.ndims = 2;
                spec.dims[0] = shapes[i][1];
                spec.dims[1] = shapes[i][2];
            }
            if (alg_run_prepare(run, alg, &spec, &err) == 0)
                return 1;
        }
    return 0;
}

static void test_round_trip_every_builtin(void)
{
    size_t tried = 0, allreduce = 0, failed = 0;
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *alg = registry_builtin_at(i);
        alg_run run;
        if (!prepare_small(alg, &run))
            continue; /* needs a shape none of the small ones has (e.g. Kautz P = d(d+1)) */
        tried++;
        allreduce += alg->coll == COLL_ALLREDUCE;
        if (!round_trip(&run))
            failed++;
        alg_run_release(&run);
    }
    printf("\n  round-tripped %zu algorithms (%zu allreduce), %zu differ\n", tried, allreduce,
           failed);
    CU_ASSERT_EQUAL(failed, 0);
    CU_ASSERT(allreduce >= 10);
    CU_ASSERT(tried >= 60);
}

/* Every built-in allreduce, at a non-power-of-two P too where it accepts one. */
static void test_round_trip_allreduce_sizes(void)
{
    static const int32_t Ps[] = {2, 3, 5, 7, 16, 24};
    for (size_t i = 0; i < registry_builtin_count(); i++) {
        const alg_desc *alg = registry_builtin_at(i);
        if (alg->coll != COLL_ALLREDUCE)
            continue;
        for (size_t k = 0; k < sizeof Ps / sizeof Ps[0]; k++) {
            coll_spec spec;
            coll_spec_init(&spec, COLL_ALLREDUCE, Ps[k], 1000003);
            alg_run run;
            cs_error err;
            if (alg_run_prepare(&run, alg, &spec, &err) < 0)
                continue;
            CU_ASSERT_TRUE(round_trip(&run));
            alg_run_release(&run);
        }
    }
}

/* ---- the documented example files ----------------------------------------------------- */

static void verify_file(const char *path, int expect_blocks, int32_t expect_P,
                        uint32_t expect_steps)
{
    goal_read_options ro;
    goal_read_options_default(&ro);
    file_alg *a;
    cs_error err;
    int rc = file_alg_load(path, &ro, &a, &err);
    if (rc < 0)
        printf("\n  %s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, 0);
    CU_ASSERT_EQUAL(a->sched.has_blocks, expect_blocks);
    CU_ASSERT_EQUAL(a->sched.layout.P, expect_P);
    CU_ASSERT_EQUAL(a->sched.ranks[0].nsteps, expect_steps);
    coll_spec spec;
    file_alg_spec(a, &spec);
    verify_result res;
    CU_ASSERT_EQUAL(test_verify(&a->desc, &spec, VERIFY_FULL, &res, &err), 0);
    if (!res.ok)
        printf("\n  %s\n", res.error);
    CU_ASSERT_TRUE(res.ok);
    CU_ASSERT_EQUAL(res.messages, 2 * expect_P);
    file_alg_free(a);
}

static void test_example_files(void)
{
    verify_file("tests/data/goal_allreduce_rd4.goal", 1, 4, 2);
    verify_file("tests/data/goal_dissemination4.goal", 0, 4, 2);
}

/* ---- broken files ----------------------------------------------------------------------- */

static void expect_error_with(const goal_read_options *ro, const char *text, const char *where,
                              const char *what)
{
    FILE *f = tmpfile();
    fputs(text, f);
    rewind(f);
    sched_file sf;
    cs_error err;
    int rc = goal_read(f, "bad.goal", ro, &sf, &err);
    fclose(f);
    CU_ASSERT_EQUAL(rc, -1);
    if (rc == 0) {
        sched_file_free(&sf);
        printf("\n  accepted: %s\n", text);
        return;
    }
    if (!strstr(err.msg, where) || !strstr(err.msg, what))
        printf("\n  expected '%s' and '%s' in: %s\n", where, what, err.msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, where));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, what));
}

static void expect_error(const char *text, const char *where, const char *what)
{
    goal_read_options ro;
    goal_read_options_default(&ro);
    expect_error_with(&ro, text, where, what);
}

/* A root or p2p destination outside the file's ranks, from the options of a plain file
 * or from the collsim header (fuzz_goal's crash-71365221...). */
static void test_bad_endpoints(void)
{
    const char *plain = "num_ranks 2\nrank 0 {\nl1: send 4b to 1\n}\n"
                        "rank 1 {\nl1: recv 4b from 0\n}\n";
    goal_read_options ro;
    goal_read_options_default(&ro);
    ro.coll = COLL_BCAST;
    ro.root = 2;
    expect_error_with(&ro, plain, "bad.goal", "root 2 is not a rank of the schedule (allowed: 0..1) (--root)");
    ro.coll = COLL_P2P;
    ro.root = 0;
    ro.dst = 7;
    expect_error_with(&ro, plain, "bad.goal", "destination 7 is not a rank");
    expect_error("// collsim-goal v1 collective=bcast P=2 bytes=4 root=5 nblocks=1 row_len=1 "
                 "row_bytes=4\n" "num_ranks 2\nrank 0 {\n}\nrank 1 {\n}\n",
                 "bad.goal", "header's root 5");
    ro.coll = COLL_BCAST; /* the same file with a root it has imports */
    ro.root = 1;
    FILE *f = tmpfile();
    fputs(plain, f);
    rewind(f);
    sched_file sf;
    cs_error err;
    int rc = goal_read(f, "ok.goal", &ro, &sf, &err);
    fclose(f);
    CU_ASSERT_EQUAL(rc, 0);
    if (rc == 0)
        sched_file_free(&sf);
}

static void test_malformed(void)
{
    expect_error("rank 0 {\n}\n", "bad.goal:1:", "num_ranks");
    expect_error("num_ranks 2\nrank 0 {\nl1: send 8 to 1\n}\n", "bad.goal:3:", "512b");
    expect_error("num_ranks 2\nrank 0 {\nl1: send 8b to 5\n}\n", "bad.goal:3:", "not a rank");
    expect_error("num_ranks 2\nrank 0 {\nl1: recv 8b from -1\n}\n", "bad.goal:3:", "any-source");
    expect_error("num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag -1\n}\n", "bad.goal:3:", "wildcard");
    expect_error("num_ranks 2\nrank 0 {\nl1: put 8b to 1\n}\n", "bad.goal:3:", "unknown operation");
    expect_error("num_ranks 2\nrank 0 {\nl1: calc 5\nl1 requires l9\n}\n", "bad.goal:4:", "'l9'");
    expect_error("num_ranks 2\nrank 0 {\nl1: calc 5\nl1: calc 5\n}\n", "bad.goal:4:", "twice");
    expect_error("num_ranks 2\nrank 0 {\nl1: calc 5\nl2: calc 1\nl1 requires l2\n"
                 "l2 requires l1\n}\nrank 1 {\n}\n", "bad.goal:", "cycle");
    expect_error("num_ranks 2\nrank 0 {\n}\n", "bad.goal:3:", "rank 1 has no");
    expect_error("num_ranks 2\nrank 0 {\nl1: calc 5\n", "bad.goal:3:", "not closed");
    expect_error("num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n", "bad.goal:4:", "second block");
    expect_error("num_ranks 2\nrank 0 {\n/* open\n}\n", "bad.goal:4:", "unterminated");
    expect_error("// collsim-goal v1 collective=allreduce P=2 bytes=8 nblocks=1 row_len=1 "
                 "row_bytes=8\nnum_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\n",
                 "bad.goal:4:", "annotation");
    expect_error("// collsim-goal v1 collective=allreduce P=2 bytes=8 nblocks=1 row_len=1 "
                 "row_bytes=8\nnum_ranks 2\nrank 0 {\n//@ 0 zz\nl1: send 8b to 1\n}\n",
                 "bad.goal:4:", "block ranges");
    expect_error("// collsim-goal v1 collective=allreduce P=2 bytes=8 nblocks=1 row_len=1 "
                 "row_bytes=8\nnum_ranks 2\nrank 0 {\n//@ 7 0:1\nl1: send 8b to 1\n}\n",
                 "bad.goal:5:", "without gaps");
    expect_error("num_ranks 3000000000\n", "bad.goal:1:", "num_ranks <N>");
    expect_error("// collsim-goal v1 collective=allreduce P=3\nnum_ranks 2\n", "bad.goal:2:",
                 "differs");
    expect_error("// collsim-goal v1 collective=allreducee P=2\n", "bad.goal:1:", "allowed");
}

/* A file with a planted bug (a receive of the wrong block) imports, and the verifier
 * rejects it naming rank, step and block. */
static void test_planted_bug(void)
{
    const char *text =
        "// collsim-goal v1 collective=allgather P=2 bytes=16 root=0 dst=1 nblocks=2 "
        "row_len=2 row_bytes=16 blocks_per_rank=1 pair_blocks=1 blocks=yes\n"
        "num_ranks 2\n"
        "rank 0 {\n//@ 0 0:1\na: send 8b to 1\n//@ 0 1:2\nb: recv 8b from 1\n}\n"
        "rank 1 {\n//@ 0 0:1\na: send 8b to 0\n//@ 0 0:1\nb: recv 8b from 0\n}\n";
    goal_read_options ro;
    goal_read_options_default(&ro);
    cs_error err;
    file_alg *loaded;
    FILE *f = fopen("/tmp/collsim_test_goal_bug.goal", "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    CU_ASSERT_EQUAL_FATAL(file_alg_load("/tmp/collsim_test_goal_bug.goal", &ro, &loaded, &err), 0);
    remove("/tmp/collsim_test_goal_bug.goal");
    coll_spec spec;
    file_alg_spec(loaded, &spec);
    for (int engine = 0; engine < 2; engine++) {
        verify_result res;
        CU_ASSERT_EQUAL(test_verify(&loaded->desc, &spec, engine ? VERIFY_STREAM : VERIFY_FULL,
                                    &res, &err), 0);
        CU_ASSERT_FALSE(res.ok);
        CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "rank 1"));
        CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "step 0"));
        CU_ASSERT_PTR_NOT_NULL(strstr(res.error, "block"));
    }
    file_alg_free(loaded);
}

/* ---- run-time algorithms by callbacks (the interface proposed for Lua) ---------------- */

static int wrap_prepare(void *def, const coll_spec *spec, sched_layout *layout, void **run_ctx,
                        cs_error *err)
{
    const alg_desc *real = def;
    *run_ctx = NULL;
    return real->prepare(spec, layout, run_ctx, err);
}

static int wrap_gen(void *def, const void *run_ctx, const coll_spec *spec, int32_t rank,
                    sched_builder *b, cs_error *err)
{
    (void)err;
    ((const alg_desc *)def)->gen_rank(spec, run_ctx, rank, b);
    return 0;
}

/* The same generator, failing at rank 5 (a script error, say). */
static int failing_gen(void *def, const void *run_ctx, const coll_spec *spec, int32_t rank,
                       sched_builder *b, cs_error *err)
{
    if (rank == 5)
        return cs_fail(err, "my.lua:7: boom at rank %d", rank);
    return wrap_gen(def, run_ctx, spec, rank, b, err);
}

/* A definition that is broken at prepare time (not a constraint). */
static int broken_prepare(void *def, const coll_spec *spec, sched_layout *layout, void **run_ctx,
                          cs_error *err)
{
    (void)def, (void)spec, (void)layout, (void)run_ctx;
    cs_fail(err, "my.lua:3: the peer function is no butterfly");
    return USER_ALG_BROKEN;
}

static void wrap_release(void *def, void *run_ctx)
{
    const alg_desc *real = def;
    if (real->release && run_ctx)
        real->release(run_ctx);
}

static void test_user_alg(void)
{
    cs_error err;
    const alg_desc *rd = registry_find(NULL, COLL_ALLREDUCE, "recursive_doubling", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(rd);
    static const user_alg_ops ops = {wrap_prepare, wrap_gen, wrap_release};
    alg_registry reg;
    alg_registry_init(&reg);
    user_alg a;
    memset(&a, 0, sizeof a);
    CU_ASSERT_EQUAL(user_alg_register(&reg, &a, COLL_ALLREDUCE, "recursive_doubling", "", "",
                                      &ops, (void *)rd, &err), -1); /* a built-in's name */
    CU_ASSERT_EQUAL_FATAL(user_alg_register(&reg, &a, COLL_ALLREDUCE, "my_rd", "mine", "P pow2",
                                            &ops, (void *)rd, &err), 0);
    const alg_desc *found = registry_find(&reg, COLL_ALLREDUCE, "my_rd", &err);
    CU_ASSERT_PTR_EQUAL(found, &a.desc);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 64, 4096);
    verify_result res;
    CU_ASSERT_EQUAL(test_verify(found, &spec, VERIFY_FULL, &res, &err), 0);
    CU_ASSERT_TRUE(res.ok);
    CU_ASSERT_EQUAL(res.messages, 64 * 6);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, found, &spec, &err), 0);
    CU_ASSERT_TRUE(round_trip(&run));
    CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), 0);
    alg_run_release(&run);
    alg_registry_free(&reg);
}

/* Errors while generating come back through user_alg_run_error, whatever the verifier
 * made of the truncated schedule, with one thread or several and a serialized generator. */
static void test_user_alg_errors(void)
{
    cs_error err;
    const alg_desc *rd = registry_find(NULL, COLL_ALLREDUCE, "recursive_doubling", &err);
    static const user_alg_ops failing = {wrap_prepare, failing_gen, wrap_release};
    static const user_alg_ops broken = {broken_prepare, wrap_gen, wrap_release};
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    alg_registry reg;
    alg_registry_init(&reg);
    user_alg a, s, b;
    memset(&a, 0, sizeof a);
    memset(&s, 0, sizeof s);
    memset(&b, 0, sizeof b);
    CU_ASSERT_EQUAL_FATAL(user_alg_register(&reg, &a, COLL_ALLREDUCE, "fails", "", "", &failing,
                                            (void *)rd, &err), 0);
    s.serialize = &lock;
    CU_ASSERT_EQUAL_FATAL(user_alg_register(&reg, &s, COLL_ALLREDUCE, "fails_serial", "", "",
                                            &failing, (void *)rd, &err), 0);
    CU_ASSERT_EQUAL_FATAL(user_alg_register(&reg, &b, COLL_ALLREDUCE, "broken", "", "", &broken,
                                            (void *)rd, &err), 0);
    const user_alg *algs[] = {&a, &s};
    for (int i = 0; i < 2; i++)
        for (int mode = 0; mode < 2; mode++) {
            coll_spec spec;
            coll_spec_init(&spec, COLL_ALLREDUCE, 64, 4096);
            alg_run run;
            CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, &algs[i]->desc, &spec, &err), 0);
            verify_options opt;
            verify_options_default(&opt);
            opt.mode = mode ? VERIFY_STREAM : VERIFY_FULL;
            opt.threads = 4;
            verify_result res;
            CU_ASSERT_EQUAL(verify_run(&run, &opt, &res, &err), 0);
            CU_ASSERT_FALSE(res.ok); /* rank 5 generated nothing */
            CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), -1);
            CU_ASSERT_STRING_EQUAL(err.msg, "my.lua:7: boom at rank 5");
            alg_run_release(&run);
        }
    /* a broken definition prepares (so that callers report a failure, not a skip) and
     * then reports its error */
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 8, 4096);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, &b.desc, &spec, &err), 0);
    CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no butterfly"));
    alg_run_release(&run);
    CU_ASSERT_TRUE(user_alg_is(&b.desc));
    CU_ASSERT_FALSE(user_alg_is(rd));
    alg_registry_free(&reg);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"export then import: every built-in", test_round_trip_every_builtin},
        {"export then import: allreduce at several P", test_round_trip_allreduce_sizes},
        {"documented example files import and verify", test_example_files},
        {"malformed files: file:line errors", test_malformed},
        {"root or destination outside the ranks", test_bad_endpoints},
        {"planted bug: verifier names rank, step, block", test_planted_bug},
        {"run-time algorithm by callbacks (user_alg.h)", test_user_alg},
        {"run-time algorithm errors: first error, serialized", test_user_alg_errors},
        {NULL, NULL}};
    test_add_suite("goal schedule files", cases);
    return test_run_suites();
}
