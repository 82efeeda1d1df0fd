/* sched_ready.h - which ops of a rank may start: the dependency rule of schedule.h, for
 * every executor of schedules (the simulator's rank executor, the verifier's progress
 * simulation), so that both read a schedule the same way.
 *
 * An OPF_DEPS op is ready when each op it depends on has completed (or started, for a
 * start-only dependency). Any other op follows the step rule: its step has begun (every
 * op of every earlier step has completed); a local op also waits for the step-rule
 * messages of its step, and the step-rule local ops of a step come as one item, ~s (the
 * simulator runs them as one CPU job, the time of a step schedule's local ops as it
 * always was). Items come out in a FIFO order: a step's messages in op order.
 *
 * Usage: sr_reset(rank schedule); then repeatedly sr_pop an item, report sr_started and
 * sr_completed as the ops start and complete; sr_left() == 0 when every op completed.
 * Memory is linear in the ops and dependencies of the rank.
 */
#ifndef COLLSIM_SCHED_READY_H
#define COLLSIM_SCHED_READY_H

#include <stddef.h>
#include <stdint.h>

#include "algorithms/schedule.h"

typedef struct sched_ready {
    const rank_sched *rs;
    uint32_t *missing;    /* per op: dependencies not satisfied yet */
    uint32_t *op_step;    /* per op: its step */
    uint32_t *succ_first; /* per op: ops waiting for it, succ[succ_first[i] .. [i + 1]) */
    uint32_t *succ;       /* entries: op | SCHED_DEP_START (waits for the start only) */
    uint32_t *step_left;  /* per step: ops not completed */
    uint32_t *comm_left;  /* per step: step-rule messages not completed */
    uint32_t *queue;      /* ready items (an op, or ~s: the step-rule local ops of step s) */
    uint32_t qhead, qtail;
    uint32_t left;        /* ops not completed */
    uint32_t done_upto;   /* steps 0 .. done_upto-1 are complete */
    uint32_t begun;       /* steps whose step-rule ops have been released */
    size_t cap_ops, cap_steps, cap_succ, cap_queue;
} sched_ready;

void sr_init(sched_ready *r);
void sr_free(sched_ready *r);
/* Indexes the rank (kept by pointer until the next reset) and releases what is ready at
 * the start. */
void sr_reset(sched_ready *r, const rank_sched *rs);
/* Takes the next ready item; 0 when there is none. */
static inline int sr_pop(sched_ready *r, uint32_t *item)
{
    if (r->qhead == r->qtail)
        return 0;
    *item = r->queue[r->qhead++];
    return 1;
}
/* The item is a step's local ops (~s) rather than one op. */
static inline int sr_item_is_step(const sched_ready *r, uint32_t item) { return item >= r->rs->nops; }
static inline uint32_t sr_item_step(uint32_t item) { return ~item; }
/* Op i has started / completed (report the start of every op before its completion). */
void sr_started(sched_ready *r, uint32_t i);
void sr_completed(sched_ready *r, uint32_t i);
static inline uint32_t sr_left(const sched_ready *r) { return r->left; }
/* The earliest step not complete (diagnostics). */
static inline uint32_t sr_current_step(const sched_ready *r) { return r->done_upto; }
/* Op i runs by the step rule as part of its step's local item. */
static inline int sr_in_step_item(const rank_sched *rs, uint32_t i)
{
    return !(rs->ops[i].flags & OPF_DEPS) && !op_is_comm(&rs->ops[i]);
}

#endif
