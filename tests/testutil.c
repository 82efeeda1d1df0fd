/* testutil.c - shared helpers for the CUnit suites (see testutil.h). */
#include "testutil.h"

#include "sim/placement.h"
#include "sim/sim.h"
#include "sweep/sweep.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_add_suite(const char *name, const test_case *cases)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    for (const test_case *c = cases; c->name; c++)
        CU_add_test(s, c->name, c->fn);
}

int test_run_suites(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned ran = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (ran == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}

int test_verify(const alg_desc *alg, const coll_spec *spec, verify_mode mode, verify_result *res,
                cs_error *err)
{
    alg_run run;
    if (alg_run_prepare(&run, alg, spec, err) < 0)
        return -1;
    verify_options opt;
    verify_options_default(&opt);
    opt.mode = mode;
    int rc = verify_run(&run, &opt, res, err);
    alg_run_release(&run);
    return rc;
}

int test_verify_expect_ok(const alg_desc *alg, const coll_spec *spec)
{
    verify_result res;
    cs_error err;
    int rc = test_verify(alg, spec, VERIFY_FULL, &res, &err);
    int ok = rc == 0 && res.ok;
    if (!ok)
        fprintf(stderr, "\n  %s %s P=%d root=%d dst=%d dims=%dx%d: %s\n", coll_name(alg->coll),
                alg->name, spec->P, spec->root, spec->dst, spec->ndims > 0 ? spec->dims[0] : 0,
                spec->ndims > 1 ? spec->dims[1] : 0, rc < 0 ? err.msg : res.error);
    CU_ASSERT_TRUE(ok);
    return ok;
}

int test_cache_dir_create(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/collsim-test-cache-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    setenv("COLLSIM_CACHE_DIR", dir, 1);
    return 0;
}

void test_cache_dir_remove(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
}

const char *test_collsim_bin(void)
{
    const char *b = getenv("COLLSIM_BIN");
    return b ? b : "build/collsim";
}

int32_t test_max_p(int32_t def)
{
    const char *e = getenv("COLLSIM_TEST_MAX_P");
    return e ? (int32_t)atoi(e) : def;
}

void test_walk_ops(const alg_run *run, test_op_fn fn, void *ctx)
{
    sched_builder b;
    sb_init(&b, &run->layout);
    for (int32_t r = 0; r < run->spec.P; r++) {
        alg_run_gen(run, r, &b);
        const rank_sched *rs = &b.rs;
        for (uint32_t s = 0; s < rs->nsteps; s++)
            for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
                fn(ctx, r, s, &rs->ops[i], rs_op_ranges(rs, &rs->ops[i]));
    }
    sb_free(&b);
}

int test_place(const char *text, const topology *t, int32_t P, int32_t Q, int32_t *hosts,
               cs_error *err)
{
    placement_spec p;
    if (placement_parse(text, &p, err) < 0)
        return -1;
    return placement_compute(&p, t, P, Q, hosts, err);
}

int32_t test_from_row_major(int32_t x, int32_t rows, int32_t cols)
{
    return x / cols + rows * (x % cols);
}

sweep_plan *test_load_scenario(const char *text, uint64_t seed, cs_error *err, char *path,
                               size_t n)
{
    snprintf(path, n, "/tmp/collsim-test-plan-XXXXXX.lua");
    int fd = mkstemps(path, 4);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
        if (fd >= 0)
            close(fd);
        cs_fail(err, "cannot write %s", path);
        return NULL;
    }
    close(fd);
    scenario_opts o = {.outdir = "/tmp/collsim-test-plan-out", .have_seed = 1, .seed = seed};
    sweep_plan *p;
    int rc = scenario_load(path, &o, &p, err);
    unlink(path);
    return rc == 0 ? p : NULL;
}

int test_close_rel(double got, double want, double rel)
{
    if (fabs(got - want) <= rel * fabs(want))
        return 1;
    fprintf(stderr, "got %.12g, expected %.12g (rel %.3g)\n", got, want, fabs(got - want) / want);
    return 0;
}

int test_main_cached(const test_suite *suites)
{
    char dir[64];
    if (test_cache_dir_create(dir, sizeof dir) < 0)
        return 1;
    CU_initialize_registry();
    for (const test_suite *s = suites; s->name; s++)
        test_add_suite(s->name, s->cases);
    int rc = test_run_suites();
    test_cache_dir_remove(dir);
    return rc;
}

void test_sim_config(sim_config *c, const char *topology, const char *alg, coll_kind coll,
                     int32_t P, int64_t bytes)
{
    sim_config_init(c);
    snprintf(c->topology, sizeof c->topology, "%s", topology);
    snprintf(c->algorithm, sizeof c->algorithm, "%s", alg);
    coll_spec_init(&c->spec, coll, P, bytes);
}

int64_t test_link_weight(const topology *t, int64_t l, int global_first)
{
    return 1 + (global_first && t->links[l].cls == LINK_GLOBAL ? (int64_t)1 << 32 : 0);
}

/* One relaxation of every arc u -> v into u; 1 if a distance fell. */
static int relax_all(const topology *t, int32_t dst, int global_first, int64_t *dist)
{
    int changed = 0;
    for (int64_t l = 0; l < t->nlinks; l++) {
        const topo_link *k = &t->links[l];
        if (topo_link_failed(t, l))
            continue;
        for (int dir = 0; dir < 2; dir++) {
            int32_t u = dir ? k->b : k->a, v = dir ? k->a : k->b;
            if ((dir && k->sharing == LINK_ONE_WAY) || dist[v] == INT64_MAX ||
                (!t->direct && topo_is_host(t, v) && v != dst))
                continue;
            int64_t d = dist[v] + test_link_weight(t, l, global_first);
            if (d < dist[u]) {
                dist[u] = d;
                changed = 1;
            }
        }
    }
    return changed;
}

void test_remaining_distances(const topology *t, int32_t dst, int global_first, int64_t *dist)
{
    for (int32_t v = 0; v < topo_nnodes(t); v++)
        dist[v] = INT64_MAX;
    dist[dst] = 0;
    for (int32_t i = 0; i < topo_nnodes(t) && relax_all(t, dst, global_first, dist); i++)
        ;
}
