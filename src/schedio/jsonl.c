/* jsonl.c - a schedule as JSON lines (see jsonl.h). */
#include "schedio/jsonl.h"

#include <inttypes.h>

/* Schedules with dependencies (schedule.h): the op's index in its rank, tag, flags and
 * dependencies ("after": completed, "after_start": started), only where they are used. */
static void write_deps(FILE *f, const rank_sched *rs, uint32_t i, const sched_op *o)
{
    if (rs->ntags == 0 && rs->ndep_ops == 0)
        return;
    fprintf(f, ",\"index\":%" PRIu32, i);
    if (rs_op_tag(rs, i))
        fprintf(f, ",\"tag\":%" PRId32, rs_op_tag(rs, i));
    if (o->flags & OPF_TIME)
        fputs(",\"unit\":\"ns\"", f);
    if (!(o->flags & OPF_DEPS))
        return;
    uint32_t n;
    const uint32_t *d = rs_op_deps(rs, i, &n);
    for (int start = 0; start < 2; start++) {
        fprintf(f, ",\"%s\":[", start ? "after_start" : "after");
        int first = 1;
        for (uint32_t k = 0; k < n; k++)
            if (((d[k] & SCHED_DEP_START) != 0) == start) {
                fprintf(f, "%s%" PRIu32, first ? "" : ",", SCHED_DEP_OP(d[k]));
                first = 0;
            }
        fputc(']', f);
    }
}

static void write_op(FILE *f, const rank_sched *rs, uint32_t step, const sched_op *o)
{
    fprintf(f, "{\"rank\":%" PRId32 ",\"step\":%" PRIu32 ",\"op\":\"%s\"", rs->rank, step,
            op_kind_name((op_kind)o->kind));
    if (op_is_comm(o))
        fprintf(f, ",\"peer\":%" PRId32, o->peer);
    fprintf(f, ",\"bytes\":%" PRId64, o->bytes);
    if (op_is_comm(o)) {
        const blk_range *r = rs_op_ranges(rs, o);
        fputs(",\"blocks\":[", f);
        for (uint32_t i = 0; i < o->nranges; i++)
            fprintf(f, "%s[%" PRId64 ",%" PRId64 "]", i ? "," : "", r[i].lo, r[i].hi);
        fputc(']', f);
        if (o->flags & OPF_COMBINE)
            fputs(",\"combine\":true", f);
    }
    write_deps(f, rs, (uint32_t)(o - rs->ops), o);
    fputs("}\n", f);
}

int jsonl_write(FILE *f, const alg_run *run, cs_error *err)
{
    const sched_layout *l = &run->layout;
    fprintf(f,
            "{\"collective\":\"%s\",\"algorithm\":\"%s\",\"P\":%" PRId32 ",\"bytes\":%" PRId64
            ",\"nblocks\":%" PRId64 ",\"blocks_per_rank\":%" PRId64 ",\"pair_blocks\":%" PRId64
            ",\"root\":%" PRId32 "}\n",
            coll_name(l->coll), run->alg->name, l->P, run->spec.bytes, l->nblocks,
            l->blocks_per_rank, l->pair_blocks, l->root);
    sched_builder b;
    sb_init(&b, l);
    for (int32_t r = 0; r < l->P; r++) {
        alg_run_gen(run, r, &b);
        const rank_sched *rs = &b.rs;
        for (uint32_t s = 0; s < rs->nsteps; s++) {
            if (rs_step_begin(rs, s) == rs_step_end(rs, s))
                fprintf(f, "{\"rank\":%" PRId32 ",\"step\":%" PRIu32 ",\"op\":\"none\"}\n", r, s);
            for (uint32_t i = rs_step_begin(rs, s); i < rs_step_end(rs, s); i++)
                write_op(f, rs, s, &rs->ops[i]);
        }
    }
    sb_free(&b);
    if (ferror(f))
        return cs_fail(err, "write error");
    return 0;
}
