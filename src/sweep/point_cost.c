/* point_cost.c - how long a point of a plan will take: a rough estimate in CPU seconds,
 * for the progress line's ETA and the announcement of long points (sweep_internal.h).
 *
 * The point's work is read from its schedule before it runs: the algorithm is prepared
 * in the collsim process and three ranks (0, P/2, P-1) are generated, as the memory
 * estimate does in the simulation child (sim/estimate.h), giving the messages, the bytes
 * sent and the steps. Where that cannot be done (an alltoallv workload, which would have
 * to be drawn; an algorithm that needs the topology's dims; a point that will fail, or be
 * refused as too large for --max-memory, whose schedule is not prepared here either) a
 * formula stands in: P log2 P messages of n bytes each way. Algorithms the scenario
 * defines (Lua functions, schedule files) are not generated here either: the formula.
 *
 * The cost model is per model family, a sum of terms in the work, with constants fitted
 * by least squares of the relative error on measured wall times of one shared 2-core
 * machine (scripts/bench/point_cost.sh; the CSVs in scripts/bench/point_cost/). It is
 * rough: within a factor of 2 or 3 for most fitted points, far too low for some (the
 * largest flow and packet points, where the routes' length, which it does not see,
 * dominates: Bine's distant partners on a large torus; millisecond points, where the
 * process start does); point_cost_fit.py prints every point's ratio. The runner corrects
 * it by the ratio of measured to estimated time of the points already run (progress.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/estimate.h"
#include "common/util.h"
#include "sim/jobs.h"
#include "sweep/sweep_internal.h"

/* The constants, fitted by scripts/bench/point_cost_fit.py on scripts/bench/point_cost/
 * (91 points on tori of 512 and 4096 hosts, P = 16..4096). H is the topology's hosts (P
 * if more), whose square root stands for the routes' length; M / steps the messages in
 * flight at once. Each family: a fixed cost (child process, topology, row) plus:
 *   flow (cm02, lv08, smpi)  per rank (actor), per message, and per message x in flight
 *                            x sqrt(H) (max-min sharing solves over the flows)
 *   packet                   per message, and per packet (bytes / mtu) x sqrt(H) x
 *                            sqrt(in flight) (hops, and queues behind other packets)
 *   analytic, traffic        per message (routes walked, no events) */
#define FLOW_BASE_S 6.75e-3
#define FLOW_RANK_S 4.24e-5
#define FLOW_MSG_S 2.73e-6
#define FLOW_SHARED_S 5.23e-10
#define PACKET_BASE_S 2.10e-2
#define PACKET_MSG_S 2.74e-6
#define PACKET_PKT_S 1.29e-8
#define ANALYTIC_BASE_S 7.32e-4
#define ANALYTIC_MSG_S 4.51e-7
#define TRAFFIC_BASE_S 8.40e-4
#define TRAFFIC_MSG_S 5.22e-8

double point_cost_seconds(const point_work *w)
{
    double P = w->ranks > 1 ? w->ranks : 1, M = w->messages > 0 ? w->messages : 0;
    double inflight = w->steps > 1 ? M / w->steps : M, span = sqrt(w->hosts > P ? w->hosts : P);
    switch (w->model) {
    case SIM_MODEL_ANALYTIC: return ANALYTIC_BASE_S + ANALYTIC_MSG_S * M;
    case SIM_MODEL_TRAFFIC: return TRAFFIC_BASE_S + TRAFFIC_MSG_S * M;
    case SIM_MODEL_PACKET: {
        double packets = ceil(w->bytes / (w->mtu > 0 ? w->mtu : 4096));
        return PACKET_BASE_S + PACKET_MSG_S * M + PACKET_PKT_S * packets * span * sqrt(inflight);
    }
    default: /* SimGrid flow models */
        return FLOW_BASE_S + FLOW_RANK_S * P + M * (FLOW_MSG_S + FLOW_SHARED_S * inflight * span);
    }
}

/* The stand-in when the schedule cannot be read: P log2 P messages of n bytes each way. */
static void formula_work(const sweep_point *pt, point_work *w)
{
    double P = pt->ranks > 1 ? pt->ranks : 2, lg = ceil(log2(P));
    w->steps = 2 * lg;
    w->messages = 2 * P * lg;
    w->bytes = 2 * P * (double)pt->bytes;
}

/* Messages, bytes sent and steps from ranks 0, P/2 and P-1 of the prepared run. */
static void sample_work(const alg_run *run, point_work *w)
{
    int32_t P = run->spec.P, ranks[3] = {0, P / 2, P - 1};
    double sends = 0, bytes = 0, steps = 0;
    sched_builder b;
    sb_init(&b, &run->layout);
    for (int i = 0; i < 3; i++) {
        alg_run_gen(run, ranks[i], &b);
        for (uint32_t k = 0; k < b.rs.nops; k++)
            if (b.rs.ops[k].kind == OP_SEND) {
                sends++;
                bytes += (double)b.rs.ops[k].bytes;
            }
        if (b.rs.nsteps > steps)
            steps = b.rs.nsteps;
    }
    sb_free(&b);
    w->messages = sends / 3 * P;
    w->bytes = bytes / 3 * P;
    w->steps = steps;
}

/* The schedule's work, or -1 when it cannot be read here. */
static int schedule_work(const sweep_plan *p, const sweep_point *pt, point_work *w)
{
    if (pt->workload >= 0 && *sweep_plan_str(p, pt->workload))
        return -1; /* drawing an alltoallv workload costs as much as the point */
    run_estimate e;
    cs_error err;
    estimate_sim_plan(pt->ranks, pt->ranks_per_node, pt->model, NULL, &e);
    if (estimate_check(&e, p->max_memory, &err) < 0)
        return -1; /* the point will be refused (--max-memory): prepare nothing that large */
    sim_config c;
    workload *wl = NULL;
    int rc = sweep_point_config(p, pt, &c, &wl, &err);
    const alg_desc *alg = rc == 0 ? registry_find(NULL, pt->coll, c.algorithm, &err)
                                  : NULL;
    alg_run run;
    if (alg && alg_run_prepare(&run, alg, &c.spec, &err) == 0) {
        run.barrier = c.barrier;
        sample_work(&run, w);
        alg_run_release(&run);
    } else {
        rc = -1;
    }
    workload_free(wl);
    return alg ? rc : -1;
}

void point_work_of(const sweep_plan *p, const sweep_point *pt, point_work *w)
{
    memset(w, 0, sizeof *w);
    w->model = pt->model;
    w->ranks = pt->ranks;
    w->mtu = (double)pt->mtu;
    w->hosts = pt->ranks;
    for (size_t i = 0; i < p->ntopos; i++)
        if (p->topos[i].spec == pt->topology)
            w->hosts = p->topos[i].hosts;
    if (schedule_work(p, pt, w) < 0)
        formula_work(pt, w);
}

/* A jobs point: every job simulated twice (with the others, then alone), each job's work
 * from the formula of its ranks and size. */
static double jobs_cost(const sweep_plan *p, const sweep_point *pt)
{
    job_set *js = xcalloc(1, sizeof *js);
    cs_error err;
    double sum = 0;
    if (sweep_point_jobs(p, pt, js, &err) == 0)
        for (int k = 0; k < js->njobs; k++) {
            sweep_point one = *pt;
            one.ranks = js->jobs[k].spec.P;
            one.bytes = js->jobs[k].spec.bytes;
            point_work w;
            point_work_of(p, &one, &w); /* one's algorithm is no algorithm: the formula */
            w.ranks = one.ranks;
            formula_work(&one, &w);
            sum += 2 * point_cost_seconds(&w);
        }
    free(js);
    return sum;
}

double sweep_point_cost(const sweep_plan *p, const sweep_point *pt)
{
    if (sweep_point_has_jobs(p, pt))
        return jobs_cost(p, pt);
    point_work w;
    point_work_of(p, pt, &w);
    return point_cost_seconds(&w);
}
