/* bruck.c - Bruck's algorithms: allgather (radix 2 and k-port radix k) and alltoall.
 *
 * allgather: after step t rank r holds the blocks of ranks r .. r + k^(t+1) - 1 (mod P).
 * At step t it sends, for j = 1..k-1 at once (k-port), its first min(k^t, P - j k^t) blocks
 * to r - j k^t and receives as many from r + j k^t. A final local rotation (copy) puts
 * the blocks in rank order. ceil(log_k P) steps, any P.
 *
 * alltoall (radix 2): block s->d travels along the bits of (d - s) mod P, in increasing
 * order: at step k it moves by +2^k if bit k is set. So at step k rank r holds the blocks
 * s->d with s = r - low, low < 2^k, (d - s) = low (mod 2^k), and sends to r + 2^k those
 * whose distance has bit k set. A local rotation before and after (copies).
 *
 * alltoallv (two-phase non-uniform Bruck, Fan et al. HPDC'22, radix 2): the alltoall
 * schedule with each step made a two-phase exchange (alltoallv.h: the block sizes as
 * metadata first, then the packed data), the rotations copying the rank's send buffer
 * before and its receive buffer after.
 */
#include <stdlib.h>

#include "algorithms/alltoallv.h"
#include "algorithms/blocks.h"
#include "algorithms/families.h"
#include "common/util.h"

static const alg_param_desc kport_params[] = {
    {"radix", PARAM_INT, "4", "2..1048576", "k: k-1 concurrent messages per step"},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare_bruck(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)s;
    (void)l;
    (void)err;
    int64_t *radix = xmalloc(sizeof *radix);
    *radix = 2;
    *ctx = radix;
    return 0;
}

static int prepare_kport(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    int64_t k;
    if (alg_param_int(kport_params, s, "radix", &k, err) < 0)
        return -1;
    int64_t *radix = xmalloc(sizeof *radix);
    *radix = k;
    *ctx = radix;
    return 0;
}

static void gen_allgather(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    int64_t k = *(const int64_t *)ctx, P = s->P, u = b->layout->blocks_per_rank;
    range_list out = {0}, in = {0};
    for (int64_t span = 1; span < P; span *= k) { /* span = k^t */
        sb_step(b);
        for (int64_t j = 1; j < k && j * span < P; j++) {
            int64_t d = j * span, cnt = span < P - d ? span : P - d;
            rl_clear(&out);
            rl_clear(&in);
            rl_push_circular(&out, r, cnt, P, u);
            rl_push_circular(&in, r + d, cnt, P, u);
            sb_send(b, (int32_t)mod_i64(r - d, P), out.r, (uint32_t)out.n);
            sb_recv(b, (int32_t)mod_i64(r + d, P), in.r, (uint32_t)in.n, 0);
        }
        if (span * k >= P && r != 0) /* last step: rotate into rank order */
            sb_copy(b, b->layout->row_bytes);
    }
    rl_free(&out);
    rl_free(&in);
}

/* Appends the blocks s->d that source s sends at alltoall step k (bit = 2^k, low =
 * (r - s) mod P): d = s + dist, dist = low + bit + j 2 bit < P, in increasing d. The
 * destinations past P - 1 wrap to the smallest d, so they come first. */
static void push_source_blocks(int64_t P, int64_t s, int64_t low, int64_t bit, range_list *out)
{
    int64_t first = low + bit, stride = 2 * bit;
    if (first >= P)
        return;
    int64_t nj = (P - first + stride - 1) / stride; /* dists below P */
    int64_t jwrap = P - s <= first ? 0 : (P - s - first + stride - 1) / stride;
    if (jwrap > nj)
        jwrap = nj;
    for (int64_t j = jwrap; j < nj; j++)
        rl_push(out, s * P + s + first + j * stride - P, s * P + s + first + j * stride - P + 1);
    for (int64_t j = 0; j < jwrap; j++)
        rl_push(out, s * P + s + first + j * stride, s * P + s + first + j * stride + 1);
}

/* The blocks rank r sends at alltoall step k (see the file comment), in increasing order
 * so that the builder has nothing to sort: the sources r - low, low < 2^k, are the
 * circular range [r - 2^k + 1, r], taken from the smallest. */
static void alltoall_step_blocks(int64_t P, int64_t r, int k, range_list *out)
{
    int64_t bit = (int64_t)1 << k, nsrc = bit < P ? bit : P;
    int64_t s0 = r - nsrc + 1; /* may be negative: then the range wraps */
    rl_clear(out);
    if (s0 < 0) {
        for (int64_t s = 0; s <= r; s++)
            push_source_blocks(P, s, r - s, bit, out);
        for (int64_t s = s0 + P; s < P; s++)
            push_source_blocks(P, s, r - s + P, bit, out);
    } else {
        for (int64_t s = s0; s <= r; s++)
            push_source_blocks(P, s, r - s, bit, out);
    }
}

static void gen_alltoall(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P;
    range_list out = {0}, in = {0};
    sb_step(b);
    sb_copy(b, b->layout->row_bytes); /* rotate: block for r+i to position i */
    int k = 0;
    for (int64_t bit = 1; bit < P; bit *= 2, k++) {
        sb_step(b);
        alltoall_step_blocks(P, r, k, &out);
        alltoall_step_blocks(P, mod_i64(r - bit, P), k, &in);
        sb_send(b, (int32_t)((r + bit) % P), out.r, (uint32_t)out.n);
        sb_recv(b, (int32_t)mod_i64(r - bit, P), in.r, (uint32_t)in.n, 0);
    }
    sb_copy(b, b->layout->row_bytes); /* inverse rotation */
    rl_free(&out);
    rl_free(&in);
}

static void gen_alltoallv(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    int64_t P = s->P;
    range_list out = {0}, in = {0};
    sb_step(b);
    sb_copy(b, a2av_row_bytes(b->layout, r)); /* rotate the send buffer */
    int k = 0;
    for (int64_t bit = 1; bit < P; bit *= 2, k++) {
        int64_t from = mod_i64(r - bit, P);
        alltoall_step_blocks(P, r, k, &out);
        alltoall_step_blocks(P, from, k, &in);
        a2av_exchange(b, (int32_t)((r + bit) % P), &out, (int32_t)from, &in, 1);
    }
    sb_copy(b, a2av_col_bytes(b->layout, r)); /* inverse rotation of the receive buffer */
    rl_free(&out);
    rl_free(&in);
}

const alg_desc alg_family_bruck[] = {
    {COLL_ALLGATHER, "bruck", "Bruck: ceil(log2 P) steps to r-2^t, final rotation", "any P >= 2",
     NULL, prepare_bruck, gen_allgather, free, 0},
    {COLL_ALLGATHER, "bruck_kport",
     "k-port Bruck: ceil(log_k P) steps of k-1 concurrent messages", "any P >= 2", kport_params,
     prepare_kport, gen_allgather, free, 0},
    {COLL_ALLTOALL, "bruck", "Bruck: ceil(log2 P) steps of about n/2 bytes, two rotations",
     "any P >= 2", NULL, prepare_bruck, gen_alltoall, free, 0},
    {COLL_ALLTOALLV, "bruck",
     "two-phase non-uniform Bruck: ceil(log2 P) rounds of metadata + data, two rotations",
     "any P >= 2", NULL, prepare_bruck, gen_alltoallv, free, 0},
    {0},
};
