/* test_lua_alg.c - algorithms written in Lua (collsim.define_algorithm, src/sweep/lua_alg*.c):
 * the same schedules as the C built-ins they copy, generation from several verifier
 * threads at once, errors through user_alg_run_error, the definition hash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "schedio/user_alg.h"
#include "sweep/lua_alg.h"
#include "sweep/sweep.h"
#include "testutil.h"

static sweep_plan *load(const char *path)
{
    scenario_opts o;
    memset(&o, 0, sizeof o);
    o.algorithms_only = 1;
    sweep_plan *p = NULL;
    cs_error err;
    if (scenario_load(path, &o, &p, &err) < 0)
        fprintf(stderr, "%s\n", err.msg);
    return p;
}

static const alg_desc *find(const sweep_plan *p, coll_kind c, const char *name)
{
    cs_error err;
    return registry_find(sweep_plan_algorithms(p), c, name, &err);
}

/* Every rank of the two runs has the same steps, ops and blocks. */
static int same_schedule(const alg_run *a, const alg_run *b)
{
    if (a->layout.nblocks != b->layout.nblocks)
        return 0;
    sched_builder x, y;
    sb_init(&x, &a->layout);
    sb_init(&y, &b->layout);
    int same = 1;
    for (int32_t r = 0; r < a->spec.P && same; r++) {
        alg_run_gen(a, r, &x);
        alg_run_gen(b, r, &y);
        const rank_sched *s = &x.rs, *t = &y.rs;
        same = s->nsteps == t->nsteps && s->nops == t->nops && s->nranges == t->nranges &&
               memcmp(s->step_first, t->step_first, (s->nsteps + 1) * sizeof *s->step_first) == 0 &&
               memcmp(s->ranges, t->ranges, s->nranges * sizeof *s->ranges) == 0;
        for (uint32_t i = 0; same && i < s->nops; i++)
            same = s->ops[i].kind == t->ops[i].kind && s->ops[i].flags == t->ops[i].flags &&
                   s->ops[i].peer == t->ops[i].peer && s->ops[i].bytes == t->ops[i].bytes &&
                   s->ops[i].nranges == t->ops[i].nranges;
        if (!same)
            fprintf(stderr, "%s and %s differ at P=%d rank %d\n", a->alg->name, b->alg->name,
                    a->spec.P, r);
    }
    sb_free(&x);
    sb_free(&y);
    return same;
}

static void check_twin(const sweep_plan *p, coll_kind c, const char *lua, const char *builtin)
{
    static const int32_t Ps[] = {2, 8, 12, 16, 64, 100};
    cs_error err;
    const alg_desc *la = find(p, c, lua), *ca = registry_find(NULL, c, builtin, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(la);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ca);
    for (size_t i = 0; i < sizeof Ps / sizeof Ps[0]; i++) {
        coll_spec spec;
        coll_spec_init(&spec, c, Ps[i], 1000);
        alg_run a, b;
        CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&a, la, &spec, &err), 0);
        CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&b, ca, &spec, &err), 0);
        CU_ASSERT_TRUE(same_schedule(&a, &b));
        CU_ASSERT_EQUAL(user_alg_run_error(&a, &err), 0);
        alg_run_release(&a);
        alg_run_release(&b);
    }
}

static void test_same_as_builtins(void)
{
    sweep_plan *p = load("tests/data/lua_algorithms.lua");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    check_twin(p, COLL_ALLREDUCE, "lua_recursive_doubling", "recursive_doubling");
    check_twin(p, COLL_ALLREDUCE, "lua_rd_butterfly", "recursive_doubling");
    check_twin(p, COLL_ALLREDUCE, "lua_rabenseifner", "rabenseifner");
    check_twin(p, COLL_REDUCE_SCATTER, "lua_rs_doubling", "recursive_doubling");
    check_twin(p, COLL_ALLGATHER, "lua_ag_doubling", "recursive_doubling");
    /* a changed schedule is told apart (the comparison can fail) */
    cs_error err;
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 16, 1000);
    alg_run a, b;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&a, find(p, COLL_ALLREDUCE, "lua_rd_butterfly"), &spec,
                                          &err), 0);
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&b, registry_find(NULL, COLL_ALLREDUCE, "rabenseifner",
                                                            &err), &spec, &err), 0);
    CU_ASSERT_FALSE(same_schedule(&a, &b));
    alg_run_release(&a);
    alg_run_release(&b);
    sweep_plan_free(p);
}

/* The streaming verifier calls gen_rank from several threads: the steps form takes turns
 * in the Lua state, the butterfly form runs without it. Both verify. */
static void test_threads(void)
{
    sweep_plan *p = load("tests/data/lua_algorithms.lua");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    const char *names[] = {"lua_recursive_doubling", "lua_rabenseifner"};
    int32_t P = test_max_p(4096) < 4096 ? 512 : 4096;
    for (int i = 0; i < 2; i++) {
        coll_spec spec;
        coll_spec_init(&spec, COLL_ALLREDUCE, P + 3, 1 << 20);
        alg_run run;
        cs_error err;
        CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, find(p, COLL_ALLREDUCE, names[i]), &spec,
                                              &err), 0);
        verify_options opt;
        verify_options_default(&opt);
        opt.mode = VERIFY_STREAM;
        opt.threads = 4;
        verify_result res;
        CU_ASSERT_EQUAL(verify_run(&run, &opt, &res, &err), 0);
        CU_ASSERT_TRUE(res.ok);
        CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), 0);
        alg_run_release(&run);
    }
    sweep_plan_free(p);
}

/* A Lua error while generating is the run's error, named by file:line and rank, however
 * many threads generated; a broken peer function fails at prepare, as an error. */
static void test_errors(void)
{
    sweep_plan *p = load("tests/data/lua_bad.lua");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    cs_error err;
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLREDUCE, 2, 64);
    CU_ASSERT_EQUAL_FATAL(coll_spec_set_param(&spec, "bug", "error", &err), 0);
    for (int mode = 0; mode < 2; mode++) {
        alg_run run;
        CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, find(p, COLL_ALLREDUCE, "lua_shape"), &spec,
                                              &err), 0);
        verify_options opt;
        verify_options_default(&opt);
        opt.mode = mode ? VERIFY_STREAM : VERIFY_FULL;
        opt.threads = 4;
        verify_result res;
        verify_run(&run, &opt, &res, &err);
        CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), -1);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "tests/data/lua_bad.lua:31: attempt to index"));
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 1"));
        alg_run_release(&run);
    }
    CU_ASSERT_EQUAL_FATAL(coll_spec_set_param(&spec, "bug", "bogus", &err), 0);
    alg_run run;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, find(p, COLL_ALLREDUCE, "lua_shape"), &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "allowed: none|op|peer|key|blocks|steps|error"));
    coll_spec_init(&spec, COLL_ALLREDUCE, 8, 64);
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, find(p, COLL_ALLREDUCE, "lua_bad_peer"), &spec,
                                          &err), 0);
    CU_ASSERT_EQUAL(user_alg_run_error(&run, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "does not pair the participants"));
    alg_run_release(&run);
    sweep_plan_free(p);
}

/* The definition hash follows the functions' chunks, not the name alone. */
static void test_definition_hash(void)
{
    char path[] = "/tmp/collsim-luaalg-XXXXXX.lua";
    int fd = mkstemps(path, 4);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    const char *bodies[] = {"return {}", "return {{}}", "return {}"};
    char hashes[3][17];
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen(path, "w");
        fprintf(f, "collsim.define_algorithm{name = 'x', collective = 'allreduce',\n"
                   "  rank = function(r, P) %s end}\n", bodies[i]);
        fclose(f);
        sweep_plan *p = load(path);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        const char *h = lua_alg_def_hash(find(p, COLL_ALLREDUCE, "x"));
        CU_ASSERT_PTR_NOT_NULL_FATAL(h);
        CU_ASSERT_EQUAL(strlen(h), 16);
        snprintf(hashes[i], sizeof hashes[i], "%s", h);
        sweep_plan_free(p);
    }
    CU_ASSERT_STRING_NOT_EQUAL(hashes[0], hashes[1]);
    CU_ASSERT_STRING_EQUAL(hashes[0], hashes[2]);
    cs_error err;
    CU_ASSERT_PTR_NULL(lua_alg_def_hash(registry_find(NULL, COLL_ALLREDUCE, "ring", &err)));
    unlink(path);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"Lua algorithms give the built-ins' schedules", test_same_as_builtins},
        {"generation from several verifier threads", test_threads},
        {"Lua errors: file:line, rank; broken peer function", test_errors},
        {"definition hash follows the source", test_definition_hash},
        {NULL, NULL}};
    test_add_suite("Lua-defined algorithms", cases);
    return test_run_suites();
}
