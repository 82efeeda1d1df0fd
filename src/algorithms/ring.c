/* ring.c - ring allgather, reduce-scatter and allreduce (= reduce-scatter + allgather),
 * and the ring phase steps over any ring order (ring_path, see ring.h). */
#include "algorithms/ring.h"

#include <stdlib.h>

#include "algorithms/families.h"
#include "common/util.h"

/* Chunk `c` (mod n) of the path's ring, as blocks. */
static void path_chunk(const ring_path *p, int64_t c, range_list *out)
{
    int32_t x = (int32_t)mod_i64(c, p->n);
    rl_clear(out);
    chunk_map_push(p->map, out, x, x + 1);
    for (size_t i = 0; i < out->n; i++) {
        out->r[i].lo += p->block_base;
        out->r[i].hi += p->block_base;
    }
}

/* One step: send chunk `out` to the next position, receive chunk `in` from the previous;
 * ro and ri are scratch lists. */
static void path_step(sched_builder *b, const ring_path *p, int64_t out, int64_t in,
                      int combine, range_list *ro, range_list *ri)
{
    path_chunk(p, out, ro);
    path_chunk(p, in, ri);
    int32_t next = p->rank_at(p->ctx, (int32_t)mod_i64((int64_t)p->self + p->dir, p->n));
    int32_t prev = p->rank_at(p->ctx, (int32_t)mod_i64((int64_t)p->self - p->dir, p->n));
    sb_send(b, next, ro->r, (uint32_t)ro->n);
    sb_recv(b, prev, ri->r, (uint32_t)ri->n, combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, ri->r, (uint32_t)ri->n));
}

static void rs_step(sched_builder *b, const ring_path *p, int64_t k, range_list *ro,
                    range_list *ri)
{
    path_step(b, p, p->self - p->dir * (k + 1), p->self - p->dir * (k + 2), 1, ro, ri);
}

static void ag_step(sched_builder *b, const ring_path *p, int64_t k, range_list *ro,
                    range_list *ri)
{
    path_step(b, p, p->self - p->dir * k, p->self - p->dir * (k + 1), 0, ro, ri);
}

void ring_rs_ops(sched_builder *b, const ring_path *p, int64_t k)
{
    range_list ro = {0}, ri = {0};
    rs_step(b, p, k, &ro, &ri);
    rl_free(&ro);
    rl_free(&ri);
}

void ring_ag_ops(sched_builder *b, const ring_path *p, int64_t k)
{
    range_list ro = {0}, ri = {0};
    ag_step(b, p, k, &ro, &ri);
    rl_free(&ro);
    rl_free(&ri);
}

/* ---- the rank-order ring of a chunk map ------------------------------------------------ */

/* One step of the rank-order ring: send chunk `out` to r+1 (`right`), receive chunk `in`
 * from r-1 (`left`). The same operations as ag_step / rs_step on the ring_path of the
 * ranks in order (self = r - root, rank_at(x) = x + root), written without its
 * indirections: a ring allgather at P = 65,536 has 4.3 * 10^9 of them to generate for
 * verification. */
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
     NULL, prepare, gen_allgather, free, 0},
    {COLL_REDUCE_SCATTER, "ring", "P-1 steps to the right neighbour, one block each",
     "any P >= 2", NULL, prepare, gen_reduce_scatter, free, 0},
    {COLL_ALLREDUCE, "ring", "ring reduce-scatter + ring allgather, 2(P-1) steps", "any P >= 2",
     NULL, prepare, gen_allreduce, free, 0},
    {0},
};
