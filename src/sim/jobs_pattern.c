/* jobs_pattern.c - a traffic job's schedule: rounds of messages to generated destinations
 * (jobs.h, docs/simulator.md "Several jobs").
 *
 * Round k is one step of every rank: its sends and the receives they imply, then a think
 * time (a timed local op, OPF_TIME) that sets the offered load. The patterns:
 *
 *   uniform      rank s sends `size` bytes to d(s, k) = (s + 1 + h(seed, s, k) mod (P-1))
 *                mod P, a destination drawn uniformly among the others, new every round
 *   permutation  rank s sends to pi(s) every round: pi a random permutation without fixed
 *                points (Fisher-Yates with the seed, then each fixed point i swapped with
 *                i + 1)
 *   incast       every rank but the root sends to the root
 *   alltoall     every rank sends `size` bytes to every other rank
 *
 * Offered load L: a rank injecting B bytes per round at injection bandwidth W needs B / W
 * seconds alone; the think time B / W x (1/L - 1) makes an unloaded round last B / (L W),
 * so the rank offers L x W. Under congestion rounds last longer (a closed loop: the next
 * round starts when the previous one's messages are through and the think time is over).
 * With duration=T the job has round(T L W / B) rounds (at least 1).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/jobs_internal.h"

typedef struct pattern_ctx {
    job_pattern pattern;
    int32_t P, root;
    int64_t bytes, rounds, gap_ns;
    uint64_t seed;
    int32_t *perm, *inv; /* permutation */
} pattern_ctx;

static int32_t uniform_dst(const pattern_ctx *c, int32_t s, int64_t k)
{
    uint64_t h = hash_combine(hash_combine(mix64(c->seed), (uint64_t)s), (uint64_t)k);
    return (int32_t)(((uint64_t)s + 1 + h % (uint64_t)(c->P - 1)) % (uint64_t)c->P);
}

static void make_permutation(pattern_ctx *c)
{
    int32_t P = c->P;
    c->perm = xmalloc((size_t)P * sizeof *c->perm);
    c->inv = xmalloc((size_t)P * sizeof *c->inv);
    for (int32_t i = 0; i < P; i++)
        c->perm[i] = i;
    uint64_t state = c->seed;
    for (int32_t i = P - 1; i > 0; i--) {
        state = mix64(state);
        int32_t j = (int32_t)(state % (uint64_t)(i + 1));
        int32_t x = c->perm[i];
        c->perm[i] = c->perm[j];
        c->perm[j] = x;
    }
    for (int32_t i = 0; i < P; i++)
        if (c->perm[i] == i) { /* swapping with i + 1 leaves neither a fixed point */
            int32_t j = (i + 1) % P, x = c->perm[i];
            c->perm[i] = c->perm[j];
            c->perm[j] = x;
        }
    for (int32_t i = 0; i < P; i++)
        c->inv[c->perm[i]] = i;
}

/* Round k of rank r: its messages. */
static void gen_round(const pattern_ctx *c, int32_t r, int64_t k, sched_builder *b)
{
    int32_t P = c->P;
    switch (c->pattern) {
    case JOB_UNIFORM:
        sb_send_bytes(b, uniform_dst(c, r, k), c->bytes, NULL, 0);
        for (int32_t s = 0; s < P; s++)
            if (s != r && uniform_dst(c, s, k) == r)
                sb_recv_bytes(b, s, c->bytes, NULL, 0, 0);
        break;
    case JOB_PERMUTATION:
        sb_send_bytes(b, c->perm[r], c->bytes, NULL, 0);
        sb_recv_bytes(b, c->inv[r], c->bytes, NULL, 0, 0);
        break;
    case JOB_INCAST:
        if (r != c->root)
            sb_send_bytes(b, c->root, c->bytes, NULL, 0);
        else
            for (int32_t s = 0; s < P; s++)
                if (s != r)
                    sb_recv_bytes(b, s, c->bytes, NULL, 0, 0);
        break;
    case JOB_ALLTOALL:
        for (int32_t d = 1; d < P; d++)
            sb_send_bytes(b, (r + d) % P, c->bytes, NULL, 0);
        for (int32_t d = 1; d < P; d++)
            sb_recv_bytes(b, (r - d + P) % P, c->bytes, NULL, 0, 0);
        break;
    case JOB_PATTERN_NONE: break;
    }
}

static void pattern_gen(const coll_spec *spec, const void *ctx, int32_t r, sched_builder *b)
{
    (void)spec;
    const pattern_ctx *c = ctx;
    for (int64_t k = 0; k < c->rounds; k++) {
        sb_step(b);
        gen_round(c, r, k, b);
        if (c->gap_ns > 0)
            job_timed_op(b, c->gap_ns);
    }
}

static void pattern_release(void *ctx)
{
    pattern_ctx *c = ctx;
    free(c->perm);
    free(c->inv);
    free(c);
}

static const alg_desc pattern_desc = {
    .coll = COLL_ALLTOALL, .name = "pattern", .summary = "a traffic job (jobs_pattern.c)",
    .constraints = "any P >= 2", .gen_rank = pattern_gen, .release = pattern_release,
};

/* Bytes one rank injects per round (the most any rank does). */
static int64_t round_bytes(const job_spec *j)
{
    return j->pattern == JOB_ALLTOALL ? j->spec.bytes * (j->spec.P - 1) : j->spec.bytes;
}

int job_pattern_prepare(const job_spec *j, double inj_Bps, alg_run *run, cs_error *err)
{
    if (!(inj_Bps > 0))
        return cs_fail(err, "pattern %s: the hosts have no injection bandwidth",
                       job_pattern_name(j->pattern));
    pattern_ctx *c = xcalloc(1, sizeof *c);
    c->pattern = j->pattern;
    c->P = j->spec.P;
    c->root = j->spec.root;
    c->bytes = j->spec.bytes;
    c->seed = j->seed;
    double alone_s = (double)round_bytes(j) / inj_Bps;
    c->gap_ns = (int64_t)llround(alone_s * (1.0 / j->load - 1.0) * 1e9);
    c->rounds = j->rounds;
    if (j->duration_s > 0) {
        double r = floor(j->duration_s * j->load / alone_s + 0.5);
        c->rounds = r < 1 ? 1 : r > 1e6 ? 1000000 : (int64_t)r;
    }
    if (c->pattern == JOB_PERMUTATION)
        make_permutation(c);
    memset(run, 0, sizeof *run);
    run->alg = &pattern_desc;
    run->spec = j->spec;
    layout_init(&run->layout, COLL_BCAST, j->spec.P, 0, j->spec.bytes, 1);
    run->ctx = c;
    return 0;
}

int64_t job_pattern_rounds(const alg_run *run)
{
    return ((const pattern_ctx *)run->ctx)->rounds;
}
