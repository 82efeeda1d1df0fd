/* verify_deps.c - the full engine's progress simulation op by op, for schedules with
 * dependencies or tags (verify_internal.h: verify_deps_progress).
 *
 * Each rank has a sched_ready (the dependency rule every executor shares). A worklist of
 * ranks: a rank takes its ready items and starts them. A local op completes at once. A
 * send takes the contents of its blocks from what the rank holds at that moment; an
 * eager send (at most eager_limit bytes) completes at once, any other once its receive
 * has been posted. A receive completes once its send has started, and the contents are
 * applied then. Completing an op of another rank puts that rank on the worklist. When the
 * worklist is empty, every op not completed is deadlocked.
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/sched_ready.h"
#include "algorithms/verify_internal.h"
#include "common/util.h"

enum { ST_WAITING, ST_STARTED, ST_DONE };

typedef struct deps_run {
    full_ctx *c;
    sched_ready *ready; /* per rank */
    uint8_t *st;        /* per global op */
    int32_t *work;
    char *queued;
    size_t nwork;
} deps_run;

static void wake(deps_run *d, int32_t r)
{
    if (!d->queued[r]) {
        d->queued[r] = 1;
        d->work[d->nwork++] = r;
    }
}

static int32_t owner_of(const full_ctx *c, uint64_t g)
{
    int32_t lo = 0, hi = c->P - 1; /* the last rank whose first op is <= g */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (c->op_base[mid] <= g)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void complete(deps_run *d, int32_t r, uint64_t g)
{
    d->st[g] = ST_DONE;
    sr_completed(&d->ready[r], (uint32_t)(g - d->c->op_base[r]));
    wake(d, r);
}

/* Applies what receive g of rank r got (from its matched send's payload). */
static int deliver(deps_run *d, int32_t r, uint64_t g)
{
    full_ctx *c = d->c;
    const sched_op *o = gop_op(c, r, g);
    ival_buf *p = &c->payload[c->match[g]];
    int combine = (o->flags & OPF_COMBINE) != 0;
    int64_t over = imap_apply(&c->state[r], p->v, p->n, combine, (uint64_t)c->P, &c->scratch);
    ival_buf_free(p);
    if (over >= 0) {
        char b[96];
        describe_block(c->l, over, b, sizeof b);
        return full_fail(c, "rank %d step %u: recv from %d combines %s into a partial result "
                         "that already holds some of the same contributions (a contribution "
                         "is reduced twice)", r, c->op_step[g], o->peer, b);
    }
    complete(d, r, g);
    return 0;
}

static int start_send(deps_run *d, int32_t r, uint64_t g)
{
    full_ctx *c = d->c;
    const rank_sched *rs = &c->ranks[r];
    const sched_op *o = gop_op(c, r, g);
    ival_buf *p = &c->payload[g];
    p->n = 0;
    int64_t miss = imap_extract(&c->state[r], rs_op_ranges(rs, o), o->nranges, p);
    if (miss >= 0) {
        char b[96];
        describe_block(c->l, miss, b, sizeof b);
        return full_fail(c, "rank %d step %u: sends %s to %d but does not hold it when the "
                         "send starts", r, c->op_step[g], b, o->peer);
    }
    if (o->bytes <= c->eager_limit)
        complete(d, r, g);
    uint64_t m = (uint64_t)c->match[g];
    if (d->st[m] != ST_STARTED)
        return 0;
    if (d->st[g] != ST_DONE) /* rendezvous: the receive is posted */
        complete(d, r, g);
    return deliver(d, o->peer, m);
}

static int start_recv(deps_run *d, int32_t r, uint64_t g)
{
    full_ctx *c = d->c;
    uint64_t m = (uint64_t)c->match[g];
    int32_t q = gop_op(c, r, g)->peer;
    if (d->st[m] == ST_WAITING)
        return 0;
    if (d->st[m] == ST_STARTED) /* a rendezvous send waiting for this receive */
        complete(d, q, m);
    return deliver(d, r, g);
}

static int start_item(deps_run *d, int32_t r, uint32_t item)
{
    full_ctx *c = d->c;
    const rank_sched *rs = &c->ranks[r];
    sched_ready *sr = &d->ready[r];
    if (sr_item_is_step(sr, item)) {
        uint32_t s = sr_item_step(item);
        for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
            if (sr_in_step_item(rs, i)) {
                sr_started(sr, i);
                complete(d, r, c->op_base[r] + i);
            }
        return 0;
    }
    uint64_t g = c->op_base[r] + item;
    d->st[g] = ST_STARTED;
    sr_started(sr, item);
    switch ((op_kind)rs->ops[item].kind) {
    case OP_SEND: return start_send(d, r, g);
    case OP_RECV: return start_recv(d, r, g);
    default: complete(d, r, g); return 0;
    }
}

/* Names the first op that never completed and what it waits for. */
static int report_stuck(deps_run *d)
{
    full_ctx *c = d->c;
    int32_t stuck = 0;
    uint64_t first = UINT64_MAX;
    for (int32_t r = 0; r < c->P; r++)
        if (sr_left(&d->ready[r]) > 0) {
            stuck++;
            for (uint64_t g = c->op_base[r]; first == UINT64_MAX && g < c->op_base[r + 1]; g++)
                if (d->st[g] != ST_DONE && op_is_comm(gop_op(c, r, g)) && d->st[g] == ST_STARTED)
                    first = g;
        }
    if (stuck == 0)
        return 0;
    if (first == UINT64_MAX)
        return full_fail(c, "deadlock: %d rank(s) cannot finish: their ops left wait for each "
                         "other (a dependency cycle)", stuck);
    int32_t r = owner_of(c, first), q = gop_op(c, r, first)->peer;
    const sched_op *o = gop_op(c, r, first);
    uint64_t m = (uint64_t)c->match[first];
    return full_fail(c, "deadlock: %d rank(s) cannot finish; rank %d step %u: %s %d (tag %d, "
                     "%lld bytes) waits for rank %d's matching %s, which %s", stuck, r,
                     c->op_step[first], o->kind == OP_SEND ? "send to" : "recv from", q,
                     rs_op_tag(&c->ranks[r], (uint32_t)(first - c->op_base[r])),
                     (long long)o->bytes, q, o->kind == OP_SEND ? "recv" : "send",
                     d->st[m] == ST_WAITING ? "never starts (its dependencies never complete)"
                                            : "has started");
}

int verify_deps_progress(full_ctx *c)
{
    int32_t P = c->P;
    deps_run d = {.c = c};
    d.ready = xcalloc((size_t)P, sizeof *d.ready);
    d.st = xcalloc(c->op_base[P] ? c->op_base[P] : 1, 1);
    d.work = xmalloc((size_t)P * sizeof *d.work);
    d.queued = xcalloc((size_t)P, 1);
    for (int32_t r = P - 1; r >= 0; r--) {
        sr_init(&d.ready[r]);
        sr_reset(&d.ready[r], &c->ranks[r]);
        wake(&d, r);
    }
    int rc = 0;
    while (rc == 0 && d.nwork > 0) {
        int32_t r = d.work[--d.nwork];
        d.queued[r] = 0;
        uint32_t item;
        while (rc == 0 && sr_pop(&d.ready[r], &item))
            rc = start_item(&d, r, item);
    }
    if (rc == 0)
        rc = report_stuck(&d);
    for (int32_t r = 0; r < P; r++) {
        c->cur[r] = c->ranks[r].nsteps; /* check_final reports against the last step */
        sr_free(&d.ready[r]);
    }
    free(d.ready);
    free(d.st);
    free(d.work);
    free(d.queued);
    return rc;
}
