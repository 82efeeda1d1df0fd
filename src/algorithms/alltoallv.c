/* alltoallv.c - radix plans, two-phase exchanges and the other pieces the non-uniform
 * all-to-all algorithms share (see alltoallv.h). */
#include "algorithms/alltoallv.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* ---- radix plans ------------------------------------------------------------------- */

/* Offsets with digit x equal to z: groups of dist consecutive offsets starting at
 * s, s + dist*r, s + 2*dist*r, ... (the last group cut at P). */
static int64_t count_round_blocks(int64_t P, int64_t r, int64_t dist, int64_t s)
{
    int64_t n = 0;
    for (int64_t i = s; i < P; i += dist * r)
        n += P - i < dist ? P - i : dist;
    return n;
}

int radix_plan_init(radix_plan *pl, int32_t P, int32_t r, cs_error *err)
{
    memset(pl, 0, sizeof *pl);
    if (P < 1)
        return cs_fail(err, "needs P >= 1 ranks (got P=%d)", P);
    if (r < 2 || r > (P < 2 ? 2 : P))
        return cs_fail(err, "radix %d is outside 2..%d (the radix must be in [2, P])", r,
                       P < 2 ? 2 : P);
    pl->P = P;
    pl->r = r;
    for (int64_t m = P - 1; m > 0; m /= r) /* integer loop: no floating-point log */
        pl->w++;
    if (pl->w == 0)
        pl->w = 1;
    size_t cap = 0;
    int64_t dist = 1;
    for (int32_t x = 0; x < pl->w; x++, dist *= r) {
        for (int32_t z = 1; z < r && z * dist < P; z++) {
            VEC_RESERVE(pl->rounds, cap, (size_t)pl->K + 1);
            radix_round *rd = &pl->rounds[pl->K++];
            rd->x = x;
            rd->z = z;
            rd->dist = dist;
            rd->s = z * dist;
            rd->nblocks = count_round_blocks(P, r, dist, rd->s);
            pl->D += rd->nblocks;
            if (rd->nblocks > pl->max_round_blocks)
                pl->max_round_blocks = rd->nblocks;
        }
    }
    pl->B = (int64_t)P - pl->K - 1;
    return 0;
}

void radix_plan_free(radix_plan *pl)
{
    free(pl->rounds);
    memset(pl, 0, sizeof *pl);
}

void radix_round_offsets(const radix_plan *pl, const radix_round *rd, int64_t *out)
{
    int64_t P = pl->P, n = 0;
    for (int64_t i = rd->s; i < P; i += rd->dist * pl->r)
        for (int64_t j = i; j < i + rd->dist && j < P; j++)
            out[n++] = j;
}

int64_t radix_t_slot(int64_t j, int32_t r)
{
    int64_t dx = 0, pw = 1; /* pw = r^dx <= j < r^(dx+1) */
    while (pw <= j / r) {
        pw *= r;
        dx++;
    }
    int64_t dz = j / pw;
    return j - 1 - dx * (r - 1) - dz;
}

/* ---- schedule pieces ------------------------------------------------------------------ */

int64_t a2av_count_blocks(const range_list *l)
{
    int64_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += l->r[i].hi - l->r[i].lo;
    return n;
}

void a2av_exchange(sched_builder *b, int32_t to, const range_list *out, int32_t from,
                   const range_list *in, int always_meta)
{
    int64_t nout = a2av_count_blocks(out), nin = a2av_count_blocks(in);
    int64_t out_bytes = ranges_bytes(b->layout, out->r, (uint32_t)out->n);
    int64_t in_bytes = ranges_bytes(b->layout, in->r, (uint32_t)in->n);
    int direct = !always_meta && nout == 1 && nin == 1;
    if (!direct) {
        sb_step(b);
        sb_send_bytes(b, to, A2AV_META_BYTES * nout, NULL, 0);
        sb_recv_bytes(b, from, A2AV_META_BYTES * nin, NULL, 0, 0);
        sb_copy(b, out_bytes); /* pack */
    }
    sb_step(b);
    sb_send_bytes(b, to, out_bytes, out->r, (uint32_t)out->n);
    sb_recv_bytes(b, from, in_bytes, in->r, (uint32_t)in->n, 0);
    if (!direct)
        sb_copy(b, in_bytes); /* unpack into R and T */
}

/* Destinations (local, ascending) of the blocks rank g holds at the offsets j = i + L of a
 * round (i = s, s + dist*r, ...; j < Q): all from source (g + L) mod Q. The destination
 * src - j falls as j grows, wrapping once below 0; reading the two runs backwards gives
 * them in ascending order. Returns how many were written. */
static int64_t sorted_dsts(const radix_plan *pl, const radix_round *rd, int64_t src, int64_t L,
                           int64_t *out)
{
    int64_t Q = pl->P, step = rd->dist * pl->r, n = 0, m = 0;
    if (rd->s + L >= Q)
        return 0;
    int64_t count = (Q - rd->s - L + step - 1) / step; /* offsets s + L + m*step < Q */
    int64_t first_neg = 0;                                /* first m with src - j < 0 */
    while (first_neg < count && src - (rd->s + L + first_neg * step) >= 0)
        first_neg++;
    for (m = first_neg - 1; m >= 0; m--)
        out[n++] = src - (rd->s + L + m * step);
    for (m = count - 1; m >= first_neg; m--)
        out[n++] = src - (rd->s + L + m * step) + Q;
    return n;
}

/* Appends, in ascending block order, the blocks local rank g of group n holds at the
 * round's offsets, for every block group: sources in ascending order (L from Q - g on,
 * where (g + L) mod Q wraps, then from 0), then groups, then destinations. Sorted lists
 * spare the builder a sort per message. */
static void push_held(range_list *l, const radix_plan *pl, const radix_round *rd,
                      int64_t ngroups, int64_t n, int64_t g, int64_t *dsts)
{
    int64_t Q = pl->P, P = ngroups * Q;
    int64_t wrap = Q - g < rd->dist ? Q - g : rd->dist; /* L >= wrap: src = g + L - Q */
    for (int64_t k = 0; k < rd->dist; k++) {
        int64_t L = k < rd->dist - wrap ? wrap + k : k - (rd->dist - wrap);
        int64_t src = (g + L) % Q;
        int64_t nd = sorted_dsts(pl, rd, src, L, dsts);
        for (int64_t grp = 0; grp < ngroups; grp++)
            for (int64_t i = 0; i < nd; i++) {
                int64_t block = (n * Q + src) * P + grp * Q + dsts[i];
                rl_push(l, block, block + 1);
            }
    }
}

void a2av_radix_rounds(sched_builder *b, const radix_plan *pl, int64_t ngroups, int32_t rank)
{
    int64_t Q = pl->P, n = rank / Q, g = rank % Q;
    int64_t *dsts = xmalloc((size_t)(pl->max_round_blocks > 0 ? pl->max_round_blocks : 1) *
                            sizeof *dsts);
    range_list out = {0}, in = {0};
    for (int32_t k = 0; k < pl->K; k++) {
        const radix_round *rd = &pl->rounds[k];
        int64_t to = mod_i64(g - rd->s, Q), from = (g + rd->s) % Q;
        rl_clear(&out);
        rl_clear(&in);
        push_held(&out, pl, rd, ngroups, n, g, dsts);
        push_held(&in, pl, rd, ngroups, n, from, dsts);
        a2av_exchange(b, (int32_t)(n * Q + to), &out, (int32_t)(n * Q + from), &in, 0);
    }
    rl_free(&out);
    rl_free(&in);
    free(dsts);
}

void a2av_allreduce_max(sched_builder *b, int32_t P, int32_t rank)
{
    sb_dissemination(b, P, rank, A2AV_META_BYTES);
}

void a2av_self_copy(sched_builder *b, int32_t rank)
{
    sb_step(b);
    sb_copy(b, layout_block_bytes(b->layout, (int64_t)rank * b->layout->P + rank));
}

int64_t a2av_row_bytes(const sched_layout *l, int32_t rank)
{
    return layout_range_bytes(l, (int64_t)rank * l->P, (int64_t)(rank + 1) * l->P);
}

int64_t a2av_col_bytes(const sched_layout *l, int32_t rank)
{
    int64_t sum = 0;
    for (int64_t s = 0; s < l->P; s++)
        sum += layout_block_bytes(l, s * l->P + rank);
    return sum;
}
