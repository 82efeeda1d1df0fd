/* p2p.c - point to point: one message from the source (spec root) to the destination
 * (spec dst). The baseline that graph-aware multi-path transfers (kautz.c) are compared
 * with: the network routes the single message (one step, whatever the distance).
 */
#include "algorithms/families.h"

static int prepare_direct(const coll_spec *s, sched_layout *l, void **ctx, cs_error *err)
{
    (void)s;
    (void)l;
    (void)err;
    *ctx = NULL;
    return 0;
}

static void gen_direct(const coll_spec *s, const void *ctx, int32_t r, sched_builder *b)
{
    (void)ctx;
    sb_step(b);
    if (r == s->root)
        sb_send_blocks(b, s->dst, 0, b->layout->nblocks);
    if (r == s->dst)
        sb_recv_blocks(b, s->root, 0, b->layout->nblocks, 0);
}

const alg_desc alg_family_p2p[] = {
    {COLL_P2P, "direct", "one message from the source to the destination, routed by the network",
     "any P >= 2", NULL, prepare_direct, gen_direct, NULL, 0},
    {0},
};
