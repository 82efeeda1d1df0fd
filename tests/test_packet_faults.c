/* test_packet_faults.c - the packet model's adaptive, UGAL and ECMP routing on networks
 * with failed links (fault_hops.c), link by link: each case drives a pk_net directly
 * (rank actors of this test posting pk_send / pk_recv) and reads the per-port tally it
 * leaves, so that the bytes on the failed links themselves are seen:
 *
 *   - adaptive routing, alltoall on a 4x4 torus without h0-h1 and h5-h9;
 *   - ECMP, alltoall on a 4-leaf 4-spine fat tree without leaf 0's uplink to spine 0;
 *   - UGAL-L, every host sending to the same host of the next group on a Dragonfly
 *     (p=1 a=4 h=2: each group's traffic wants its one global link to the next group)
 *     without the global link between groups 0 and 1;
 *
 * and in each: no byte on a failed link (both directions), the model's conservation
 * check passes, every message crosses its two host links (indirect networks), and the
 * network bytes are those of minimal remaining paths: exactly sum(bytes x links) over
 * the messages for adaptive and ECMP, with the links of testutil's Bellman-Ford
 * distances (independent of fault_hops.c); at least that under UGAL, which goes Valiant
 * (more global bytes than the minimal paths have). The same runs with the families' own
 * next hops (a planted bug: candidates that ignore the faults) put bytes on the failed
 * link, and the check says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include "common/util.h"
#include "sim/packet.h"
#include "sim/sim_internal.h"
#include "testutil.h"
#include "topologies/faults.h"

typedef struct pcase {
    char spec[256];
    pk_routing routing;
    int32_t P, shift; /* shift 0: alltoall; else rank r sends to r + shift (mod P) */
    int64_t bytes;
    int plant;        /* route with the family's next hops, which ignore the faults */
} pcase;

typedef struct outcome {
    int check_rc;                     /* pk_net_check */
    int64_t failed, host, network, global; /* bytes x links */
} outcome;

typedef struct world {
    pk_net *net;
    const pcase *c;
} world;

static void rank_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    world *w = sg_actor_self_get_data();
    int32_t r = atoi(sg_actor_get_name(sg_actor_self()) + 4), P = w->c->P; /* "rank<r>" */
    for (int32_t k = 1; k < P; k++) {
        if (w->c->shift && k != w->c->shift)
            continue;
        pk_recv(w->net, r, (r - k + P) % P);
        pk_send(w->net, r, (r + k) % P, w->c->bytes);
    }
    pk_wait(w->net, r);
    pk_rank_exit(w->net, r);
}

/* Sums the tally into the outcome. */
static void add_up(const topology *t, const traffic_tally *x, outcome *o)
{
    for (int64_t l = 0; l < t->nlinks; l++) {
        int64_t b = x->resource_bytes[2 * l] + x->resource_bytes[2 * l + 1];
        if (topo_link_failed(t, l))
            o->failed += b;
        if (t->links[l].cls == LINK_HOST)
            o->host += b;
        else
            o->network += b;
        if (t->links[l].cls == LINK_GLOBAL)
            o->global += b;
    }
}

/* In the child: the case's ranks on hosts 0..P-1; answers an outcome. */
static int work(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const pcase *pc = arg;
    topology *t = NULL;
    char platform[4096], name[64];
    if (topo_build_spec(pc->spec, &t, err) < 0 ||
        topo_platform_path(t, platform, sizeof platform, err) < 0)
        return -1;
    if (pc->plant)
        t->next_hops = t->faults->hops_family;
    sim_simgrid_start(SIM_MODEL_CM02, platform);
    packet_config c;
    packet_config_init(&c);
    c.routing = pc->routing;
    traffic_tally tally;
    traffic_tally_init(&tally, t);
    int32_t *hor = xmalloc((size_t)pc->P * sizeof *hor);
    for (int32_t r = 0; r < pc->P; r++)
        hor[r] = r;
    topo_sg_host_name(t, 0, name, sizeof name);
    world w = {.c = pc};
    w.net = pk_net_new(&c, t, pc->P, hor, sg_host_by_name(name), &tally);
    for (int32_t r = 0; r < pc->P; r++) {
        char actor[32];
        topo_sg_host_name(t, r, name, sizeof name);
        snprintf(actor, sizeof actor, "rank%d", r);
        sg_actor_t a = sg_actor_init(actor, sg_host_by_name(name));
        sg_actor_set_data(a, &w);
        sg_actor_start_(a, rank_main, 0, NULL);
    }
    simgrid_run();
    outcome *o = xcalloc(1, sizeof *o);
    o->check_rc = pk_net_check(w.net, err);
    pk_net_free(w.net); /* fills the tally */
    add_up(t, &tally, o);
    traffic_tally_free(&tally);
    free(hor);
    topo_free(t);
    *payload = o;
    *len = sizeof *o;
    return 0;
}

static outcome run_case(const pcase *pc)
{
    void *payload = NULL;
    size_t len = 0;
    cs_error err;
    outcome o = {.check_rc = -9};
    if (sim_run_in_child(work, pc, &payload, &len, &err) < 0 || len != sizeof o) {
        fprintf(stderr, "%s: %s\n", pc->spec, err.msg);
        return o;
    }
    memcpy(&o, payload, sizeof o);
    free(payload);
    return o;
}

/* Bytes x links of the case's messages along minimal remaining paths (*global: their
 * global links), from testutil's distances. */
static int64_t minimal_bytes(const pcase *pc, int gf, int64_t *global)
{
    topology *t = NULL;
    cs_error err;
    CU_ASSERT_FATAL(topo_build_spec(pc->spec, &t, &err) == 0);
    int64_t *dist = xmalloc((size_t)topo_nnodes(t) * sizeof *dist), sum = 0;
    *global = 0;
    for (int32_t d = 0; d < pc->P; d++) {
        test_remaining_distances(t, d, gf, dist);
        for (int32_t k = 1; k < pc->P; k++) {
            int32_t s = (d - k + pc->P) % pc->P;
            if (pc->shift && k != pc->shift)
                continue;
            CU_ASSERT_FATAL(dist[s] != INT64_MAX);
            sum += pc->bytes * (dist[s] & 0xffffffff);
            *global += pc->bytes * (dist[s] >> 32);
        }
    }
    free(dist);
    topo_free(t);
    return sum;
}

/* Runs the case and checks it (see the top); `exact`: the network bytes are the minimal
 * paths' exactly; `valiant`: more global bytes than those. Then the planted bug. */
static void check_case(pcase pc, int gf, int exact, int valiant)
{
    int64_t min_global, min_all = minimal_bytes(&pc, gf, &min_global);
    int64_t hosts = (int64_t)pc.P * (pc.shift ? 1 : pc.P - 1) * pc.bytes * 2;
    outcome o = run_case(&pc);
    CU_ASSERT_EQUAL(o.check_rc, 0);
    CU_ASSERT_EQUAL(o.failed, 0);
    if (strncmp(pc.spec, "torus", 5) != 0) {
        CU_ASSERT_EQUAL(o.host, hosts);
        min_all -= hosts; /* the distances count the host links too */
    }
    if (exact)
        CU_ASSERT_EQUAL(o.network, min_all);
    CU_ASSERT(o.network >= min_all);
    if (valiant)
        CU_ASSERT(o.global > min_global);
    if (o.failed || (exact && o.network != min_all))
        fprintf(stderr, "%s: failed-link bytes %lld, network %lld (minimal %lld)\n", pc.spec,
                (long long)o.failed, (long long)o.network, (long long)min_all);
    pc.plant = 1; /* planted: the families' next hops cross the failed link */
    outcome bad = run_case(&pc);
    CU_ASSERT(bad.failed > 0);
}

static void test_torus_adaptive(void)
{
    pcase pc = {.spec = "torus dims=4x4 fail_links=h0-h1,h5-h9", .routing = PK_ROUTE_ADAPTIVE,
                .P = 16, .bytes = 65536};
    check_case(pc, 0, 1, 0);
}

static void test_fattree_ecmp(void)
{
    /* nodes: 16 hosts, leaves s16..s19, spines s20..s23 */
    pcase pc = {.spec = "fattree leaves=4 hosts_per_leaf=4 spines=4 fail_links=s16-s20",
                .routing = PK_ROUTE_ECMP, .P = 16, .bytes = 65536};
    check_case(pc, 0, 1, 0);
}

static void test_dragonfly_ugal(void)
{
    const char *base = "dragonfly p=1 a=4 h=2";
    topology *t = NULL;
    cs_error err;
    CU_ASSERT_FATAL(topo_build_spec(base, &t, &err) == 0);
    int64_t g01 = -1; /* the global link between groups 0 and 1 */
    for (int64_t l = 0; l < t->nlinks && g01 < 0; l++) {
        const topo_link *k = &t->links[l];
        if (k->cls == LINK_GLOBAL && t->group[k->a] + t->group[k->b] == 1)
            g01 = l;
    }
    CU_ASSERT_FATAL(g01 >= 0);
    CU_ASSERT_EQUAL(t->nhosts, 36); /* 9 groups of 4 hosts */
    topo_free(t);
    pcase pc = {.routing = PK_ROUTE_UGAL, .P = 36, .shift = 4, .bytes = 1 << 20};
    snprintf(pc.spec, sizeof pc.spec, "%s fail_links=l%lld", base, (long long)g01);
    check_case(pc, 1, 0, 1);
}

int main(void)
{
    static const test_case cases[] = {
        {"adaptive, torus with failed links", test_torus_adaptive},
        {"ecmp, fat tree with a failed uplink", test_fattree_ecmp},
        {"ugal, dragonfly with a failed global link", test_dragonfly_ugal},
        {NULL, NULL}};
    static const test_suite suites[] = {{"packet faults", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
