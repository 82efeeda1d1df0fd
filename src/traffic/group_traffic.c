/* group_traffic.c - internal and external bytes of a schedule from the ranks' groups alone
 * (traffic.h: traffic_count_groups; the PICO tracer's counting, bine.md section 6). */
#include "traffic/traffic.h"

#include <string.h>

typedef struct group_ctx {
    const int32_t *group_of_rank;
    group_traffic *out;
} group_ctx;

static void group_sink(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    (void)first_step;
    group_ctx *g = ctx;
    int32_t mine = g->group_of_rank[chunk->rank];
    for (uint32_t i = 0; i < chunk->nops; i++) {
        const sched_op *o = &chunk->ops[i];
        if (o->kind != OP_SEND)
            continue;
        int32_t theirs = g->group_of_rank[o->peer];
        g->out->messages++;
        if (mine < 0 || theirs < 0)
            g->out->ungrouped += o->bytes;
        else if (mine == theirs)
            g->out->internal += o->bytes;
        else
            g->out->external += o->bytes;
    }
}

int traffic_count_groups(const alg_run *run, const int32_t *group_of_rank, group_traffic *out)
{
    memset(out, 0, sizeof *out);
    group_ctx g = {group_of_rank, out};
    sched_builder b;
    sb_init_streaming(&b, &run->layout, group_sink, &g);
    for (int32_t r = 0; r < run->spec.P; r++)
        alg_run_gen(run, r, &b);
    sb_free(&b);
    return 0;
}
