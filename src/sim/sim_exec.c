/* sim_exec.c - the rank executor: runs a chunk of one rank's schedule (steps or
 * dependencies, schedule.h) in every timed model: the flow models (SimGrid comms) and
 * the packet model (pk_*), with or without endpoint costs (endpoint.h). Its transport is
 * exec_net.c.
 *
 * The state machine. Which ops are ready is sched_ready.h's rule. A ready op starts:
 *   receive   its get is posted (the first message: eager data or a rendezvous request);
 *   send      without endpoint costs its data is posted at once; with them a CPU job
 *             pays the send overhead o_s, then (the rank still busy) waits for a NIC
 *             port (msg_gap), then injects it: the data (envelope added), or, above
 *             eager_limit, a rendezvous request of envelope bytes;
 *   local op  a CPU job (a step schedule's local ops of a step: one job, their times
 *             summed in op order, once the step's messages are done).
 * The rank's one CPU runs its jobs one after the other, in the order queued. The actor
 * then blocks until the next event: the end of the CPU job, or the first active
 * communication to end (a wait-any, the CPU's end as timeout); the event moves its
 * message on:
 *   eager data / rendezvous data arrived  a CPU job pays the receive overhead o_r, then
 *                                         the receive completes;
 *   a rendezvous request arrived          the reply (envelope bytes) goes back, the
 *                                         receiver waits for the data;
 *   the reply arrived at the sender       the data moves; the send completes when it has;
 *   a send's data arrived                 the send completes (an eager send completed
 *                                         when it was injected, detached).
 * Completed ops make others ready, which start, and so on. With per-message CPU costs
 * (o_s, o_r or msg_gap non-zero) the CPU also drives the rank's messages (no progress
 * thread): the rank reacts to events only once its CPU has no job left, as a step of a
 * step schedule always ran (its sends injected one after the other, then its messages
 * waited for). Without them the network progresses by itself while the CPU works.
 *
 * Under the packet model without endpoint costs, a chunk of step-rule ops only (no
 * dependency, no tag, no eager send) waits for a step's messages all at once (pk_wait):
 * nothing of the rank can start before they have all ended, and the rank is then woken
 * once per step, as the packet model always did (the order in which ranks post at one
 * instant breaks the network's ties). Such a chunk of one step (a streaming generator's
 * every chunk) takes a short way with the same effect and no readiness bookkeeping
 * (bulk_step): its messages in op order, the wait, then its local ops as one job.
 */
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>

#include "common/util.h"
#include "sim/sim_internal.h"

enum { JOB_LOCAL, JOB_SEND, JOB_STALL, JOB_RECV }; /* exec_job.kind */
/* comm_state: what an active communication is */
enum { AK_SEND_DATA, AK_SEND_REPLY, AK_RECV_FIRST, AK_RECV_DATA };

typedef struct exec_run {
    sim_state *st;
    const endpoint_sim *ep;
    sim_exec_scratch *x;
    sched_ready *r;
    int32_t rank;
    const rank_sched *rs;
    int cpu_drives;              /* per-message CPU costs: events wait for an idle CPU */
    uint32_t cpu_head, cpu_tail; /* CPU job queue x->cpu */
    int cpu_busy;
    exec_job job;                /* the CPU's job while cpu_busy */
    double cpu_start, cpu_dur;
    pk_handle timer;             /* packet model: the job's end while messages are active */
    size_t nactive;
    int bulk;                    /* packet model, step-rule ops only: pk_send / pk_wait */
    size_t nbulk;                /* their posted messages, ops in x->comm_op (nactive = 0) */
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
        x->pks = xrealloc(x->pks, (n + 1) * sizeof *x->pks); /* + a timer (exec_net.c) */
        x->comm_op = xrealloc(x->comm_op, n * sizeof *x->comm_op);
        x->comm_state = xrealloc(x->comm_state, n * sizeof *x->comm_state);
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
    free(x->pks);
    free(x->comm_op);
    free(x->comm_state);
    free(x->payloads);
    memset(x, 0, sizeof *x);
}

static void complete_op(exec_run *e, uint32_t i)
{
    sr_completed(e->r, i);
    e->st->step[e->rank] = e->x->first_step + sr_current_step(e->r);
}

static void queue_job(exec_run *e, uint32_t item, uint32_t kind)
{
    e->x->cpu[e->cpu_tail++] = (exec_job){.item = item, .kind = kind};
}

/* A channel of message op i (kind XN_*): named by its data direction. */
static xn_chan chan_of(const exec_run *e, uint32_t i, int kind)
{
    const sched_op *o = &e->rs->ops[i];
    int32_t tag = rs_op_tag(e->rs, i);
    if (o->kind == OP_SEND)
        return (xn_chan){.a = e->rank, .b = o->peer, .tag = tag, .kind = kind};
    return (xn_chan){.a = o->peer, .b = e->rank, .tag = tag, .kind = kind};
}

/* Bytes on the wire from rank `from` to `to`: counted on SimGrid's route (the packet
 * model counts its packets' own hops). */
static void count_wire(exec_run *e, int32_t from, int32_t to, int64_t bytes)
{
    sim_state *st = e->st;
    sg_host_t src = st->rank_host[from], dst = st->rank_host[to];
    if (!st->net && src != dst)
        sim_pair_bytes_add(&st->pairs, &st->tally, st->host_of_rank[from], st->host_of_rank[to],
                           src, dst, bytes);
}

/* A slot for a new active communication of op i. With endpoint costs the slots stay in
 * op order while they are added (the order a step's messages were always waited for, so
 * that messages ending together are handled in the same order); otherwise the last. */
static size_t open_slot(exec_run *e, uint32_t i, int state)
{
    sim_exec_scratch *x = e->x;
    size_t k = e->nactive++;
    if (e->ep)
        for (; k > 0 && x->comm_op[k - 1] > i; k--) {
            xn_move(x, k - 1, k);
            x->comm_op[k] = x->comm_op[k - 1];
            x->comm_state[k] = x->comm_state[k - 1];
        }
    x->comm_op[k] = i;
    x->comm_state[k] = (uint8_t)state;
    return k;
}

static void post_get(exec_run *e, uint32_t i, int kind, int state, size_t k)
{
    xn_get(e->st, e->rank, e->rs->ops[i].peer, chan_of(e, i, kind), &e->x->payloads[i], e->x, k);
    e->x->comm_op[k] = i;
    e->x->comm_state[k] = (uint8_t)state;
}

/* Send op i leaves the rank: its data, or a rendezvous request. */
static void inject(exec_run *e, uint32_t i)
{
    sim_state *st = e->st;
    const endpoint_sim *ep = e->ep;
    const sched_op *o = &e->rs->ops[i];
    int64_t wire = ep ? endpoint_wire_bytes(&ep->cfg, o->bytes) : o->bytes;
    traffic_tally_message(&st->tally, st->host_of_rank[e->rank], st->host_of_rank[o->peer],
                          wire);
    if (e->bulk) {
        pk_send(st->net, st->rank0 + e->rank, st->rank0 + o->peer, wire);
        e->x->comm_op[e->nbulk++] = i;
        return;
    }
    if (ep && endpoint_rendezvous(&ep->cfg, o->bytes)) { /* the request takes the data's place */
        count_wire(e, e->rank, o->peer, ep->cfg.envelope_B);
        xn_put(st, e->rank, o->peer, chan_of(e, i, XN_DATA), ep->cfg.envelope_B,
               (void *)&ep->request_tag, 1, NULL, 0);
        post_get(e, i, XN_REPLY, AK_SEND_REPLY, open_slot(e, i, AK_SEND_REPLY));
        return;
    }
    count_wire(e, e->rank, o->peer, wire);
    /* eager: complete for the sender at once (detached); smpi without a limit: < 64 KiB */
    int eager = ep && ep->cfg.eager_set ? 1 : o->bytes <= st->eager_limit;
    /* the payload only has to be non-NULL: the simulator moves sizes, not data */
    if (eager) {
        xn_put(st, e->rank, o->peer, chan_of(e, i, XN_DATA), wire, st, 1, NULL, 0);
        complete_op(e, i);
    } else {
        xn_put(st, e->rank, o->peer, chan_of(e, i, XN_DATA), wire, st, 0, e->x,
               open_slot(e, i, AK_SEND_DATA));
    }
}

/* Starts a ready item: a receive is posted, a send injected or queued for its overhead,
 * local work queued for the CPU. */
static void start_item(exec_run *e, uint32_t item)
{
    if (sr_item_is_step(e->r, item)) {
        queue_job(e, item, JOB_LOCAL);
        return;
    }
    sr_started(e->r, item);
    const sched_op *o = &e->rs->ops[item];
    if (o->kind == OP_RECV && e->bulk) {
        pk_recv(e->st->net, e->st->rank0 + e->rank, e->st->rank0 + o->peer);
        e->x->comm_op[e->nbulk++] = item;
    } else if (o->kind == OP_RECV) {
        post_get(e, item, XN_DATA, AK_RECV_FIRST, open_slot(e, item, AK_RECV_FIRST));
    } else if (o->kind == OP_SEND) {
        if (e->ep)
            queue_job(e, item, JOB_SEND);
        else
            inject(e, item);
    } else {
        queue_job(e, item, JOB_LOCAL);
    }
}

/* The CPU job's duration: one op, the step-rule local ops of a step summed in order, or
 * a message's overhead. */
static double job_seconds(const exec_run *e, exec_job job)
{
    if (job.kind == JOB_SEND)
        return e->ep->cfg.send_overhead_s;
    if (job.kind == JOB_RECV)
        return e->ep->cfg.recv_overhead_s;
    if (!sr_item_is_step(e->r, job.item))
        return local_seconds(e->st, &e->rs->ops[job.item]);
    uint32_t s = sr_item_step(job.item);
    double sum = 0;
    for (uint32_t i = rs_step_begin(e->rs, s); i < rs_step_end(e->rs, s); i++)
        if (sr_in_step_item(e->rs, i))
            sum += local_seconds(e->st, &e->rs->ops[i]);
    return sum;
}

static void start_job(exec_run *e, exec_job job, double seconds)
{
    e->job = job;
    e->cpu_busy = 1;
    e->cpu_start = sim_clock(e->st);
    e->cpu_dur = seconds;
}

static void finish_local(exec_run *e, uint32_t item)
{
    if (!sr_item_is_step(e->r, item)) {
        complete_op(e, item);
        return;
    }
    uint32_t s = sr_item_step(item);
    for (uint32_t i = rs_step_begin(e->rs, s); i < rs_step_end(e->rs, s); i++)
        if (sr_in_step_item(e->rs, i)) {
            sr_started(e->r, i);
            complete_op(e, i);
        }
}

/* The CPU job ended: its op moves on. After a send's overhead the rank waits, busy, for
 * a free NIC port (LogGP's stall), then injects. */
static void finish_job(exec_run *e)
{
    exec_job job = e->job;
    e->cpu_busy = 0;
    if (job.kind == JOB_SEND) {
        sim_state *st = e->st;
        double now = sim_clock(st);
        int32_t peer = e->rs->ops[job.item].peer;
        double at = endpoint_inject_at(&e->ep->cfg, &st->ep->ports, st->host_of_rank[e->rank],
                                       st->host_of_rank[peer], now);
        if (at > now) {
            start_job(e, (exec_job){.item = job.item, .kind = JOB_STALL}, at - now);
            return;
        }
    }
    switch (job.kind) {
    case JOB_LOCAL: finish_local(e, job.item); break;
    case JOB_RECV: complete_op(e, job.item); break;
    default: inject(e, job.item); break;
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
            exec_job job = e->x->cpu[e->cpu_head++];
            start_job(e, job, job_seconds(e, job));
            if (e->cpu_dur <= 0)
                finish_job(e);
            continue;
        }
        return;
    }
}

static void remove_active(exec_run *e, size_t k)
{
    sim_exec_scratch *x = e->x;
    e->nactive--;
    xn_move(x, e->nactive, k);
    x->comm_op[k] = x->comm_op[e->nactive];
    x->comm_state[k] = x->comm_state[e->nactive];
}

/* A message's data arrived at this rank: the receive overhead, then the receive is done. */
static void data_arrived(exec_run *e, uint32_t i)
{
    if (e->ep)
        queue_job(e, i, JOB_RECV);
    else
        complete_op(e, i);
}

/* Active communication k ended: the message's next move (the protocol above). */
static void comm_done(exec_run *e, size_t k)
{
    sim_exec_scratch *x = e->x;
    uint32_t i = x->comm_op[k];
    const sched_op *o = &e->rs->ops[i];
    const endpoint_sim *ep = e->ep;
    switch (x->comm_state[k]) {
    case AK_SEND_REPLY: { /* the receiver is ready: the data moves */
        int64_t wire = endpoint_wire_bytes(&ep->cfg, o->bytes);
        count_wire(e, e->rank, o->peer, wire);
        xn_put(e->st, e->rank, o->peer, chan_of(e, i, XN_RDV), wire, e->st, 0, x, k);
        x->comm_state[k] = AK_SEND_DATA;
        return;
    }
    case AK_RECV_FIRST:
        if (ep && x->payloads[i] == &ep->request_tag) { /* a request: reply, take the data */
            count_wire(e, e->rank, o->peer, ep->cfg.envelope_B);
            xn_put(e->st, e->rank, o->peer, chan_of(e, i, XN_REPLY), ep->cfg.envelope_B, e->st,
                   1, x, k);
            post_get(e, i, XN_RDV, AK_RECV_DATA, k);
            return;
        }
        remove_active(e, k);
        data_arrived(e, i);
        return;
    case AK_RECV_DATA:
        remove_active(e, k);
        data_arrived(e, i);
        return;
    default: /* AK_SEND_DATA */
        remove_active(e, k);
        complete_op(e, i);
        return;
    }
}

/* Blocks until the next event: the CPU job's end or the first comm to finish; -1 when
 * nothing can happen any more. */
static int wait_event(exec_run *e)
{
    if (e->nbulk > 0 && !e->cpu_busy) { /* a step's messages, all at once */
        pk_wait(e->st->net, e->st->rank0 + e->rank);
        for (size_t k = 0; k < e->nbulk; k++)
            complete_op(e, e->x->comm_op[k]);
        e->nbulk = 0;
        return 0;
    }
    if (!e->cpu_busy) {
        if (e->nactive == 0)
            return -1;
        long k = xn_wait(e->st, e->rank, e->x, e->nactive, -1, &e->timer);
        if (k < 0)
            return -1;
        comm_done(e, (size_t)k);
        return 0;
    }
    double now = sim_clock(e->st);
    /* a job started now lasts its exact duration (what step schedules always did) */
    double rest = now == e->cpu_start ? e->cpu_dur : e->cpu_start + e->cpu_dur - now;
    if (e->timer < 0 && (e->cpu_drives || e->nactive == 0)) { /* nbulk > 0: cannot happen */
        xn_sleep(e->st, e->rank, rest);
        finish_job(e);
        return 0;
    }
    long k = xn_wait(e->st, e->rank, e->x, e->nactive, rest > 0 ? rest : 0, &e->timer);
    if (k < 0)
        finish_job(e);
    else
        comm_done(e, (size_t)k);
    return 0;
}

/* No op of the chunk has a dependency or a tag. */
static int step_rule_only(const rank_sched *rs)
{
    if (rs->ndep_ops > 0 || rs->ntags > 0)
        return 0;
    for (uint32_t i = 0; i < rs->nops; i++)
        if (rs->ops[i].flags & OPF_DEPS)
            return 0;
    return 1;
}

/* A one-step chunk of step-rule ops only under the packet model without endpoint costs
 * (e.bulk): what the state machine does with it, without its bookkeeping. The step's
 * messages are posted in op order (sends counted as inject counts them), the rank waits
 * for them all, then its local ops run as one CPU job, their times summed in op order
 * (job_seconds). */
static void bulk_step(exec_run *e, uint32_t first_step)
{
    sim_state *st = e->st;
    const rank_sched *rs = e->rs;
    int comm = 0, local = 0;
    for (uint32_t i = rs_step_begin(rs, 0); i < rs_step_end(rs, 0); i++) {
        const sched_op *o = &rs->ops[i];
        if (o->kind == OP_RECV) {
            pk_recv(st->net, st->rank0 + e->rank, st->rank0 + o->peer);
        } else if (o->kind == OP_SEND) {
            traffic_tally_message(&st->tally, st->host_of_rank[e->rank],
                                  st->host_of_rank[o->peer], o->bytes);
            pk_send(st->net, st->rank0 + e->rank, st->rank0 + o->peer, o->bytes);
        } else {
            local = 1;
            continue;
        }
        comm = 1;
    }
    double sum = 0;
    if (local)
        for (uint32_t i = rs_step_begin(rs, 0); i < rs_step_end(rs, 0); i++)
            if (sr_in_step_item(rs, i))
                sum += local_seconds(st, &rs->ops[i]);
    if (comm && sum > 0) /* one wait for both (packet.h) */
        pk_wait_compute(st->net, st->rank0 + e->rank, sum);
    else if (comm)
        pk_wait(st->net, st->rank0 + e->rank);
    else if (sum > 0)
        xn_sleep(st, e->rank, sum);
    st->step[e->rank] = first_step + 1;
}

int sim_exec_chunk(sim_state *st, int32_t rank, sim_exec_scratch *x, const rank_sched *rs,
                   uint32_t first_step)
{
    exec_run e = {.st = st, .ep = st->ep, .x = x, .r = &x->ready, .rank = rank, .rs = rs,
                  .timer = -1};
    e.bulk = st->net && !e.ep && st->eager_limit < 0 && step_rule_only(rs);
    if (e.bulk && rs->nsteps == 1) { /* the scratch is not needed: not touched (with
                                        thousands of ranks it is out of the cache) */
        bulk_step(&e, first_step);
        return 0;
    }
    scratch_reserve(x, rs);
    x->first_step = first_step;
    if (e.ep)
        e.cpu_drives = e.ep->cfg.send_overhead_s > 0 || e.ep->cfg.recv_overhead_s > 0 ||
                       e.ep->cfg.msg_gap_s > 0;
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
