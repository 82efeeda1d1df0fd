/* test_u64map.c - the uint64 -> int64 hash map: many keys against a plain array, keys
 * that collide in the low bits, replacement, absent keys, and an empty map. */
#include <stdint.h>
#include <stdlib.h>

#include "common/u64map.h"
#include "testutil.h"

/* Keys of the shape the simulator uses ((from << 32) | to) for a 300 x 300 grid of pairs,
 * stored with value from * 1000 + to, then every one read back, and absent ones refused. */
static void test_pairs(void)
{
    u64map m;
    u64map_init(&m);
    for (uint64_t a = 0; a < 300; a++)
        for (uint64_t b = 0; b < 300; b++)
            u64map_put(&m, a << 32 | b, (int64_t)(a * 1000 + b));
    CU_ASSERT_EQUAL(m.n, 300u * 300u);
    int bad = 0;
    for (uint64_t a = 0; a < 300; a++)
        for (uint64_t b = 0; b < 300; b++) {
            int64_t v = -1;
            if (!u64map_get(&m, a << 32 | b, &v) || v != (int64_t)(a * 1000 + b))
                bad++;
        }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_FALSE(u64map_get(&m, (uint64_t)300 << 32, NULL));
    CU_ASSERT_FALSE(u64map_get(&m, 300, NULL));
    CU_ASSERT_FALSE(u64map_get(&m, UINT64_MAX, NULL));
    u64map_free(&m);
}

/* Keys equal modulo every power-of-two table size (multiples of 2^40), key 0, and a value
 * replaced: the count does not grow. */
static void test_collisions_and_replace(void)
{
    u64map m;
    u64map_init(&m);
    for (int64_t i = 0; i < 1000; i++)
        u64map_put(&m, (uint64_t)i << 40, i);
    u64map_put(&m, 0, 77); /* replaces key 0 (i = 0) */
    CU_ASSERT_EQUAL(m.n, 1000u);
    int64_t v = 0;
    CU_ASSERT_TRUE(u64map_get(&m, 0, &v));
    CU_ASSERT_EQUAL(v, 77);
    int bad = 0;
    for (int64_t i = 1; i < 1000; i++)
        if (!u64map_get(&m, (uint64_t)i << 40, &v) || v != i)
            bad++;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_FALSE(u64map_get(&m, 1, NULL));
    u64map_free(&m);
}

static void test_empty(void)
{
    u64map m;
    u64map_init(&m);
    int64_t v = 5;
    CU_ASSERT_FALSE(u64map_get(&m, 0, &v));
    CU_ASSERT_EQUAL(v, 5); /* untouched when absent */
    u64map_free(&m);
    CU_ASSERT_EQUAL(m.cap, 0u);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {{"pairs", test_pairs},
                                      {"collisions and replace", test_collisions_and_replace},
                                      {"empty", test_empty},
                                      {NULL, NULL}};
    test_add_suite("u64map", cases);
    return test_run_suites();
}
