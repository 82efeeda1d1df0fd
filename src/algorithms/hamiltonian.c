/* hamiltonian.c - ring allreduce on two edge-disjoint Hamiltonian cycles of a 2D torus,
 * each run in both directions: four rings at once, one per port (Swing paper Sec. 2.3.1,
 * after HammingMesh; the construction is the one of the authors' SST motif, digest
 * Sec. 2.1).
 *
 *   allreduce hamiltonian_rings   4 ring reduce-scatters then 4 ring allgathers, 2(P-1)
 *                                 steps, each of the 4 parts of the vector on its own ring
 *                                 (the 4 parts run at once: concurrent.h)
 *
 * Construction on a rows x cols torus (rank = row*cols + col), for X = 0..P-1 with
 * x1 = X / cols, x0 = X % cols:
 *   cycle 0 visits (row, col) = (x1 mod rows, (x0 + (cols-1) x1) mod cols)
 *   cycle 1 visits (row, col) = ((x0 + (cols-1) x1) mod rows, x1 mod cols)
 * It yields two edge-disjoint Hamiltonian cycles when rows is a multiple of cols and
 * gcd(rows, cols-1) = 1; prepare builds both and checks them (every rank once, one hop
 * per move, no link shared), and rejects the shape otherwise. The spec's dims d0 x d1 vary
 * dimension 0 fastest (torus_shape.h); the rows are dimension 1 when d1 is a multiple of
 * d0, dimension 0 otherwise (so 64x16 and 16x64 both work).
 */
#include <stdlib.h>
#include <string.h>

#include "algorithms/concurrent.h"
#include "algorithms/families.h"
#include "algorithms/hamiltonian.h"
#include "algorithms/ring.h"
#include "common/util.h"

typedef struct ham_ctx {
    int32_t P;
    int32_t *order[2]; /* rank at position X of cycle c */
    int32_t *pos[2];   /* position of rank r in cycle c */
    chunk_map chunks;  /* P chunks of one block */
    conc_plan plan;    /* 4 parts of P blocks */
} ham_ctx;

static void build(int32_t rows, int32_t cols, int32_t *order0, int32_t *order1)
{
    for (int64_t X = 0; X < (int64_t)rows * cols; X++) {
        int64_t x1 = X / cols, x0 = X % cols;
        int64_t diag = x0 + (int64_t)(cols - 1) * x1;
        order0[X] = (int32_t)((x1 % rows) * cols + diag % cols);
        order1[X] = (int32_t)((diag % rows) * cols + x1 % cols);
    }
}

/* The link between neighbours a and b as an index (one per undirected torus link), or
 * -1 when they are not neighbours. Link 2*x + dim joins x and its +1 neighbour in dim. */
static int64_t link_of(int32_t rows, int32_t cols, int32_t a, int32_t b)
{
    int32_t ra = a / cols, ca = a % cols, rb = b / cols, cb = b % cols;
    int32_t size[2] = {rows, cols}, da[2] = {ra, ca}, db[2] = {rb, cb};
    for (int dim = 0; dim < 2; dim++) {
        if (da[1 - dim] != db[1 - dim])
            continue;
        int32_t d = size[dim];
        if ((da[dim] + 1) % d == db[dim] && (d > 2 || da[dim] < db[dim]))
            return 2 * (int64_t)a + dim;
        if ((db[dim] + 1) % d == da[dim])
            return 2 * (int64_t)b + dim;
    }
    return -1;
}

int hamiltonian_rings_build(int32_t rows, int32_t cols, int32_t *order0, int32_t *order1,
                            cs_error *err)
{
    int32_t P = rows * cols;
    build(rows, cols, order0, order1);
    uint8_t *seen = xcalloc((size_t)P, 1), *used = xcalloc(2 * (size_t)P, 1);
    const char *problem = NULL;
    int32_t *orders[2] = {order0, order1};
    for (int c = 0; c < 2 && !problem; c++) {
        memset(seen, 0, (size_t)P);
        for (int32_t X = 0; X < P && !problem; X++) {
            int64_t link = link_of(rows, cols, orders[c][X], orders[c][(X + 1) % P]);
            if (seen[orders[c][X]]++)
                problem = "a cycle visits a rank twice";
            else if (link < 0)
                problem = "a cycle moves between ranks that are not neighbours";
            else if (used[link]++)
                problem = "the two cycles share a link";
        }
    }
    free(seen);
    free(used);
    if (problem)
        return cs_fail(err, "no edge-disjoint Hamiltonian cycles on the %dx%d torus (%s; the "
                            "construction needs rows a multiple of cols and gcd(rows, cols-1) "
                            "= 1)", rows, cols, problem);
    return 0;
}

static void release(void *ctx)
{
    ham_ctx *c = ctx;
    for (int i = 0; i < 2; i++) {
        free(c->order[i]);
        free(c->pos[i]);
    }
    free(c);
}

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    if (s->ndims != 2)
        return cs_fail(err, "requires 2D torus dimensions (dims=AxB, product = P)");
    if (require_dims(s, err) < 0)
        return -1;
    if (s->dims[0] < 2 || s->dims[1] < 2)
        return cs_fail(err, "requires both dimensions >= 2 (got %dx%d)", s->dims[0], s->dims[1]);
    ham_ctx *c = xcalloc(1, sizeof *c);
    c->P = s->P;
    for (int i = 0; i < 2; i++) {
        c->order[i] = xmalloc((size_t)s->P * sizeof(int32_t));
        c->pos[i] = xmalloc((size_t)s->P * sizeof(int32_t));
    }
    /* dims = d0 x d1, dimension 0 fastest: rank = c0 + d0 * c1. The construction's rows
     * are dimension 1 (rank = row * d0 + col: the same numbering) when d1 is a multiple
     * of d0, else dimension 0, whose cycles are renumbered from the construction's
     * row-major ranks (row = c0, col = c1) to collsim's. */
    int32_t d0 = s->dims[0], d1 = s->dims[1];
    int rows_on_dim0 = d1 % d0 != 0 && d0 % d1 == 0;
    int32_t rows = rows_on_dim0 ? d0 : d1, cols = rows_on_dim0 ? d1 : d0;
    if (hamiltonian_rings_build(rows, cols, c->order[0], c->order[1], err) < 0) {
        release(c);
        return -1;
    }
    for (int i = 0; rows_on_dim0 && i < 2; i++)
        for (int32_t X = 0; X < s->P; X++)
            c->order[i][X] = c->order[i][X] / cols + rows * (c->order[i][X] % cols);
    for (int i = 0; i < 2; i++)
        for (int32_t X = 0; X < s->P; X++)
            c->pos[i][c->order[i][X]] = X;
    chunk_map_plain(&c->chunks, s->P, 0, 0, 1);
    conc_plan_init(&c->plan, l, s->coll, s->P, 0, s->bytes, 4, s->P);
    *ctx = c;
    return 0;
}

static int32_t rank_at(const void *ctx, int32_t x)
{
    return ((const int32_t *)ctx)[x];
}

/* Part k of rank r: cycle k / 2, forwards for even k and backwards for odd k, in the
 * part's own P blocks (concurrent.h). */
static void part(const void *ctx, int k, int32_t r, sched_builder *b)
{
    const ham_ctx *c = ctx;
    ring_path path = {c->P, c->pos[k / 2][r], k % 2 ? -1 : 1, rank_at, c->order[k / 2],
                      &c->chunks, 0};
    for (int rs = 1; rs >= 0; rs--)
        for (int64_t step = 0; step < c->P - 1; step++) {
            sb_step(b);
            if (rs)
                ring_rs_ops(b, &path, step);
            else
                ring_ag_ops(b, &path, step);
        }
}

static void gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    conc_gen(b, &((const ham_ctx *)ctx)->plan, r, part, ctx);
}

const alg_desc alg_family_hamiltonian[] = {
    {COLL_ALLREDUCE, "hamiltonian_rings",
     "ring allreduce on 2 edge-disjoint Hamiltonian cycles of a 2D torus, both directions: "
     "4 rings at once",
     "dims AxB required, one a multiple R of the other C and gcd(R, C-1) = 1",
     NULL, prepare, gen, release, ALG_READS_DIMS},
    {0},
};
