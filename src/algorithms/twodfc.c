/* twodfc.c - collectives on the 2D fully-connected network 2dfc m2 x m1 (thesis Ch. 4;
 * schedules and errata in shared/reference/kautz-2dfc.md). The shape comes from the spec
 * dims {m1, m2} (`--dims m1xm2`), ranks as in lgraph.h: rank = a2*m1 + a1, rows are
 * cliques of m1 ranks (X links), columns cliques of m2 (Y links). Messages go to row or
 * column peers only; data is forwarded by the rank where the two dimensions cross.
 *
 *   2dfc_do  dimension order (thesis Algorithm 1 with its index fixes), 2 steps:
 *     alltoall        step 1 (X): to each row peer (a2,k) one message with the m2 blocks
 *                     for column k (own blocks r -> (z,k), every z); step 2 (Y): to each
 *                     column peer (k,a1) the m1 blocks for it held by the row (its own and
 *                     those received in step 1). (m1-1)*m2 + (m2-1)*m1 = 2*m1*m2 - m1 - m2
 *                     blocks per rank, the minimum (Eq. 4.1/4.2).
 *     allgather       step 1 (X): own chunk to the row peers; step 2 (Y): the row's m1
 *                     chunks to the column peers.
 *     reduce_scatter  step 1 (X): to row peer (a2,k) the partials of column k's m2 chunks;
 *                     step 2 (Y): to column peer q the partial of chunk q. Combined on receipt.
 *     allreduce       reduce_scatter + allgather (4 steps).
 *   2dfc_md  multi-dimensional: every block is split into D1 (share x) and D2 (1 - x); D1
 *            runs the X-first order and D2 the Y-first order at the same time, so both
 *            link sets work in both steps (thesis Algorithm 2 with its index fixes; a
 *            rectangular shape with x = m2/(m1+m2) by default, parameter `split`).
 *     alltoall, allgather, reduce_scatter as above, per part; allreduce = 2dfc_do
 *     reduce_scatter + 2dfc_md allgather (the thesis' final allreduce, Fig. 4.12).
 *   2dfc_md_both  allreduce = 2dfc_md reduce_scatter + 2dfc_md allgather (Fig. 4.11).
 *   2dfc_multitree  the generic MULTITREE builder (multitree.h) on the 2dfc graph.
 *   df_c     the thesis' DF-C competitor (artifact multiport-2lvfc; groups = rows): alltoall
 *            as 2dfc_do but the second step's forwards are single-block messages posted at
 *            once; allgather Y first (own chunk across groups, then m2 chunks within the
 *            group); allreduce X-first reduce_scatter + Y-first allgather.
 */
#include <stdlib.h>

#include "algorithms/blocks.h"
#include "algorithms/families.h"
#include "algorithms/lgraph.h"
#include "algorithms/multitree.h"
#include "common/util.h"

enum { DIM_X = 0, DIM_Y = 1 };

typedef struct dfc_ctx {
    dfc_shape sh;
    int64_t unit;  /* blocks per chunk (allgather, reduce_scatter, allreduce) or per pair */
    int64_t split; /* 2dfc_md: blocks [0, split) of a chunk / pair are D1, the rest D2 */
    mt_plan mt;    /* 2dfc_multitree */
} dfc_ctx;

/* The blocks [lo, hi) of every chunk or pair. */
typedef struct part {
    int64_t lo, hi;
} part;

static void push_chunk(range_list *l, int32_t t, int64_t unit, part p)
{
    rl_push(l, (int64_t)t * unit + p.lo, (int64_t)t * unit + p.hi);
}

static void push_pair(range_list *l, const dfc_ctx *c, int32_t src, int32_t dst, part p)
{
    int64_t pair = (int64_t)src * dfc_ranks(&c->sh) + dst;
    rl_push(l, pair * c->unit + p.lo, pair * c->unit + p.hi);
}

static void flush_send(sched_builder *b, int32_t peer, range_list *l)
{
    rl_normalize(l);
    sb_send(b, peer, l->r, (uint32_t)l->n);
    rl_clear(l);
}

static void flush_recv(sched_builder *b, int32_t peer, range_list *l, int combine)
{
    rl_normalize(l);
    sb_recv(b, peer, l->r, (uint32_t)l->n, combine ? OPF_COMBINE : 0);
    if (combine)
        sb_reduce(b, ranges_bytes(b->layout, l->r, (uint32_t)l->n));
    rl_clear(l);
}

/* ---- phases: the ops of one step of a dimension-order schedule -------------------------- *
 * `first` is the dimension crossed first; phase 0 crosses it, phase 1 the other one. */

static void a2a_phase(sched_builder *b, const dfc_ctx *c, int32_t r, int first, int phase,
                      part p, int singles)
{
    const dfc_shape *sh = &c->sh;
    int dim = phase == 0 ? first : 1 - first, other = 1 - dim;
    range_list l = {0};
    for (int32_t k = 0; k < sh->m[dim]; k++) {
        if (k == dfc_coord(sh, r, dim))
            continue;
        int32_t q = dfc_with(sh, r, dim, k);
        for (int32_t j = 0; j < sh->m[other]; j++) { /* phase 0: r -> q's line; 1: line -> q */
            if (phase == 0)
                push_pair(&l, c, r, dfc_with(sh, q, other, j), p);
            else
                push_pair(&l, c, dfc_with(sh, r, first, j), q, p);
            if (singles)
                flush_send(b, q, &l);
        }
        if (!singles)
            flush_send(b, q, &l);
        for (int32_t j = 0; j < sh->m[other]; j++) {
            if (phase == 0)
                push_pair(&l, c, q, dfc_with(sh, r, other, j), p);
            else
                push_pair(&l, c, dfc_with(sh, q, first, j), r, p);
            if (singles)
                flush_recv(b, q, &l, 0);
        }
        if (!singles)
            flush_recv(b, q, &l, 0);
    }
    rl_free(&l);
}

/* Allgather (combine = 0) or reduce-scatter (combine = 1) phase. Allgather: phase 0 sends
 * r's chunk, phase 1 the chunks of r's first-dimension line. Reduce-scatter: phase 0 sends
 * the partials of the chunks of the peer's other-dimension line, phase 1 the peer's own. */
static void chunk_phase(sched_builder *b, const dfc_ctx *c, int32_t r, int first, int phase,
                        part p, int combine)
{
    const dfc_shape *sh = &c->sh;
    int dim = phase == 0 ? first : 1 - first, other = 1 - dim;
    int line = combine ? phase == 0 : phase == 1; /* does the message carry a whole line? */
    range_list l = {0};
    for (int32_t k = 0; k < sh->m[dim]; k++) {
        if (k == dfc_coord(sh, r, dim))
            continue;
        int32_t q = dfc_with(sh, r, dim, k);
        int32_t snd = combine ? q : r, rcv = combine ? r : q; /* whose chunk(s) travel */
        for (int32_t j = 0; j < (line ? sh->m[other] : 1); j++)
            push_chunk(&l, line ? dfc_with(sh, snd, other, j) : snd, c->unit, p);
        flush_send(b, q, &l);
        for (int32_t j = 0; j < (line ? sh->m[other] : 1); j++)
            push_chunk(&l, line ? dfc_with(sh, rcv, other, j) : rcv, c->unit, p);
        flush_recv(b, q, &l, combine);
    }
    rl_free(&l);
}

/* ---- collectives --------------------------------------------------------------------------- */

static part whole(const dfc_ctx *c) { return (part){0, c->unit}; }
static part d1(const dfc_ctx *c) { return (part){0, c->split}; }
static part d2(const dfc_ctx *c) { return (part){c->split, c->unit}; }

static void alltoall_do(sched_builder *b, const dfc_ctx *c, int32_t r, int singles)
{
    sb_step(b);
    a2a_phase(b, c, r, DIM_X, 0, whole(c), 0);
    sb_step(b);
    a2a_phase(b, c, r, DIM_X, 1, whole(c), singles);
}

static void alltoall_md(sched_builder *b, const dfc_ctx *c, int32_t r)
{
    for (int phase = 0; phase < 2; phase++) {
        sb_step(b);
        a2a_phase(b, c, r, DIM_X, phase, d1(c), 0);
        a2a_phase(b, c, r, DIM_Y, phase, d2(c), 0);
    }
}

/* Reduce-scatter (combine) or allgather in dimension order starting with `first`. */
static void chunks_do(sched_builder *b, const dfc_ctx *c, int32_t r, int first, int combine)
{
    for (int phase = 0; phase < 2; phase++) {
        sb_step(b);
        chunk_phase(b, c, r, first, phase, whole(c), combine);
    }
}

static void chunks_md(sched_builder *b, const dfc_ctx *c, int32_t r, int combine)
{
    for (int phase = 0; phase < 2; phase++) {
        sb_step(b);
        chunk_phase(b, c, r, DIM_X, phase, d1(c), combine);
        chunk_phase(b, c, r, DIM_Y, phase, d2(c), combine);
    }
}

/* ---- prepare ------------------------------------------------------------------------------- */

static const alg_param_desc md_params[] = {
    {"split", PARAM_CHOICE, "m2", "m2|m1|half",
     "D1 (X first) share x: m2/(m1+m2) (thesis), m1/(m1+m2) or 1/2"},
    {NULL, 0, NULL, NULL, NULL},
};

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static void dfc_release(void *p)
{
    dfc_ctx *c = p;
    if (!c)
        return;
    mt_plan_free(&c->mt);
    free(c);
}

/* `units`: blocks per chunk or pair. Allreduce cuts its vector into P chunks. */
static dfc_ctx *dfc_new(const coll_spec *s, sched_layout *l, int64_t units, cs_error *err)
{
    dfc_shape sh;
    if (dfc_shape_of(s, &sh, err) < 0)
        return NULL;
    dfc_ctx *c = xcalloc(1, sizeof *c);
    c->sh = sh;
    c->unit = units;
    c->split = units;
    layout_init(l, s->coll, s->P, s->root, s->bytes,
                s->coll == COLL_ALLREDUCE ? (int64_t)s->P * units : units);
    return c;
}

static int prepare_plain(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    *ctx = dfc_new(s, l, 1, err);
    return *ctx ? 0 : -1;
}

static int prepare_md(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int choice;
    dfc_shape sh;
    if (dfc_shape_of(s, &sh, err) < 0 || alg_param_choice(md_params, s, "split", &choice, err) < 0)
        return -1;
    int64_t m1 = sh.m[0], m2 = sh.m[1], g = gcd64(m1, m2);
    int64_t units = choice == 2 ? 2 : (m1 + m2) / g;
    dfc_ctx *c = dfc_new(s, l, units, err);
    if (!c)
        return -1;
    c->split = choice == 0 ? m2 / g : choice == 1 ? m1 / g : 1;
    *ctx = c;
    return 0;
}

static int prepare_multitree(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    dfc_ctx *c = dfc_new(s, l, 1, err);
    if (!c)
        return -1;
    lgraph g;
    lgraph_2dfc(&c->sh, &g);
    int rc = mt_plan_prepare(&c->mt, &g, s, l, err);
    lgraph_free(&g);
    if (rc < 0) {
        dfc_release(c);
        return -1;
    }
    *ctx = c;
    return 0;
}

/* ---- generators ------------------------------------------------------------------------------ */

/* Every generator has the alg_desc gen_rank signature. */
#define GEN(name) static void name(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)

GEN(gen_a2a_do)
{
    (void)s;
    alltoall_do(b, ctx, r, 0);
}

GEN(gen_a2a_dfc)
{
    (void)s;
    alltoall_do(b, ctx, r, 1);
}

GEN(gen_a2a_md)
{
    (void)s;
    alltoall_md(b, ctx, r);
}

GEN(gen_ag_do)
{
    (void)s;
    chunks_do(b, ctx, r, DIM_X, 0);
}

GEN(gen_ag_dfc)
{
    (void)s;
    chunks_do(b, ctx, r, DIM_Y, 0);
}

GEN(gen_ag_md)
{
    (void)s;
    chunks_md(b, ctx, r, 0);
}

GEN(gen_rs_do)
{
    (void)s;
    chunks_do(b, ctx, r, DIM_X, 1);
}

GEN(gen_rs_md)
{
    (void)s;
    chunks_md(b, ctx, r, 1);
}

GEN(gen_ar_do)
{
    (void)s;
    chunks_do(b, ctx, r, DIM_X, 1);
    chunks_do(b, ctx, r, DIM_X, 0);
}

GEN(gen_ar_dfc)
{
    (void)s;
    chunks_do(b, ctx, r, DIM_X, 1);
    chunks_do(b, ctx, r, DIM_Y, 0);
}

GEN(gen_ar_md) /* DO reduce-scatter on whole chunks, then the MD allgather */
{
    (void)s;
    chunks_do(b, ctx, r, DIM_X, 1);
    chunks_md(b, ctx, r, 0);
}

GEN(gen_ar_md_both)
{
    (void)s;
    chunks_md(b, ctx, r, 1);
    chunks_md(b, ctx, r, 0);
}

GEN(gen_multitree)
{
    const dfc_ctx *c = ctx;
    mt_plan_gen(&c->mt, s->coll, r, b);
}

/* ---- registry ---------------------------------------------------------------------------------- */

#define DIMS "dims m1xm2 (each >= 2, m1*m2 = P)"
#define DIMS_MT "dims m1xm2 (each >= 2, m1*m2 = P <= 2048)"

const alg_desc alg_family_twodfc[] = {
    {COLL_ALLTOALL, "2dfc_do", "dimension order: X (m2 blocks), then Y (m1 blocks)", DIMS, NULL,
     prepare_plain, gen_a2a_do, dfc_release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "2dfc_do", "dimension order: own chunk on X, then the row on Y", DIMS, NULL,
     prepare_plain, gen_ag_do, dfc_release, ALG_READS_DIMS},
    {COLL_REDUCE_SCATTER, "2dfc_do", "dimension order: column partials on X, then Y", DIMS, NULL,
     prepare_plain, gen_rs_do, dfc_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "2dfc_do", "2dfc_do reduce-scatter + 2dfc_do allgather: 4 steps", DIMS, NULL,
     prepare_plain, gen_ar_do, dfc_release, ALG_READS_DIMS},
    {COLL_ALLTOALL, "2dfc_md", "both dimension orders at once on parts x : 1-x of each block",
     DIMS, md_params, prepare_md, gen_a2a_md, dfc_release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "2dfc_md", "both dimension orders at once on parts x : 1-x of each chunk",
     DIMS, md_params, prepare_md, gen_ag_md, dfc_release, ALG_READS_DIMS},
    {COLL_REDUCE_SCATTER, "2dfc_md", "both dimension orders at once on parts x : 1-x", DIMS,
     md_params, prepare_md, gen_rs_md, dfc_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "2dfc_md", "2dfc_do reduce-scatter + 2dfc_md allgather (thesis Fig. 4.12)",
     DIMS, md_params, prepare_md, gen_ar_md, dfc_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "2dfc_md_both", "2dfc_md reduce-scatter + 2dfc_md allgather (Fig. 4.11)",
     DIMS, md_params, prepare_md, gen_ar_md_both, dfc_release, ALG_READS_DIMS},
    {COLL_ALLTOALL, "2dfc_multitree", "MULTITREE out-trees on the 2dfc, subtree blocks per edge",
     DIMS_MT, NULL, prepare_multitree, gen_multitree, dfc_release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "2dfc_multitree", "MULTITREE out-trees on the 2dfc", DIMS_MT, NULL,
     prepare_multitree, gen_multitree, dfc_release, ALG_READS_DIMS},
    {COLL_REDUCE_SCATTER, "2dfc_multitree", "MULTITREE in-trees on the 2dfc, run backwards",
     DIMS_MT, NULL, prepare_multitree, gen_multitree, dfc_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "2dfc_multitree", "MULTITREE reduce-scatter + allgather on the 2dfc",
     DIMS_MT, NULL, prepare_multitree, gen_multitree, dfc_release, ALG_READS_DIMS},
    {COLL_ALLTOALL, "df_c", "thesis DF-C: combined X step, then single-block Y forwards", DIMS,
     NULL, prepare_plain, gen_a2a_dfc, dfc_release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "df_c", "thesis DF-C: own chunk on Y, then m2 chunks on X", DIMS, NULL,
     prepare_plain, gen_ag_dfc, dfc_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "df_c", "thesis DF-C: reduce-scatter X then Y, allgather Y then X", DIMS,
     NULL, prepare_plain, gen_ar_dfc, dfc_release, ALG_READS_DIMS},
    {0},
};
