/* goal_write.c - exporting a schedule as GOAL text (see goal.h for the mapping). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedio/goal.h"

void goal_write_options_default(goal_write_options *o)
{
    o->annotate = 1;
}

/* Per-rank writing state: labels and the message counters of each (src, dst) pair. */
typedef struct goal_writer {
    FILE *f;
    int annotate;
    int own_tags;        /* ALG_DEPS: the schedule's own tags (header tags=yes) */
    int blocks;          /* annotations carry blocks */
    uint64_t next_label; /* labels l1, l2, ... (unique per rank) */
    uint32_t *sent;      /* messages this rank sent to each peer so far (P entries) */
    uint32_t *received;  /* messages this rank received from each peer so far */
    int32_t *touched;    /* peers whose counters are non-zero, to reset them cheaply */
    size_t ntouched;
    int32_t P;
    uint64_t *labels;    /* labels of the current step's ops */
    size_t cap_labels;
} goal_writer;

static void write_header(FILE *f, const alg_run *run, int blocks)
{
    const sched_layout *l = &run->layout;
    fprintf(f,
            "// collsim-goal v1 collective=%s P=%" PRId32 " bytes=%" PRId64 " root=%" PRId32
            " dst=%" PRId32 " nblocks=%" PRId64 " row_len=%" PRId64 " row_bytes=%" PRId64
            " blocks_per_rank=%" PRId64 " pair_blocks=%" PRId64 " blocks=%s%s algorithm=%s\n",
            coll_name(l->coll), l->P, run->spec.bytes, l->root, l->dst, l->nblocks, l->row_len,
            l->row_bytes, l->blocks_per_rank, l->pair_blocks, blocks ? "yes" : "no",
            (run->alg->flags & ALG_DEPS) ? " tags=yes" : "", run->alg->name);
    fprintf(f, "// written by collsim: steps are dependency layers, annotations (//@) keep "
               "steps and blocks\n");
}

static void annotate_op(goal_writer *w, uint32_t step, const rank_sched *rs, const sched_op *o)
{
    if (!w->annotate)
        return;
    fprintf(w->f, "//@ %" PRIu32 "%s", step, (o->flags & OPF_DEPS) ? " deps" : "");
    if (o->kind == OP_REDUCE || o->kind == OP_COPY) {
        fprintf(w->f, " %s\n", (o->flags & OPF_TIME) ? "time" : o->kind == OP_REDUCE ? "reduce" : "copy");
        return;
    }
    if (o->flags & OPF_COMBINE)
        fputs(" combine", w->f);
    if (w->blocks && o->nranges > 0) {
        const blk_range *r = rs_op_ranges(rs, o);
        for (uint32_t i = 0; i < o->nranges; i++)
            fprintf(w->f, "%c%" PRId64 ":%" PRId64, i ? ',' : ' ', r[i].lo, r[i].hi);
    } else if (w->blocks) {
        fputs(" -", w->f); /* a message without data blocks */
    }
    fputc('\n', w->f);
}

/* Writes one op line; returns its label number. */
static uint64_t write_op(goal_writer *w, uint32_t step, const rank_sched *rs, const sched_op *o)
{
    annotate_op(w, step, rs, o);
    uint64_t label = w->next_label++;
    uint32_t *count = NULL;
    if (op_is_comm(o) && o->peer >= 0 && o->peer < w->P) { /* else the verifier reports it */
        count = o->kind == OP_SEND ? &w->sent[o->peer] : &w->received[o->peer];
        if (w->sent[o->peer] == 0 && w->received[o->peer] == 0)
            w->touched[w->ntouched++] = o->peer;
    }
    uint32_t tag = count ? (*count)++ : 0;
    if (w->own_tags)
        tag = (uint32_t)rs_op_tag(rs, (uint32_t)(o - rs->ops));
    switch ((op_kind)o->kind) {
    case OP_SEND:
        fprintf(w->f, "l%" PRIu64 ": send %" PRId64 "b to %" PRId32 " tag %" PRIu32 "\n", label,
                o->bytes, o->peer, tag);
        break;
    case OP_RECV:
        fprintf(w->f, "l%" PRIu64 ": recv %" PRId64 "b from %" PRId32 " tag %" PRIu32 "\n",
                label, o->bytes, o->peer, tag);
        break;
    case OP_REDUCE:
    case OP_COPY:
        fprintf(w->f, "l%" PRIu64 ": calc %" PRId64 "\n", label, o->bytes);
        break;
    }
    return label;
}

static void requires(FILE *f, uint64_t a, uint64_t b)
{
    fprintf(f, "l%" PRIu64 " requires l%" PRIu64 "\n", a, b);
}

/* The step rule of op i (no OPF_DEPS) as requires lines (schedule.h): a message after
 * every op of the previous non-empty step; a local op after its step's step-rule
 * messages and the step-rule local op before it (the first one, in a step without such
 * messages, after the previous step). */
static void step_rule_requires(FILE *f, const rank_sched *rs, uint32_t s, uint32_t i)
{
    uint32_t prev_local = UINT32_MAX;
    int step_comms = 0;
    for (uint32_t j = rs_step_begin(rs, s); j < i; j++)
        if (!(rs->ops[j].flags & OPF_DEPS) && !op_is_comm(&rs->ops[j]))
            prev_local = j;
    for (uint32_t j = rs_step_begin(rs, s); j < rs_step_end(rs, s); j++)
        if (!(rs->ops[j].flags & OPF_DEPS) && op_is_comm(&rs->ops[j])) {
            step_comms = 1;
            if (!op_is_comm(&rs->ops[i]))
                requires(f, i + 1, j + 1);
        }
    if (!op_is_comm(&rs->ops[i]) && prev_local != UINT32_MAX)
        requires(f, i + 1, prev_local + 1);
    if (op_is_comm(&rs->ops[i]) || (!step_comms && prev_local == UINT32_MAX)) {
        uint32_t p = s;
        while (p > 0 && rs_step_begin(rs, p - 1) == rs_step_end(rs, p - 1))
            p--;
        for (uint32_t j = p > 0 ? rs_step_begin(rs, p - 1) : 0; p > 0 && j < rs_step_end(rs, p - 1); j++)
            requires(f, i + 1, j + 1);
    }
}

/* A rank with dependencies or tags: its ops in order (labels l1, l2, ... by op index),
 * then every op's dependencies: its own (requires / irequires), or the step rule's. */
static void write_rank_deps(goal_writer *w, const rank_sched *rs)
{
    for (uint32_t s = 0; s < rs->nsteps; s++)
        for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
            w->next_label = i + 1;
            write_op(w, s, rs, &rs->ops[i]);
        }
    for (uint32_t s = 0; s < rs->nsteps; s++)
        for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++) {
            if (!(rs->ops[i].flags & OPF_DEPS)) {
                step_rule_requires(w->f, rs, s, i);
                continue;
            }
            uint32_t n;
            const uint32_t *d = rs_op_deps(rs, i, &n);
            for (uint32_t k = 0; k < n; k++)
                fprintf(w->f, "l%" PRIu32 " %srequires l%" PRIu32 "\n", i + 1,
                        (d[k] & SCHED_DEP_START) ? "i" : "", SCHED_DEP_OP(d[k]) + 1);
        }
}

/* Writes one step in the IR's op order, then its dependencies (after the ops, so that
 * every label is defined before a `requires` names it, as txt2bin needs). `prev` is the
 * label ending the previous step (0: none); returns the label ending this one. */
static uint64_t write_step(goal_writer *w, const rank_sched *rs, uint32_t s, uint64_t prev)
{
    uint32_t begin = rs_step_begin(rs, s), end = rs_step_end(rs, s);
    VEC_RESERVE(w->labels, w->cap_labels, end - begin);
    uint64_t ncomm = 0, comm_label = 0, last_local = 0;
    for (uint32_t i = begin; i < end; i++) {
        w->labels[i - begin] = write_op(w, s, rs, &rs->ops[i]);
        if (op_is_comm(&rs->ops[i])) {
            ncomm++;
            comm_label = w->labels[i - begin];
        }
    }
    for (uint32_t i = begin; i < end; i++) {
        uint64_t label = w->labels[i - begin];
        if (op_is_comm(&rs->ops[i])) {
            if (prev)
                requires(w->f, label, prev);
        } else if (last_local) { /* local ops one after the other */
            requires(w->f, label, last_local);
            last_local = label;
        } else { /* the first local op waits for every message of the step */
            for (uint32_t j = begin; j < end; j++)
                if (op_is_comm(&rs->ops[j]))
                    requires(w->f, label, w->labels[j - begin]);
            if (ncomm == 0 && prev)
                requires(w->f, label, prev);
            last_local = label;
        }
    }
    if (last_local)
        return last_local;
    if (ncomm == 1)
        return comm_label;
    /* several messages and no local op, or an empty step: a join node */
    if (w->annotate)
        fprintf(w->f, "//@ %" PRIu32 " join\n", s);
    uint64_t join = w->next_label++;
    fprintf(w->f, "l%" PRIu64 ": calc 0\n", join);
    for (uint32_t j = begin; j < end; j++)
        requires(w->f, join, w->labels[j - begin]);
    if (ncomm == 0 && prev)
        requires(w->f, join, prev);
    return join;
}

static void write_rank(goal_writer *w, const rank_sched *rs)
{
    fprintf(w->f, "rank %" PRId32 " {\n", rs->rank);
    w->next_label = 1;
    uint64_t prev = 0;
    if (rs->ntags > 0 || rs->ndep_ops > 0)
        write_rank_deps(w, rs);
    else
        for (uint32_t s = 0; s < rs->nsteps; s++)
            prev = write_step(w, rs, s, prev);
    fputs("}\n", w->f);
    for (size_t i = 0; i < w->ntouched; i++)
        w->sent[w->touched[i]] = w->received[w->touched[i]] = 0;
    w->ntouched = 0;
}

int goal_write(FILE *f, const alg_run *run, const goal_write_options *opt, cs_error *err)
{
    int32_t P = run->layout.P;
    goal_writer w = {.f = f, .annotate = opt->annotate, .blocks = !run->layout.block_bytes_fn,
                    .P = P, .own_tags = (run->alg->flags & ALG_DEPS) != 0};
    w.sent = xcalloc((size_t)P, sizeof *w.sent);
    w.received = xcalloc((size_t)P, sizeof *w.received);
    w.touched = xcalloc((size_t)P, sizeof *w.touched);
    if (w.annotate)
        write_header(f, run, w.blocks);
    fprintf(f, "num_ranks %" PRId32 "\n\n", P);
    sched_builder b;
    sb_init(&b, &run->layout);
    for (int32_t r = 0; r < P; r++) {
        alg_run_gen(run, r, &b);
        write_rank(&w, &b.rs);
    }
    sb_free(&b);
    free(w.sent);
    free(w.received);
    free(w.touched);
    free(w.labels);
    if (ferror(f))
        return cs_fail(err, "write error");
    return 0;
}
