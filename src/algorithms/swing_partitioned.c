/* swing_partitioned.c - Swing's reduce-scatter and allgather as collectives of their own:
 * the two halves of allreduce swing_bandwidth (swing.c, torus_allreduce.h) with the
 * standard block semantics (docs/schedule-ir.md: reduce_scatter ends with rank r holding
 * its own blocks reduced, allgather starts with them).
 *
 *   reduce_scatter swing  L steps: at step s rank r sends its peer q = pi(r, s) the blocks
 *                         SEND(r, s) = {q} u reach(q, s+1) (minus what r reaches itself)
 *   allgather swing       the same steps backwards: at step j (s = L-1-j) r sends q the
 *                         blocks SEND(q, s), which r holds by then
 *
 * Peers, dims, ports and step rotation are swing_bandwidth's (torus_bfly.h with Swing's
 * peer rule, the dims read in the same order as torus_allreduce.c). The blocks are named
 * in rank numbers (torus_bfly's explicit rule), so that rank r ends the reduce-scatter
 * with block r; on an even dimension that is not a power of two the rule sends a block
 * only at its last step (the Swing paper's Sec. 3.2).
 *
 * Data movement, `strategy`:
 *   permute   (default) as libbine's torus reduce-scatter and allgather ("contiguous,
 *             permute"): a local permutation (copy) of each port's whole vector before
 *             the reduce-scatter / after the allgather, then one contiguous message per
 *             port per step (the blocks it names are not contiguous in rank order)
 *   datatype  no copy: the same messages, sent from the unpermuted buffer (a derived
 *             datatype or packing inside the library)
 *   send      as libbine's "send" allgather: the blocks are renamed once (Swing's
 *             contiguous remapping, torus_bfly.h positions), so every message is one
 *             contiguous range; one exchange puts each block at its owner after the
 *             reduce-scatter / before the allgather. Power-of-two shapes only (an odd
 *             ring's power-of-two core too)
 *
 * Shapes: every dimension even (no dims: any even P); a ring of odd P folds onto the
 * largest power of two below it (MPICH fold, butterfly.h); dims with an odd size > 1 are
 * refused.
 */
#include <stdlib.h>

#include "algorithms/concurrent.h"
#include "algorithms/families.h"
#include "algorithms/torus_bfly.h"
#include "common/util.h"

static const alg_param_desc params[] = {
    {"ports", PARAM_CHOICE, "multi", "multi|1", TORUS_PORTS_DOC},
    {"strategy", PARAM_CHOICE, "permute", "permute|datatype|send",
     "permute: a local copy of the vector, then contiguous messages; datatype: no copy; "
     "send: contiguous positions and one exchange to the owners"},
    {NULL, 0, NULL, NULL, NULL},
};

enum { STRAT_PERMUTE, STRAT_DATATYPE, STRAT_SEND };

/* strategy=send: where port k's butterfly leaves the blocks (positions and inverse). */
typedef struct port_remap {
    const torus_bfly *bf;
    int32_t *inv;
} port_remap;

typedef struct swing_part {
    coll_kind coll;
    int strategy;
    torus_shape shape; /* the butterflies': the spec's, or the ring of P' when folding */
    int nparts;
    torus_bfly bf[TORUS_MAX_PORTS]; /* point into themselves: the struct stays in place */
    conc_plan plan;                 /* slice k: port k, one block per rank */
    chunk_map map;                  /* of a slice; folded for an odd ring */
    port_remap prm[TORUS_MAX_PORTS];
    bfly_remap rm[TORUS_MAX_PORTS];
} swing_part;

static void release(void *ctx)
{
    swing_part *c = ctx;
    for (int k = 0; k < TORUS_MAX_PORTS; k++) {
        torus_bfly_free(&c->bf[k]);
        free(c->prm[k].inv);
    }
    free(c);
}

static int32_t remap_pos(const void *ctx, int32_t v)
{
    const port_remap *pr = ctx;
    return torus_bfly_position(pr->bf, v);
}

static int32_t remap_pos_inv(const void *ctx, int32_t x)
{
    const port_remap *pr = ctx;
    return pr->inv[x];
}

/* strategy=send: port k names positions; its remap exchange needs the inverse. */
static int init_remap(swing_part *c, int k, cs_error *err)
{
    const torus_bfly *bf = &c->bf[k];
    if (!bf->pos)
        return cs_fail(err, "requires every torus dimension to be a power of two with "
                       "strategy=send (use permute or datatype)");
    int32_t n = bf->shape.P;
    c->prm[k] = (port_remap){bf, xmalloc((size_t)n * sizeof(int32_t))};
    for (int32_t v = 0; v < n; v++)
        c->prm[k].inv[bf->pos[v]] = v;
    c->rm[k] = (bfly_remap){remap_pos, remap_pos_inv, &c->prm[k]};
    return 0;
}

/* The shape of the butterflies and the chunk map: the spec's torus when every dimension
 * is even, the ring of P' for an odd ring (folded), an error otherwise. */
static int shape_and_map(swing_part *c, const coll_spec *s, cs_error *err)
{
    torus_shape full;
    if (torus_shape_from_spec(&full, s, err) < 0)
        return -1;
    if (full.ndims == 1 && full.dims[0] % 2) {
        chunk_map_folded(&c->map, s->P, 0, 0, 1);
        int32_t n = chunk_map_participants(&c->map);
        torus_shape_init(&c->shape, 1, &n);
        return 0;
    }
    for (int k = 0; k < s->ndims; k++)
        if (s->dims[k] > 1 && s->dims[k] % 2)
            return cs_fail(err, "requires every torus dimension to be even or 1 (dimension %d "
                           "has size %d); without dims any P", k, s->dims[k]);
    c->shape = full;
    chunk_map_plain(&c->map, s->P, 0, 0, 1);
    return 0;
}

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int ports, strategy;
    if (alg_param_choice(params, s, "ports", &ports, err) < 0 ||
        alg_param_choice(params, s, "strategy", &strategy, err) < 0)
        return -1;
    swing_part *c = xcalloc(1, sizeof *c);
    c->coll = s->coll;
    c->strategy = strategy;
    if (shape_and_map(c, s, err) < 0) {
        free(c);
        return -1;
    }
    c->nparts = torus_ports(&c->shape, ports == 0);
    int send = strategy == STRAT_SEND;
    for (int k = 0; k < c->nparts; k++)
        if (torus_bfly_init(&c->bf[k], &c->shape, swing_peer_rule, k, send, err) < 0 ||
            (send && init_remap(c, k, err) < 0)) {
            release(c);
            return -1;
        }
    conc_plan_init(&c->plan, l, s->coll, s->P, 0, s->bytes, c->nparts, 1);
    *ctx = c;
    return 0;
}

/* Port k of rank r, in the slice's own blocks. */
static void slice(const void *ctx, int k, int32_t r, sched_builder *b)
{
    const swing_part *c = ctx;
    const bfly_pattern *p = &c->bf[k].pat;
    int64_t vector = layout_range_bytes(b->layout, 0, b->layout->nblocks);
    if (c->coll == COLL_REDUCE_SCATTER) {
        bfly_fold_in(b, &c->map, r, FOLD_IN_REDUCE);
        if (c->strategy == STRAT_PERMUTE)
            bfly_copy_step(b, &c->map, r, vector);
        bfly_rs_core(b, p, &c->map, r);
        if (c->strategy == STRAT_SEND)
            bfly_remap_after_rs(b, &c->rm[k], &c->map, r);
        bfly_fold_out(b, &c->map, r, FOLD_OUT_OWN);
    } else {
        bfly_fold_in(b, &c->map, r, FOLD_IN_OWN);
        if (c->strategy == STRAT_SEND)
            bfly_remap_before_ag(b, &c->rm[k], &c->map, r);
        bfly_ag_core(b, p, &c->map, r);
        if (c->strategy == STRAT_PERMUTE)
            bfly_copy_step(b, &c->map, r, vector);
        bfly_fold_out(b, &c->map, r, FOLD_OUT_ALL_CHUNKS);
    }
}

static void gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    conc_gen(b, &((const swing_part *)ctx)->plan, r, slice, ctx);
}

#define SHAPES "any P >= 2 (odd P folds); dims: every size even or 1"

const alg_desc alg_family_swing_partitioned[] = {
    {COLL_REDUCE_SCATTER, "swing",
     "Swing reduce-scatter (swing_bandwidth's first half): peers +-1, -+1, +-3.., vector "
     "halving, torus dims rotate",
     SHAPES, params, prepare, gen, release, ALG_READS_DIMS},
    {COLL_ALLGATHER, "swing",
     "Swing allgather (swing_bandwidth's second half): the reduce-scatter's steps backwards, "
     "vector doubling",
     SHAPES, params, prepare, gen, release, ALG_READS_DIMS},
    {0},
};
