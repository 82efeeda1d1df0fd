/* test_schedule.c - the schedule IR: layouts, the builder, streaming, parameters. */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "testutil.h"

static void test_layout_bytes(void)
{
    sched_layout l;
    layout_init(&l, COLL_ALLGATHER, 4, 0, 10, 1); /* 10 bytes over 4 blocks: 3 3 2 2 */
    CU_ASSERT_EQUAL(l.nblocks, 4);
    CU_ASSERT_EQUAL(layout_block_bytes(&l, 0), 3);
    CU_ASSERT_EQUAL(layout_block_bytes(&l, 3), 2);
    CU_ASSERT_EQUAL(layout_range_bytes(&l, 0, 4), 10);
    CU_ASSERT_EQUAL(layout_range_bytes(&l, 1, 3), 5);
    layout_init(&l, COLL_ALLTOALL, 3, 0, 7, 1); /* rows of 3 blocks, 7 bytes each: 3 2 2 */
    CU_ASSERT_EQUAL(l.nblocks, 9);
    CU_ASSERT_EQUAL(layout_range_bytes(&l, 0, 9), 21);
    CU_ASSERT_EQUAL(layout_range_bytes(&l, 2, 7), 2 + 7 + 3);
    for (int64_t lo = 0; lo < 9; lo++)
        for (int64_t hi = lo; hi <= 9; hi++) {
            int64_t sum = 0;
            for (int64_t b = lo; b < hi; b++)
                sum += layout_block_bytes(&l, b);
            CU_ASSERT_EQUAL(layout_range_bytes(&l, lo, hi), sum);
        }
    CU_ASSERT_EQUAL(layout_owner(&l, 5), 1);
}

static void test_initial_final(void)
{
    sched_layout l;
    blk_range *r = NULL;
    size_t n = 0, cap = 0;
    layout_init(&l, COLL_ALLTOALL, 4, 0, 64, 1);
    layout_final_blocks(&l, 2, &r, &n, &cap);
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(r[1].lo, 6); /* block 1->2 */
    n = 0;
    layout_init(&l, COLL_SCATTER, 4, 3, 64, 2);
    layout_initial_blocks(&l, 3, &r, &n, &cap);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT_EQUAL(r[0].hi, 8);
    n = 0;
    layout_initial_blocks(&l, 1, &r, &n, &cap);
    CU_ASSERT_EQUAL(n, 0);
    free(r);
}

static void test_builder_canonical(void)
{
    sched_layout l;
    layout_init(&l, COLL_ALLGATHER, 8, 0, 800, 1);
    sched_builder b;
    sb_init(&b, &l);
    sb_begin_rank(&b, 5);
    blk_range r[] = {{6, 7}, {1, 3}, {3, 4}, {2, 2}};
    sb_send(&b, 1, r, 4); /* implicit step 0 */
    CU_ASSERT_EQUAL(sb_step(&b), 1);
    sb_step(&b); /* empty step 1 */
    sb_recv(&b, 2, r, 1, 0);
    sb_end_rank(&b);
    const rank_sched *rs = &b.rs;
    CU_ASSERT_EQUAL(rs->nsteps, 3);
    CU_ASSERT_EQUAL(rs->ops[0].nranges, 2); /* [1,4) and [6,7), the empty range dropped */
    CU_ASSERT_EQUAL(rs_op_ranges(rs, &rs->ops[0])[0].lo, 1);
    CU_ASSERT_EQUAL(rs_op_ranges(rs, &rs->ops[0])[0].hi, 4);
    CU_ASSERT_EQUAL(rs->ops[0].bytes, 400);
    CU_ASSERT_EQUAL(rs_step_end(rs, 1) - rs_step_begin(rs, 1), 0);
    CU_ASSERT_EQUAL(rs_step_begin(rs, 2), 1);
    sb_free(&b);
}

/* sb_exchange records exactly what sb_step + sb_send + sb_recv record, on its fast path
 * (one range each way) and on its general path (two ranges, empty ranges). */
static void test_exchange_equivalent(void)
{
    sched_layout l;
    layout_init(&l, COLL_REDUCE_SCATTER, 8, 0, 1000, 1);
    sched_builder a, b;
    sb_init(&a, &l);
    sb_init(&b, &l);
    sb_begin_rank(&a, 3);
    sb_begin_rank(&b, 3);
    blk_range one[] = {{2, 3}}, two[] = {{5, 6}, {0, 2}}, none[] = {{4, 4}};
    for (int k = 0; k < 300; k++) { /* long enough to grow every array */
        const blk_range *out = k % 3 == 0 ? two : one, *in = k % 5 == 0 ? none : one;
        uint32_t nout = k % 3 == 0 ? 2 : 1;
        int flags = k % 2 ? OPF_COMBINE : 0;
        sb_exchange(&a, 4, out, nout, 2, in, 1, flags);
        sb_step(&b);
        sb_send(&b, 4, out, nout);
        sb_recv(&b, 2, in, 1, flags);
    }
    sb_end_rank(&a);
    sb_end_rank(&b);
    CU_ASSERT_EQUAL_FATAL(a.rs.nsteps, b.rs.nsteps);
    CU_ASSERT_EQUAL_FATAL(a.rs.nops, b.rs.nops);
    CU_ASSERT_EQUAL_FATAL(a.rs.nranges, b.rs.nranges);
    CU_ASSERT_EQUAL(memcmp(a.rs.step_first, b.rs.step_first,
                           (a.rs.nsteps + 1) * sizeof *a.rs.step_first), 0);
    CU_ASSERT_EQUAL(memcmp(a.rs.ops, b.rs.ops, a.rs.nops * sizeof *a.rs.ops), 0);
    CU_ASSERT_EQUAL(memcmp(a.rs.ranges, b.rs.ranges, a.rs.nranges * sizeof *a.rs.ranges), 0);
    CU_ASSERT_EQUAL(a.rs.ops[3].bytes, 125); /* step 1 (fast path): block 2 of 8 x 125 bytes */
    sb_free(&a);
    sb_free(&b);
}

typedef struct sink_log {
    uint32_t calls, steps, ops, last_first;
} sink_log;

static void log_sink(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    sink_log *s = ctx;
    s->calls++;
    CU_ASSERT_EQUAL(first_step, s->steps); /* batches arrive in order, without gaps */
    s->steps += chunk->nsteps;
    s->ops += chunk->nops;
    s->last_first = first_step;
}

static void test_streaming(void)
{
    cs_error err;
    const alg_desc *ring = registry_find(NULL, COLL_ALLGATHER, "ring", &err);
    coll_spec spec;
    coll_spec_init(&spec, COLL_ALLGATHER, 1000, 4000);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, ring, &spec, &err), 0);
    sink_log log = {0};
    sched_builder b;
    sb_init_streaming(&b, &run.layout, log_sink, &log);
    alg_run_gen(&run, 17, &b);
    CU_ASSERT_EQUAL(log.steps, 999);
    CU_ASSERT_EQUAL(log.ops, 2 * 999);
    CU_ASSERT(log.calls >= 2); /* 999 steps are handed over in several batches */
    CU_ASSERT(b.rs.nsteps == 0);
    sb_free(&b);
    alg_run_release(&run);
}

static void test_params_and_constraints(void)
{
    cs_error err;
    const alg_desc *spread = registry_find(NULL, COLL_ALLTOALL, "spread_out", &err);
    const alg_desc *xor_alg = registry_find(NULL, COLL_ALLTOALL, "xor", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(spread);
    CU_ASSERT_PTR_NOT_NULL_FATAL(xor_alg);
    coll_spec spec;
    alg_run run;
    coll_spec_init(&spec, COLL_ALLTOALL, 6, 1024);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, xor_alg, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "alltoall xor: requires P to be a power of two (got P=6)"));
    coll_spec_set_param(&spec, "bogus", "1", &err);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, spread, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "unknown parameter 'bogus' (allowed: batch)"));
    coll_spec_init(&spec, COLL_ALLTOALL, 6, 1024);
    coll_spec_set_param(&spec, "batch", "0", &err);
    CU_ASSERT_EQUAL(alg_run_prepare(&run, spread, &spec, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "batch 0 is out of range"));
    coll_spec_set_param(&spec, "batch", "2", &err);
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, spread, &spec, &err), 0);
    sched_builder b;
    sb_init(&b, &run.layout);
    alg_run_gen(&run, 0, &b);
    CU_ASSERT_EQUAL(b.rs.nsteps, 3); /* 5 peers in batches of 2 */
    sb_free(&b);
    alg_run_release(&run);
    CU_ASSERT_PTR_NULL(registry_find(NULL, COLL_BCAST, "nope", &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "binomial_halving"));
    coll_spec_init(&spec, COLL_BCAST, 8, 1024);
    spec.root = 8;
    CU_ASSERT_EQUAL(alg_run_prepare(&run, registry_find(NULL, COLL_BCAST, "linear", &err), &spec,
                                    &err),
                    -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "root 8 is not a rank (allowed: 0..7)"));
}

static void test_registry_unique(void)
{
    size_t n = registry_builtin_count();
    CU_ASSERT(n >= 25);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            const alg_desc *a = registry_builtin_at(i), *b = registry_builtin_at(j);
            CU_ASSERT_FALSE(a->coll == b->coll && strcmp(a->name, b->name) == 0);
        }
    for (int c = 0; c < COLL_ALLTOALLV; c++) { /* every collective has an algorithm */
        int found = 0;
        for (size_t i = 0; i < n; i++)
            found |= registry_builtin_at(i)->coll == (coll_kind)c;
        CU_ASSERT_TRUE(found);
    }
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"layout bytes", test_layout_bytes},
                                      {"initial and final blocks", test_initial_final},
                                      {"builder canonical ranges", test_builder_canonical},
                                      {"sb_exchange = sb_step + sb_send + sb_recv",
                                       test_exchange_equivalent},
                                      {"streaming builder", test_streaming},
                                      {"parameters and constraints", test_params_and_constraints},
                                      {"registry", test_registry_unique},
                                      {NULL, NULL}};
    test_add_suite("schedule IR", cases);
    return test_run_suites();
}
