/* rd_torus.c - recursive doubling on a torus, the Swing paper's baselines (Sec. 2.3.2-3).
 *
 *   allreduce recursive_doubling_torus  whole vector per step (RD-L)
 *   allreduce rabenseifner_torus        reduce-scatter + allgather (RD-B, bandwidth-
 *                                       optimized: Sack & Gropp's torus version)
 *
 * Inside a dimension the peer is c xor 2^rel; the dimensions rotate at every step (the
 * torus optimization), so peers stay at distance 2^rel within one dimension. Single port
 * by default, as in the paper; ports=multi gives "mirrored recursive doubling": 2D parts,
 * the mirrored ones at offset -(c xor 2^rel - c). Dimensions that are not powers of two
 * fold onto the largest power of two below them (torus_allreduce.h).
 */
#include "algorithms/families.h"
#include "algorithms/torus_allreduce.h"

int64_t xor_peer_rule(int32_t c, int rel)
{
    int64_t bit = (int64_t)1 << rel;
    return (c & bit) ? -bit : bit;
}

static const alg_param_desc rd_params[] = {
    {"ports", PARAM_CHOICE, "1", "1|multi", TORUS_PORTS_DOC " (mirrored recursive doubling)"},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err, int bandwidth)
{
    int ports;
    if (alg_param_choice(rd_params, s, "ports", &ports, err) < 0)
        return -1;
    ta_config cfg = {xor_peer_rule, ports == 1, bandwidth, 0, 0};
    return torus_allreduce_prepare(s, l, &cfg, ctx, err);
}

static int prepare_latency(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare(s, l, ctx, err, 0);
}

static int prepare_bandwidth(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    return prepare(s, l, ctx, err, 1);
}

const alg_desc alg_family_rd_torus[] = {
    {COLL_ALLREDUCE, "recursive_doubling_torus",
     "recursive doubling inside one torus dimension per step, dims rotate (RD-L)",
     "any P >= 2, optional dims (product P); non-powers of two fold onto a power of two",
     rd_params, prepare_latency, torus_allreduce_gen, torus_allreduce_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "rabenseifner_torus",
     "reduce-scatter + allgather with torus recursive doubling peers, dims rotate (RD-B)",
     "any P >= 2, optional dims (product P); non-powers of two fold onto a power of two",
     rd_params, prepare_bandwidth, torus_allreduce_gen, torus_allreduce_release, ALG_READS_DIMS},
    {0},
};
