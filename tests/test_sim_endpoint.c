/* test_sim_endpoint.c - endpoint costs (issue 24, deliverable 1; src/sim/endpoint.h):
 * closed forms derived by hand from latency, bandwidth and the LogGP rules, on small
 * hand-built topologies, under CM02 (exact max-min sharing).
 *
 * STAR: "fattree leaves=1 hosts_per_leaf=H host_bw=1GBps host_lat=1us": every pair of
 * hosts is 2 host links apart through the one leaf switch, so a message of s bytes alone
 * takes 2L + s/bw with L = 1 us, bw = 1e9 B/s (`collsim topo ... --route 0 3`). RING:
 * "torus dims=8 local_bw=1GBps local_lat=1us", rank r on host r: 0 -> 3 is 3 hops.
 * Every point runs with free reductions and copies (network and endpoint only).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/endpoint.h"
#include "sim/sim.h"
#include "testutil.h"
#include "topologies/topology.h"

#define US 1e-6
#define BW 1e9
#define L (1 * US)
#define STAR4 "fattree leaves=1 hosts_per_leaf=4 host_bw=1GBps host_lat=1us"
#define STAR5 "fattree leaves=1 hosts_per_leaf=5 radix=16 host_bw=1GBps host_lat=1us"
#define STAR10 "fattree leaves=1 hosts_per_leaf=10 radix=32 host_bw=1GBps host_lat=1us"
#define RING8 "torus dims=8 local_bw=1GBps local_lat=1us"

typedef struct point {
    const char *topology, *algorithm;
    coll_kind coll;
    int32_t P, root, dst;
    int64_t bytes;
    const char *endpoint; /* "key=value key=value" given as CLI options, or "" */
    int32_t Q;            /* ranks per node (0: 1) */
    sim_model model;      /* 0: cm02 */
} point;

/* Designated initializers (the fields not named are 0). */
#define PT(t, a, c, p, r, d, b, e)                                                            \
    {.topology = t, .algorithm = a, .coll = c, .P = p, .root = r, .dst = d, .bytes = b,        \
     .endpoint = e}
#define PTQ(t, a, c, p, r, d, b, e, q, m)                                                     \
    {.topology = t, .algorithm = a, .coll = c, .P = p, .root = r, .dst = d, .bytes = b,        \
     .endpoint = e, .Q = q, .model = m}

/* Runs a point; fills finish[P] (per-rank finish times) when not NULL; returns time_s, or
 * -1 on error (printed). */
static double run(const point *pt, double *finish)
{
    for (int32_t r = 0; finish && r < pt->P; r++)
        finish[r] = -1;
    sim_config c;
    test_sim_config(&c, pt->topology, pt->algorithm, pt->coll, pt->P, pt->bytes);
    c.spec.root = pt->root;
    c.spec.dst = pt->dst;
    c.spec.ranks_per_node = pt->Q > 0 ? pt->Q : 1;
    c.reduce_Bps = c.copy_Bps = 0;
    c.per_rank = 1;
    c.model = pt->model;
    cs_error err;
    char words[256];
    snprintf(words, sizeof words, "%s", pt->endpoint);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(w, '=');
        *eq = '\0';
        if (endpoint_set(&c.endpoint, w, eq + 1, &err) < 0) {
            fprintf(stderr, "%s: %s\n", w, err.msg);
            return -1;
        }
    }
    sim_result res;
    if (sim_run_isolated(&c, &res, &err) < 0) {
        fprintf(stderr, "%s %s: %s\n", pt->topology, pt->algorithm, err.msg);
        return -1;
    }
    double t = res.row.time_s;
    if (finish)
        memcpy(finish, res.rank_finish_s, (size_t)pt->P * sizeof *finish);
    sim_result_free(&res);
    return t;
}

static int close_to(double got, double want)
{
    if (fabs(got - want) <= 1e-9 * want + 1e-15)
        return 1;
    fprintf(stderr, "got %.12g, expected %.12g\n", got, want);
    return 0;
}

/* ---- one message: o_s + L x hops + (bytes + envelope) / bw + o_r --------------------------- */

static void test_one_message(void)
{
    point star = PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000,
                  "send_overhead=3us recv_overhead=5us envelope=24B");
    CU_ASSERT(close_to(run(&star, NULL), 3 * US + 2 * L + 1024 / BW + 5 * US));
    point ring = PT(RING8, "direct", COLL_P2P, 8, 0, 3, 1000,
                  "send_overhead=3us recv_overhead=5us envelope=24B");
    CU_ASSERT(close_to(run(&ring, NULL), 3 * US + 3 * L + 1024 / BW + 5 * US));
    /* each parameter alone */
    point alone[] = {PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000, "send_overhead=3us"),
                     PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000, "recv_overhead=5us"),
                     PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000, "envelope=24"),
                     PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000, "msg_gap=7us")};
    double want[] = {3 * US + 2 * L + 1000 / BW, 2 * L + 1000 / BW + 5 * US,
                     2 * L + 1024 / BW, 2 * L + 1000 / BW /* one message waits for no gap */};
    for (int i = 0; i < 4; i++)
        CU_ASSERT(close_to(run(&alone[i], NULL), want[i]));
}

/* A 0-byte message costs its latency, its envelope and its overheads like any other. */
static void test_zero_bytes(void)
{
    point p = PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 0,
               "send_overhead=3us recv_overhead=5us envelope=64");
    CU_ASSERT(close_to(run(&p, NULL), 3 * US + 2 * L + 64 / BW + 5 * US));
    p.endpoint = "";
    CU_ASSERT(close_to(run(&p, NULL), 2 * L));
}

/* Every timed model: one message alone costs its model's network time plus o_s + o_r
 * (without an envelope the network part is the same message), up to SimGrid's
 * surf/precision of 1e-9 (a flow's end is rounded to it: lv08 and smpi's rates are not
 * round numbers), so within 2 ns. */
static void test_every_model(void)
{
    const sim_model models[] = {SIM_MODEL_LV08, SIM_MODEL_SMPI, SIM_MODEL_PACKET};
    for (int i = 0; i < 3; i++) {
        point bare = PTQ(STAR4, "direct", COLL_P2P, 4, 0, 3, 100000, "", 1, models[i]);
        point costs = bare;
        costs.endpoint = "send_overhead=3us recv_overhead=5us";
        double t0 = run(&bare, NULL), t1 = run(&costs, NULL);
        CU_ASSERT(t0 > 0 && fabs(t1 - (t0 + 8 * US)) <= 2e-9);
        if (fabs(t1 - (t0 + 8 * US)) > 2e-9)
            fprintf(stderr, "%s: %.12g, expected %.12g\n", sim_model_name(models[i]), t1,
                    t0 + 8 * US);
    }
}

/* ---- k messages from one rank to k peers (bcast linear: root 0 sends 100 B to 1..4 in
 * this order, in one step). 100 B take 0.1 us on a link, less than the 1 us between two
 * injections, so the messages never share a link: each arrives at inj_i + 2L + s/bw. ---- */

static void test_serial_send_overheads(void)
{
    point p =
        PT(STAR5, "linear", COLL_BCAST, 5, 0, 1, 100, "send_overhead=1us recv_overhead=2us");
    double f[5];
    double t = run(&p, f);
    /* injection i (1..4) at i o_s; rank i done at i o_s + 2L + s/bw + o_r; the root's sends
     * complete when delivered (no eager_limit): at 4 o_s + 2L + s/bw */
    for (int i = 1; i <= 4; i++)
        CU_ASSERT(close_to(f[i], i * US + 2 * L + 100 / BW + 2 * US));
    CU_ASSERT(close_to(f[0], 4 * US + 2 * L + 100 / BW));
    CU_ASSERT(close_to(t, 4 * US + 2 * L + 100 / BW + 2 * US));
    /* everything eager: the root is done at its last injection, 4 o_s */
    p.endpoint = "send_overhead=1us recv_overhead=2us eager_limit=1KiB";
    run(&p, f);
    CU_ASSERT(close_to(f[0], 4 * US));
}

static void test_gap_one_port(void)
{
    /* g = 3 us > o_s = 1 us: LogGP injections at o_s + (i - 1) g = 1, 4, 7, 10 us */
    point p = PT(STAR5, "linear", COLL_BCAST, 5, 0, 1, 100,
               "send_overhead=1us recv_overhead=2us msg_gap=3us");
    double f[5];
    run(&p, f);
    for (int i = 1; i <= 4; i++)
        CU_ASSERT(close_to(f[i], (1 + 3 * (i - 1)) * US + 2 * L + 100 / BW + 2 * US));
    /* g = 0.5 us < o_s = 1 us: the overheads dominate, injections at i o_s as without gap */
    p.endpoint = "send_overhead=1us recv_overhead=2us msg_gap=0.5us";
    run(&p, f);
    for (int i = 1; i <= 4; i++)
        CU_ASSERT(close_to(f[i], i * US + 2 * L + 100 / BW + 2 * US));
}

static void test_gap_two_ports(void)
{
    /* nic_ports=2: two ports (the host link has 2 GB/s). Ports A, B free at 0; rank ready
     * after each overhead: msg1 ready 1 -> A at 1 (A busy to 4); msg2 ready 2 -> B at 2 (B
     * to 5); msg3 ready 3 -> A at 4 (to 7); msg4 ready 5 -> B at 5. */
    point p = PT(STAR5 " nic_ports=2", "linear", COLL_BCAST, 5, 0, 1, 100,
               "send_overhead=1us msg_gap=3us");
    double f[5];
    run(&p, f);
    const double inject[] = {0, 1, 2, 4, 5};
    for (int i = 1; i <= 4; i++)
        CU_ASSERT(close_to(f[i], inject[i] * US + 2 * L + 100 / (2 * BW)));
}

/* Ranks of one host share its ports; a loopback message waits for no port. bcast linear,
 * 2 ranks per host: rank 0 sends to 1 (its host: intra_lat 200 ns + 100 B / 20 GB/s),
 * then to 2 and 3 (host 1): ready at 2 us, the port is free, injected (the port busy until
 * 12 us); ready at 3 us, it waits for the port until 12 us. */
static void test_loopback_no_gap(void)
{
    point p = PTQ(STAR4, "linear", COLL_BCAST, 4, 0, 1, 100, "send_overhead=1us msg_gap=10us", 2,
                  SIM_MODEL_CM02);
    double f[4];
    run(&p, f);
    CU_ASSERT(close_to(f[1], 1 * US + 200e-9 + 100 / 20e9));
    CU_ASSERT(close_to(f[2], 2 * US + 2 * L + 100 / BW));
    CU_ASSERT(close_to(f[3], 12 * US + 2 * L + 100 / BW));
}

/* k messages arriving together at one rank: its receive overheads are serial. gather
 * linear on 10 ranks: ranks 1..9 send 100 B each to 0 at
 * o_s; the 9 flows share the root's host link (max-min: all end at o_s + 2L + 9 s/bw),
 * then the root pays 9 o_r in turn. */
static void test_serial_recv_overheads(void)
{
    point p = PT(STAR10, "linear", COLL_GATHER, 10, 0, 1, 1000,
               "send_overhead=1us recv_overhead=2us");
    double f[10];
    double t = run(&p, f);
    CU_ASSERT(close_to(f[0], 1 * US + 2 * L + 900 / BW + 9 * 2 * US));
    for (int r = 1; r < 10; r++) /* delivered: the sender is done */
        CU_ASSERT(close_to(f[r], 1 * US + 2 * L + 900 / BW));
    CU_ASSERT(close_to(t, f[0]));
}

/* ---- eager and rendezvous ----------------------------------------------------------------- */

static void test_rendezvous_round_trip(void)
{
    const char *ep = "send_overhead=3us recv_overhead=5us envelope=24 eager_limit=512";
    point big = PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 1000, ep);
    double f[4];
    double one_way_env = 2 * L + 24 / BW; /* a request or a reply */
    double data = 2 * L + 1024 / BW;
    /* the request and the reply: one round trip before the data */
    CU_ASSERT(close_to(run(&big, f), 3 * US + 2 * one_way_env + data + 5 * US));
    CU_ASSERT(close_to(f[0], 3 * US + 2 * one_way_env + data)); /* waits for its data */
    point at_limit = PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 512, ep);
    CU_ASSERT(close_to(run(&at_limit, f), 3 * US + 2 * L + 536 / BW + 5 * US));
    CU_ASSERT(close_to(f[0], 3 * US)); /* eager: complete for the sender once injected */
    /* eager_limit=0: a 0-byte message is still eager, any other one a rendezvous */
    point zero = PT(STAR4, "direct", COLL_P2P, 4, 0, 3, 0, "eager_limit=0");
    CU_ASSERT(close_to(run(&zero, NULL), 2 * L));
    zero.bytes = 1;
    CU_ASSERT(close_to(run(&zero, NULL), 2 * (2 * L) + 2 * L + 1 / BW));
}

/* The receive is posted late: the reply leaves when it is posted, not before. bcast
 * binomial_doubling on 4 ranks: rank 1 receives from 0 in step 0 and sends to 3 in step
 * 1; rank 3 posts its receive at 0. Everything eager except with a limit below 1000. */
static void test_busy_rank_sends_later(void)
{
    /* eager (limit 1 MiB): rank 0 injects to 1 at o_s, its step ends there, it injects to 2
     * at 2 o_s; rank 1 gets its message at o_s + T (T = 2L + s/bw), pays o_r, then o_s,
     * and rank 3 gets it at 2 o_s + o_r + 2T, plus its o_r. */
    point p = PT(STAR4, "binomial_doubling", COLL_BCAST, 4, 0, 1, 1000,
               "send_overhead=3us recv_overhead=5us eager_limit=1MiB");
    double f[4], T = 2 * L + 1000 / BW;
    double t = run(&p, f);
    CU_ASSERT(close_to(f[0], 2 * 3 * US));
    CU_ASSERT(close_to(f[2], 2 * 3 * US + T + 5 * US));
    CU_ASSERT(close_to(f[1], 3 * US + T + 5 * US + 3 * US));
    CU_ASSERT(close_to(f[3], 2 * 3 * US + 2 * T + 2 * 5 * US));
    CU_ASSERT(close_to(t, f[3]));
}

/* ---- defaults: nothing given is exactly the simulator without endpoint costs ---------------- */

static void test_zero_is_default(void)
{
    point none = PT(STAR5, "linear", COLL_BCAST, 5, 0, 1, 100, "");
    point zeros = PT(STAR5, "linear", COLL_BCAST, 5, 0, 1, 100,
                   "send_overhead=0 recv_overhead=0 msg_gap=0 envelope=0");
    double a = run(&none, NULL), b = run(&zeros, NULL);
    CU_ASSERT(a == b);
    CU_ASSERT(close_to(a, 2 * L + 4 * 100 / BW)); /* 4 flows share the root's link */
}

/* ---- configuration ------------------------------------------------------------------------- */

static void test_parse_errors(void)
{
    endpoint_config c;
    endpoint_config_init(&c);
    cs_error err;
    CU_ASSERT(endpoint_set(&c, "send_overhead", "-1us", &err) < 0);
    CU_ASSERT(strstr(err.msg, "negative") && strstr(err.msg, "allowed"));
    CU_ASSERT(endpoint_set(&c, "msg_gap", "3furlongs", &err) < 0);
    CU_ASSERT(strstr(err.msg, "furlongs") && strstr(err.msg, "us"));
    CU_ASSERT(endpoint_set(&c, "recv_overhead", "2s", &err) < 0);
    CU_ASSERT(endpoint_set(&c, "envelope", "2MiB", &err) < 0);
    CU_ASSERT(strstr(err.msg, "0 .. 1048576") != NULL);
    CU_ASSERT(endpoint_set(&c, "eager", "1KiB", &err) < 0);
    CU_ASSERT(strstr(err.msg, "eager_limit") != NULL); /* the allowed keys */
    CU_ASSERT(c.given == 0 && !endpoint_active(&c));
    CU_ASSERT(endpoint_set(&c, "eager_limit", "0", &err) == 0);
    CU_ASSERT(endpoint_active(&c) && c.eager_set && c.eager_limit_B == 0);
}

static void test_describe(void)
{
    endpoint_config c;
    endpoint_config_init(&c);
    cs_error err;
    CU_ASSERT(endpoint_set(&c, "send_overhead", "1.2us", &err) == 0);
    CU_ASSERT(endpoint_set(&c, "envelope", "64B", &err) == 0);
    CU_ASSERT(endpoint_set(&c, "recv_overhead", "0", &err) == 0); /* zero: not named */
    char buf[256] = "cm02";
    endpoint_describe(&c, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "cm02 send_overhead=1200ns envelope=64");
    CU_ASSERT(endpoint_set(&c, "eager_limit", "8KiB", &err) == 0);
    CU_ASSERT(endpoint_set(&c, "msg_gap", "50ns", &err) == 0);
    snprintf(buf, sizeof buf, "cm02");
    endpoint_describe(&c, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "cm02 send_overhead=1200ns msg_gap=50ns envelope=64 "
                                "eager_limit=8192");
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs(text, f);
    fclose(f);
}

/* CLI > topology spec key > preset field > included fragment. */
static void test_precedence(void)
{
    char dir[64] = "/tmp/collsim-endpoint-XXXXXX", preset[128], frag[128], spec[256];
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    snprintf(preset, sizeof preset, "%s/m.yaml", dir);
    snprintf(frag, sizeof frag, "%s/calib.yaml", dir);
    write_file(frag, "send_overhead: 1us\nrecv_overhead: 2us\nmsg_gap: 3us\nenvelope: 8B\n");
    write_file(preset, "family: torus\nparams:\n  dims: 4\ninclude: calib.yaml\n"
                       "recv_overhead: 20us\nmsg_gap: 30us\n");
    snprintf(spec, sizeof spec, "%s msg_gap=300us", preset);
    endpoint_config cli, ec;
    endpoint_config_init(&cli);
    cs_error err;
    CU_ASSERT(endpoint_set(&cli, "envelope", "0", &err) == 0);
    CU_ASSERT_FATAL(endpoint_resolve(spec, &cli, &ec, &err) == 0);
    CU_ASSERT(close_to(ec.send_overhead_s, 1 * US)); /* fragment */
    CU_ASSERT(close_to(ec.recv_overhead_s, 20 * US)); /* preset over fragment */
    CU_ASSERT(close_to(ec.msg_gap_s, 300 * US));      /* spec over preset */
    CU_ASSERT(ec.envelope_B == 0);                    /* CLI over fragment, even 0 */
    CU_ASSERT(!ec.eager_set);
    /* the topology is built without the endpoint keys */
    topology *t;
    CU_ASSERT(topo_build_spec(spec, &t, &err) == 0 && t->nhosts == 4);
    topo_free(t);
    /* a bad value names its file, line and column */
    write_file(frag, "send_overhead: 1us\nenvelope: -8B\n");
    CU_ASSERT(endpoint_resolve(spec, NULL, &ec, &err) < 0);
    CU_ASSERT(strstr(err.msg, "calib.yaml:2:1: envelope") != NULL);
    write_file(frag, "send_overhead: 1us\nmtu: 8\n");
    CU_ASSERT(endpoint_resolve(spec, NULL, &ec, &err) < 0);
    CU_ASSERT(strstr(err.msg, "unknown field 'mtu'") && strstr(err.msg, "eager_limit"));
    test_cache_dir_remove(dir); /* removes the directory (it is no cache here) */
}

static void test_ports(void)
{
    topology *t;
    cs_error err;
    CU_ASSERT_FATAL(topo_build_spec(STAR4 " nic_ports=3", &t, &err) == 0);
    endpoint_config c;
    endpoint_config_init(&c);
    CU_ASSERT(endpoint_set(&c, "msg_gap", "10us", &err) == 0);
    endpoint_ports p;
    endpoint_ports_init(&p, t);
    CU_ASSERT(p.first[1] - p.first[0] == 3);
    double at[4];
    for (int i = 0; i < 4; i++) /* three ports: the fourth message waits for the first */
        at[i] = endpoint_inject_at(&c, &p, 0, 1, 1 * US);
    CU_ASSERT(close_to(at[0], 1 * US) && close_to(at[2], 1 * US) && close_to(at[3], 11 * US));
    CU_ASSERT(close_to(endpoint_inject_at(&c, &p, 0, 0, 2 * US), 2 * US)); /* loopback */
    endpoint_ports_free(&p);
    topo_free(t);
    CU_ASSERT_FATAL(topo_build_spec(RING8, &t, &err) == 0);
    endpoint_ports_init(&p, t);
    CU_ASSERT(p.first[1] - p.first[0] == 2); /* a ring node: two links */
    endpoint_ports_free(&p);
    topo_free(t);
}

int main(void)
{
    static const test_case closed[] = {
        {"one message: o_s + L hops + (s + envelope)/bw + o_r", test_one_message},
        {"a 0-byte message pays latency and overheads", test_zero_bytes},
        {"lv08, smpi, packet: + o_s + o_r", test_every_model},
        {"k sends: serial send overheads", test_serial_send_overheads},
        {"k sends: the gap of one port", test_gap_one_port},
        {"k sends: two ports inject in parallel", test_gap_two_ports},
        {"loopback: overheads, no gap", test_loopback_no_gap},
        {"k arrivals: serial receive overheads", test_serial_recv_overheads},
        {"a rendezvous adds one round trip", test_rendezvous_round_trip},
        {"a rank busy in overhead sends later", test_busy_rank_sends_later},
        {"all zero: the simulator without endpoint costs", test_zero_is_default},
        {NULL, NULL}};
    static const test_case config[] = {
        {"bad values name the allowed ones", test_parse_errors},
        {"model column text", test_describe},
        {"precedence and include", test_precedence},
        {"NIC ports", test_ports},
        {NULL, NULL}};
    static const test_suite suites[] = {
        {"endpoint closed forms", closed},
        {"endpoint configuration", config},
        {NULL, NULL}};
    return test_main_cached(suites);
}
