/* ring.c - ring allgather, reduce-scatter and allreduce (= reduce-scatter + allgather). */
#include "algorithms/ring.h"

#include <stdlib.h>

#include "algorithms/families.h"
#include "common/util.h"

/* One step: send chunk `out` to v+1, receive chunk `in` from v-1. */
static void ring_step(sched_builder *b, const chunk_map *m, int32_t r, int64_t out, int64_t in,
                      int combine, range_list *ro, range_list *ri)
{
    int32_t P = m->P;
    rl_clear(ro);
    rl_clear(ri);
    chunk_map_push(m, ro, (int32_t)mod_i64(out, P), (int32_t)mod_i64(out, P) + 1);
    chunk_map_push(m, ri, (int32_t)mod_i64(in, P), (int32_t)mod_i64(in, P) + 1);
    sb_step(b);
    sb_send(b, (int32_t)((r + 1) % P), ro->r, (uint32_t)ro->n);
    sb_recv(b, (int32_t)mod_i64((int64_t)r - 1, P), ri->r, (uint32_t)ri->n,
            combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, ri->r, (uint32_t)ri->n));
}

void ring_reduce_scatter_phase(sched_builder *b, const chunk_map *m, int32_t r)
{
    int64_t v = mod_i64((int64_t)r - m->root, m->P);
    range_list ro = {0}, ri = {0};
    for (int64_t k = 0; k < m->P - 1; k++)
        ring_step(b, m, r, v - k - 1, v - k - 2, 1, &ro, &ri);
    rl_free(&ro);
    rl_free(&ri);
}

void ring_allgather_phase(sched_builder *b, const chunk_map *m, int32_t r)
{
    int64_t v = mod_i64((int64_t)r - m->root, m->P);
    range_list ro = {0}, ri = {0};
    for (int64_t k = 0; k < m->P - 1; k++)
        ring_step(b, m, r, v - k, v - k - 1, 0, &ro, &ri);
    rl_free(&ro);
    rl_free(&ri);
}

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)err;
    chunk_map *m = xmalloc(sizeof *m);
    int64_t unit = l->blocks_per_rank;
    if (s->coll == COLL_ALLREDUCE) { /* cut the vector into P chunks */
        layout_init(l, s->coll, s->P, 0, s->bytes, s->P);
        unit = 1;
    }
    chunk_map_plain(m, s->P, 0, 0, unit);
    *ctx = m;
    return 0;
}

static void gen_allgather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    ring_allgather_phase(b, ctx, r);
}

static void gen_reduce_scatter(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    ring_reduce_scatter_phase(b, ctx, r);
}

static void gen_allreduce(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    ring_reduce_scatter_phase(b, ctx, r);
    ring_allgather_phase(b, ctx, r);
}

const alg_desc alg_family_ring[] = {
    {COLL_ALLGATHER, "ring", "P-1 steps to the right neighbour, one block each", "any P >= 2",
     NULL, prepare, gen_allgather, free},
    {COLL_REDUCE_SCATTER, "ring", "P-1 steps to the right neighbour, one block each",
     "any P >= 2", NULL, prepare, gen_reduce_scatter, free},
    {COLL_ALLREDUCE, "ring", "ring reduce-scatter + ring allgather, 2(P-1) steps", "any P >= 2",
     NULL, prepare, gen_allreduce, free},
    {0, NULL, NULL, NULL, NULL, NULL, NULL, NULL},
};
