/* sim_exec.c - the rank executor: runs a chunk of one rank's schedule in SimGrid (one
 * executor for both forms of the IR, schedule.h).
 *
 * Which ops are ready is sched_ready.h's rule (dependencies, or the step rule). A step
 * schedule runs exactly as it always has: a step's messages start together (in op
 * order), and its local ops run as one CPU job once they are all done (their times
 * summed in op order, then one sleep).
 *
 * The state machine: ready ops start (messages are posted; a send of at most eager_limit
 * bytes is detached and complete at once; local ops queue for the rank's one CPU, which
 * runs its jobs one after the other); then the actor blocks until the next event, the end
 * of the CPU job or the first of the active communications (a wait-any, with the CPU's
 * end as timeout), completes the ops it concerns, and starts what they made ready.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>

#include "common/util.h"
#include "sim/sim_internal.h"

typedef struct exec_run {
    sim_state *st;
    sim_exec_scratch *x;
    sched_ready *r;
    int32_t rank;
    const rank_sched *rs;
    uint32_t cpu_head, cpu_tail; /* CPU job queue x->cpu (items as sched_ready's) */
    int cpu_busy;
    uint32_t cpu_job;
    double cpu_start, cpu_dur;
    size_t nactive;              /* x->comms[0 .. nactive) with their ops in x->comm_op */
} exec_run;

static double local_seconds(const sim_state *st, const sched_op *o)
{
    if (o->flags & OPF_TIME)
        return (double)o->bytes * 1e-9;
    return (double)o->bytes * (o->kind == OP_REDUCE ? st->reduce_s_per_byte : st->copy_s_per_byte);
}

static void scratch_reserve(sim_exec_scratch *x, const rank_sched *rs)
{
    size_t n = (size_t)rs->nops + 1, s = (size_t)rs->nsteps + 1;
    if (n > x->cap_ops) {
        x->comms = xrealloc(x->comms, n * sizeof *x->comms);
        x->comm_op = xrealloc(x->comm_op, n * sizeof *x->comm_op);
        x->payloads = xrealloc(x->payloads, n * sizeof *x->payloads);
        x->cap_ops = n;
    }
    if (n + s > x->cap_cpu) {
        x->cap_cpu = n + s;
        x->cpu = xrealloc(x->cpu, x->cap_cpu * sizeof *x->cpu);
    }
}

void sim_exec_scratch_free(sim_exec_scratch *x)
{
    sr_free(&x->ready);
    free(x->cpu);
    free(x->comms);
    free(x->comm_op);
    free(x->payloads);
    memset(x, 0, sizeof *x);
}

static void complete_op(exec_run *e, uint32_t i)
{
    sr_completed(e->r, i);
    e->st->step[e->rank] = e->x->first_step + sr_current_step(e->r);
}

static void start_comm(exec_run *e, uint32_t i)
{
    sim_state *st = e->st;
    sim_exec_scratch *x = e->x;
    const sched_op *o = &e->rs->ops[i];
    int32_t tag = rs_op_tag(e->rs, i);
    if (o->kind == OP_RECV) {
        sg_mailbox_t from = sim_mailbox(&st->mailboxes, st->job, o->peer, e->rank, tag);
        x->comm_op[e->nactive] = i;
        x->comms[e->nactive] = sg_mailbox_get_async(from, &x->payloads[e->nactive]);
        e->nactive++;
        return;
    }
    sg_host_t src = st->rank_host[e->rank], dst = st->rank_host[o->peer];
    traffic_tally_message(&st->tally, st->host_of_rank[e->rank], st->host_of_rank[o->peer],
                          o->bytes);
    if (src != dst)
        sim_pair_bytes_add(&st->pairs, &st->tally, st->host_of_rank[e->rank],
                           st->host_of_rank[o->peer], src, dst, o->bytes);
    /* the payload only has to be non-NULL: the simulator moves sizes, not data */
    sg_mailbox_t mb = sim_mailbox(&st->mailboxes, st->job, e->rank, o->peer, tag);
    if (o->bytes <= st->eager_limit) { /* eager: complete for the sender at once */
        sg_comm_detach(sg_mailbox_put_init(mb, x, o->bytes), NULL);
        complete_op(e, i);
        return;
    }
    x->comm_op[e->nactive] = i;
    x->comms[e->nactive++] = sg_mailbox_put_async(mb, x, o->bytes);
}

/* Starts a ready item: a message is posted, local work queues for the CPU. */
static void start_item(exec_run *e, uint32_t item)
{
    if (sr_item_is_step(e->r, item)) {
        e->x->cpu[e->cpu_tail++] = item;
        return;
    }
    sr_started(e->r, item);
    if (op_is_comm(&e->rs->ops[item]))
        start_comm(e, item);
    else
        e->x->cpu[e->cpu_tail++] = item;
}

/* The CPU job's duration: one op, or the step-rule local ops of a step summed in order. */
static double job_seconds(const exec_run *e, uint32_t job)
{
    if (!sr_item_is_step(e->r, job))
        return local_seconds(e->st, &e->rs->ops[job]);
    uint32_t s = sr_item_step(job);
    double sum = 0;
    for (uint32_t i = rs_step_begin(e->rs, s); i < rs_step_end(e->rs, s); i++)
        if (sr_in_step_item(e->rs, i))
            sum += local_seconds(e->st, &e->rs->ops[i]);
    return sum;
}

static void finish_job(exec_run *e)
{
    uint32_t job = e->cpu_job;
    e->cpu_busy = 0;
    if (!sr_item_is_step(e->r, job)) {
        complete_op(e, job);
        return;
    }
    uint32_t s = sr_item_step(job);
    for (uint32_t i = rs_step_begin(e->rs, s); i < rs_step_end(e->rs, s); i++)
        if (sr_in_step_item(e->rs, i)) {
            sr_started(e->r, i);
            complete_op(e, i);
        }
}

/* Starts every ready item, and CPU jobs while they take no time. */
static void run_ready(exec_run *e)
{
    for (;;) {
        uint32_t item;
        if (sr_pop(e->r, &item)) {
            start_item(e, item);
            continue;
        }
        if (!e->cpu_busy && e->cpu_head < e->cpu_tail) {
            e->cpu_job = e->x->cpu[e->cpu_head++];
            e->cpu_busy = 1;
            e->cpu_start = simgrid_get_clock();
            e->cpu_dur = job_seconds(e, e->cpu_job);
            if (e->cpu_dur <= 0)
                finish_job(e);
            continue;
        }
        return;
    }
}

static void comm_done(exec_run *e, size_t k)
{
    sim_exec_scratch *x = e->x;
    uint32_t i = x->comm_op[k];
    e->nactive--;
    x->comms[k] = x->comms[e->nactive];
    x->comm_op[k] = x->comm_op[e->nactive];
    complete_op(e, i);
}

/* Blocks until the next event: the CPU job's end or the first comm to finish; -1 when
 * nothing can happen any more. */
static int wait_event(exec_run *e)
{
    sim_exec_scratch *x = e->x;
    if (e->cpu_busy) {
        double now = simgrid_get_clock();
        /* a job started now sleeps its exact duration (what step schedules always did) */
        double rest = now == e->cpu_start ? e->cpu_dur : e->cpu_start + e->cpu_dur - now;
        if (e->nactive == 0) {
            sg_actor_sleep_for(rest);
            finish_job(e);
            return 0;
        }
        long k = sim_wait_any_for(x->comms, e->nactive, rest > 0 ? rest : 0);
        if (k < 0)
            finish_job(e);
        else
            comm_done(e, (size_t)k);
        return 0;
    }
    if (e->nactive == 0)
        return -1;
    ssize_t k = sg_comm_wait_any(x->comms, e->nactive);
    if (k < 0)
        return -1;
    comm_done(e, (size_t)k);
    return 0;
}

int sim_exec_chunk(sim_state *st, int32_t rank, sim_exec_scratch *x, const rank_sched *rs,
                   uint32_t first_step)
{
    scratch_reserve(x, rs);
    x->first_step = first_step;
    exec_run e = {.st = st, .x = x, .r = &x->ready, .rank = rank, .rs = rs};
    sr_reset(e.r, rs);
    st->step[rank] = first_step;
    for (;;) {
        run_ready(&e);
        if (sr_left(e.r) == 0)
            return 0;
        if (wait_event(&e) < 0)
            return -1; /* a dependency cycle: the ops left can never start */
    }
}
