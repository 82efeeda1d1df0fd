/* torus_bfly.c - torus butterflies from a per-dimension peer rule: the 1D factors (peer and
 * "last step" block rule) and their product (see torus_bfly.h). */
#include "algorithms/torus_bfly.h"

#include <stdlib.h>

#include "common/util.h"

/* ---- the 1D factor ---------------------------------------------------------------------- */

static int32_t factor_peer(const void *ctx, int32_t c, int rel)
{
    const torus_rule_factor *f = ctx;
    int64_t off = f->rule(c, rel);
    return (int32_t)mod_i64(c + (f->negate ? -off : off), f->d);
}

/* Marks in `in` the coordinates reached from c from relative step rel on (c included):
 * at most 2^(steps - rel) <= 2d paths. */
static void reach(const torus_rule_factor *f, int steps, int32_t c, int rel, uint8_t *in)
{
    in[c] = 1;
    for (int r = rel; r < steps; r++)
        reach(f, steps, factor_peer(f, c, r), r + 1, in);
}

/* SEND(c, rel) in this dimension: what the peer reaches from the next step on, minus what
 * c reaches itself, as runs of coordinates. */
static void factor_rs_send(const void *ctx, int32_t c, int rel, range_list *out)
{
    const torus_rule_factor *f = ctx;
    int steps = ilog2_ceil((uint64_t)f->d);
    uint8_t *theirs = xcalloc(2 * (size_t)f->d, 1), *mine = theirs + f->d;
    reach(f, steps, factor_peer(f, c, rel), rel + 1, theirs);
    reach(f, steps, c, rel + 1, mine);
    for (int32_t x = 0; x < f->d; x++)
        if (theirs[x] && !mine[x])
            rl_push(out, x, x + 1);
    free(theirs);
}

/* What c still holds after `steps` steps: the coordinates it reaches from there on (as
 * the rule never sends a block before its last step, that is the complement of what it
 * sent; every coordinate is reached from step 0 on). */
static void factor_rs_kept(const void *ctx, int32_t c, int steps, range_list *out)
{
    const torus_rule_factor *f = ctx;
    uint8_t *mine = xcalloc((size_t)f->d, 1);
    reach(f, ilog2_ceil((uint64_t)f->d), c, steps, mine);
    for (int32_t x = 0; x < f->d; x++)
        if (mine[x])
            rl_push(out, x, x + 1);
    free(mine);
}

/* Every coordinate's peer is another coordinate whose peer is it, at every step. */
static int factor_symmetric(const bfly_pattern *p, int32_t d)
{
    for (int32_t c = 0; c < d; c++)
        for (int s = 0; s < p->nsteps; s++) {
            int32_t y = p->peer(p->ctx, c, s);
            if (y == c || p->peer(p->ctx, y, s) != c)
                return 0;
        }
    return 1;
}

/* ---- the torus butterfly ------------------------------------------------------------------ */

int torus_bfly_init(torus_bfly *tb, const torus_shape *t, torus_peer_rule rule, int port,
                    int blocks, cs_error *err)
{
    *tb = (torus_bfly){0};
    tb->shape = *t;
    const bfly_pattern *factors[SPEC_MAX_DIMS];
    for (int k = 0; k < t->ndims; k++) {
        tb->factor[k] = (torus_rule_factor){t->dims[k], rule, torus_port_mirrored(t, port)};
        tb->factor_pat[k] = (bfly_pattern){.nsteps = ilog2_ceil((uint64_t)t->dims[k]),
                                           .peer = factor_peer, .rs_send = factor_rs_send,
                                           .ctx = &tb->factor[k], .rs_kept = factor_rs_kept};
        factors[k] = &tb->factor_pat[k];
        if (!factor_symmetric(factors[k], t->dims[k])) {
            char shape[128];
            torus_shape_format(t, shape, sizeof shape);
            return cs_fail(err, "the peer rule is not symmetric on the torus %s (port %d)",
                           shape, port);
        }
    }
    tp_bfly_init(&tb->product, t, factors, NULL, torus_port_start(t, port), TORUS_ROTATION, 0);
    tp_bfly_pattern(&tb->product_pat, &tb->product);
    tb->nsteps = tb->product_pat.nsteps;
    tb->pat = tb->product_pat;
    if (blocks && (tb->pos = bfly_positions(&tb->product_pat, t->P)) != NULL)
        bfly_contiguous_pattern(&tb->pat, &tb->contiguous, &tb->product_pat, tb->pos);
    return 0;
}

void torus_bfly_free(torus_bfly *tb)
{
    free(tb->pos);
    tb->pos = NULL;
}

int32_t torus_bfly_peer(const torus_bfly *tb, int32_t v, int step)
{
    return tb->pat.peer(tb->pat.ctx, v, step);
}

int32_t torus_bfly_position(const torus_bfly *tb, int32_t v)
{
    return tb->pos ? tb->pos[v] : v;
}

void torus_bfly_send_set(const torus_bfly *tb, int32_t v, int step, range_list *out)
{
    tb->pat.rs_send(tb->pat.ctx, v, step, out);
}
