/* test_packet_route.c - the packet model's next-hop memo (src/sim/packet_route.c,
 * pk_next_hops): adaptive, UGAL and ECMP routing read the minimal next hops of (node,
 * destination host) from a direct-mapped table instead of asking the family each time.
 *
 *   - for every node and host of small networks of each family with next hops, asked
 *     twice (filled, then remembered), pk_next_hops gives topo_next_hops's hops, in its
 *     order, as ports and far nodes (traffic_resource, topo_hop_head), with a table of 64
 *     entries (collisions on every network) and one sized from the network;
 *   - a fat tree with more uplinks than a memo entry holds is answered too (not
 *     remembered);
 *   - a planted bug (an entry's hops overwritten behind the memo) is seen by the same
 *     comparison, so it can fail: in the table of single next hops (a Dragonfly's) and in
 *     the one of several (a torus's two directions);
 *   - the keys are (switch, destination switch) on the families that declare their next
 *     hops per destination switch (topology.h: next_hops_by_switch; the comparison above
 *     runs through them), (node, host) on a torus and with failed links (a failed host
 *     link makes the hops depend on the host); switch keys planted on such a network
 *     give wrong hops, and the comparison sees them.
 */
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/packet_internal.h"
#include "testutil.h"

typedef struct fixture {
    pk_net net;
    topology *t;
    int maxk;                 /* the most next hops seen at one node */
} fixture;

static int setup(fixture *f, const char *spec, int memo_bits)
{
    memset(f, 0, sizeof *f);
    cs_error err;
    if (topo_build_spec(spec, &f->t, &err) < 0) {
        fprintf(stderr, "%s: %s\n", spec, err.msg);
        return -1;
    }
    f->net.t = f->t;
    f->net.cfg.routing = PK_ROUTE_ADAPTIVE;
    f->net.maxdeg = topo_max_degree(f->t);
    f->net.scratch = xmalloc((size_t)(f->net.maxdeg + 1) * sizeof *f->net.scratch);
    pk_route_init(&f->net, memo_bits);
    return 0;
}

static void teardown(fixture *f)
{
    pk_route_free(&f->net);
    free(f->net.scratch);
    topo_free(f->t);
}

/* The hops point into the memo's tables (not a scratch answer). */
static int in_memo(const pk_net *n, const pk_next *got)
{
    const char *g = (const char *)got;
    size_t n1 = 2 * (n->memo_mask + 1), nw = n->memo_mask + 1;
    return n->memo && ((g >= (const char *)n->memo1 && g < (const char *)(n->memo1 + n1)) ||
                       (g >= (const char *)n->memo && g < (const char *)(n->memo + nw)));
}

/* Mismatches between pk_next_hops and topo_next_hops over every (node, host), each pair
 * asked `rounds` times; `plant` > 0: corrupt first the memo entry of one pair with at
 * least `plant` next hops. */
static int64_t compare_all(fixture *f, int rounds, int plant)
{
    const topology *t = f->t;
    topo_hop *ref = xmalloc((size_t)(f->net.maxdeg + 1) * sizeof *ref);
    int64_t bad = 0, asked = 0;
    for (int r = 0; r < rounds; r++)
        for (int32_t at = 0; at < topo_nnodes(t); at++)
            for (int32_t dst = 0; dst < t->nhosts; dst++) {
                if (at == dst)
                    continue;
                int k = topo_next_hops(t, at, dst, ref, f->net.maxdeg);
                const pk_next *got;
                int kg = pk_next_hops(&f->net, at, dst, &got);
                if (plant && r == 0 && kg >= plant && in_memo(&f->net, got)) {
                    ((pk_next *)got)[0].port ^= 1; /* the bug: a wrong port remembered */
                    plant = 0;
                }
                asked++;
                if (k > f->maxk)
                    f->maxk = k;
                if (kg != k) {
                    bad++;
                    continue;
                }
                for (int i = 0; i < k; i++)
                    if (got[i].port != traffic_resource(t, ref[i]) ||
                        got[i].to != topo_hop_head(t, ref[i]))
                        bad++;
            }
    free(ref);
    CU_ASSERT(asked > 0);
    return bad;
}

/* Checks the memo on `spec`; returns the most next hops seen at one node. */
static int check_family(const char *spec)
{
    int maxk = 0;
    static const int bits[] = {6, 0}; /* 64 entries: collisions; 0: sized from the network */
    for (int b = 0; b < 2; b++) {
        fixture f;
        if (setup(&f, spec, bits[b]) < 0) {
            CU_FAIL("topology");
            return 0;
        }
        CU_ASSERT_PTR_NOT_NULL(f.net.memo);
        int64_t bad = compare_all(&f, 2, 0);
        CU_ASSERT_EQUAL(bad, 0);
        if (bad)
            fprintf(stderr, "%s (memo bits %d): %lld mismatches\n", spec, bits[b], (long long)bad);
        maxk = f.maxk;
        teardown(&f);
    }
    return maxk;
}

static void test_families(void)
{
    check_family("dragonfly p=2 a=4 h=2");
    check_family("dragonflyplus p=2 leaves=2 spines=2 g=3");
    check_family("torus dims=4x4");
    check_family("torus dims=5x3 mesh=1");
    check_family("hyperx dims=3x3 T=2");
    check_family("fattree leaves=4 hosts_per_leaf=2 spines=2");
}

/* Whether `spec`'s memo is keyed by switch; its answers are checked as above. */
static int keyed_by_switch(const char *spec)
{
    fixture f;
    if (setup(&f, spec, 0) < 0) {
        CU_FAIL("topology");
        return -1;
    }
    int by_switch = f.net.host_hops != NULL;
    CU_ASSERT_EQUAL(compare_all(&f, 2, 0), 0);
    teardown(&f);
    return by_switch;
}

static void test_switch_keys(void)
{
    CU_ASSERT_EQUAL(keyed_by_switch("dragonfly p=2 a=4 h=2"), 1);
    CU_ASSERT_EQUAL(keyed_by_switch("dragonflyplus p=2 leaves=2 spines=2 g=3"), 1);
    CU_ASSERT_EQUAL(keyed_by_switch("fattree leaves=4 hosts_per_leaf=2 spines=2"), 1);
    CU_ASSERT_EQUAL(keyed_by_switch("fattree levels=3 radix=4"), 1);
    CU_ASSERT_EQUAL(keyed_by_switch("hyperx dims=3x3 T=2"), 1);
    CU_ASSERT_EQUAL(keyed_by_switch("torus dims=4x4"), 0);         /* direct */
    CU_ASSERT_EQUAL(keyed_by_switch("dragonfly p=2 a=4 h=2 fail_links=l0"), 0); /* faults */
}

static void test_switch_keys_planted(void)
{
    /* host 0's host link failed: no next hop toward it, while host 1 on the same switch
     * has some; keys by switch (wrongly declared) answer one with the other's hops */
    fixture f;
    CU_ASSERT_EQUAL_FATAL(setup(&f, "dragonfly p=2 a=4 h=2 fail_links=l0", 0), 0);
    f.t->next_hops_by_switch = f.t->next_hops; /* the bug */
    pk_route_free(&f.net);
    pk_route_init(&f.net, 0);
    CU_ASSERT_PTR_NOT_NULL(f.net.host_hops);
    CU_ASSERT(compare_all(&f, 2, 0) > 0);
    teardown(&f);
}

static void test_more_hops_than_an_entry(void)
{
    /* 8 spines: a leaf's uplinks toward another leaf are more than PK_MEMO_HOPS */
    CU_ASSERT(check_family("fattree radix=16 leaves=2 hosts_per_leaf=8 spines=8") > PK_MEMO_HOPS);
}

static void planted(const char *spec, int min_hops)
{
    fixture f;
    CU_ASSERT_EQUAL_FATAL(setup(&f, spec, 0), 0);
    CU_ASSERT(compare_all(&f, 2, min_hops) > 0);
    teardown(&f);
}

static void test_planted_bug_is_caught(void)
{
    planted("dragonfly p=2 a=4 h=2", 1); /* one next hop: the 16-byte entries */
    planted("torus dims=4x4", 2);        /* several: the 64-byte entries */
}

int main(void)
{
    CU_initialize_registry();
    static const test_case cases[] = {
        {"memo = topo_next_hops on every family", test_families},
        {"more hops than an entry holds", test_more_hops_than_an_entry},
        {"a planted bug is caught", test_planted_bug_is_caught},
        {"keys by switch where the family allows", test_switch_keys},
        {"switch keys planted on host-dependent hops are caught", test_switch_keys_planted},
        {NULL, NULL}};
    test_add_suite("packet route", cases);
    return test_run_suites();
}
