/* test_packet_pools.c - the packet model's credit pool layout (packet_internal.h: pk_pool,
 * pk_pool_port, pk_pool_vc, pk_pools_layout): a port's first channels side by side, the
 * others after every port's first ones.
 *
 *   - for networks of 1, 5 and 37 ports and 1, 3, 16, 17, 65 and 129 channels, every
 *     (port, channel) has its own pool below pool_base, pool_base is the number of
 *     (port, channel) pairs rounded up to whole blocks of 1 << vc_shift channels, and
 *     pk_pool_port / pk_pool_vc give the port and the channel back;
 *   - a port's first min(nvc, PK_DENSE_VCS) channels are within one block of
 *     1 << vc_shift <= PK_DENSE_VCS counters (one cache line of credits);
 *   - a planted bug (pool_over too small, so the other channels' pools overlap the first
 *     ones') is caught by the same check.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/packet_internal.h"
#include "testutil.h"

/* Mismatches of the layout of n (nports, nvc and the layout fields set). */
static int64_t layout_errors(const pk_net *n)
{
    int64_t bad = 0;
    uint8_t *seen = calloc((size_t)n->pool_base + 1, 1);
    for (int64_t port = 0; port < n->nports; port++)
        for (int vc = 0; vc < n->nvc; vc++) {
            int64_t pool = pk_pool(n, port, vc);
            if (pool < 0 || pool >= n->pool_base || seen[pool]++ ||
                pk_pool_port(n, pool) != port || pk_pool_vc(n, pool) != vc)
                bad++;
            if (vc < (1 << n->vc_shift) && pool >> n->vc_shift != port)
                bad++; /* a first channel outside its port's block */
        }
    free(seen);
    return bad;
}

static void test_layouts(void)
{
    static const int64_t ports[] = {1, 5, 37};
    static const int vcs[] = {1, 3, 16, 17, 65, 129};
    for (size_t i = 0; i < sizeof ports / sizeof *ports; i++)
        for (size_t j = 0; j < sizeof vcs / sizeof *vcs; j++) {
            pk_net n;
            memset(&n, 0, sizeof n);
            n.nports = ports[i];
            n.nvc = vcs[j];
            pk_pools_layout(&n);
            int dense = 1 << n.vc_shift;
            CU_ASSERT(dense <= PK_DENSE_VCS);
            CU_ASSERT(dense >= (n.nvc < PK_DENSE_VCS ? n.nvc : PK_DENSE_VCS));
            int64_t over = n.nvc > dense ? n.nvc - dense : 0;
            CU_ASSERT_EQUAL(n.pool_base, n.nports * (dense + over));
            CU_ASSERT_EQUAL(layout_errors(&n), 0);
        }
}

static void test_planted_bug_is_caught(void)
{
    pk_net n;
    memset(&n, 0, sizeof n);
    n.nports = 5;
    n.nvc = 65;
    pk_pools_layout(&n);
    CU_ASSERT_EQUAL(layout_errors(&n), 0);
    n.pool_over -= 3; /* the bug: the other channels start inside the last port's block */
    CU_ASSERT(layout_errors(&n) > 0);
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"every (port, channel) its own pool, decoded back", test_layouts},
        {"a planted bug is caught", test_planted_bug_is_caught},
        {NULL, NULL}};
    test_add_suite("packet pools", cases);
    return test_run_suites();
}
