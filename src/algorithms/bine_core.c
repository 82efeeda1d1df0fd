/* bine_core.c - negabinary arithmetic, peers and tree closed forms of Bine (see bine_core.h). */
#include "algorithms/bine_core.h"

#include <stdlib.h>

#include "common/util.h"

#define NB_MASK 0xAAAAAAAAAAAAAAAAULL /* ones in the odd (negative-weight) positions */

int bine_steps(int32_t p)
{
    return p > 1 ? ilog2_ceil((uint64_t)p) : 0;
}

int64_t bine_rho(int i)
{
    int64_t pow = (i + 1) % 2 ? -((int64_t)1 << (i + 1)) : ((int64_t)1 << (i + 1)); /* (-2)^(i+1) */
    return (1 - pow) / 3;
}

int32_t bine_pi(int32_t r, int i, int32_t p)
{
    int64_t d = bine_rho(i);
    return (int32_t)mod_i64(r % 2 == 0 ? (int64_t)r + d : (int64_t)r - d, p);
}

uint64_t bine_int_to_nb(int64_t x)
{
    return ((uint64_t)x + NB_MASK) ^ NB_MASK;
}

int64_t bine_nb_to_int(uint64_t nb)
{
    return (int64_t)((nb ^ NB_MASK) - NB_MASK);
}

int64_t bine_nb_largest(int s)
{
    int64_t m = 0;
    for (int k = 0; k < s; k += 2)
        m += (int64_t)1 << k;
    return m;
}

int64_t bine_nb_smallest(int s)
{
    int64_t m = 0;
    for (int k = 1; k < s; k += 2)
        m -= (int64_t)1 << k;
    return m;
}

static uint32_t low_bits(int s)
{
    return s >= 32 ? 0xFFFFFFFFu : (1u << s) - 1;
}

uint32_t bine_rank2nb(int32_t r, int32_t p)
{
    int s = bine_steps(p);
    int64_t x = r <= bine_nb_largest(s) ? r : (int64_t)r - p;
    return (uint32_t)bine_int_to_nb(x) & low_bits(s);
}

int32_t bine_nb2rank(uint32_t nb, int32_t p)
{
    return (int32_t)mod_i64(bine_nb_to_int(nb), p);
}

uint32_t bine_v(int32_t r, int32_t p)
{
    if (r == 0)
        return 0;
    uint32_t h = r % 2 ? bine_rank2nb(r, p) : bine_rank2nb(p - r, p);
    return h ^ (h >> 1);
}

uint32_t bine_bitrev(uint32_t x, int s)
{
    uint32_t y = 0;
    for (int k = 0; k < s; k++)
        y |= ((x >> k) & 1u) << (s - 1 - k);
    return y;
}

uint32_t bine_nu(int32_t r, int32_t p)
{
    return bine_bitrev(bine_v(r, p), bine_steps(p));
}

int bine_dh_recv_step(int32_t r, int32_t p)
{
    if (r == 0)
        return -1;
    int s = bine_steps(p);
    uint32_t b = bine_rank2nb(r, p);
    uint32_t diff = (b & 1u) ? ~b : b; /* the first bit that differs from the lowest one */
    int u = diff & low_bits(s) ? __builtin_ctz(diff) : s;
    return s - u;
}

int32_t bine_dh_forward(int32_t r, int i, int32_t p)
{
    int s = bine_steps(p);
    return bine_nb2rank(bine_rank2nb(r, p) ^ low_bits(s - i), p);
}

int bine_dd_recv_step(int32_t r, int32_t p)
{
    return r == 0 ? -1 : ilog2_floor(bine_v(r, p));
}

void bine_arrivals_init(bine_arrivals *a, int32_t p)
{
    a->p = p;
    a->s = bine_steps(p);
    a->step = xmalloc((size_t)p);
    a->by_step = xmalloc(sizeof *a->by_step * (size_t)(p > 1 ? p - 1 : 1));
    for (int32_t r = 0; r < p; r++)
        a->step[r] = INT8_MIN; /* not reached yet */
    a->step[0] = -1;
    int32_t reached = 0; /* ranks other than 0 reached so far */
    for (int i = 0; i < a->s; i++) {
        a->first[i] = reached;
        int32_t holders = reached; /* only ranks reached before step i send at step i */
        for (int32_t k = -1; k < holders; k++) {
            int32_t r = k < 0 ? 0 : a->by_step[k];
            int32_t q = bine_pi(r, a->s - 1 - i, p);
            if (a->step[q] == INT8_MIN) {
                a->step[q] = (int8_t)i;
                a->by_step[reached++] = q;
            }
        }
    }
    a->first[a->s] = reached;
}

void bine_arrivals_free(bine_arrivals *a)
{
    free(a->step);
    free(a->by_step);
    a->step = NULL;
    a->by_step = NULL;
}
