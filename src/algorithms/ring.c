/* ring.c - ring allgather, reduce-scatter and allreduce (= reduce-scatter + allgather). */
#include "algorithms/ring.h"

#include <stdlib.h>

#include "algorithms/families.h"
#include "common/util.h"

/* One step: send chunk `out` to v+1 (`right`), receive chunk `in` from v-1 (`left`). */
CS_HOT_INLINE void ring_step(sched_builder *b, const chunk_map *m, int32_t right, int32_t left,
                             int64_t out, int64_t in, int combine)
{
    blk_range ro[2], ri[2];
    uint32_t no = chunk_map_ranges(m, (int32_t)mod_i64(out, m->P), ro);
    uint32_t ni = chunk_map_ranges(m, (int32_t)mod_i64(in, m->P), ri);
    sb_exchange(b, right, ro, no, left, ri, ni, combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, ri, ni));
}

void ring_reduce_scatter_phase(sched_builder *b, const chunk_map *m, int32_t r)
{
    int64_t v = mod_i64((int64_t)r - m->root, m->P);
    int32_t right = (int32_t)mod_i64((int64_t)r + 1, m->P);
    int32_t left = (int32_t)mod_i64((int64_t)r - 1, m->P);
    for (int64_t k = 0; k < m->P - 1; k++)
        ring_step(b, m, right, left, v - k - 1, v - k - 2, 1);
}

void ring_allgather_phase(sched_builder *b, const chunk_map *m, int32_t r)
{
    int64_t v = mod_i64((int64_t)r - m->root, m->P);
    int32_t right = (int32_t)mod_i64((int64_t)r + 1, m->P);
    int32_t left = (int32_t)mod_i64((int64_t)r - 1, m->P);
    for (int64_t k = 0; k < m->P - 1; k++)
        ring_step(b, m, right, left, v - k, v - k - 1, 0);
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
