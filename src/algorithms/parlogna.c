/* parlogna.c - ParLogNa: the parameterized logarithmic non-uniform all-to-all (Fan, Domke,
 * Ba, Kumar, HPDC'25), a radix-r, store-and-forward Bruck-style alltoallv.
 *
 * Schedule of rank p (digest section 3.6; the radix plan is in alltoallv.h):
 *   1. allreduce-max of the largest block size S (it sizes T: B slots of S bytes);
 *   2. copy of the own block p -> p;
 *   3. for each round (x ascending, z ascending) of the plan of P ranks and radix r: send
 *      the blocks at the offsets whose digit x is z to p - z*r^x and receive those of
 *      p + z*r^x, as a blocking two-phase exchange (metadata, pack, data, unpack; a round
 *      that carries one block is a single data step). First hops come from the send
 *      buffer, forwarded blocks from T; both are packed by the same copy.
 * K rounds, D blocks sent per rank; r = 2 is two-phase Bruck without its rotations, r >= P-1
 * is a blocking pairwise exchange (distance 1, 2, .., P-1, no metadata).
 */
#include <stdlib.h>

#include "algorithms/alltoallv.h"
#include "algorithms/families.h"
#include "common/util.h"

static const alg_param_desc parlogna_params[] = {
    {"radix", PARAM_INT, "2", "2..2147483647",
     "r in [2, P]: rounds K ~ (r-1) log_r P, volume D falls as r grows"},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare_parlogna(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    int64_t r;
    if (alg_param_int(parlogna_params, s, "radix", &r, err) < 0)
        return -1;
    radix_plan *pl = xmalloc(sizeof *pl);
    if (radix_plan_init(pl, s->P, (int32_t)r, err) < 0) {
        free(pl);
        return -1;
    }
    *ctx = pl;
    return 0;
}

static void release_parlogna(void *ctx)
{
    radix_plan_free(ctx);
    free(ctx);
}

static void gen_parlogna(const coll_spec *s, const void *ctx, int32_t p, sched_builder *b)
{
    a2av_allreduce_max(b, s->P, p);
    a2av_self_copy(b, p);
    a2av_radix_rounds(b, ctx, 1, p);
}

const alg_desc alg_family_parlogna[] = {
    {COLL_ALLTOALLV, "parlogna",
     "ParLogNa: radix-r store-and-forward, metadata + packed data per round (HPDC'25)",
     "any P >= 2; radix in [2, P]", parlogna_params, prepare_parlogna, gen_parlogna,
     release_parlogna, 0},
    {0},
};
