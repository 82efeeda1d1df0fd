/* verify_full.c - the full verification engine: every rank in memory, exact matching, an
 * event-driven progress simulation that carries message contents (see verify.h).
 *
 * The progress simulation follows the step semantics of schedule.h. Each rank is in one
 * step at a time. When it enters a step, the contents of its sends are taken from what it
 * holds. The step completes once every peer of the step has entered the step holding the
 * matching operation; the received contents are then applied (replaced or combined).
 * A worklist wakes a rank whenever one of its peers enters a step. When the worklist is
 * empty, every rank not at its end is deadlocked.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithms/verify_internal.h"
#include "common/util.h"

int full_fail(full_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->res->error, sizeof c->res->error, fmt, ap);
    va_end(ap);
    c->res->ok = 0;
    return -1;
}


/* ---- generation and per-op rules ---------------------------------------------------- */

static void generate_all(full_ctx *c, const alg_run *run)
{
    sched_builder b;
    sb_init(&b, c->l);
    c->ranks = xcalloc((size_t)c->P, sizeof *c->ranks);
    c->op_base = xmalloc(((size_t)c->P + 1) * sizeof *c->op_base);
    uint64_t total = 0;
    for (int32_t r = 0; r < c->P; r++) {
        alg_run_gen(run, r, &b);
        c->ranks[r] = b.rs;     /* take ownership of the buffers */
        rank_sched_init(&b.rs); /* and give the builder new ones */
        c->op_base[r] = total;
        total += c->ranks[r].nops;
    }
    c->op_base[c->P] = total;
    sb_free(&b);
}

static int lint_all(full_ctx *c)
{
    char msg[CS_ERROR_MAX];
    for (int32_t r = 0; r < c->P; r++) {
        const rank_sched *rs = &c->ranks[r];
        for (uint32_t s = 0; s < rs->nsteps; s++) {
            for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
                sched_op o = rs->ops[i];
                if (c->deps && op_is_comm(&o) && o.peer == r) /* GOAL: a message to oneself */
                    o.peer = r + 1 < c->P ? r + 1 : r - 1 >= 0 ? r - 1 : o.peer;
                if (c->deps && op_is_comm(&o) && o.peer == r)
                    continue; /* P = 1: nothing else to check on it */
                if (lint_op(c->l, r, s, &o, rs_op_ranges(rs, &rs->ops[i]), msg, sizeof msg) < 0)
                    return full_fail(c, "%s", msg);
                uint32_t nd;
                const uint32_t *d = rs_op_deps(rs, i, &nd);
                for (uint32_t k = 0; k < nd; k++)
                    if (SCHED_DEP_OP(d[k]) >= rs->nops || SCHED_DEP_OP(d[k]) == i)
                        return full_fail(c, "rank %d step %u: op %u depends on op %u, which is "
                                         "not another op of the rank (0..%u)", r, s, i,
                                         SCHED_DEP_OP(d[k]), rs->nops - 1);
            }
            if (lint_step(c->l, rs, s, s, msg, sizeof msg) < 0)
                return full_fail(c, "%s", msg);
        }
    }
    return 0;
}

/* ---- matching ------------------------------------------------------------------------ */

static int cmp_rec(const void *a, const void *b)
{
    const msg_rec *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* A rank with tags: its records renumbered per (src, dst, tag) channel in op order. */
static int cmp_rec_op(const void *a, const void *b)
{
    const msg_rec *x = a, *y = b;
    if (x->src != y->src || x->dst != y->dst || x->tag != y->tag)
        return cmp_rec(a, b);
    return (x->gop > y->gop) - (x->gop < y->gop);
}

static void renumber_tagged(msg_rec *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_rec_op);
    for (size_t i = 0; i < n; i++)
        v[i].k = i > 0 && v[i].src == v[i - 1].src && v[i].dst == v[i - 1].dst &&
                         v[i].tag == v[i - 1].tag ? v[i - 1].k + 1 : 0;
}

/* Collects every send and recv as (src, dst, k) records, k counted per pair. */
static void collect_records(full_ctx *c, msg_rec **sends, size_t *ns, msg_rec **recvs,
                            size_t *nr)
{
    size_t cap_s = 0, cap_r = 0;
    *sends = *recvs = NULL;
    *ns = *nr = 0;
    uint32_t *cnt_send = xcalloc((size_t)c->P, sizeof *cnt_send);
    uint32_t *cnt_recv = xcalloc((size_t)c->P, sizeof *cnt_recv);
    int32_t *touched = xmalloc((size_t)c->P * 2 * sizeof *touched);
    for (int32_t r = 0; r < c->P; r++) {
        const rank_sched *rs = &c->ranks[r];
        size_t ntouched = 0, s0 = *ns, r0 = *nr;
        for (uint32_t i = 0; i < rs->nops; i++) {
            const sched_op *o = &rs->ops[i];
            if (!op_is_comm(o))
                continue;
            uint64_t g = c->op_base[r] + i;
            if (o->kind == OP_SEND) {
                if (cnt_send[o->peer] == 0 && cnt_recv[o->peer] == 0)
                    touched[ntouched++] = o->peer;
                VEC_RESERVE(*sends, cap_s, *ns + 1);
                (*sends)[(*ns)++] = (msg_rec){r, o->peer, rs_op_tag(rs, i), cnt_send[o->peer]++, g};
            } else {
                if (cnt_send[o->peer] == 0 && cnt_recv[o->peer] == 0)
                    touched[ntouched++] = o->peer;
                VEC_RESERVE(*recvs, cap_r, *nr + 1);
                (*recvs)[(*nr)++] = (msg_rec){o->peer, r, rs_op_tag(rs, i), cnt_recv[o->peer]++, g};
            }
        }
        if (rs->ntags > 0) {
            renumber_tagged(*sends + s0, *ns - s0);
            renumber_tagged(*recvs + r0, *nr - r0);
        }
        for (size_t t = 0; t < ntouched; t++)
            cnt_send[touched[t]] = cnt_recv[touched[t]] = 0;
    }
    free(cnt_send);
    free(cnt_recv);
    free(touched);
    if (*ns > 1) /* alltoallv of empty blocks: possibly no message at all */
        qsort(*sends, *ns, sizeof **sends, cmp_rec);
    if (*nr > 1)
        qsort(*recvs, *nr, sizeof **recvs, cmp_rec);
}

static size_t count_pair(const msg_rec *v, size_t n, const msg_rec *m)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i].src == m->src && v[i].dst == m->dst && v[i].tag == m->tag)
            k++;
    return k;
}

static int report_unmatched(full_ctx *c, const msg_rec *m, int is_send, const msg_rec *other,
                            size_t nother)
{
    int32_t owner = is_send ? m->src : m->dst;
    const sched_op *o = gop_op(c, owner, m->gop);
    size_t have = count_pair(other, nother, m);
    c->res->ok = 0;
    format_unmatched(c->res->error, sizeof c->res->error, is_send, owner, c->op_step[m->gop], o,
                     rs_op_ranges(&c->ranks[owner], o), m->k, have);
    return -1;
}

static int same_message(const full_ctx *c, const msg_rec *s, const msg_rec *r)
{
    const sched_op *a = gop_op(c, s->src, s->gop), *b = gop_op(c, r->dst, r->gop);
    if (a->bytes != b->bytes || a->nranges != b->nranges)
        return 0;
    /* messages without blocks may come from ranks with no range array at all (NULL) */
    return a->nranges == 0 ||
           memcmp(rs_op_ranges(&c->ranks[s->src], a), rs_op_ranges(&c->ranks[r->dst], b),
                  a->nranges * sizeof(blk_range)) == 0;
}

static int match_all(full_ctx *c)
{
    msg_rec *sends, *recvs;
    size_t ns, nr;
    collect_records(c, &sends, &ns, &recvs, &nr);
    int rc = 0;
    size_t i = 0, j = 0;
    while (rc == 0 && (i < ns || j < nr)) {
        int d = i >= ns ? 1 : j >= nr ? -1 : cmp_rec(&sends[i], &recvs[j]);
        if (d < 0) {
            rc = report_unmatched(c, &sends[i], 1, recvs, nr);
        } else if (d > 0) {
            rc = report_unmatched(c, &recvs[j], 0, sends, ns);
        } else {
            const msg_rec *s = &sends[i], *r = &recvs[j];
            if (!same_message(c, s, r)) {
                const sched_op *a = gop_op(c, s->src, s->gop), *b = gop_op(c, r->dst, r->gop);
                c->res->ok = 0;
                format_mismatch(c->res->error, sizeof c->res->error, s->src, c->op_step[s->gop], a,
                                rs_op_ranges(&c->ranks[s->src], a), r->dst, c->op_step[r->gop], b,
                                rs_op_ranges(&c->ranks[r->dst], b));
                rc = -1;
            } else {
                c->match[s->gop] = (int64_t)r->gop;
                c->match[r->gop] = (int64_t)s->gop;
                c->res->messages++;
                c->res->bytes += gop_op(c, s->src, s->gop)->bytes;
            }
            i++;
            j++;
        }
    }
    free(sends);
    free(recvs);
    return rc;
}

/* ---- progress simulation ----------------------------------------------------------- */

/* Takes the contents of the sends of rank r's current step from what it holds. */
static int enter_step(full_ctx *c, int32_t r)
{
    const rank_sched *rs = &c->ranks[r];
    uint32_t s = c->cur[r];
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
        const sched_op *o = &rs->ops[i];
        if (o->kind != OP_SEND)
            continue;
        ival_buf *p = &c->payload[c->op_base[r] + i];
        p->n = 0;
        int64_t miss = imap_extract(&c->state[r], rs_op_ranges(rs, o), o->nranges, p);
        if (miss >= 0) {
            char b[96];
            describe_block(c->l, miss, b, sizeof b);
            return full_fail(c, "rank %d step %u: sends %s to %d but does not hold it at that step", r,
                        s, b, o->peer);
        }
    }
    return 0;
}

static int step_ready(const full_ctx *c, int32_t r)
{
    const rank_sched *rs = &c->ranks[r];
    uint32_t s = c->cur[r];
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
        const sched_op *o = &rs->ops[i];
        if (!op_is_comm(o))
            continue;
        uint64_t partner = (uint64_t)c->match[c->op_base[r] + i];
        if (c->cur[o->peer] < c->op_step[partner])
            return 0;
    }
    return 1;
}

/* Applies what rank r's current step received. */
static int complete_step(full_ctx *c, int32_t r)
{
    const rank_sched *rs = &c->ranks[r];
    uint32_t s = c->cur[r];
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
        const sched_op *o = &rs->ops[i];
        if (o->kind != OP_RECV)
            continue;
        ival_buf *p = &c->payload[c->match[c->op_base[r] + i]];
        int combine = (o->flags & OPF_COMBINE) != 0;
        int64_t over = imap_apply(&c->state[r], p->v, p->n, combine, (uint64_t)c->P, &c->scratch);
        ival_buf_free(p);
        if (over >= 0) {
            char b[96];
            describe_block(c->l, over, b, sizeof b);
            return full_fail(c,
                        "rank %d step %u: recv from %d combines %s into a partial result that "
                        "already holds some of the same contributions (more than %d in all: a "
                        "contribution is reduced twice)",
                        r, s, o->peer, b, c->P);
        }
    }
    return 0;
}

static int report_deadlock(full_ctx *c)
{
    int32_t stuck = 0, first = -1;
    for (int32_t r = 0; r < c->P; r++)
        if (c->cur[r] < c->ranks[r].nsteps) {
            if (first < 0)
                first = r;
            stuck++;
        }
    if (first < 0)
        return 0;
    const rank_sched *rs = &c->ranks[first];
    uint32_t s = c->cur[first];
    for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
        const sched_op *o = &rs->ops[i];
        if (!op_is_comm(o))
            continue;
        uint32_t need = c->op_step[c->match[c->op_base[first] + i]];
        if (c->cur[o->peer] < need) {
            char rb[256];
            describe_ranges(rs_op_ranges(rs, o), o->nranges, rb, sizeof rb);
            return full_fail(c,
                        "deadlock: %d rank(s) cannot finish; rank %d step %u: %s %d (%s) waits "
                        "for rank %d to reach step %u, but rank %d is stuck in step %u",
                        stuck, first, s, o->kind == OP_SEND ? "send to" : "recv from", o->peer,
                        rb, o->peer, need, o->peer, c->cur[o->peer]);
        }
    }
    return full_fail(c, "deadlock: %d rank(s) cannot finish, first rank %d in step %u", stuck, first, s);
}

static int run_progress(full_ctx *c)
{
    int32_t P = c->P;
    int32_t *work = xmalloc((size_t)P * sizeof *work);
    char *queued = xcalloc((size_t)P, 1);
    size_t nwork = 0;
    int rc = 0;
    for (int32_t r = P - 1; r >= 0; r--) {
        if (c->ranks[r].nsteps > 0 && (rc = enter_step(c, r)) < 0)
            goto out;
        work[nwork++] = r;
        queued[r] = 1;
    }
    while (nwork > 0) {
        int32_t r = work[--nwork];
        queued[r] = 0;
        const rank_sched *rs = &c->ranks[r];
        while (c->cur[r] < rs->nsteps && step_ready(c, r)) {
            if ((rc = complete_step(c, r)) < 0)
                goto out;
            if (++c->cur[r] >= rs->nsteps)
                break;
            if ((rc = enter_step(c, r)) < 0)
                goto out;
            /* Peers of the new step may have been waiting for r to enter it. */
            uint32_t s = c->cur[r];
            for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
                int32_t q = rs->ops[i].peer;
                if (op_is_comm(&rs->ops[i]) && !queued[q]) {
                    queued[q] = 1;
                    work[nwork++] = q;
                }
            }
        }
    }
    rc = report_deadlock(c);
out:
    free(work);
    free(queued);
    return rc;
}

static int check_all_final(full_ctx *c)
{
    char msg[CS_ERROR_MAX];
    for (int32_t r = 0; r < c->P; r++)
        if (check_final(c->l, r, &c->state[r], c->reductions, c->total, c->ranks[r].nsteps, msg,
                        sizeof msg) < 0)
            return full_fail(c, "%s", msg);
    return 0;
}

/* ---- driver ---------------------------------------------------------------------------- */

static void index_steps(full_ctx *c)
{
    for (int32_t r = 0; r < c->P; r++) {
        const rank_sched *rs = &c->ranks[r];
        for (uint32_t s = 0; s < rs->nsteps; s++)
            for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
                c->op_step[c->op_base[r] + i] = s;
        uint32_t last = 0;
        for (uint32_t s = 0; s < rs->nsteps; s++)
            if (rs_step_end(rs, s) > rs_step_begin(rs, s))
                last = s + 1;
        if ((int32_t)last > c->res->steps)
            c->res->steps = (int32_t)last;
    }
}

static void free_ctx(full_ctx *c)
{
    if (c->ranks)
        for (int32_t r = 0; r < c->P; r++)
            rank_sched_free(&c->ranks[r]);
    if (c->payload)
        for (uint64_t g = 0; g < c->op_base[c->P]; g++)
            ival_buf_free(&c->payload[g]);
    if (c->state)
        for (int32_t r = 0; r < c->P; r++)
            imap_free(&c->state[r]);
    ival_buf_free(&c->scratch);
    free(c->ranks);
    free(c->op_base);
    free(c->match);
    free(c->op_step);
    free(c->payload);
    free(c->state);
    free(c->cur);
}

int verify_full(const alg_run *run, int64_t eager_limit, verify_result *res, cs_error *err)
{
    (void)err;
    full_ctx c;
    memset(&c, 0, sizeof c);
    c.l = &run->layout;
    c.P = run->spec.P;
    c.res = res;
    c.reductions = coll_is_reduction(c.l->coll);
    c.total = contributor_total(c.P);
    res->engine = VERIFY_FULL;
    res->semantics_checked = 1;
    res->deadlock_checked = 1;

    generate_all(&c, run);
    uint64_t nops = c.op_base[c.P];
    c.match = xmalloc((nops ? nops : 1) * sizeof *c.match);
    memset(c.match, 0xff, (nops ? nops : 1) * sizeof *c.match);
    c.op_step = xmalloc((nops ? nops : 1) * sizeof *c.op_step);
    c.payload = xcalloc(nops ? nops : 1, sizeof *c.payload);
    c.state = xcalloc((size_t)c.P, sizeof *c.state);
    c.cur = xcalloc((size_t)c.P, sizeof *c.cur);
    index_steps(&c);
    for (int32_t r = 0; r < c.P; r++) {
        initial_state(c.l, r, &c.state[r]);
        c.deps |= c.ranks[r].ntags > 0 || c.ranks[r].ndep_ops > 0;
    }
    c.eager_limit = eager_limit;

    res->ok = 1;
    if (lint_all(&c) == 0 && match_all(&c) == 0 &&
        (c.deps ? verify_deps_progress(&c) : run_progress(&c)) == 0)
        check_all_final(&c);
    free_ctx(&c);
    return 0;
}

int64_t verify_full_estimate(const alg_run *run)
{
    int32_t P = run->spec.P;
    int32_t sample[3] = {0, P / 2, P - 1};
    sched_builder b;
    sb_init(&b, &run->layout);
    double per_rank = 0;
    for (int i = 0; i < 3; i++) {
        alg_run_gen(run, sample[i], &b);
        const rank_sched *rs = &b.rs;
        /* ops: op + match + step + payload header + match records; ranges: range +
         * in-flight pieces; plus the rank's state. */
        per_rank += (double)rs->nops * (24 + 8 + 4 + 24 + 48) + (double)rs->nranges * (16 + 64) +
                    (double)rs->nsteps * 4 + 256;
    }
    sb_free(&b);
    return (int64_t)(per_rank / 3 * P);
}
