/* test_fluid_heap.c - the fluid network's flow dates (src/sim/fluid_heap.c: a 4-ary heap
 * and latency lanes) against a plain reference: the top is always the live flow of the
 * smallest (date, seq), seq the order the dates were set in.
 *
 *   - random runs as the fluid network drives it: flows start with a latency drawn from
 *     more values than there are lanes (fl_heap_push_latency, dates now + latency with now
 *     never decreasing), the top leaves (a latency ends or a flow completes), flows in the
 *     heap get new dates (fl_heap_update) or leave from anywhere (fl_heap_remove), and
 *     flows get a first completion date (fl_heap_push); after every operation the top and
 *     the size are the reference's;
 *   - the dates are drawn from few values, so that ties (decided by seq) are common;
 *   - a planted bug in the reference (ties by the larger seq) is caught, so the comparison
 *     can fail.
 */
#include <stdlib.h>

#include "sim/fluid_internal.h"
#include "testutil.h"

enum { NFLOWS = 400, STEPS = 20000 };

enum { R_NONE, R_LANE, R_HEAP }; /* where the reference says a flow is */

/* The reference's top: the live flow of the smallest (date, seq); -1 if none. */
static int32_t ref_top(const fl_flow *f, const int *where, int bad_ties)
{
    int32_t best = -1;
    for (int32_t i = 0; i < NFLOWS; i++) {
        if (where[i] == R_NONE)
            continue;
        if (best < 0 || f[i].date < f[best].date ||
            (f[i].date == f[best].date && (bad_ties ? f[i].seq > f[best].seq
                                                    : f[i].seq < f[best].seq)))
            best = i;
    }
    return best;
}

/* One random run; the number of steps whose top or size differed from the reference. */
static int random_run(unsigned seed, int bad_ties)
{
    static fl_flow f[NFLOWS];
    static int where[NFLOWS];
    fl_heap h = {0};
    srand(seed);
    for (int i = 0; i < NFLOWS; i++) {
        f[i] = (fl_flow){.heap = -1};
        where[i] = R_NONE;
    }
    uint64_t seq = 0;
    double now = 0;
    int differ = 0;
    int64_t live = 0;
    for (int step = 0; step < STEPS; step++) {
        int32_t id = rand() % NFLOWS, op = rand() % 6;
        if (op == 0) /* time goes on */
            now += (rand() % 3) * 0.25;
        if (op <= 1 && where[id] == R_NONE) { /* a flow starts: its latency */
            double lat = 1 + rand() % 20; /* more latencies than lanes */
            f[id].date = now + lat;
            f[id].seq = ++seq;
            fl_heap_push_latency(&h, f, id, lat);
            where[id] = R_LANE;
            live++;
        } else if (op == 2 && fl_heap_top(&h) >= 0) { /* the top leaves */
            int32_t top = fl_heap_top(&h);
            fl_heap_remove(&h, f, top);
            if (where[top] == R_LANE && rand() % 2) { /* active: a completion date */
                f[top].date = now + rand() % 4;
                f[top].seq = ++seq;
                fl_heap_push(&h, f, top);
                where[top] = R_HEAP;
            } else {
                where[top] = R_NONE;
                live--;
            }
        } else if (op == 3 && where[id] == R_HEAP) { /* a new share: a new date */
            f[id].date = now + rand() % 4;
            f[id].seq = ++seq;
            fl_heap_update(&h, f, id);
        } else if (op == 4 && where[id] == R_HEAP) { /* leaves from anywhere */
            fl_heap_remove(&h, f, id);
            where[id] = R_NONE;
            live--;
        }
        int32_t want = ref_top(f, where, bad_ties);
        differ += fl_heap_top(&h) != want || fl_heap_size(&h) != live;
    }
    fl_heap_free(&h);
    return differ;
}

static void test_random_runs(void)
{
    for (unsigned seed = 1; seed <= 5; seed++)
        CU_ASSERT(random_run(seed, 0) == 0);
}

static void test_planted_tie_bug_caught(void)
{
    CU_ASSERT(random_run(7, 1) > 0);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"random runs: top and size as the reference", test_random_runs},
        {"planted bug: ties the wrong way round caught", test_planted_tie_bug_caught},
        {NULL, NULL},
    };
    test_add_suite("fluid heap", cases);
    return test_run_suites();
}
