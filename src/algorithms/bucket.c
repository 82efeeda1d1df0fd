/* bucket.c - the bucket algorithm: a multidimensional ring allreduce on a torus (Swing
 * paper Sec. 2.3.4, after Sack & Gropp and Jain & Sabharwal).
 *
 *   allreduce bucket   D ring reduce-scatters, one per dimension, each on the data the
 *                      previous one left (n, n/d_0, n/(d_0 d_1), ...), then D ring
 *                      allgathers in reverse order
 *
 * Multiport (ports=multi, the default): the vector is cut into 2D parts and 2D bucket
 * collectives run at once (concurrent.h), part j on port j (torus_shape.h): it starts in
 * dimension j mod D and goes "up" its rings for j < D, "down" for j >= D, and every part
 * moves to the next dimension at each phase, so no two parts use the same link direction
 * in a step. The parts switch dimension together: a phase lasts max(d) - 1 steps for
 * every part, the parts whose current dimension is shorter idle at its end (synchronized
 * dimension switching, Sec. 5.2 / Fig. 9).
 *
 * Blocks: part j is P blocks; block index = mixed-radix number of the final owner's
 * coordinates in the part's dimension order (most significant first), so after phase k a
 * rank holds one contiguous range: the blocks whose leading digits are its coordinates.
 */
#include <stdlib.h>

#include "algorithms/concurrent.h"
#include "algorithms/families.h"
#include "algorithms/ring.h"
#include "algorithms/torus_shape.h"
#include "common/util.h"

typedef struct bucket_ctx {
    torus_shape t;
    int nparts;
    int32_t phase_steps[SPEC_MAX_DIMS]; /* steps of phase k: max over parts of d - 1 */
    conc_plan plan;                     /* part j: P blocks */
} bucket_ctx;

static const alg_param_desc bucket_params[] = {
    {"ports", PARAM_CHOICE, "multi", "multi|1", TORUS_PORTS_DOC},
    {NULL, 0, NULL, NULL, NULL},
};

/* Dimension of part j at phase k. */
static int part_dim(const bucket_ctx *c, int j, int k)
{
    return (torus_port_start(&c->t, j) + k) % c->t.ndims;
}

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    int ports;
    if (alg_param_choice(bucket_params, s, "ports", &ports, err) < 0)
        return -1;
    if (s->ndims == 0)
        return cs_fail(err, "requires torus dimensions (dims=AxB..., product = P; "
                            "a ring: dims=P)");
    bucket_ctx *c = xcalloc(1, sizeof *c);
    if (torus_shape_from_spec(&c->t, s, err) < 0) {
        free(c);
        return -1;
    }
    c->nparts = torus_ports(&c->t, ports == 0);
    for (int k = 0; k < c->t.ndims; k++)
        for (int j = 0; j < c->nparts; j++) {
            int32_t steps = c->t.dims[part_dim(c, j, k)] - 1;
            if (steps > c->phase_steps[k])
                c->phase_steps[k] = steps;
        }
    conc_plan_init(&c->plan, l, s->coll, s->P, 0, s->bytes, c->nparts, s->P);
    *ctx = c;
    return 0;
}

/* The ring of part j at phase k through rank r: the ranks differing from r only in the
 * phase's dimension. */
typedef struct line {
    const torus_shape *t;
    int32_t r;
    int dim;
    chunk_map chunks;
} line;

static int32_t line_rank_at(const void *ctx, int32_t x)
{
    const line *ln = ctx;
    return torus_with_coord(ln->t, ln->r, ln->dim, x);
}

/* Sets up the ring path of part j at phase k for rank r. */
static void phase_path(const bucket_ctx *c, int j, int k, int32_t r, line *ln, ring_path *p)
{
    int64_t base = 0, span = c->t.P;
    for (int i = 0; i < k; i++) { /* the range r holds after phases 0..k-1 */
        int d = part_dim(c, j, i);
        span /= c->t.dims[d];
        base += torus_coord(&c->t, r, d) * span;
    }
    int dim = part_dim(c, j, k);
    *ln = (line){&c->t, r, dim, {0}};
    chunk_map_plain(&ln->chunks, c->t.dims[dim], 0, 0, span / c->t.dims[dim]);
    *p = (ring_path){c->t.dims[dim], torus_coord(&c->t, r, dim),
                     torus_port_mirrored(&c->t, j) ? -1 : 1, line_rank_at, ln, &ln->chunks, base};
}

/* Phase k (reduce-scatter or allgather) of part j; every part's phase lasts as long. */
static void phase(sched_builder *b, const bucket_ctx *c, int j, int32_t r, int k, int rs)
{
    line ln;
    ring_path p;
    phase_path(c, j, k, r, &ln, &p);
    for (int32_t step = 0; step < c->phase_steps[k]; step++) {
        sb_step(b);
        if (step >= p.n - 1)
            continue; /* this part's ring is done: it waits for the longest one */
        if (rs)
            ring_rs_ops(b, &p, step);
        else
            ring_ag_ops(b, &p, step);
    }
}

/* Part j of rank r, in its own P blocks (concurrent.h). */
static void part(const void *ctx, int j, int32_t r, sched_builder *b)
{
    const bucket_ctx *c = ctx;
    for (int k = 0; k < c->t.ndims; k++)
        phase(b, c, j, r, k, 1);
    for (int k = c->t.ndims - 1; k >= 0; k--)
        phase(b, c, j, r, k, 0);
}

static void gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    conc_gen(b, &((const bucket_ctx *)ctx)->plan, r, part, ctx);
}

const alg_desc alg_family_bucket[] = {
    {COLL_ALLREDUCE, "bucket",
     "multidimensional ring: a ring reduce-scatter per dimension, then allgathers back; "
     "2D concurrent collectives switching dimension together",
     "dims required (product P; a ring: dims=P)", bucket_params, prepare, gen, free,
     ALG_READS_DIMS},
    {0},
};
