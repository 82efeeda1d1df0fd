/* parlinna.c - ParLinNa: the hierarchical non-uniform all-to-all (Fan, Domke, Ba, Kumar,
 * HPDC'25). P = N*Q ranks, Q per node with block placement: rank p is local rank
 * g = p % Q of node n = p / Q (coll_spec.ranks_per_node).
 *
 * Schedule of rank p = (n, g) (digest section 4.6):
 *   1. allreduce-max of the largest block size;
 *   2. intra-node phase: ParLogNa with radix r in [2, Q] among the Q ranks of the node,
 *      run on all N block groups at once: at each round rank (n, g) sends to (n, g - s)
 *      the blocks at the round's offsets of every group j (from (n, src) to (j, dst) with
 *      src, dst local ranks, radix_held) - N times the blocks of a ParLogNa round on Q
 *      ranks - as a two-phase exchange. Afterwards (n, g) holds, for every node j, the Q
 *      blocks from its node-mates to (j, g);
 *   3. inter-node phase between the ranks of equal g, in batches of batch_size slots with
 *      a wait-all (one step) per batch, receiving from node n + t and sending to n - t:
 *        coalesced: slot t in [0, N) is one message of the Q blocks for that node (t = 0,
 *                   the own node, is the local "self message"); N-1 messages. First the
 *                   rearrangement copy packs all held blocks per destination node, then
 *                   the own node's blocks are copied into R;
 *        staggered: slot k in [0, P) is one block: from local source k % Q, node offset
 *                   t = k / Q (slots of t = 0 are skipped); (N-1)*Q messages. Blocks of
 *                   the own node are unpacked straight into R in phase 2, the own block
 *                   is copied first.
 * batch_size 0 (or more than the slots) posts everything at once.
 */
#include <stdlib.h>

#include "algorithms/alltoallv.h"
#include "algorithms/families.h"
#include "common/util.h"

static const alg_param_desc parlinna_params[] = {
    {"radix", PARAM_INT, "2", "2..2147483647", "intra-node ParLogNa radix r in [2, Q]"},
    {"batch_size", PARAM_INT, "0", "0..2147483647",
     "inter-node slots per wait-all batch (0 = all at once)"},
    {NULL, 0, NULL, NULL, NULL},
};

typedef struct parlinna_ctx {
    radix_plan intra; /* ParLogNa plan over the Q ranks of a node */
    int64_t Q, N;
    int64_t batch; /* slots per batch, >= 1 */
    int coalesced;
} parlinna_ctx;

static int prepare_parlinna(const coll_spec *s, int coalesced, void **ctx, cs_error *err)
{
    int64_t r, batch;
    int64_t Q = s->ranks_per_node;
    if (alg_param_int(parlinna_params, s, "radix", &r, err) < 0 ||
        alg_param_int(parlinna_params, s, "batch_size", &batch, err) < 0)
        return -1;
    if (Q < 2)
        return cs_fail(err, "requires ranks per node Q >= 2 (got Q=%lld): the intra-node phase "
                            "runs among a node's ranks",
                       (long long)Q);
    if (r > Q)
        return cs_fail(err, "radix %lld is outside 2..%lld (the intra-node radix must be in "
                            "[2, Q], Q = ranks per node)",
                       (long long)r, (long long)Q);
    parlinna_ctx *c = xcalloc(1, sizeof *c);
    if (radix_plan_init(&c->intra, (int32_t)Q, (int32_t)r, err) < 0) {
        free(c);
        return -1;
    }
    c->Q = Q;
    c->N = s->P / Q;
    int64_t slots = coalesced ? c->N : (int64_t)s->P;
    c->batch = batch == 0 || batch > slots ? slots : batch;
    c->coalesced = coalesced;
    *ctx = c;
    return 0;
}

static int prepare_coalesced(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    return prepare_parlinna(s, 1, ctx, err);
}

static int prepare_staggered(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)l;
    return prepare_parlinna(s, 0, ctx, err);
}

static void release_parlinna(void *ctx)
{
    parlinna_ctx *c = ctx;
    radix_plan_free(&c->intra);
    free(c);
}

/* The Q blocks from node `from_node`'s ranks to rank (to_node, g): one per local source. */
static void push_node_blocks(range_list *l, const parlinna_ctx *c, int64_t from_node,
                             int64_t to_node, int64_t g)
{
    int64_t P = c->N * c->Q;
    rl_clear(l);
    for (int64_t q = 0; q < c->Q; q++) {
        int64_t block = (from_node * c->Q + q) * P + to_node * c->Q + g;
        rl_push(l, block, block + 1);
    }
}

static void coalesced_phase(const parlinna_ctx *c, int64_t n, int64_t g, sched_builder *b)
{
    const sched_layout *lay = b->layout;
    range_list blocks = {0};
    int64_t held = 0, own = 0;
    sb_step(b); /* rearrange: every held block, packed per destination node */
    for (int64_t j = 0; j < c->N; j++) {
        push_node_blocks(&blocks, c, n, j, g);
        int64_t bytes = ranges_bytes(lay, blocks.r, (uint32_t)blocks.n);
        held += bytes;
        if (j == n)
            own = bytes;
    }
    sb_copy(b, held);
    sb_copy(b, own); /* the self message: the own node's blocks into R */
    for (int64_t first = 0; first < c->N; first += c->batch) {
        int64_t last = first + c->batch < c->N ? first + c->batch : c->N;
        int64_t t0 = first > 1 ? first : 1; /* slot 0 is the self message */
        if (t0 >= last)
            continue;
        sb_step(b);
        for (int64_t t = t0; t < last; t++) {
            int64_t src_node = (n + t) % c->N;
            push_node_blocks(&blocks, c, src_node, n, g);
            sb_recv(b, (int32_t)(src_node * c->Q + g), blocks.r, (uint32_t)blocks.n, 0);
        }
        for (int64_t t = t0; t < last; t++) {
            int64_t dst_node = mod_i64(n - t, c->N);
            push_node_blocks(&blocks, c, n, dst_node, g);
            sb_send(b, (int32_t)(dst_node * c->Q + g), blocks.r, (uint32_t)blocks.n);
        }
    }
    rl_free(&blocks);
}

static void staggered_phase(const parlinna_ctx *c, int64_t n, int64_t g, sched_builder *b)
{
    int64_t P = c->N * c->Q, me = n * c->Q + g;
    for (int64_t first = 0; first < P; first += c->batch) {
        int64_t last = first + c->batch < P ? first + c->batch : P;
        int64_t k0 = first > c->Q ? first : c->Q; /* slots k < Q are the own node */
        if (k0 >= last)
            continue;
        sb_step(b);
        for (int64_t k = k0; k < last; k++) {
            int64_t src_node = (n + k / c->Q) % c->N, q = k % c->Q;
            int64_t block = (src_node * c->Q + q) * P + me;
            sb_recv_blocks(b, (int32_t)(src_node * c->Q + g), block, block + 1, 0);
        }
        for (int64_t k = k0; k < last; k++) {
            int64_t dst_node = mod_i64(n - k / c->Q, c->N), q = k % c->Q;
            int64_t block = (n * c->Q + q) * P + dst_node * c->Q + g;
            sb_send_blocks(b, (int32_t)(dst_node * c->Q + g), block, block + 1);
        }
    }
}

static void gen_parlinna(const coll_spec *s, const void *ctx, int32_t p, sched_builder *b)
{
    const parlinna_ctx *c = ctx;
    int64_t n = p / c->Q, g = p % c->Q;
    a2av_allreduce_max(b, s->P, p);
    if (!c->coalesced)
        a2av_self_copy(b, p);
    a2av_radix_rounds(b, &c->intra, c->N, p); /* intra-node phase */
    if (c->coalesced)
        coalesced_phase(c, n, g, b);
    else
        staggered_phase(c, n, g, b);
}

const alg_desc alg_family_parlinna[] = {
    {COLL_ALLTOALLV, "parlinna_coalesced",
     "ParLinNa: intra-node ParLogNa, then one Q-block message per remote node (HPDC'25)",
     "Q = ranks per node >= 2, P = N*Q; radix in [2, Q]", parlinna_params, prepare_coalesced,
     gen_parlinna, release_parlinna, 0},
    {COLL_ALLTOALLV, "parlinna_staggered",
     "ParLinNa: intra-node ParLogNa, then Q one-block messages per remote node (HPDC'25)",
     "Q = ranks per node >= 2, P = N*Q; radix in [2, Q]", parlinna_params, prepare_staggered,
     gen_parlinna, release_parlinna, 0},
    {0},
};
