/* test_bine_torus_order.c - the cause of bine_torus trailing Swing on a rectangular torus
 * (results/bine/README.md, "Fugaku"): the dimension order of its butterflies.
 *
 * With dim_order=rotation (libswing's order) bine_torus sends exactly Swing's messages
 * (step, sender, receiver, bytes) on 2D tori, square or not, one port or multiport; with
 * its default dim_order=round_robin it does so on a square torus only (multiport; one
 * port: the dimensions swapped, the same loads by symmetry): on a rectangular
 * one its reduce-scatter takes the long dimension's extra steps first (planted check:
 * the default must differ from Swing on 4x16 and 16x4). And the default reduce-scatter
 * starts in the long dimension with n/2 while the rotation starts in dimension 0.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/registry.h"
#include "testutil.h"

typedef struct send_list {
    int64_t (*m)[4]; /* step, rank, peer, bytes */
    size_t n, cap;
} send_list;

static void on_op(void *ctx, int32_t rank, uint32_t step, const sched_op *op,
                  const blk_range *ranges)
{
    (void)ranges;
    send_list *l = ctx;
    if (op->kind != OP_SEND)
        return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->m = realloc(l->m, l->cap * sizeof *l->m);
    }
    int64_t *e = l->m[l->n++];
    e[0] = step;
    e[1] = rank;
    e[2] = op->peer;
    e[3] = op->bytes;
}

static int cmp_send(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    for (int i = 0; i < 4; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* The sorted sends of allreduce `alg` with `params` on the torus d0 x d1. */
static send_list sends(const char *alg, const char *params, int d0, int d1)
{
    send_list l = {0};
    cs_error err;
    const alg_desc *a = registry_find(NULL, COLL_ALLREDUCE, alg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    coll_spec s;
    coll_spec_init(&s, COLL_ALLREDUCE, d0 * d1, 1 << 20);
    s.ndims = 2;
    s.dims[0] = d0;
    s.dims[1] = d1;
    CU_ASSERT_EQUAL_FATAL(coll_spec_set_params(&s, params, &err), 0);
    alg_run run;
    CU_ASSERT_EQUAL_FATAL(alg_run_prepare(&run, a, &s, &err), 0);
    test_walk_ops(&run, on_op, &l);
    alg_run_release(&run);
    qsort(l.m, l.n, sizeof *l.m, cmp_send);
    return l;
}

static int same(const send_list *a, const send_list *b)
{
    return a->n == b->n && memcmp(a->m, b->m, a->n * sizeof *a->m) == 0;
}

static int bine_equals_swing(const char *order, const char *ports, int d0, int d1)
{
    char bp[64], sp[64];
    snprintf(bp, sizeof bp, "dim_order=%s ports=%s", order, ports);
    snprintf(sp, sizeof sp, "ports=%s", ports);
    send_list b = sends("bine_torus", bp, d0, d1), s = sends("swing_bandwidth", sp, d0, d1);
    CU_ASSERT(b.n > 0);
    int eq = same(&b, &s);
    free(b.m);
    free(s.m);
    return eq;
}

static void test_rotation_is_swing(void)
{
    static const int shapes[][2] = {{4, 16}, {16, 4}, {8, 8}, {2, 32}, {8, 32}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        CU_ASSERT(bine_equals_swing("rotation", "1", shapes[i][0], shapes[i][1]));
        CU_ASSERT(bine_equals_swing("rotation", "multi", shapes[i][0], shapes[i][1]));
    }
}

static void test_round_robin_differs_on_rectangles(void)
{
    /* square: the same messages multiport (one port: the same order with the two
     * dimensions swapped, the reversed round-robin starts in dimension 1: same loads) */
    CU_ASSERT(bine_equals_swing("round_robin", "multi", 8, 8));
    CU_ASSERT(!bine_equals_swing("round_robin", "1", 4, 16));
    CU_ASSERT(!bine_equals_swing("round_robin", "multi", 16, 4));
}

/* The first reduce-scatter step (one port, n = 2^20): round_robin on 4x16 sends n/2 along
 * dimension 1 (the 16-long one: to r +- 4), rotation along dimension 0 (to r +- 1). */
static void test_first_step_dimension(void)
{
    send_list rr = sends("bine_torus", "dim_order=round_robin ports=1", 4, 16);
    send_list ro = sends("bine_torus", "dim_order=rotation ports=1", 4, 16);
    CU_ASSERT_EQUAL(rr.m[0][0], 0); /* sorted: rank 0's first send */
    CU_ASSERT_EQUAL(rr.m[0][1], 0);
    CU_ASSERT_EQUAL(rr.m[0][3], 1 << 19);
    CU_ASSERT(rr.m[0][2] == 4 || rr.m[0][2] == 60);
    CU_ASSERT_EQUAL(ro.m[0][3], 1 << 19);
    CU_ASSERT(ro.m[0][2] == 1 || ro.m[0][2] == 3);
    free(rr.m);
    free(ro.m);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"dim_order=rotation sends Swing's messages", test_rotation_is_swing},
        {"round_robin = Swing on squares only", test_round_robin_differs_on_rectangles},
        {"the first reduce-scatter step's dimension", test_first_step_dimension},
        {NULL, NULL},
    };
    test_add_suite("bine_torus_order", cases);
    return test_run_suites();
}
