/* jsonl.c - a schedule as JSON lines (see jsonl.h). */
#include "schedio/jsonl.h"

#include <inttypes.h>

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
