/* test_packet_heap.c - the loop engine's event heap (src/sim/packet_heap.c) against a plain
 * reference: events come out by time, and events of equal time in the order they were
 * pushed (what makes a run deterministic).
 *
 *   - random runs mixing pushes (times drawn from a few values, so ties are common) and
 *     pops take exactly the reference's event at every step: the earliest time, then the
 *     lowest push number; its kind comes out with it, and its message (PK_EV_MSG_DONE)
 *     or its id (the other kinds);
 *   - the same with half the pushes for the time of the last pop (the ring of the
 *     current instant);
 *   - the same with half the pushes a delay after the last pop (pk_heap_push_after:
 *     the delay lanes, with more delays than lanes);
 *   - before every pop, pk_heap_peek names the event the pop then gives (kind, and id or
 *     message), wherever it waits (heap, ring, delay lane);
 *   - an empty heap pops nothing, peeks nothing and its top time is infinite;
 *   - a planted bug in the reference (ties last-pushed first) is caught, so the
 *     comparison can fail.
 */
#include <math.h>
#include <stdlib.h>

#include "sim/packet_internal.h"
#include "testutil.h"

enum { MAXEV = 5000 };

typedef struct ref_event {
    double t;
    int64_t order; /* push number */
    int64_t id;
} ref_event;

/* The reference's next event (index into ev): earliest, ties by push order (lifo: the
 * planted bug, last pushed first). */
static int ref_next(const ref_event *ev, int n, int lifo)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (best < 0 || ev[i].t < ev[best].t ||
            (ev[i].t == ev[best].t && (lifo ? ev[i].order > ev[best].order
                                            : ev[i].order < ev[best].order)))
            best = i;
    return best;
}

/* The popped event is reference event r (pushed with kind r % 5, id r, message r + 1). */
static int same_event(const pk_event *e, const ref_event *r)
{
    int kind = (int)(r->id % 5);
    if (e->t != r->t || e->kind != kind)
        return 0;
    return kind == PK_EV_MSG_DONE ? e->msg == (pk_msg *)(intptr_t)(r->id + 1) : e->id == r->id;
}

/* Peeks at then pops the next event into *e: 1 if both are reference event r. */
static int peek_pop(pk_heap *h, const ref_event *r, pk_event *e)
{
    int kind = -1;
    int64_t id = -1;
    if (!pk_heap_peek(h, &kind, &id) || !pk_heap_pop(h, e) || !same_event(e, r))
        return 0;
    return kind == e->kind && id == (kind == PK_EV_MSG_DONE ? (int64_t)(intptr_t)e->msg : e->id);
}

/* One random run; returns the number of pops that differed from the reference. now_half:
 * half the pushes are for the time of the last pop (the heap's ring of the current
 * instant, packet_heap.c), or with 2 half are pk_heap_push_after the last pop's time by
 * one of 20 delays (0, the ring; the heap's delay lanes; more delays than lanes). */
static int random_run(unsigned seed, int lifo, int now_half)
{
    static ref_event ref[MAXEV];
    int nref = 0, differ = 0;
    int64_t pushed = 0;
    double last = 0;
    pk_heap h = {0};
    srand(seed);
    for (int step = 0; step < 20000; step++) {
        if (nref < MAXEV && (nref == 0 || rand() % 3 != 0)) {
            double t = (double)(rand() % 50) * 0.25;
            int kind = (int)(pushed % 5), after = now_half == 2 && kind != PK_EV_MSG_DONE &&
                                                   rand() % 2;
            double d = (double)(rand() % 20) * 0.125;
            if (now_half == 1 && rand() % 2)
                t = last;
            if (now_half == 2) /* never in the past, as in the engine: pops keep time order */
                t += last;
            if (after)
                t = last + d;
            ref[nref++] = (ref_event){t, pushed, pushed};
            if (after)
                pk_heap_push_after(&h, last, d, kind, pushed);
            else
                pk_heap_push(&h, t, kind, pushed, (pk_msg *)(intptr_t)(pushed + 1));
            pushed++;
        } else {
            int i = ref_next(ref, nref, lifo);
            pk_event e;
            if (!peek_pop(&h, &ref[i], &e))
                differ++;
            last = e.t;
            ref[i] = ref[--nref];
        }
    }
    while (nref > 0) {
        int i = ref_next(ref, nref, lifo);
        pk_event e;
        if (!peek_pop(&h, &ref[i], &e))
            differ++;
        ref[i] = ref[--nref];
    }
    pk_event e;
    int kind;
    int64_t id;
    if (pk_heap_pop(&h, &e) || pk_heap_peek(&h, &kind, &id) || !isinf(pk_heap_top(&h)))
        differ++;
    pk_heap_free(&h);
    return differ;
}

static void test_matches_reference(void)
{
    for (unsigned seed = 1; seed <= 5; seed++)
        CU_ASSERT_EQUAL(random_run(seed, 0, 0), 0);
}

/* Half the events for the current instant: they go through the ring, interleaved with
 * heap events of the same instant pushed earlier and of earlier times pushed later. */
static void test_current_instant_matches_reference(void)
{
    for (unsigned seed = 1; seed <= 5; seed++)
        CU_ASSERT_EQUAL(random_run(seed, 0, 1), 0);
}

/* Half the events a delay after the last pop: delay lanes mixed with the heap, the ring
 * and delays beyond the lanes. */
static void test_delays_match_reference(void)
{
    for (unsigned seed = 1; seed <= 5; seed++)
        CU_ASSERT_EQUAL(random_run(seed, 0, 2), 0);
}

static void test_empty_heap(void)
{
    pk_heap h = {0};
    pk_event e;
    CU_ASSERT_EQUAL(pk_heap_pop(&h, &e), 0);
    CU_ASSERT(isinf(pk_heap_top(&h)));
    pk_heap_push(&h, 2.0, PK_EV_PORT, 7, NULL);
    CU_ASSERT_EQUAL(pk_heap_top(&h), 2.0);
    CU_ASSERT_EQUAL(pk_heap_pop(&h, &e), 1);
    CU_ASSERT_EQUAL(e.id, 7);
    CU_ASSERT_EQUAL(pk_heap_pop(&h, &e), 0);
    pk_heap_free(&h);
}

static void test_planted_bug_is_caught(void)
{
    CU_ASSERT(random_run(1, 1, 0) > 0);
    CU_ASSERT(random_run(1, 1, 1) > 0);
    CU_ASSERT(random_run(1, 1, 2) > 0);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"pops = reference (time, then push order)", test_matches_reference},
        {"pushes for the current instant = reference", test_current_instant_matches_reference},
        {"pushes a delay after the last pop = reference", test_delays_match_reference},
        {"empty heap", test_empty_heap},
        {"planted bug caught (ties lifo)", test_planted_bug_is_caught},
        {NULL, NULL}};
    test_add_suite("packet event heap", cases);
    return test_run_suites();
}
