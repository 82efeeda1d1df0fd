/* test_sim_wait_compute.c - under the fluid network, a rank whose step waits for its
 * messages and then computes (a reduce step) is suspended once: the engine queues its
 * local work when the messages end (pk_wait_compute, packet_loop.c), in the place among
 * the instant's events where the rank's own push would have been. That must change no
 * result: every point here runs twice, with the merge and with the rank woken in between
 * to queue its work itself (fluid_config.serial_compute, the code before the merge), and
 * the rows, every rank's finish time and the sequence of events the loop ran (a digest of
 * each event's time, kind and id: fluid_config.digest_events) must be identical. The
 * results alone would not show a queued event out of its place among the ties of its
 * instant; the event sequence does. The points mix reduce
 * steps with steps without local work, ranks of one host (the loopback), local work as
 * long as a message (ties between a rank's wake-up and the network's events),
 * and Rabenseifner with every pair at one distance (the last rank to wait is woken at
 * the instant it hands over to the engine). Two planted faults (fluid_config.fault_defer)
 * must each make the two runs differ: 1 the queued work twice as long, 2 the instant's work
 * queued after its ranks have all run, last first (the same dates: only the event
 * sequence shows it).
 */
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"

typedef struct point {
    const char *topo, *alg;
    coll_kind coll;
    int32_t P, per_node;
    int64_t bytes;
    double reduce_Bps; /* 0: the default */
} point;

static int run(const point *p, int serial, int fault, sim_result *res)
{
    sim_config c;
    cs_error err;
    test_sim_config(&c, p->topo, p->alg, p->coll, p->P, p->bytes);
    c.flow_engine = FLOW_ENGINE_LOOP;
    c.per_rank = 1;
    c.spec.ranks_per_node = p->per_node;
    if (p->reduce_Bps > 0)
        c.reduce_Bps = p->reduce_Bps;
    c.fluid.serial_compute = serial;
    c.fluid.fault_defer = fault;
    c.fluid.digest_events = 1;
    int rc = sim_run_isolated(&c, res, &err);
    if (rc < 0)
        fprintf(stderr, "%s P=%d on %s: %s\n", p->alg, p->P, p->topo, err.msg);
    return rc;
}

/* 1 if the two runs gave the same row and the same finish time for every rank. */
static int same(const point *p, const sim_result *a, const sim_result *b)
{
    return a->row.time_s == b->row.time_s && a->row.messages == b->row.messages &&
           a->row.max_link_bytes == b->row.max_link_bytes &&
           a->packet_event_digest == b->packet_event_digest &&
           memcmp(a->rank_finish_s, b->rank_finish_s, (size_t)p->P * sizeof(double)) == 0;
}

/* Runs p merged (fault or not) and serial; returns same(). */
static int compare(const point *p, int fault)
{
    sim_result r[2];
    CU_ASSERT_FATAL(run(p, 0, fault, &r[0]) == 0);
    CU_ASSERT_FATAL(run(p, 1, 0, &r[1]) == 0);
    int eq = same(p, &r[0], &r[1]);
    if (!eq && !fault)
        fprintf(stderr, "%s P=%d on %s: time %.17g merged, %.17g serial\n", p->alg, p->P,
                p->topo, r[0].row.time_s, r[1].row.time_s);
    sim_result_free(&r[0]);
    sim_result_free(&r[1]);
    return eq;
}

static const point points[] = {
    {"hyperx dims=4x4 T=2", "ring", COLL_ALLREDUCE, 32, 1, 1 << 20, 0},
    {"hyperx dims=4x4 T=2", "ring", COLL_ALLREDUCE, 30, 1, 100000, 0},
    /* reduce at the links' 25 GB/s: a rank's local work as long as its message */
    {"hyperx dims=4x4 T=2", "ring", COLL_ALLREDUCE, 32, 1, 1 << 20, 25e9},
    {"hyperx dims=4x4 T=2", "rabenseifner", COLL_ALLREDUCE, 32, 1, 1 << 20, 0},
    {"hyperx dims=4x4 T=2", "bine_bandwidth", COLL_ALLREDUCE, 32, 1, 1 << 20, 0},
    {"hyperx dims=4x4 T=2", "ring", COLL_REDUCE_SCATTER, 32, 1, 1 << 20, 0},
    {"hyperx dims=4x4 T=2", "ring", COLL_ALLREDUCE, 64, 4, 1 << 20, 0},
    {"dragonfly p=2 a=4 h=2", "ring", COLL_ALLREDUCE, 72, 1, 1 << 18, 0},
    {"dragonfly p=2 a=4 h=2", "recursive_doubling", COLL_ALLREDUCE, 64, 1, 1 << 18, 0},
    {"dragonfly p=2 a=4 h=2", "rabenseifner", COLL_ALLREDUCE, 64, 2, 1 << 20, 1e9},
    {"torus dims=8", "binomial", COLL_REDUCE, 8, 1, 1 << 20, 0},
};

static void test_merge_changes_nothing(void)
{
    for (size_t i = 0; i < sizeof points / sizeof *points; i++)
        CU_ASSERT(compare(&points[i], 0));
}

static void test_planted_fault_caught(void)
{
    CU_ASSERT(!compare(&points[0], 1));
    CU_ASSERT(!compare(&points[3], 1));
}

static void test_planted_order_fault_caught(void)
{
    CU_ASSERT(!compare(&points[0], 2));  /* ring: every rank deferred at once */
    CU_ASSERT(!compare(&points[6], 2));  /* ranks sharing hosts */
    CU_ASSERT(!compare(&points[9], 2));  /* Rabenseifner, local work a message long */
}

int main(void)
{
    static const test_case cases[] = {
        {"merged wait and compute: results unchanged", test_merge_changes_nothing},
        {"planted fault: deferred work of the wrong length is caught", test_planted_fault_caught},
        {"planted fault: deferred work out of its place is caught", test_planted_order_fault_caught},
        {NULL, NULL},
    };
    static const test_suite suites[] = {{"wait then compute", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
