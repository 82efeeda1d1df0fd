/* sched_ready.c - the dependency rule of schedule.h: which ops may start (sched_ready.h). */
#include <stdlib.h>
#include <string.h>

#include "algorithms/sched_ready.h"
#include "common/util.h"

void sr_init(sched_ready *r)
{
    memset(r, 0, sizeof *r);
}

void sr_free(sched_ready *r)
{
    free(r->missing);
    free(r->op_step);
    free(r->succ_first);
    free(r->succ);
    free(r->step_left);
    free(r->comm_left);
    free(r->queue);
    memset(r, 0, sizeof *r);
}

static void reserve(sched_ready *r, const rank_sched *rs)
{
    size_t n = (size_t)rs->nops + 1, s = (size_t)rs->nsteps + 1;
    if (n > r->cap_ops) {
        r->missing = xrealloc(r->missing, n * sizeof *r->missing);
        r->op_step = xrealloc(r->op_step, n * sizeof *r->op_step);
        r->succ_first = xrealloc(r->succ_first, (n + 1) * sizeof *r->succ_first);
        r->cap_ops = n;
    }
    if (s > r->cap_steps) {
        r->step_left = xrealloc(r->step_left, s * sizeof *r->step_left);
        r->comm_left = xrealloc(r->comm_left, s * sizeof *r->comm_left);
        r->cap_steps = s;
    }
    if (n + s > r->cap_queue) { /* each op and each step's local item enters it once */
        r->cap_queue = n + s;
        r->queue = xrealloc(r->queue, r->cap_queue * sizeof *r->queue);
    }
    if ((size_t)rs->ndeps + 1 > r->cap_succ) {
        r->cap_succ = (size_t)rs->ndeps + 1;
        r->succ = xrealloc(r->succ, r->cap_succ * sizeof *r->succ);
    }
}

/* Per op: step and missing dependencies; per step: ops and step-rule messages left; the
 * reverse dependency lists, built by counting. */
static void index_rank(sched_ready *r)
{
    const rank_sched *rs = r->rs;
    memset(r->succ_first, 0, ((size_t)rs->nops + 1) * sizeof *r->succ_first);
    for (uint32_t s = 0; s < rs->nsteps; s++) {
        r->step_left[s] = rs_step_end(rs, s) - rs_step_begin(rs, s);
        r->comm_left[s] = 0;
        for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
            uint32_t nd;
            const uint32_t *d = rs_op_deps(rs, i, &nd);
            r->op_step[i] = s;
            r->missing[i] = nd;
            if (!(rs->ops[i].flags & OPF_DEPS) && op_is_comm(&rs->ops[i]))
                r->comm_left[s]++;
            for (uint32_t k = 0; k < nd; k++)
                r->succ_first[SCHED_DEP_OP(d[k]) + 1]++;
        }
    }
    for (uint32_t i = 0; i < rs->nops; i++)
        r->succ_first[i + 1] += r->succ_first[i];
    uint32_t *cursor = r->queue; /* unused until the first release */
    memcpy(cursor, r->succ_first, (size_t)rs->nops * sizeof *cursor);
    for (uint32_t i = 0; i < rs->nops; i++) {
        uint32_t nd;
        const uint32_t *d = rs_op_deps(rs, i, &nd);
        for (uint32_t k = 0; k < nd; k++)
            r->succ[cursor[SCHED_DEP_OP(d[k])]++] = i | (d[k] & SCHED_DEP_START);
    }
}

static void push(sched_ready *r, uint32_t item)
{
    r->queue[r->qtail++] = item;
}

static int has_step_locals(const rank_sched *rs, uint32_t s)
{
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
        if (sr_in_step_item(rs, i))
            return 1;
    return 0;
}

/* Step s begins: its step-rule messages are ready; without any, its local item too. */
static void begin_step(sched_ready *r, uint32_t s)
{
    const rank_sched *rs = r->rs;
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
        if (!(rs->ops[i].flags & OPF_DEPS) && op_is_comm(&rs->ops[i]))
            push(r, i);
    if (r->comm_left[s] == 0 && has_step_locals(rs, s))
        push(r, ~s);
}

static void advance(sched_ready *r)
{
    while (r->done_upto < r->rs->nsteps) {
        if (r->begun <= r->done_upto)
            begin_step(r, r->begun++);
        if (r->step_left[r->done_upto] > 0)
            break;
        r->done_upto++;
    }
}

void sr_reset(sched_ready *r, const rank_sched *rs)
{
    r->rs = rs;
    reserve(r, rs);
    index_rank(r);
    r->qhead = r->qtail = 0;
    r->left = rs->nops;
    r->done_upto = r->begun = 0;
    for (uint32_t i = 0; i < rs->nops; i++)
        if ((rs->ops[i].flags & OPF_DEPS) && r->missing[i] == 0)
            push(r, i);
    advance(r);
}

static void notify(sched_ready *r, uint32_t i, int started)
{
    for (uint32_t k = r->succ_first[i]; k < r->succ_first[i + 1]; k++) {
        uint32_t j = r->succ[k] & ~SCHED_DEP_START;
        int start_only = (r->succ[k] & SCHED_DEP_START) != 0;
        if (start_only == started && --r->missing[j] == 0)
            push(r, j);
    }
}

void sr_started(sched_ready *r, uint32_t i)
{
    notify(r, i, 1);
}

void sr_completed(sched_ready *r, uint32_t i)
{
    const rank_sched *rs = r->rs;
    uint32_t s = r->op_step[i];
    r->left--;
    r->step_left[s]--;
    notify(r, i, 0);
    if (!(rs->ops[i].flags & OPF_DEPS) && op_is_comm(&rs->ops[i]) && --r->comm_left[s] == 0 &&
        has_step_locals(rs, s))
        push(r, ~s);
    if (s == r->done_upto)
        advance(r);
}
