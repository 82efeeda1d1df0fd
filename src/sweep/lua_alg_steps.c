/* lua_alg_steps.c - the steps form of a Lua algorithm (lua_alg.h): the layout's units,
 * and one rank's steps read from what rank(r, P, size, params, info) returns:
 *
 *   { {op, op, ...},  -- step 1: its ops start together
 *     {},             -- an empty step (keeps the rank in step with the others)
 *     ... }
 *
 *   op = {op = "send", peer = 3, blocks = {0, 4}}            blocks 0..3
 *        {op = "recv", peer = 3, blocks = {{0, 2}, {6, 8}}, combine = true}
 *        {op = "send", peer = 3, bytes = 64}                  a message without blocks
 *        {op = "reduce", bytes = 4096} or {op = "reduce", blocks = {0, 4}}
 *        {op = "copy", bytes = 4096}
 *
 * A message's bytes are its blocks' bytes (the layout's) unless `bytes` is given. Every
 * malformed table is an error naming the function's file:line, the rank and steps[i][j].
 */
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "sweep/lua_alg.h"

#define UNITS_MAX ((int64_t)1 << 40) /* blocks of a layout, at most */

int lua_alg_steps_prepare(lua_run *u, sched_layout *layout, cs_error *err)
{
    const lua_alg *a = u->a;
    lua_State *L = a->L;
    int64_t units = a->units;
    if (a->units_fn != LUA_NOREF) {
        if (lua_alg_call_spec_fn(u, a->units_fn, "units function", err) < 0)
            return USER_ALG_BROKEN;
        int rc = lua_alg_integer(L, -1, 1, UNITS_MAX, "the units function's result", &units, err);
        lua_pop(L, 1);
        if (rc < 0) {
            cs_error_prefix(err, "%s", a->where);
            return USER_ALG_BROKEN;
        }
    }
    int64_t P = u->spec.P;
    int64_t per_unit = u->spec.coll == COLL_ALLTOALL ? P * P
                       : u->spec.coll == COLL_BCAST || u->spec.coll == COLL_REDUCE ||
                               u->spec.coll == COLL_ALLREDUCE || u->spec.coll == COLL_P2P
                           ? 1
                           : P;
    if (units > UNITS_MAX / per_unit)
        return cs_fail(err, "%s: units=%lld makes more than 2^40 blocks at P=%lld", a->where,
                       (long long)units, (long long)P);
    if (units != 1 && u->spec.coll != COLL_ALLTOALLV) /* alltoallv: blocks from the sizes */
        layout_init(layout, u->spec.coll, u->spec.P, u->spec.root, u->spec.bytes, units);
    return 0;
}

/* ---- one op ------------------------------------------------------------------------------ */

typedef struct op_fields {
    const char *op;
    int have_peer, have_blocks, have_bytes, have_combine, combine;
    int64_t peer, bytes;
} op_fields;

/* Reads the fields of the op table at idx (blocks into `blocks`). */
static int read_fields(lua_State *L, int idx, const lua_run *u, op_fields *f,
                       range_list *blocks, cs_error *err)
{
    memset(f, 0, sizeof *f);
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "";
        int rc = 0;
        if (strcmp(k, "op") == 0) {
            if (lua_type(L, -1) != LUA_TSTRING)
                return cs_fail(err, "op must be a string (send, recv, reduce, copy)");
            f->op = lua_tostring(L, -1); /* the table keeps it alive */
        } else if (strcmp(k, "peer") == 0) {
            rc = lua_alg_integer(L, -1, 0, u->spec.P - 1, "peer", &f->peer, err);
            f->have_peer = 1;
        } else if (strcmp(k, "blocks") == 0) {
            rc = lua_alg_ranges(L, -1, u->nblocks, "blocks", blocks, err);
            f->have_blocks = 1;
        } else if (strcmp(k, "bytes") == 0) {
            rc = lua_alg_integer(L, -1, 0, INT64_MAX, "bytes", &f->bytes, err);
            f->have_bytes = 1;
        } else if (strcmp(k, "combine") == 0) {
            if (lua_type(L, -1) != LUA_TBOOLEAN)
                return cs_fail(err, "combine must be true or false");
            f->combine = lua_toboolean(L, -1);
            f->have_combine = 1;
        } else {
            return cs_fail(err, "unknown key %s%s%s (allowed: op, peer, blocks, bytes, combine; "
                                "an op is a table like {op = \"send\", peer = 1, blocks = {0, 4}})",
                           k[0] ? "'" : "", k[0] ? k : luaL_typename(L, -2), k[0] ? "'" : "");
        }
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Checks the fields against the op's kind and adds the op to b. */
static int add_op(const op_fields *f, const range_list *blocks, int32_t rank, sched_builder *b,
                  cs_error *err)
{
    static const char *const names[] = {"send", "recv", "reduce", "copy"};
    if (!f->op)
        return cs_fail(err, "missing op (allowed: send, recv, reduce, copy)");
    int kind = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(f->op, names[i]) == 0)
            kind = i;
    if (kind < 0)
        return cs_fail(err, "unknown op '%s' (allowed: send, recv, reduce, copy)", f->op);
    int comm = kind == OP_SEND || kind == OP_RECV;
    if (comm && !f->have_peer)
        return cs_fail(err, "%s needs a peer (a rank other than itself)", f->op);
    if (comm && f->peer == rank)
        return cs_fail(err, "%s: peer %lld is the rank itself", f->op, (long long)f->peer);
    if (!comm && f->have_peer)
        return cs_fail(err, "%s takes no peer", f->op);
    if (f->have_combine && kind != OP_RECV)
        return cs_fail(err, "combine is for recv only");
    if (!f->have_blocks && !f->have_bytes)
        return cs_fail(err, "%s needs blocks = {lo, hi} (or bytes = n)", f->op);
    uint32_t n = (uint32_t)blocks->n;
    int64_t bytes = f->have_bytes ? f->bytes : ranges_bytes(b->layout, blocks->r, n);
    int flags = f->combine ? OPF_COMBINE : 0;
    switch (kind) {
    case OP_SEND: sb_send_bytes(b, (int32_t)f->peer, bytes, blocks->r, n); break;
    case OP_RECV: sb_recv_bytes(b, (int32_t)f->peer, bytes, blocks->r, n, flags); break;
    case OP_REDUCE: sb_reduce(b, bytes); break;
    default: sb_copy(b, bytes); break;
    }
    return 0;
}

/* The steps table on top of the stack into b; err names steps[i][j]. */
static int read_steps(lua_State *L, const lua_run *u, int32_t rank, sched_builder *b,
                      range_list *blocks, cs_error *err)
{
    int steps = lua_gettop(L);
    if (lua_type(L, steps) != LUA_TTABLE)
        return cs_fail(err, "expected a list of steps (a table), got %s", luaL_typename(L, steps));
    lua_Integer ns = (lua_Integer)lua_rawlen(L, steps);
    for (lua_Integer i = 1; i <= ns; i++) {
        lua_rawgeti(L, steps, i);
        int step = lua_gettop(L);
        if (lua_type(L, step) != LUA_TTABLE)
            return cs_fail(err, "steps[%lld]: expected a list of ops, got %s", (long long)i,
                           luaL_typename(L, step));
        sb_step(b);
        lua_Integer nops = (lua_Integer)lua_rawlen(L, step);
        for (lua_Integer j = 1; j <= nops; j++) {
            lua_rawgeti(L, step, j);
            op_fields f;
            rl_clear(blocks);
            int rc = lua_type(L, -1) != LUA_TTABLE
                         ? cs_fail(err, "expected an op table, got %s", luaL_typename(L, -1))
                         : read_fields(L, lua_gettop(L), u, &f, blocks, err);
            if (rc == 0)
                rc = add_op(&f, blocks, rank, b, err);
            if (rc < 0) {
                cs_error_prefix(err, "steps[%lld][%lld]", (long long)i, (long long)j);
                return -1;
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    return 0;
}

int lua_alg_steps_gen(const lua_run *u, int32_t rank, sched_builder *b, cs_error *err)
{
    const lua_alg *a = u->a;
    lua_State *L = a->L;
    int top = lua_gettop(L);
    lua_alg_push_ref(L, a->rank_fn);
    lua_pushinteger(L, rank);
    lua_pushinteger(L, u->spec.P);
    lua_pushinteger(L, u->spec.bytes);
    lua_alg_push_ref(L, u->params_ref);
    lua_alg_push_ref(L, u->info_ref);
    if (lua_alg_call(u, 5, 1, err, "rank %d", rank) < 0)
        return -1;
    range_list blocks = {0};
    int rc = read_steps(L, u, rank, b, &blocks, err);
    rl_free(&blocks);
    lua_settop(L, top);
    if (rc < 0) {
        char ctx[160];
        lua_alg_context(u, ctx, sizeof ctx);
        cs_error_prefix(err, "%s: the rank function returned a bad schedule (%s, rank %d)",
                        a->where, ctx, rank);
    }
    return rc;
}
