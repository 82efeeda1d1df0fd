/* test_sim_robust.c - the simulator on inputs it must refuse or survive: schedules whose
 * messages do not match (deadlock, reported with ranks, steps and peers), a point running
 * past its wall-time limit (killed, "timeout"), and runs too big for memory (refused at
 * once with the estimate). The broken schedules are user-defined algorithms, registered
 * the way the Lua layer registers its own. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/registry.h"
#include "common/util.h"
#include "sim/sim.h"
#include "testutil.h"

static int prepare_none(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)s;
    (void)l;
    (void)err;
    *ctx = NULL;
    return 0;
}

/* Every rank waits for a message from the next rank; nobody sends. */
static void gen_recv_only(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    sb_step(b);
    sb_recv_bytes(b, (r + 1) % s->P, 1024, NULL, 0, 0);
}

/* Step 0: a correct ring shift. Step 1: rank 0 sends to rank 1, which never receives. */
static void gen_late_send(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    sb_step(b);
    sb_send_bytes(b, (r + 1) % s->P, 1024, NULL, 0);
    sb_recv_bytes(b, (r + s->P - 1) % s->P, 1024, NULL, 0, 0);
    sb_step(b);
    if (r == 0)
        sb_send_bytes(b, 1, 1 << 20, NULL, 0);
}

/* A correct ring shift whose generator takes a second of wall time per rank. */
static void gen_slow(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    usleep(1000 * 1000);
    sb_step(b);
    sb_send_bytes(b, (r + 1) % s->P, 1024, NULL, 0);
    sb_recv_bytes(b, (r + s->P - 1) % s->P, 1024, NULL, 0, 0);
}

static const alg_desc broken[] = {
    {COLL_ALLREDUCE, "recv_only", "test", "any P", NULL, prepare_none, gen_recv_only, NULL, 0},
    {COLL_ALLREDUCE, "late_send", "test", "any P", NULL, prepare_none, gen_late_send, NULL, 0},
    {COLL_ALLREDUCE, "slow", "test", "any P", NULL, prepare_none, gen_slow, NULL, 0},
};

static int run_broken(const char *alg, int32_t P, double timeout_s, sim_result *res,
                      cs_error *err)
{
    alg_registry reg;
    alg_registry_init(&reg);
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++)
        alg_registry_add(&reg, &broken[i], err);
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "torus dims=2x2");
    snprintf(c.algorithm, sizeof c.algorithm, "%s", alg);
    coll_spec_init(&c.spec, COLL_ALLREDUCE, P, 4096);
    c.algorithms = &reg;
    c.point_timeout_s = timeout_s;
    int rc = sim_run_isolated(&c, res, err);
    alg_registry_free(&reg);
    return rc;
}

static void test_deadlock_all_receive(void)
{
    sim_result res;
    cs_error err;
    double t0 = wall_seconds();
    CU_ASSERT_EQUAL(run_broken("recv_only", 4, 60, &res, &err), -1);
    CU_ASSERT(wall_seconds() - t0 < 30); /* reported, not hung until the timeout */
    CU_ASSERT_FALSE(res.timed_out);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "deadlock: 4 of 4 rank(s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 0 in step 0: recv from 1 (rank 1 in step 0)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 2 in step 0: recv from 3"));
}

static void test_deadlock_later_step(void)
{
    sim_result res;
    cs_error err;
    CU_ASSERT_EQUAL(run_broken("late_send", 4, 60, &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "deadlock: 1 of 4 rank(s)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "rank 0 in step 1: send to 1 (finished)"));
}

static void test_point_timeout(void)
{
    sim_result res;
    cs_error err;
    double t0 = wall_seconds();
    CU_ASSERT_EQUAL(run_broken("slow", 4, 0.3, &res, &err), -1);
    double took = wall_seconds() - t0;
    CU_ASSERT(took >= 0.3 && took < 2.0);
    CU_ASSERT_EQUAL(res.timed_out, 1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "timeout"));
}

/* A 10^9-rank flow run is refused in well under a second, naming the estimate. */
static void test_refuse_huge(void)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "torus dims=1024x1024x64");
    snprintf(c.algorithm, sizeof c.algorithm, "ring");
    coll_spec_init(&c.spec, COLL_ALLREDUCE, 1000000000, 1 << 20);
    c.spec.ranks_per_node = 16;
    sim_result res;
    cs_error err;
    double t0 = wall_seconds();
    CU_ASSERT_EQUAL(sim_run_isolated(&c, &res, &err), -1);
    CU_ASSERT(wall_seconds() - t0 < 1.0);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "refused before starting"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "TiB of memory"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "1000000000 ranks"));
}

/* The estimate after preparation counts messages in flight: a linear alltoall at P = 64
 * fits 1 GiB but not 16 MiB; with no limit (0) it runs. */
static void test_refuse_after_prepare(void)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "torus dims=8x8");
    snprintf(c.algorithm, sizeof c.algorithm, "linear");
    coll_spec_init(&c.spec, COLL_ALLTOALL, 64, 64 << 10);
    c.max_memory = 16 << 20;
    sim_result res;
    cs_error err;
    CU_ASSERT_EQUAL(sim_run_isolated(&c, &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "in flight"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "messages"));
    c.max_memory = 0;
    CU_ASSERT_EQUAL(sim_run_isolated(&c, &res, &err), 0);
    sim_result_free(&res);
}

int main(void)
{
    static const test_case cases[] = {
        {"deadlock_all_receive", test_deadlock_all_receive},
        {"deadlock_later_step", test_deadlock_later_step},
        {"point_timeout", test_point_timeout},
        {"refuse_huge", test_refuse_huge},
        {"refuse_after_prepare", test_refuse_after_prepare},
        {NULL, NULL}};
    static const test_suite suites[] = {{"sim_robust", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
