/* test_packet_queue.c - an output port's queue (src/sim/packet_queue.c) against the rule
 * it implements, kept as a plain list here: the port sends the oldest arrived packet, in
 * the order (ready, seq), whose credit pool has room for it.
 *
 *   - directed cases: a small packet passes a larger one waiting for credits; the oldest
 *     of several lanes goes first; nothing leaves before it has arrived; a packet into
 *     its destination (no pool) never waits; a blocked lane goes on when credits return;
 *   - random runs (pushes with out-of-order arrival times, takes, credits returned a few
 *     bytes at a time, sizes in every size class, empty packets) take exactly the
 *     reference's packet at every step, and leave nothing behind;
 *   - a planted bug in the reference (youngest instead of oldest) is caught, so the
 *     comparison can fail.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/packet_internal.h"
#include "testutil.h"

enum { NPOOLS = 3, MAXPK = 4000 };

typedef struct model {
    pk_net net;
    pk_port port;
    int32_t credit[NPOOLS];
    pk_packet *all[MAXPK]; /* the reference: every packet pushed and not yet taken */
    int nall;
    uint64_t seq;
} model;

static void model_init(model *m, int32_t credit)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < NPOOLS; i++)
        m->credit[i] = credit;
    m->net.credit = m->credit;
    m->net.nports = 1; /* the pools are port 0's channels 0 to NPOOLS - 1 */
    m->net.nvc = NPOOLS;
    pk_pools_layout(&m->net);
}

static pk_packet *push(model *m, double ready, int32_t bytes, int64_t pool)
{
    pk_packet *p = calloc(1, sizeof *p);
    p->ready = ready;
    p->bytes = bytes;
    p->pool = pool;
    pk_queue_push(&m->net, &m->port, p);
    m->all[m->nall++] = p;
    return p;
}

/* The reference's choice: the oldest arrived packet that fits (youngest: the planted bug). */
static pk_packet *reference_take(const model *m, double now, int youngest)
{
    pk_packet *best = NULL;
    for (int i = 0; i < m->nall; i++) {
        pk_packet *p = m->all[i];
        if (p->ready > now || (p->pool >= 0 && m->credit[p->pool] < p->bytes))
            continue;
        int better = !best || p->ready < best->ready ||
                     (p->ready == best->ready && p->seq < best->seq);
        if (!best || better != youngest)
            best = p;
    }
    return best;
}

/* Takes from the queue; checks it is `expect` (NULL: nothing) and the credit it took.
 * The packet taken, expected or not, leaves the reference too and is freed. */
static int take_expect(model *m, double now, pk_packet *expect)
{
    int32_t before = expect && expect->pool >= 0 ? m->credit[expect->pool] : 0;
    pk_packet *got = pk_queue_take(&m->net, &m->port, now);
    int ok = got == expect &&
             (!got || got->pool < 0 || m->credit[got->pool] == before - got->bytes);
    if (got) {
        for (int i = 0; i < m->nall; i++)
            if (m->all[i] == got) {
                m->all[i] = m->all[--m->nall];
                break;
            }
        free(got);
    }
    return ok;
}

static void model_free(model *m)
{
    pk_queue_free(&m->port); /* its lanes; the packets are the caller's */
    for (int i = 0; i < m->nall; i++)
        free(m->all[i]);
}

static void test_small_passes_large(void)
{
    model m;
    model_init(&m, 100);
    pk_packet *big = push(&m, 0, 4096, 0);
    pk_packet *small = push(&m, 0, 64, 0);
    CU_ASSERT(take_expect(&m, 0, small)); /* 100 credits: the 4 KiB packet waits */
    CU_ASSERT(take_expect(&m, 0, NULL));  /* 36 left */
    m.credit[0] = 4096;
    CU_ASSERT(take_expect(&m, 0, big));
    CU_ASSERT_EQUAL(m.port.packets, 0);
    model_free(&m);
}

static void test_oldest_lane_first(void)
{
    model m;
    model_init(&m, 1 << 20);
    pk_packet *a = push(&m, 2.0, 10, 1);
    pk_packet *b = push(&m, 1.0, 3000, 0); /* another pool and size class, arrives first */
    pk_packet *c = push(&m, 1.0, 5, -1);   /* same arrival, queued later */
    CU_ASSERT(take_expect(&m, 0.5, NULL)); /* none has arrived */
    CU_ASSERT(take_expect(&m, 3.0, b));
    CU_ASSERT(take_expect(&m, 3.0, c));
    CU_ASSERT(take_expect(&m, 3.0, a));
    model_free(&m);
}

static void test_destination_never_waits(void)
{
    model m;
    model_init(&m, 0);
    push(&m, 0, 100, 0);
    pk_packet *home = push(&m, 0, 4096, -1);
    CU_ASSERT(take_expect(&m, 0, home));
    CU_ASSERT(take_expect(&m, 0, NULL));
    model_free(&m);
}

static void test_blocked_lane_resumes(void)
{
    model m;
    model_init(&m, 0);
    for (int i = 0; i < 40; i++) /* sizes 8..15: one size class */
        push(&m, 0, 8 + (i * 7) % 8, 2);
    for (int round = 0; round < 3; round++)
        CU_ASSERT(take_expect(&m, 0, NULL)); /* no credit: nothing, however often asked */
    m.credit[2] = 9; /* the first packet of 8 or 9 bytes */
    CU_ASSERT(take_expect(&m, 0, reference_take(&m, 0, 0)));
    CU_ASSERT(take_expect(&m, 0, reference_take(&m, 0, 0))); /* 1 left: nothing */
    m.credit[2] += 14;
    pk_packet *want = reference_take(&m, 0, 0);
    CU_ASSERT_PTR_NOT_NULL(want);
    CU_ASSERT(take_expect(&m, 0, want));
    model_free(&m);
}

/* A random run; returns the number of steps where the queue and the reference (with the
 * planted bug if youngest) disagree. */
static int random_run(unsigned seed, int youngest)
{
    model m;
    model_init(&m, 64);
    srand(seed);
    static const int32_t sizes[] = {0, 1, 2, 3, 5, 8, 15, 16, 100, 1000, 2049, 4095, 4096};
    double now = 0;
    int bad = 0;
    for (int step = 0; step < 6000; step++) {
        int r = rand() % 10;
        if (r < 4 && m.nall < MAXPK) {
            double lat = (rand() % 3) * 0.5; /* out of order among links of other latency */
            int64_t pool = rand() % (NPOOLS + 1) - 1;
            push(&m, now + lat, sizes[rand() % (int)(sizeof sizes / sizeof *sizes)], pool);
        } else if (r < 7) {
            pk_packet *want = reference_take(&m, now, youngest);
            if (!take_expect(&m, now, want)) {
                bad++;
                break; /* the states differ from here on */
            }
        } else if (r < 9) {
            m.credit[rand() % NPOOLS] += rand() % 20; /* credits come back in bits */
        } else {
            now += 0.25;
        }
    }
    for (int64_t p = 0; p < NPOOLS; p++) /* drain: everything leaves */
        m.credit[p] = 1 << 30;
    now += 10;
    while (m.nall > 0 && !bad) {
        pk_packet *want = reference_take(&m, now, youngest);
        if (!want || !take_expect(&m, now, want))
            bad++;
    }
    if (!bad && m.port.packets != 0)
        bad++;
    model_free(&m); /* frees what the queue still holds */
    return bad;
}

static void test_random_runs_match_the_rule(void)
{
    for (unsigned seed = 1; seed <= 40; seed++) {
        int bad = random_run(seed, 0);
        CU_ASSERT_EQUAL(bad, 0);
        if (bad)
            fprintf(stderr, "packet queue: seed %u differs from the reference\n", seed);
    }
}

static void test_planted_bug_is_caught(void)
{
    int caught = 0;
    for (unsigned seed = 1; seed <= 5; seed++)
        caught += random_run(seed, 1) > 0;
    CU_ASSERT_EQUAL(caught, 5);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"a small packet passes a large one", test_small_passes_large},
        {"the oldest lane goes first", test_oldest_lane_first},
        {"into the destination never waits", test_destination_never_waits},
        {"a blocked lane resumes", test_blocked_lane_resumes},
        {"random runs match the rule", test_random_runs_match_the_rule},
        {"a planted bug is caught", test_planted_bug_is_caught},
        {NULL, NULL}};
    test_add_suite("packet queue", cases);
    return test_run_suites();
}
