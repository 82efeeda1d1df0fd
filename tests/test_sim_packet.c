/* test_sim_packet.c - the packet model (--model packet) against closed forms, the flow
 * model, its own invariants and its routing:
 *
 *   - one message on an idle line of H links, N packets of s bytes: the last packet
 *     arrives at H lat + (N + H - 1) s / bw (pipelined store-and-forward; N = 1 is plain
 *     store-and-forward), on a direct line and through a fat tree's host links;
 *   - two messages sharing a link take as long as under the flow model (cm02);
 *   - ring allreduce on a ring (no contention): packet and flow times agree;
 *   - alltoall on tori with one-packet buffers completes (no deadlock), minimal and
 *     adaptive, and deadlocks (reported as such) with a single virtual channel;
 *   - adaptive routing spreads one message over both minimal directions of a torus (the
 *     per-link counters), UGAL-L takes Valiant paths (more global bytes) and finishes
 *     sooner under adversarial traffic on a Dragonfly;
 *   - under contention adaptive routing beats minimal on a fat tree (spines) and on a
 *     HyperX (dimension orders), and UGAL-L beats it on a Dragonfly+, with the bytes of
 *     the minimal paths (fat tree, HyperX) or more (Valiant detours) and every byte
 *     delivered (the model's conservation check passes);
 *   - ECMP keeps each message on one path: on a fat tree whose uplinks are 4x slower
 *     than its host links, one message to another leaf takes at least bytes / uplink
 *     bandwidth (all on one uplink), where adaptive routing spreads its packets over the
 *     4 uplinks and takes less than half that; ECMP crosses exactly the minimal paths'
 *     links (a pairwise all-to-all) and gives the same row when run again;
 *   - empty messages complete as one empty packet each;
 *   - the packet-hop count is the packets' links;
 *   - the conservation check reports a dropped packet, a packet delivered twice and a port
 *     sending more than it took; bad options are refused.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/sim.h"
#include "testutil.h"

typedef struct point {
    const char *topology, *alg, *placement, *model;
    coll_kind coll;
    int32_t P, dst;
    int64_t bytes, mtu, buffer, fault_drop, fault_dup, fault_resend;
    int fault_one_vc;
    pk_routing routing;
} point;

static int run(const point *p, sim_result *res, cs_error *err)
{
    sim_config c;
    test_sim_config(&c, p->topology, p->alg, p->coll, p->P, p->bytes);
    if (p->dst)
        c.spec.dst = p->dst;
    c.reduce_Bps = c.copy_Bps = 0; /* network only */
    if (p->mtu)
        c.packet.mtu = p->mtu;
    if (p->buffer)
        c.packet.buffer = p->buffer;
    c.packet.routing = p->routing;
    c.packet.fault_drop = p->fault_drop;
    c.packet.fault_dup = p->fault_dup;
    c.packet.fault_resend = p->fault_resend;
    c.packet.fault_one_vc = p->fault_one_vc;
    if (placement_parse(p->placement ? p->placement : "linear", &c.placement, err) < 0 ||
        sim_model_parse(p->model ? p->model : "packet", &c.model, err) < 0)
        return -1;
    return sim_run_isolated(&c, res, err);
}

/* Runs a point that must succeed; returns its row (time_s -1 on failure). */
static sim_row row_of(const point *p)
{
    sim_result res;
    cs_error err;
    if (run(p, &res, &err) < 0) {
        fprintf(stderr, "%s %s: %s\n", p->topology, p->alg, err.msg);
        sim_row bad = {.time_s = -1};
        return bad;
    }
    sim_row r = res.row;
    sim_result_free(&res);
    return r;
}

static int close_rel(double got, double want, double rel)
{
    return test_close_rel(got, want, rel);
}

/* SimGrid ends activities within surf/precision (1e-9): a few ns over ~100 sleeps. */
#define TIME_TOL 1e-4

/* A line of 5 nodes: 4 links of 1 GB/s, 1 us. */
#define LINE5 "torus dims=5 mesh=1 local_bw=1GBps local_lat=1us"

static void test_single_message_closed_form(void)
{
    const double lat = 1e-6, bw = 1e9;
    const int H = 4;
    point p = {.topology = LINE5, .alg = "direct", .coll = COLL_P2P, .P = 5, .dst = 4,
               .mtu = 4096, .buffer = 1 << 20};
    for (int64_t N = 1; N <= 64; N *= 4) { /* N = 1: store-and-forward */
        p.bytes = N * 4096;
        double want = H * lat + (double)(N + H - 1) * 4096 / bw;
        CU_ASSERT(close_rel(row_of(&p).time_s, want, TIME_TOL));
    }
    p.mtu = 1000; /* 64 KiB = 65 packets of 1000 bytes and one of 536: the last one */
    p.bytes = 65536;
    CU_ASSERT(close_rel(row_of(&p).time_s, H * lat + 68 * 1000 / bw + 536 / bw, TIME_TOL));
    /* fat tree: host - leaf - spine - leaf - host, every link 1 GB/s and 1 us */
    point f = {.topology = "fattree leaves=2 hosts_per_leaf=1 spines=1 host_bw=1GBps "
                           "host_lat=1us local_bw=1GBps local_lat=1us",
               .alg = "direct", .coll = COLL_P2P, .P = 2, .dst = 1, .bytes = 16 * 4096,
               .mtu = 4096};
    CU_ASSERT(close_rel(row_of(&f).time_s, 4 * lat + (16 + 3) * 4096 / bw, TIME_TOL));
}

static void test_two_messages_share_a_link(void)
{
    /* gather to rank 2 on a line of 3: 0 -> 2 and 1 -> 2 both cross link 1 - 2 */
    point p = {.topology = "torus dims=3 mesh=1 local_bw=1GBps local_lat=1us", .alg = "linear",
               .coll = COLL_GATHER, .P = 3, .bytes = 3 << 21};
    sim_row pk = row_of(&p);
    p.model = "cm02";
    sim_row flow = row_of(&p);
    CU_ASSERT(close_rel(pk.time_s, flow.time_s, 0.01));
    CU_ASSERT(pk.time_s > 2 * (2 << 20) / 1e9); /* the link carries both: twice one message */
    CU_ASSERT_EQUAL(pk.bytes_local, flow.bytes_local);
    CU_ASSERT_EQUAL(pk.max_link_bytes, flow.max_link_bytes);
}

static void test_ring_allreduce_agrees_with_flow(void)
{
    point p = {.topology = "torus dims=8", .alg = "ring", .coll = COLL_ALLREDUCE, .P = 8,
               .bytes = 8 << 20};
    sim_row pk = row_of(&p);
    p.model = "cm02";
    sim_row flow = row_of(&p);
    CU_ASSERT(close_rel(pk.time_s, flow.time_s, 0.05));
    CU_ASSERT_EQUAL(pk.bytes_local, flow.bytes_local);
}

static void test_torus_alltoall_no_deadlock(void)
{
    static const char *const tori[] = {"torus dims=8", "torus dims=6x6"};
    static const int32_t P[] = {8, 36};
    for (int i = 0; i < 2; i++)
        for (pk_routing r = PK_ROUTE_MINIMAL; r <= PK_ROUTE_ADAPTIVE; r++) {
            point p = {.topology = tori[i], .alg = "linear", .coll = COLL_ALLTOALL, .P = P[i],
                       .bytes = P[i] * 16384, .mtu = 1024, .buffer = 1024, .routing = r};
            sim_row row = row_of(&p);
            CU_ASSERT(row.time_s > 0);
            point q = p;
            q.model = "traffic";
            CU_ASSERT_EQUAL(row.bytes_local, row_of(&q).bytes_local); /* minimal paths */
            /* the same with one virtual channel: the rings deadlock, and it is reported */
            p.fault_one_vc = 1;
            sim_result res;
            cs_error err;
            CU_ASSERT_EQUAL(run(&p, &res, &err), -1);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "network deadlock"));
        }
}

static void test_adaptive_spreads_load(void)
{
    /* host 0 -> host 5 on a 4x4 torus: two minimal first hops (x or y) */
    point p = {.topology = "torus dims=4x4", .alg = "direct", .coll = COLL_P2P, .P = 16,
               .dst = 5, .bytes = 1 << 20};
    sim_row minimal = row_of(&p);
    p.routing = PK_ROUTE_ADAPTIVE;
    sim_row adaptive = row_of(&p);
    CU_ASSERT_EQUAL(minimal.max_link_bytes, 1 << 20);
    CU_ASSERT(adaptive.max_link_bytes <= (3 << 20) / 4);
    CU_ASSERT_EQUAL(adaptive.bytes_local, 2 << 20); /* still two links per packet */
    CU_ASSERT(adaptive.time_s < minimal.time_s);
}

static void test_ugal_goes_valiant_under_adversarial_traffic(void)
{
    /* round-robin placement: ring neighbours sit in consecutive groups, so every group
     * sends all its traffic to the next group over one global link */
    point p = {.topology = "dragonfly p=1 a=4 h=2", .alg = "ring", .coll = COLL_ALLGATHER,
               .P = 36, .bytes = 36 * 32768, .placement = "roundrobin"};
    sim_row minimal = row_of(&p);
    p.routing = PK_ROUTE_UGAL;
    sim_row ugal = row_of(&p);
    CU_ASSERT(ugal.time_s > 0 && minimal.time_s > 0);
    CU_ASSERT(ugal.bytes_global > minimal.bytes_global);
    CU_ASSERT(ugal.time_s < minimal.time_s);
    /* benign traffic (linear placement: neighbours share a group): UGAL stays minimal */
    p.placement = "linear";
    sim_row benign = row_of(&p);
    p.routing = PK_ROUTE_MINIMAL;
    CU_ASSERT_EQUAL(benign.bytes_global, row_of(&p).bytes_global);
}

/* Adaptive (or UGAL) routing against minimal on the same contended point: faster, the
 * host links carry the same bytes (every packet injected and delivered once: the run's
 * conservation check has passed, else row_of fails), and the network links carry
 * at least the minimal paths' bytes (`equal`: exactly, as all minimal paths are equally
 * long). */
static sim_row check_beats_minimal(point p, pk_routing routing, int equal, sim_row *minimal_out)
{
    p.routing = PK_ROUTE_MINIMAL;
    sim_row minimal = row_of(&p);
    p.routing = routing;
    sim_row other = row_of(&p);
    *minimal_out = minimal;
    CU_ASSERT(minimal.time_s > 0 && other.time_s > 0);
    CU_ASSERT(other.time_s < 0.9 * minimal.time_s);
    CU_ASSERT_EQUAL(other.bytes_host, minimal.bytes_host);
    CU_ASSERT(other.bytes_local + other.bytes_global >= minimal.bytes_local + minimal.bytes_global);
    if (equal) {
        CU_ASSERT_EQUAL(other.bytes_local, minimal.bytes_local);
        CU_ASSERT_EQUAL(other.bytes_global, minimal.bytes_global);
    }
    return other;
}

static void test_adaptive_on_a_fat_tree(void)
{
    /* pairwise alltoall: the deterministic spine choice (by destination) puts several
     * flows of a leaf on one uplink; adaptive spreads them over the 4 spines */
    point p = {.topology = "fattree leaves=4 hosts_per_leaf=4 spines=4", .alg = "pairwise",
               .coll = COLL_ALLTOALL, .P = 16, .bytes = 1 << 20};
    sim_row minimal;
    check_beats_minimal(p, PK_ROUTE_ADAPTIVE, 1, &minimal);
}

static void test_adaptive_on_a_hyperx(void)
{
    /* pairwise alltoall on a 4x4 HyperX: the fixed dimension order loads some links
     * twice; adaptive takes the other order when its first link is busier */
    point p = {.topology = "hyperx dims=4x4 T=1", .alg = "pairwise", .coll = COLL_ALLTOALL,
               .P = 16, .bytes = 1 << 20};
    sim_row minimal;
    check_beats_minimal(p, PK_ROUTE_ADAPTIVE, 1, &minimal);
}

static void test_ugal_on_a_dragonfly_plus(void)
{
    /* round-robin placement: ring neighbours sit in consecutive groups (4 hosts each),
     * so every group sends everything over the one global link to the next group */
    point p = {.topology = "dragonflyplus p=2 leaves=2 spines=2 h=2", .alg = "ring",
               .coll = COLL_ALLGATHER, .P = 20, .bytes = 5 << 20, .placement = "roundrobin"};
    sim_row minimal, ugal = check_beats_minimal(p, PK_ROUTE_UGAL, 0, &minimal);
    CU_ASSERT(ugal.bytes_global > minimal.bytes_global); /* Valiant detours */
}

#define FT44 "fattree leaves=4 hosts_per_leaf=4 spines=4"

static void test_ecmp_per_flow(void)
{
    /* host 0 -> host 4: another leaf, 4 spines to choose from, uplinks of 1 GB/s */
    point p = {.topology = FT44 " host_bw=4GBps local_bw=1GBps", .alg = "direct",
               .coll = COLL_P2P, .P = 16, .dst = 4, .bytes = 1 << 20,
               .routing = PK_ROUTE_ECMP};
    sim_row ecmp = row_of(&p);
    p.routing = PK_ROUTE_ADAPTIVE;
    sim_row adaptive = row_of(&p);
    double one_uplink = (double)(1 << 20) / 1e9;
    CU_ASSERT(ecmp.time_s >= one_uplink);
    CU_ASSERT(adaptive.time_s > 0 && adaptive.time_s < one_uplink / 2);
    CU_ASSERT_EQUAL(ecmp.bytes_local, adaptive.bytes_local);
}

static void test_ecmp_spreads_and_repeats(void)
{
    point p = {.topology = FT44, .alg = "pairwise", .coll = COLL_ALLTOALL, .P = 16,
               .bytes = 1 << 20};
    sim_row minimal = row_of(&p);
    p.routing = PK_ROUTE_ECMP;
    sim_row ecmp = row_of(&p), again = row_of(&p);
    CU_ASSERT(ecmp.time_s > 0);
    CU_ASSERT_EQUAL(ecmp.bytes_local, minimal.bytes_local); /* minimal paths only */
    CU_ASSERT_EQUAL(ecmp.bytes_host, minimal.bytes_host);
    CU_ASSERT_EQUAL(ecmp.time_s, again.time_s); /* deterministic */
    CU_ASSERT_EQUAL(ecmp.max_link_bytes, again.max_link_bytes);
    /* on a torus ECMP also works (two minimal directions), and on a Dragonfly+ */
    point q = {.topology = "torus dims=4x4", .alg = "recursive_doubling",
               .coll = COLL_ALLREDUCE, .P = 16, .bytes = 1 << 20, .routing = PK_ROUTE_ECMP};
    CU_ASSERT(row_of(&q).time_s > 0);
    q.topology = "dragonflyplus p=2 leaves=2 spines=2 h=2";
    q.P = 16;
    CU_ASSERT(row_of(&q).time_s > 0);
}

/* Empty messages (size 0, or blocks of 0 bytes when the vector is smaller than P) travel as
 * one empty packet each: they complete, carry no bytes, and cost only latency. */
static void test_empty_messages(void)
{
    point p = {.topology = LINE5, .alg = "direct", .coll = COLL_P2P, .P = 5, .dst = 4,
               .bytes = 0};
    sim_row r = row_of(&p);
    CU_ASSERT(close_rel(r.time_s, 4 * 1e-6, TIME_TOL));
    CU_ASSERT_EQUAL(r.bytes_local, 0);
    point q = {.topology = "torus dims=4x4", .alg = "ring", .coll = COLL_ALLREDUCE, .P = 16,
               .bytes = 8}; /* 8 blocks of 1 byte and 8 of 0 */
    sim_row pk = row_of(&q);
    q.model = "cm02";
    sim_row flow = row_of(&q);
    CU_ASSERT(pk.time_s > 0);
    CU_ASSERT_EQUAL(pk.bytes_local, flow.bytes_local);
    CU_ASSERT_EQUAL(pk.messages, flow.messages);
}

/* A fault injected into one message of 10 packets over 4 links must make the run fail
 * with `want` in the message. */
static void expect_fault(point p, const char *want)
{
    p.topology = LINE5;
    p.alg = "direct";
    p.coll = COLL_P2P;
    p.P = 5;
    p.dst = 4;
    p.bytes = 10 * 4096;
    sim_result res;
    cs_error err;
    CU_ASSERT_EQUAL(run(&p, &res, &err), -1);
    if (!strstr(err.msg, want))
        fprintf(stderr, "'%s' lacks '%s'\n", err.msg, want);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
}

static void test_lost_packet_is_detected(void)
{
    expect_fault((point){.fault_drop = 7}, "never completed");
}

/* A packet delivered twice: its message got more bytes than it has. */
static void test_duplicated_packet_is_detected(void)
{
    expect_fault((point){.fault_dup = 3}, "1 message(s) delivered other than their bytes");
}

/* A port that sends a packet twice (the copy lost on the wire): bytes out != bytes in. */
static void test_port_imbalance_is_detected(void)
{
    expect_fault((point){.fault_resend = 12}, "took 40960 bytes and sent 45056");
}

/* The packet-hop count (collsim sim --verbose): packets x links. */
static void test_packet_hops(void)
{
    point p = {.topology = LINE5, .alg = "direct", .coll = COLL_P2P, .P = 5, .dst = 4,
               .bytes = 10 * 4096 + 1};
    sim_result res;
    cs_error err;
    CU_ASSERT_EQUAL_FATAL(run(&p, &res, &err), 0);
    CU_ASSERT_EQUAL(res.packet_hops, 11 * 4);
    CU_ASSERT(res.cpu_s > 0);
    sim_result_free(&res);
    p.model = "cm02";
    CU_ASSERT_EQUAL_FATAL(run(&p, &res, &err), 0);
    CU_ASSERT_EQUAL(res.packet_hops, 0);
    sim_result_free(&res);
}

static void test_bad_options(void)
{
    sim_result res;
    cs_error err;
    point p = {.topology = "torus dims=4", .alg = "direct", .coll = COLL_P2P, .P = 4,
               .bytes = 4096, .routing = PK_ROUTE_UGAL};
    CU_ASSERT_EQUAL(run(&p, &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "ugal needs a dragonfly"));
    p.routing = PK_ROUTE_MINIMAL;
    p.buffer = 100;
    CU_ASSERT_EQUAL(run(&p, &res, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "buffer"));
    pk_routing r;
    CU_ASSERT_EQUAL(pk_routing_parse("valiant", &r, &err), -1);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "minimal, adaptive, ugal, ecmp"));
}

int main(void)
{
    static const test_case cases[] = {
        {"single message: H lat + (N+H-1) s/bw", test_single_message_closed_form},
        {"two messages share a link", test_two_messages_share_a_link},
        {"ring allreduce agrees with flow", test_ring_allreduce_agrees_with_flow},
        {"torus alltoall, 1-packet buffers: no deadlock", test_torus_alltoall_no_deadlock},
        {"adaptive routing spreads load", test_adaptive_spreads_load},
        {"ugal goes Valiant under adversarial traffic", test_ugal_goes_valiant_under_adversarial_traffic},
        {"adaptive beats minimal on a fat tree", test_adaptive_on_a_fat_tree},
        {"adaptive beats minimal on a hyperx", test_adaptive_on_a_hyperx},
        {"ugal beats minimal on a dragonfly+", test_ugal_on_a_dragonfly_plus},
        {"ecmp: one path per message", test_ecmp_per_flow},
        {"ecmp: spreads, minimal paths, deterministic", test_ecmp_spreads_and_repeats},
        {"empty messages", test_empty_messages},
        {"packet hops", test_packet_hops},
        {"lost packet detected", test_lost_packet_is_detected},
        {"duplicated packet detected", test_duplicated_packet_is_detected},
        {"port imbalance detected", test_port_imbalance_is_detected},
        {"bad options", test_bad_options},
        {NULL, NULL}};
    static const test_suite suites[] = {{"packet model", cases}, {NULL, NULL}};
    return test_main_cached(suites);
}
