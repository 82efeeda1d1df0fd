/* bine_alltoall.c - Bine alltoall (Bine paper, Sec. 4.4): log2 P steps of n/2 bytes.
 *
 * Like a latency-optimal allreduce on the distance-doubling Bine butterfly whose data is
 * concatenated instead of reduced. At step j rank r exchanges with q = pi(r, j):
 *
 *   r holds the data of the sources A_j(r) that reached it in steps 0..j-1: the ranks r
 *   reaches with the steps j-1, ..., 0, i.e. [smallest(j), largest(j)] (the values of j
 *   negabinary bits) shifted by r for even r, mirrored for odd r;
 *   it sends the part of it addressed to R_j(q), the ranks q reaches in steps j+1..s-1:
 *   those whose v shares the low j+1 bits of v(q), i.e. nu-positions sharing the top j+1
 *   bits of nu(q).
 *
 * So every step moves 2^j sources x 2^(s-1-j) destinations = P/2 blocks of n/P bytes. As
 * in the reference code, each step is followed by a local pass over the buffer (the kept
 * blocks move left, the blocks of the next step are packed right: a copy of n bytes), a
 * first pass precedes step 0, and the last pass is the final permutation into rank order.
 * P must be a power of two.
 */
#include <stdlib.h>

#include "algorithms/bine_core.h"
#include "algorithms/blocks.h"
#include "algorithms/families.h"
#include "common/util.h"

typedef struct alltoall_ctx {
    int32_t P;
    int s;
    int32_t *nu_inv; /* rank at each nu-position */
} alltoall_ctx;

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    if (require_pow2(s, err) < 0)
        return -1;
    alltoall_ctx *c = xcalloc(1, sizeof *c);
    c->P = s->P;
    c->s = bine_steps(s->P);
    c->nu_inv = xmalloc(sizeof *c->nu_inv * (size_t)s->P);
    for (int32_t r = 0; r < s->P; r++)
        c->nu_inv[bine_nu(r, s->P)] = r;
    *ctx = c;
    return 0;
}

static void release(void *ctx)
{
    alltoall_ctx *c = ctx;
    free(c->nu_inv);
    free(c);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The blocks `holder` sends at step j to the rank whose reach is R_j(dst_peer), in
 * increasing order: the sources (a circular range) in increasing rank order, each with
 * the destinations' runs. */
static void step_blocks(const alltoall_ctx *c, int32_t holder, int32_t dst_peer, int j,
                        int32_t *dsts, range_list *runs, range_list *out)
{
    int64_t P = c->P, len = (int64_t)1 << (c->s - 1 - j), nsrc = (int64_t)1 << j;
    int64_t first = (int64_t)bine_nu(dst_peer, c->P) & ~(len - 1);
    for (int64_t k = 0; k < len; k++)
        dsts[k] = c->nu_inv[first + k];
    qsort(dsts, (size_t)len, sizeof *dsts, cmp_i32);
    rl_clear(runs);
    for (int64_t k = 0; k < len; k++)
        rl_push(runs, dsts[k], dsts[k] + 1);
    int64_t lo = holder % 2 == 0 ? bine_nb_smallest(j) : -bine_nb_largest(j);
    int64_t start = mod_i64(holder + lo, P);
    int64_t wrapped = start + nsrc > P ? start + nsrc - P : 0; /* sources 0..wrapped-1 */
    rl_clear(out);
    for (int64_t a = 0; a < nsrc; a++) {
        int64_t src = a < wrapped ? a : start + a - wrapped;
        for (size_t k = 0; k < runs->n; k++)
            rl_push(out, src * P + runs->r[k].lo, src * P + runs->r[k].hi);
    }
}

static void gen(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)s;
    const alltoall_ctx *c = ctx;
    int64_t n = b->layout->row_bytes; /* one rank's send buffer */
    int32_t *dsts = xmalloc(sizeof *dsts * (size_t)(c->P / 2 > 0 ? c->P / 2 : 1));
    range_list out = {0}, in = {0}, runs = {0};
    sb_step(b);
    sb_copy(b, n); /* the first packing pass */
    for (int j = 0; j < c->s; j++) {
        int32_t q = bine_pi(r, j, c->P);
        step_blocks(c, r, q, j, dsts, &runs, &out);
        step_blocks(c, q, r, j, dsts, &runs, &in);
        sb_step(b);
        sb_send(b, q, out.r, (uint32_t)out.n);
        sb_recv(b, q, in.r, (uint32_t)in.n, 0);
        sb_copy(b, n); /* packing for the next step; after the last, the final permutation */
    }
    rl_free(&out);
    rl_free(&in);
    rl_free(&runs);
    free(dsts);
}

const alg_desc alg_family_bine_alltoall[] = {
    {COLL_ALLTOALL, "bine",
     "distance-doubling Bine butterfly: log2 P steps of n/2, local packing and final permutation",
     "P power of two", NULL, prepare, gen, release, 0},
    {0},
};
