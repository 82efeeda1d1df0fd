/* swing.c - Swing allreduce (De Sensi et al., NSDI '24; digest: shared/reference/swing.md).
 *
 *   allreduce swing_latency    log2 P steps, each part's whole data every step
 *   allreduce swing_bandwidth  reduce-scatter + allgather, 2 log2 P steps, one contiguous
 *                              message per port per step
 *
 * The peer rule: at step s of a dimension, the node with coordinate c talks to
 * c + rho(s) if c is even and c - rho(s) if c is odd, rho(s) = sum_{i=0..s} (-2)^i =
 * 1, -1, 3, -5, 11, ...: the peer swings left and right, at distance about 2^(s+1)/3
 * instead of recursive doubling's 2^s. Everything else (tori, dimension rotation, the
 * plain and mirrored ports, block rule, shapes that are not powers of two) is the torus
 * butterfly driver, torus_allreduce.h, shared with the recursive doubling baselines.
 */
#include "algorithms/families.h"
#include "algorithms/torus_allreduce.h"

int64_t swing_rho(int s)
{
    int64_t pow = 1; /* (-2)^(s+1) */
    for (int i = 0; i <= s; i++)
        pow *= -2;
    return (1 - pow) / 3;
}

int64_t swing_peer_rule(int32_t c, int rel)
{
    int64_t rho = swing_rho(rel);
    return c % 2 ? -rho : rho;
}

static const alg_param_desc swing_params[] = {
    {"ports", PARAM_CHOICE, "multi", "multi|1", TORUS_PORTS_DOC},
    {NULL, 0, NULL, NULL, NULL},
};

static int prepare(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err, int bandwidth)
{
    int ports;
    if (alg_param_choice(swing_params, s, "ports", &ports, err) < 0)
        return -1;
    ta_config cfg = {swing_peer_rule, ports == 0, bandwidth, bandwidth, bandwidth};
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

const alg_desc alg_family_swing[] = {
    {COLL_ALLREDUCE, "swing_latency",
     "Swing: whole vector per step to peers at +-1, -+1, +-3, -+5.. (latency-optimal), "
     "torus dims rotate",
     "any P >= 2, optional dims (product P); non-powers of two fold onto a power of two",
     swing_params, prepare_latency, torus_allreduce_gen, torus_allreduce_release, ALG_READS_DIMS},
    {COLL_ALLREDUCE, "swing_bandwidth",
     "Swing: reduce-scatter + allgather, one contiguous message per port per step "
     "(bandwidth-optimal), torus dims rotate",
     "any P >= 2, optional dims (product P); even dims: last-step rule, odd ring: extra "
     "rank, else folds",
     swing_params, prepare_bandwidth, torus_allreduce_gen, torus_allreduce_release, ALG_READS_DIMS},
    {0},
};
