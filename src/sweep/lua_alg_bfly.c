/* lua_alg_bfly.c - the butterfly form of a Lua algorithm (lua_alg.h): a peer function,
 * and optionally a block rule, run by the C butterfly engine that recursive doubling,
 * Bine and Swing share (algorithms/butterfly.h).
 *
 * P folds onto n = the largest power of two <= P participants (MPICH, as the built-in
 * butterflies). prepare() calls peer(v, step, n) for every participant and step once and
 * keeps the answers in a table (4 bytes per participant and step), after checking that
 * each step pairs the participants (peer(peer(v)) = v, never v itself). Generating then
 * needs no Lua, and runs on every verifier thread at once, unless the definition has its
 * own block rule: blocks(v, step, n) returns the participants whose chunks v hands to its
 * peer at reduce-scatter step `step`, and is called while generating (serialized).
 * Without it the blocks are contiguous positions (bfly_positions), which exist when the
 * peer function is a true butterfly (each step splits every group in two halves).
 *
 *   allreduce latency      fold, the whole vector every step, unfold
 *   allreduce bandwidth    fold, reduce-scatter, allgather, unfold (P blocks)
 *   reduce_scatter         fold, reduce-scatter (+ a remap exchange when positions are
 *                          not the identity), unfold
 *   allgather              fold, (remap,) allgather, unfold
 */
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/util.h"
#include "sweep/lua_alg.h"

#define PEER_TABLE_MAX ((int64_t)1 << 28) /* participants x steps */

static int32_t table_peer(const void *ctx, int32_t v, int step)
{
    const lua_run *u = ctx;
    return u->peers[(int64_t)step * u->n + v];
}

static int32_t table_pos(const void *ctx, int32_t v)
{
    return ((const lua_run *)ctx)->pos[v];
}

static int32_t table_pos_inv(const void *ctx, int32_t x)
{
    return ((const lua_run *)ctx)->pos_inv[x];
}

/* rs_send through blocks(v, step, n); the first error is kept for gen (the engine has
 * no error channel), later calls add nothing. Runs under the state's lock. */
static void lua_rs_send(const void *ctx, int32_t v, int step, range_list *out)
{
    lua_run *u = (lua_run *)ctx;
    if (u->cb_failed)
        return;
    lua_State *L = u->a->L;
    int top = lua_gettop(L);
    lua_alg_push_ref(L, u->a->blocks_fn);
    lua_pushinteger(L, v);
    lua_pushinteger(L, step);
    lua_pushinteger(L, u->n);
    int rc = lua_alg_call(u, 3, 1, &u->cb_err, "butterfly.blocks(%d, %d, %d)", v, step, u->n);
    if (rc == 0 && lua_alg_ranges(L, -1, u->n, "butterfly.blocks result", out, &u->cb_err) < 0) {
        char ctx_text[160];
        lua_alg_context(u, ctx_text, sizeof ctx_text);
        cs_error_prefix(&u->cb_err, "%s: butterfly.blocks(%d, %d, %d) (%s)", u->a->where, v,
                        step, u->n, ctx_text);
        rc = -1;
    }
    lua_settop(L, top);
    u->cb_failed = rc < 0;
}

/* The number of steps: steps(n), or log2 n. */
static int count_steps(lua_run *u, cs_error *err)
{
    const lua_alg *a = u->a;
    if (a->steps_fn == LUA_NOREF)
        return ilog2_floor((uint64_t)u->n);
    lua_State *L = a->L;
    lua_alg_push_ref(L, a->steps_fn);
    lua_pushinteger(L, u->n);
    if (lua_alg_call(u, 1, 1, err, "butterfly.steps(%d)", u->n) < 0)
        return -1;
    int64_t s;
    int rc = lua_alg_integer(L, -1, 0, 30, "butterfly.steps result", &s, err);
    lua_pop(L, 1);
    if (rc < 0) {
        cs_error_prefix(err, "%s", a->where);
        return -1;
    }
    return (int)s;
}

/* peers[step * n + v] = peer(v, step, n), checked: a participant other than v. */
static int fill_peers(lua_run *u, cs_error *err)
{
    const lua_alg *a = u->a;
    lua_State *L = a->L;
    int32_t n = u->n;
    for (int i = 0; i < u->base.nsteps; i++)
        for (int32_t v = 0; v < n; v++) {
            lua_alg_push_ref(L, a->peer_fn);
            lua_pushinteger(L, v);
            lua_pushinteger(L, i);
            lua_pushinteger(L, n);
            if (lua_alg_call(u, 3, 1, err, "butterfly.peer(%d, %d, %d)", v, i, n) < 0)
                return -1;
            int64_t q;
            char what[96];
            snprintf(what, sizeof what, "butterfly.peer(%d, %d, %d)", v, i, n);
            int rc = lua_alg_integer(L, -1, 0, n - 1, what, &q, err);
            lua_pop(L, 1);
            if (rc == 0 && q == v)
                rc = cs_fail(err, "%s = %d: a participant cannot exchange with itself", what, v);
            if (rc < 0) {
                cs_error_prefix(err, "%s", a->where);
                return -1;
            }
            u->peers[(int64_t)i * n + v] = (int32_t)q;
        }
    return 0;
}

/* Every step pairs the participants: peer(peer(v)) = v. */
static int check_pairs(const lua_run *u, cs_error *err)
{
    for (int i = 0; i < u->base.nsteps; i++)
        for (int32_t v = 0; v < u->n; v++) {
            int32_t q = table_peer(u, v, i), back = table_peer(u, q, i);
            if (back != v)
                return cs_fail(err, "%s: butterfly.peer does not pair the participants at step "
                                    "%d: peer(%d) = %d but peer(%d) = %d (n = %d)",
                               u->a->where, i, v, q, q, back, u->n);
        }
    return 0;
}

/* Contiguous positions for a definition without a block rule. */
static int use_positions(lua_run *u, cs_error *err)
{
    u->pos = bfly_positions(&u->base, u->n);
    if (!u->pos)
        return cs_fail(err, "%s: the blocks cannot be contiguous: butterfly.peer is no butterfly "
                            "over n = %d participants in which every step splits each group "
                            "in two halves (with %d steps); give butterfly.blocks = "
                            "function(v, step, n)", u->a->where, u->n, u->base.nsteps);
    bfly_contiguous_pattern(&u->pat, &u->contiguous, &u->base, u->pos);
    u->pos_inv = xmalloc((size_t)u->n * sizeof *u->pos_inv);
    for (int32_t v = 0; v < u->n; v++) {
        u->pos_inv[u->pos[v]] = v;
        u->remap_needed |= u->pos[v] != v;
    }
    u->remap = (bfly_remap){table_pos, table_pos_inv, u};
    return 0;
}

/* The layout and the chunk map, as recursive.c chooses them. */
static void choose_layout(lua_run *u, sched_layout *layout, int bandwidth)
{
    const coll_spec *s = &u->spec;
    if (s->coll == COLL_ALLREDUCE && bandwidth)
        layout_init(layout, s->coll, s->P, s->root, s->bytes, s->P);
    int64_t unit = s->coll == COLL_ALLREDUCE ? layout->nblocks / s->P : layout->blocks_per_rank;
    chunk_map_folded(&u->map, s->P, 0, 0, unit > 0 ? unit : 1);
    u->n = chunk_map_participants(&u->map);
}

int lua_alg_bfly_prepare(lua_run *u, sched_layout *layout, cs_error *err)
{
    const lua_alg *a = u->a;
    int bandwidth = a->kind == LUA_ALG_BANDWIDTH;
    choose_layout(u, layout, bandwidth);
    int steps = count_steps(u, err);
    if (steps < 0)
        return USER_ALG_BROKEN;
    if ((int64_t)steps * u->n > PEER_TABLE_MAX)
        return cs_fail(err, "%d steps over %d participants: the peer table would exceed 2^28 "
                            "entries", steps, u->n);
    u->base = (bfly_pattern){.nsteps = steps, .peer = table_peer, .ctx = u};
    u->peers = xmalloc((size_t)((int64_t)steps * u->n + 1) * sizeof *u->peers);
    if (fill_peers(u, err) < 0 || check_pairs(u, err) < 0)
        return USER_ALG_BROKEN;
    u->pat = u->base;
    u->opts.split_runs = a->split;
    if (!bandwidth)
        return 0;
    if (a->blocks_fn != LUA_NOREF) {
        u->pat.rs_send = lua_rs_send;
        return 0;
    }
    return use_positions(u, err) < 0 ? USER_ALG_BROKEN : 0;
}

int lua_alg_bfly_gen(lua_run *u, int32_t r, sched_builder *b, cs_error *err)
{
    const chunk_map *m = &u->map;
    const bfly_pattern *p = &u->pat;
    if (u->a->blocks_fn != LUA_NOREF)
        u->cb_failed = 0; /* serialized (lua_alg.c), so this run's state is ours */
    switch (u->spec.coll) {
    case COLL_ALLREDUCE:
        bfly_fold_in(b, m, r, FOLD_IN_REDUCE);
        if (u->a->kind == LUA_ALG_LATENCY) {
            bfly_whole_core(b, p, m, r);
        } else {
            bfly_rs_core_opts(b, p, m, r, &u->opts);
            bfly_ag_core_opts(b, p, m, r, &u->opts);
        }
        bfly_fold_out(b, m, r, FOLD_OUT_WHOLE);
        break;
    case COLL_REDUCE_SCATTER:
        bfly_fold_in(b, m, r, FOLD_IN_REDUCE);
        bfly_rs_core_opts(b, p, m, r, &u->opts);
        if (u->remap_needed)
            bfly_remap_after_rs(b, &u->remap, m, r);
        bfly_fold_out(b, m, r, FOLD_OUT_OWN);
        break;
    default: /* allgather */
        bfly_fold_in(b, m, r, FOLD_IN_OWN);
        if (u->remap_needed)
            bfly_remap_before_ag(b, &u->remap, m, r);
        bfly_ag_core_opts(b, p, m, r, &u->opts);
        bfly_fold_out(b, m, r, FOLD_OUT_ALL_CHUNKS);
        break;
    }
    if (u->cb_failed) {
        *err = u->cb_err;
        return -1;
    }
    return 0;
}

void lua_alg_bfly_release(lua_run *u)
{
    free(u->peers);
    free(u->pos);
    free(u->pos_inv);
}
