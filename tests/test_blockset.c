/* test_blockset.c - the stream verifier's bitmap of held blocks, against a plain array.
 *
 * Random ranges (single blocks, ranges within a word, across words, across many words)
 * are added and queried; every answer of blockset_first_missing must be the first block
 * of the range missing from the model. Clearing must empty the set whether it sweeps the
 * used words or the whole bitmap.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/blockset.h"
#include "testutil.h"

/* A small deterministic generator (the test must fail the same way every time). */
static uint64_t next_rand(uint64_t *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return *state >> 33;
}

/* A random range in [0, n): short ones most of the time, some long. */
static void random_range(uint64_t *st, int64_t n, int64_t *lo, int64_t *hi)
{
    int64_t len = next_rand(st) % 4 == 0 ? (int64_t)(next_rand(st) % 300) : (int64_t)(next_rand(st) % 5);
    *lo = (int64_t)(next_rand(st) % (uint64_t)n);
    *hi = *lo + len > n ? n : *lo + len;
}

static int64_t model_first_missing(const char *held, int64_t lo, int64_t hi)
{
    for (int64_t b = lo; b < hi; b++)
        if (!held[b])
            return b;
    return -1;
}

static void check_against_model(int64_t nblocks, int rounds)
{
    blockset s;
    blockset_init(&s, nblocks);
    char *held = calloc((size_t)nblocks, 1);
    uint64_t st = (uint64_t)nblocks;
    int wrong = 0;
    for (int round = 0; round < rounds; round++) {
        for (int op = 0; op < 200; op++) {
            int64_t lo, hi;
            random_range(&st, nblocks, &lo, &hi);
            if (next_rand(&st) % 3 == 0) {
                blockset_add(&s, lo, hi);
                memset(held + lo, 1, (size_t)(hi - lo));
            } else {
                wrong += blockset_first_missing(&s, lo, hi) != model_first_missing(held, lo, hi);
            }
        }
        wrong += blockset_first_missing(&s, 0, nblocks) != model_first_missing(held, 0, nblocks);
        blockset_clear(&s);
        memset(held, 0, (size_t)nblocks);
        wrong += blockset_first_missing(&s, 0, nblocks) != (nblocks > 0 ? 0 : -1);
    }
    CU_ASSERT_EQUAL(wrong, 0);
    free(held);
    blockset_free(&s);
}

static void test_random_against_model(void)
{
    check_against_model(64, 20);    /* one word */
    check_against_model(1000, 50);  /* a partial last word */
    check_against_model(70000, 20); /* many words */
}

static void test_edges(void)
{
    blockset s;
    blockset_init(&s, 200);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 5, 5), -1); /* empty range: nothing missing */
    blockset_add(&s, 63, 65);                              /* straddles words 0 and 1 */
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 63, 65), -1);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 62, 65), 62);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 63, 66), 65);
    blockset_add(&s, 0, 200); /* every word in use: clearing sweeps the whole bitmap */
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 0, 200), -1);
    blockset_clear(&s);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 0, 200), 0);
    blockset_add(&s, 199, 200);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 128, 200), 128);
    CU_ASSERT_EQUAL(blockset_first_missing(&s, 199, 200), -1);
    blockset_free(&s);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"random ranges against a plain array", test_random_against_model},
                                      {"word edges and clearing", test_edges},
                                      {NULL, NULL}};
    test_add_suite("blockset", cases);
    return test_run_suites();
}
