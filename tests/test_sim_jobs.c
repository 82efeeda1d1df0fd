/* test_sim_jobs.c - several jobs on one machine (sim/jobs.h) against closed forms and
 * against the single-point simulator.
 *
 *   - two identical jobs on disjoint halves of a full-bisection fat tree take exactly the
 *     time of one alone, and that is the time `collsim sim` gives the job as a point;
 *   - two p2p jobs forced through one link of a mesh (h0 -> h2 and h1 -> h3 share the
 *     link h1 -> h2) each take 2 lat + 2 S / bw instead of 2 lat + S / bw (max-min: half
 *     the bandwidth each, CM02 exact);
 *   - a job that starts after the other has finished is not slowed down; repetitions are
 *     back to back (time_s is per repetition);
 *   - traffic patterns: their message counts and bytes in closed form, the offered load's
 *     think time, duration -> rounds;
 *   - per-job traffic bytes under cm02 are each job's traffic-model bytes, and add up to
 *     the bytes of both jobs counted as single points;
 *   - two jobs sharing a host (shared=yes) share its NIC port: the second message waits
 *     the message gap (cm02 and packet, closed forms);
 *   - overlapping hosts, bad job specs and models without jobs are refused by name.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/jobs.h"
#include "testutil.h"

static int close_rel(double got, double want, double rel)
{
    if (fabs(got - want) <= rel * fabs(want))
        return 1;
    fprintf(stderr, "got %.12g, expected %.12g (rel %.3g)\n", got, want, fabs(got - want) / want);
    return 0;
}

/* A job set on topology with the given specs (NULL-terminated), rates free, and a NIC
 * message gap (endpoint.h; "0": none). */
static int run_jobs_gap(const char *topology, const char *model, const char *msg_gap,
                        const char *const *specs, job_result *out, cs_error *err)
{
    job_set js;
    memset(&js, 0, sizeof js);
    sim_config_init(&js.base);
    snprintf(js.base.topology, sizeof js.base.topology, "%s", topology);
    js.base.reduce_Bps = js.base.copy_Bps = 0;
    if (sim_model_parse(model, &js.base.model, err) < 0 ||
        (strcmp(msg_gap, "0") != 0 && endpoint_set(&js.base.endpoint, "msg_gap", msg_gap, err) < 0))
        return -1;
    for (js.njobs = 0; specs[js.njobs]; js.njobs++)
        if (job_spec_parse(specs[js.njobs], js.njobs, &js.jobs[js.njobs], err) < 0)
            return -1;
    return jobs_run_isolated(&js, 1, out, err);
}

static int run_jobs(const char *topology, const char *model, const char *const *specs,
                    job_result *out, cs_error *err)
{
    return run_jobs_gap(topology, model, "0", specs, out, err);
}

/* One point through sim_run_isolated (not the jobs code). */
static int run_point(const char *topology, const char *model, coll_kind coll, const char *alg,
                     int32_t P, int64_t bytes, const char *placement, sim_row *row,
                     cs_error *err)
{
    sim_config c;
    sim_config_init(&c);
    snprintf(c.topology, sizeof c.topology, "%s", topology);
    snprintf(c.algorithm, sizeof c.algorithm, "%s", alg);
    coll_spec_init(&c.spec, coll, P, bytes);
    c.reduce_Bps = c.copy_Bps = 0;
    if (sim_model_parse(model, &c.model, err) < 0 ||
        placement_parse(placement, &c.placement, err) < 0)
        return -1;
    sim_result res;
    if (sim_run_isolated(&c, &res, err) < 0)
        return -1;
    *row = res.row;
    sim_result_free(&res);
    return 0;
}

/* 32 hosts, 8 leaves of 4 hosts, 4 spines: full bisection. */
#define FT16 "fattree levels=2 radix=8 host_bw=10GBps local_bw=10GBps host_lat=1us local_lat=1us"

static void test_disjoint_halves_alone(void)
{
    const char *specs[] = {"name=a,coll=allreduce,alg=ring,ranks=8,hosts=0-7,size=4MiB",
                           "name=b,coll=allreduce,alg=ring,ranks=8,hosts=8-15,size=4MiB", NULL};
    job_result out[2];
    cs_error err;
    int rc = run_jobs(FT16, "cm02", specs, out, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_FATAL(rc == 0);
    sim_row a, b;
    CU_ASSERT_FATAL(run_point(FT16, "cm02", COLL_ALLREDUCE, "ring", 8, 4 << 20, "alloc:h[0-7]",
                              &a, &err) == 0);
    CU_ASSERT_FATAL(run_point(FT16, "cm02", COLL_ALLREDUCE, "ring", 8, 4 << 20,
                              "alloc:h[8-15]", &b, &err) == 0);
    for (int k = 0; k < 2; k++) {
        CU_ASSERT(close_rel(out[k].row.time_s, out[k].alone_s, 1e-9));
        CU_ASSERT(close_rel(out[k].slowdown, 1.0, 1e-9));
        CU_ASSERT(close_rel(out[k].row.time_s, k ? b.time_s : a.time_s, 1e-9));
    }
    CU_ASSERT_STRING_EQUAL(out[0].job, "a");
    CU_ASSERT_STRING_EQUAL(out[1].job, "b");
}

/* A mesh line h0 - h1 - h2 - h3, 1 GB/s, 1 us per link, no router latency. */
#define LINE4 "torus dims=4 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns"
#define S 10000000.0

static void test_shared_link_twice(void)
{
    const char *specs[] = {"coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=10000000B",
                           "coll=p2p,alg=direct,ranks=2,hosts=[1,3],size=10000000B", NULL};
    job_result out[2];
    cs_error err;
    CU_ASSERT_FATAL(run_jobs(LINE4, "cm02", specs, out, &err) == 0);
    double alone = 2e-6 + S / 1e9, together = 2e-6 + 2 * S / 1e9;
    for (int k = 0; k < 2; k++) {
        CU_ASSERT(close_rel(out[k].alone_s, alone, 1e-9));
        CU_ASSERT(close_rel(out[k].row.time_s, together, 1e-9));
        CU_ASSERT(close_rel(out[k].slowdown, together / alone, 1e-9));
    }
}

static void test_start_and_reps(void)
{
    /* b starts when a (3 messages back to back) is long over: no interference */
    const char *specs[] = {"coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=10000000B,reps=3",
                           "coll=p2p,alg=direct,ranks=2,hosts=[1,3],size=10000000B,start=50ms",
                           NULL};
    job_result out[2];
    cs_error err;
    CU_ASSERT_FATAL(run_jobs(LINE4, "cm02", specs, out, &err) == 0);
    double one = 2e-6 + S / 1e9;
    CU_ASSERT(close_rel(out[0].row.time_s, one, 1e-9)); /* per repetition */
    CU_ASSERT(close_rel(out[1].row.time_s, one, 1e-9));
    CU_ASSERT(close_rel(out[1].slowdown, 1.0, 1e-9));
    CU_ASSERT(out[0].reps == 3 && out[1].start_s == 50e-3);
    CU_ASSERT(out[0].row.messages == 3 && out[1].row.messages == 1);
}

static void test_pattern_counts(void)
{
    /* 8 ranks on a full-bisection fat tree: every message crosses two host links */
    const char *specs[] = {"name=u,pattern=uniform,ranks=8,hosts=0-7,size=1000B,rounds=5",
                           "name=p,pattern=permutation,ranks=4,hosts=8-11,size=1000B,rounds=3",
                           "name=i,pattern=incast,ranks=3,hosts=12-14,size=1000B,rounds=2",
                           NULL};
    job_result out[3];
    cs_error err;
    CU_ASSERT_FATAL(run_jobs(FT16, "traffic", specs, out, &err) == 0);
    CU_ASSERT(out[0].row.messages == 5 * 8 && out[0].row.bytes_host == 2 * 1000 * 5 * 8);
    CU_ASSERT(out[1].row.messages == 3 * 4 && out[1].row.bytes_host == 2 * 1000 * 3 * 4);
    CU_ASSERT(out[2].row.messages == 2 * 2 && out[2].row.bytes_host == 2 * 1000 * 2 * 2);
    CU_ASSERT_STRING_EQUAL(out[0].row.collective, "pattern");
    CU_ASSERT_STRING_EQUAL(out[1].row.algorithm, "permutation");
    CU_ASSERT(isnan(out[0].row.time_s) && isnan(out[0].slowdown));
    const char *a2a[] = {"pattern=alltoall,ranks=6,size=1000B,rounds=2", NULL};
    CU_ASSERT_FATAL(run_jobs(FT16, "traffic", a2a, out, &err) == 0);
    CU_ASSERT(out[0].row.messages == 2 * 6 * 5 && out[0].row.bytes_host == 2 * 1000 * 60);
}

static void test_pattern_load(void)
{
    /* two hosts, one link: rank 1 sends S per round; at load 0.5 a round is the message
     * (1 us + S / bw) and a think time of S / bw */
    const char *T = "torus dims=2 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns";
    const char *specs[] = {"pattern=incast,ranks=2,size=1000000B,rounds=4,load=0.5", NULL};
    job_result out[1];
    cs_error err;
    CU_ASSERT_FATAL(run_jobs(T, "cm02", specs, out, &err) == 0);
    double round = 1e-6 + 1e-3 + 1e-3;
    CU_ASSERT(close_rel(out[0].row.time_s, 4 * round, 1e-9));
    CU_ASSERT(close_rel(out[0].alone_s, 4 * round, 1e-9));
    /* 8 ms at half of 1 GB/s is 4 MB: four rounds of 1 MB */
    const char *dur[] = {"pattern=incast,ranks=2,size=1000000B,duration=8ms,load=0.5", NULL};
    CU_ASSERT_FATAL(run_jobs(T, "cm02", dur, out, &err) == 0);
    CU_ASSERT(out[0].row.messages == 4);
    CU_ASSERT(close_rel(out[0].row.time_s, 4 * round, 1e-9));
}

static void test_traffic_per_job(void)
{
    /* a random placement and a hostlist that may meet it: both allow sharing */
    const char *specs[] = {"coll=allreduce,alg=recursive_doubling,ranks=8,hosts=random:3,"
                           "shared=yes",
                           "coll=alltoall,alg=pairwise,ranks=6,size=64KiB,hosts=[1,3,5,7,9,11],"
                           "shared=yes", NULL};
    job_result cm[2], tr[2];
    cs_error err;
    CU_ASSERT_FATAL(run_jobs(FT16, "cm02", specs, cm, &err) == 0);
    CU_ASSERT_FATAL(run_jobs(FT16, "traffic", specs, tr, &err) == 0);
    sim_row a, b;
    CU_ASSERT_FATAL(run_point(FT16, "traffic", COLL_ALLREDUCE, "recursive_doubling", 8, 1 << 20,
                              "random:3", &a, &err) == 0);
    CU_ASSERT_FATAL(run_point(FT16, "traffic", COLL_ALLTOALL, "pairwise", 6, 64 << 10,
                              "alloc:h[1,3,5,7,9,11]", &b, &err) == 0);
    for (int k = 0; k < 2; k++) {
        CU_ASSERT(cm[k].row.bytes_host == tr[k].row.bytes_host);
        CU_ASSERT(cm[k].row.bytes_local == tr[k].row.bytes_local);
        CU_ASSERT(cm[k].row.bytes_global == tr[k].row.bytes_global);
        CU_ASSERT(cm[k].row.messages == tr[k].row.messages);
    }
    CU_ASSERT(cm[0].row.bytes_host + cm[1].row.bytes_host == a.bytes_host + b.bytes_host);
    CU_ASSERT(cm[0].row.bytes_local + cm[1].row.bytes_local == a.bytes_local + b.bytes_local);
    CU_ASSERT(cm[0].row.messages + cm[1].row.messages == a.messages + b.messages);
}

/* Runs specs expecting an error containing every one of want (NULL-terminated). */
static void expect_error(const char *model, const char *const *specs, const char *const *want)
{
    job_result out[JOBS_MAX];
    cs_error err;
    err.msg[0] = '\0';
    CU_ASSERT(run_jobs(FT16, model, specs, out, &err) < 0);
    for (; *want; want++)
        if (!strstr(err.msg, *want)) {
            fprintf(stderr, "error '%s' lacks '%s'\n", err.msg, *want);
            CU_FAIL("message");
        }
}

static void test_overlap_refused(void)
{
    const char *specs[] = {"name=victim,coll=allreduce,alg=ring,ranks=4,hosts=0-3",
                           "name=bully,pattern=uniform,ranks=4,hosts=2-5", NULL};
    expect_error("cm02", specs, (const char *[]){"victim", "bully", "h2", "shared=yes", NULL});
    const char *one[] = {"name=victim,coll=allreduce,alg=ring,ranks=4,hosts=0-3,shared=yes",
                         "name=bully,pattern=uniform,ranks=4,hosts=2-5", NULL};
    expect_error("cm02", one, (const char *[]){"h2", NULL});
    const char *both[] = {"coll=allreduce,alg=ring,ranks=4,hosts=0-3,shared=yes",
                          "pattern=uniform,ranks=4,hosts=2-5,shared=yes", NULL};
    job_result out[2];
    cs_error err;
    CU_ASSERT(run_jobs(FT16, "traffic", both, out, &err) == 0);
    /* no hosts=: the first free hosts, after every named placement */
    const char *fill[] = {"coll=allreduce,alg=ring,ranks=4", "coll=bcast,alg=binomial_halving,"
                          "ranks=4,hosts=0-3", NULL};
    CU_ASSERT_FATAL(run_jobs(FT16, "traffic", fill, out, &err) == 0);
    CU_ASSERT_STRING_EQUAL(out[0].row.placement, "alloc:h[4-7]");
    const char *full[] = {"coll=allreduce,alg=ring,ranks=28,hosts=0-27",
                          "coll=allreduce,alg=ring,ranks=8", NULL};
    expect_error("traffic", full, (const char *[]){"job 1", "needs 8 free hosts", "only 4", NULL});
}

static void test_bad_specs(void)
{
    static const struct {
        const char *spec, *want;
    } cases[] = {
        {"coll=allreduce,alg=ring", "ranks= is required"},
        {"alg=ring,ranks=4", "coll= and alg="},
        {"pattern=uniform,coll=bcast,alg=linear,ranks=4", "either pattern= or coll="},
        {"pattern=zipf,ranks=4", "uniform|permutation|incast|alltoall"},
        {"pattern=uniform,ranks=4,load=2", "load"},
        {"pattern=uniform,ranks=4,reps=2", "reps= applies to collective jobs"},
        {"coll=bcast,alg=linear,ranks=4,load=0.5", "load= applies to pattern jobs"},
        {"coll=bcast,alg=linear,ranks=4,colour=red", "unknown key 'colour'"},
        {"coll=bcast,alg=linear,ranks=4,ranks=5", "given twice"},
        {"coll=bcast,alg=linear,ranks=4,start=5", "start"},
        {"coll=bcast,alg=linear,ranks=4,hosts=block", "allowed: linear"},
        {"coll=bcast,alg=linear,ranks=4,name=a\"b", "name"},
        {"coll=bcast,alg=linear,ranks=4,,", "expected key=value"},
        {"pattern=uniform,ranks=4,rounds=2,duration=1ms", "rounds= or duration="},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        job_spec j;
        cs_error err;
        err.msg[0] = '\0';
        CU_ASSERT(job_spec_parse(cases[i].spec, 3, &j, &err) < 0);
        if (!strstr(err.msg, cases[i].want) || !strstr(err.msg, "--job 3")) {
            fprintf(stderr, "%s: '%s' lacks '%s'\n", cases[i].spec, err.msg, cases[i].want);
            CU_FAIL("message");
        }
    }
    /* an unknown algorithm is found when the job is prepared */
    const char *alg[] = {"name=x,coll=allreduce,alg=nope,ranks=4", NULL};
    expect_error("cm02", alg, (const char *[]){"job x", "nope", NULL});
}

static void test_long_host_list(void)
{
    /* 72 hosts listed one by one: longer than a key=value item's usual 160 characters */
    char spec[1024];
    size_t n = (size_t)snprintf(spec, sizeof spec,
                                "pattern=permutation,ranks=72,size=1000B,hosts=[");
    for (int h = 71; h >= 0; h--)
        n += (size_t)snprintf(spec + n, sizeof spec - n, "%d%s", h, h ? "," : "]");
    const char *specs[] = {spec, NULL};
    job_result out[1];
    cs_error err;
    int rc = run_jobs("dragonfly p=2 a=4 h=2", "traffic", specs, out, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_FATAL(rc == 0);
    CU_ASSERT(out[0].row.messages == 72 && out[0].row.bytes_host == 2 * 72 * 1000);
    CU_ASSERT_STRING_EQUAL(out[0].row.placement, "alloc:h[71,70,69,68,67,66,65,64,63,62,61,"
                                                 "60,59,58,57,56,55,54,53,52,51,50,49,48,47,"
                                                 "46,45,44,43,42,41,40,39,38,37,36,35,34,33,"
                                                 "32,31,30,29,28,27,26,25,24,23,22,21,20,19,"
                                                 "18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,"
                                                 "1,0]");
}

static void test_packet_model(void)
{
    /* the shared link carries both messages' 2 S bytes at bw: the later job ends at
     * 2 lat + 2 S / bw as in the flow model (packets interleave round robin; the earlier
     * one may end sooner) */
    const char *specs[] = {"coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=10000000B",
                           "coll=p2p,alg=direct,ranks=2,hosts=[1,3],size=10000000B", NULL};
    job_result out[2], tr[2];
    cs_error err;
    int rc = run_jobs(LINE4, "packet", specs, out, &err);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    CU_ASSERT_FATAL(rc == 0);
    double later = fmax(out[0].row.time_s, out[1].row.time_s);
    CU_ASSERT(close_rel(later, 2e-6 + 2 * S / 1e9, 0.01));
    for (int k = 0; k < 2; k++) {
        CU_ASSERT(close_rel(out[k].alone_s, 2e-6 + S / 1e9, 0.01));
        CU_ASSERT(out[k].slowdown > 1.5 && out[k].slowdown < 2.01);
    }
    /* per-job bytes from the packets' paths: each job's, as the traffic model counts */
    CU_ASSERT_FATAL(run_jobs(LINE4, "traffic", specs, tr, &err) == 0);
    for (int k = 0; k < 2; k++)
        CU_ASSERT(out[k].row.bytes_local == tr[k].row.bytes_local &&
                  out[k].row.bytes_local == 2 * (int64_t)S);
    /* disjoint halves: no interference */
    const char *halves[] = {"coll=allreduce,alg=ring,ranks=8,hosts=0-7,size=1MiB",
                            "coll=allreduce,alg=ring,ranks=8,hosts=8-15,size=1MiB", NULL};
    CU_ASSERT_FATAL(run_jobs(FT16, "packet", halves, out, &err) == 0);
    for (int k = 0; k < 2; k++)
        CU_ASSERT(close_rel(out[k].slowdown, 1.0, 1e-9));
    /* a start time and a pattern's think time are timed ops under the packet model too */
    const char *T = "torus dims=2 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns";
    const char *load[] = {"pattern=incast,ranks=2,size=1000000B,rounds=4,load=0.5,start=1ms",
                          NULL};
    CU_ASSERT_FATAL(run_jobs(T, "packet", load, out, &err) == 0);
    CU_ASSERT(close_rel(out[0].row.time_s, 4 * (1e-6 + 2e-3), 0.01));
}

/* Two jobs sharing host h0 (shared=yes), each sending one 100-byte message from h0 (to h1,
 * to h2) through one leaf: host links of 1 GB/s and 1 us, one NIC port per host, a message
 * gap of 3 us. The jobs share h0's port: one message is injected at 0, the other waits the
 * gap and goes at 3 us. Arrivals: injection + 2 links x 1 us + 100 B / 1 GB/s under cm02
 * (2.1 us and 5.1 us), + 2 x 100 B / 1 GB/s under the packet model (store and forward of
 * one packet: 2.2 us and 5.2 us). Alone each job takes the first of these. */
static void test_shared_host_nic_port(void)
{
    const char *T = "fattree leaves=1 hosts_per_leaf=3 radix=16 host_bw=1GBps host_lat=1us";
    const char *specs[] = {"name=a,coll=p2p,alg=direct,ranks=2,hosts=[0,1],size=100B,shared=yes",
                           "name=b,coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=100B,shared=yes",
                           NULL};
    static const char *const models[] = {"cm02", "packet"};
    for (int m = 0; m < 2; m++) {
        double first = m ? 2.2e-6 : 2.1e-6, gap = 3e-6;
        job_result out[2];
        cs_error err;
        int rc = run_jobs_gap(T, models[m], "3us", specs, out, &err);
        if (rc < 0)
            fprintf(stderr, "%s: %s\n", models[m], err.msg);
        CU_ASSERT_FATAL(rc == 0);
        CU_ASSERT(close_rel(fmin(out[0].row.time_s, out[1].row.time_s), first, 1e-6));
        CU_ASSERT(close_rel(fmax(out[0].row.time_s, out[1].row.time_s), first + gap, 1e-6));
        for (int k = 0; k < 2; k++)
            CU_ASSERT(close_rel(out[k].alone_s, first, 1e-6));
    }
}

static void test_models_refused(void)
{
    const char *specs[] = {"coll=allreduce,alg=ring,ranks=4", NULL};
    expect_error("analytic", specs, (const char *[]){"analytic model", "packet", NULL});
}

int main(void)
{
    char cache[128];
    if (test_cache_dir_create(cache, sizeof cache) < 0)
        return 1;
    CU_initialize_registry();
    static const test_case cases[] = {
        {"disjoint halves take the time alone", test_disjoint_halves_alone},
        {"one shared link: twice the transfer time", test_shared_link_twice},
        {"start time and repetitions", test_start_and_reps},
        {"pattern message counts", test_pattern_counts},
        {"pattern offered load and duration", test_pattern_load},
        {"traffic per job", test_traffic_per_job},
        {"overlapping hosts refused", test_overlap_refused},
        {"bad job specs refused", test_bad_specs},
        {"a long host list", test_long_host_list},
        {"packet model", test_packet_model},
        {"jobs sharing a host share its NIC port", test_shared_host_nic_port},
        {"analytic refused", test_models_refused},
        {NULL, NULL},
    };
    test_add_suite("sim_jobs", cases);
    int rc = test_run_suites();
    test_cache_dir_remove(cache);
    return rc;
}
