/* lua_alg.c - collsim.define_algorithm{...}: reading an algorithm defined in Lua, its
 * parameters and its definition hash, and registering it with the plan (lua_alg.h,
 * docs/custom-algorithms.md).
 *
 * Everything wrong in a definition (an unknown key, a missing function, a taken name, a
 * bad parameter declaration) raises a Lua error at the call, so it reads
 * "file:line: collsim.define_algorithm: ...". Errors of the functions themselves come
 * later, when a run calls them (lua_alg_run.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/sha256.h"
#include "sweep/lua_alg.h"
#include "sweep/sweep_internal.h"

#define DEF "collsim.define_algorithm"

static const char *const def_keys[] = {"name",  "collective", "summary", "constraints",
                                       "params", "check",     "units",   "rank",
                                       "butterfly", "kind",   NULL};
static const char *const bfly_keys[] = {"peer", "steps", "blocks", "split", NULL};
static const char *const param_keys[] = {"type", "default", "range", "choices", "doc", NULL};

static void join_keys(const char *const *keys, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; keys[i]; i++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s", i ? ", " : "", keys[i]);
    }
}

/* Every key of the table at idx is one of `keys`. */
static void check_keys(lua_State *L, int idx, const char *const *keys, const char *what)
{
    idx = lua_absindex(L, idx);
    for (lua_pushnil(L); lua_next(L, idx); lua_pop(L, 1)) {
        int known = 0;
        for (int i = 0; keys[i] && !known; i++)
            known = lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), keys[i]) == 0;
        if (!known) {
            char allowed[256];
            join_keys(keys, allowed, sizeof allowed);
            luaL_error(L, DEF ": %s: unknown key '%s' (allowed: %s)", what,
                       lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : luaL_typename(L, -2),
                       allowed);
        }
    }
}

/* The string field `key` of the table at idx, or dflt; raises when it is no string or
 * does not fit in `size` bytes. */
static const char *string_field(lua_State *L, int idx, const char *key, const char *dflt,
                                char *buf, size_t size)
{
    lua_getfield(L, idx, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        if (dflt)
            snprintf(buf, size, "%s", dflt);
        return dflt;
    }
    if (lua_type(L, -1) != LUA_TSTRING)
        luaL_error(L, DEF ": %s must be a string, got %s", key, luaL_typename(L, -1));
    if (strlen(lua_tostring(L, -1)) >= size)
        luaL_error(L, DEF ": %s is longer than %d characters", key, (int)size - 1);
    snprintf(buf, size, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    return buf;
}

/* A registry reference to the function field `key`, or LUA_NOREF when absent. */
static int function_field(lua_State *L, int idx, const char *key, const char *what)
{
    lua_getfield(L, idx, key);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return LUA_NOREF;
    }
    if (lua_type(L, -1) != LUA_TFUNCTION)
        luaL_error(L, DEF ": %s%s must be a function, got %s", what, key, luaL_typename(L, -1));
    return luaL_ref(L, LUA_REGISTRYINDEX);
}

/* ---- parameters ---------------------------------------------------------------------- */

static param_type param_type_of(lua_State *L, int idx, const char *name)
{
    static const char *const names[] = {"int", "size", "choice", NULL};
    static const param_type types[] = {PARAM_INT, PARAM_SIZE, PARAM_CHOICE};
    lua_getfield(L, idx, "type");
    const char *t = lua_tostring(L, -1);
    for (int i = 0; t && names[i]; i++)
        if (strcmp(t, names[i]) == 0) {
            lua_pop(L, 1);
            return types[i];
        }
    luaL_error(L, DEF ": params.%s: type must be \"int\", \"size\" or \"choice\"", name);
    return PARAM_INT;
}

/* choices = "a|b" or {"a", "b"} into buf. */
static void read_choices(lua_State *L, int idx, const char *name, char *buf, size_t n)
{
    lua_getfield(L, idx, "choices");
    scenario_join_strings(L, -1, "|", buf, n);
    if (!buf[0])
        luaL_error(L, DEF ": params.%s: a choice needs choices = {\"a\", \"b\", ...} (or "
                      "\"a|b\")", name);
    lua_pop(L, 1);
}

/* One declared parameter: the table on top of the stack, named `name`. */
static void read_param(lua_State *L, lua_alg *a, int i, const char *name)
{
    int idx = lua_gettop(L);
    char what[96];
    snprintf(what, sizeof what, "params.%s", name);
    if (!lua_istable(L, idx))
        luaL_error(L, DEF ": %s: expected {type = ..., default = ...}, got %s", what,
                   luaL_typename(L, idx));
    check_keys(L, idx, param_keys, what);
    lua_alg_param_text *t = &a->ptext[i];
    if (strlen(name) >= sizeof t->name)
        luaL_error(L, DEF ": %s: the name is too long", what);
    snprintf(t->name, sizeof t->name, "%s", name);
    alg_param_desc *d = &a->params[i];
    d->name = t->name;
    d->type = param_type_of(L, idx, name);
    lua_getfield(L, idx, "default");
    if (lua_isnil(L, -1))
        luaL_error(L, DEF ": %s: a default is required", what);
    scenario_value_text(L, -1, what, t->def, sizeof t->def);
    lua_pop(L, 1);
    d->def = t->def;
    if (d->type == PARAM_CHOICE) {
        read_choices(L, idx, name, t->choices, sizeof t->choices);
        d->choices = t->choices;
    } else if (string_field(L, idx, "range", NULL, t->choices, sizeof t->choices)) {
        long long lo, hi;
        if (d->type != PARAM_INT || sscanf(t->choices, "%lld..%lld", &lo, &hi) != 2 || lo > hi)
            luaL_error(L, DEF ": %s: range is for int parameters, as \"min..max\"", what);
        d->choices = t->choices;
    }
    d->doc = string_field(L, idx, "doc", "", t->doc, sizeof t->doc);
}

/* Checks every default against its declaration (an empty spec reads the defaults). */
static void check_defaults(lua_State *L, const lua_alg *a)
{
    coll_spec s;
    coll_spec_init(&s, a->ua.desc.coll, 2, 0);
    cs_error err;
    for (const alg_param_desc *d = a->params; d->name; d++) {
        int64_t v;
        int c;
        int rc = d->type == PARAM_INT    ? alg_param_int(a->params, &s, d->name, &v, &err)
                 : d->type == PARAM_SIZE ? alg_param_size(a->params, &s, d->name, &v, &err)
                                         : alg_param_choice(a->params, &s, d->name, &c, &err);
        if (rc < 0)
            luaL_error(L, DEF ": params.%s: default: %s", d->name, err.msg);
    }
}

/* params = {name = {type = "int", default = 2, range = "1..8", doc = "..."}, ...} */
static void read_params(lua_State *L, lua_alg *a)
{
    lua_getfield(L, 1, "params");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    if (!lua_istable(L, -1))
        luaL_error(L, DEF ": params must be a table name = {type = ..., default = ...}");
    int tbl = lua_gettop(L);
    int n = scenario_push_sorted_keys(L, tbl, DEF ": params", SPEC_MAX_PARAMS); /* stable order */
    for (int i = 0; i < n; i++) {
        lua_rawgeti(L, -1, i + 1);
        const char *name = lua_tostring(L, -1);
        lua_getfield(L, tbl, name);
        read_param(L, a, i, name);
        lua_pop(L, 2);
    }
    lua_pop(L, 2);
}

/* ---- where, hash ------------------------------------------------------------------------- */

/* "file:line" of the function behind registry reference ref. */
static void function_where(lua_State *L, int ref, char *buf, size_t n)
{
    lua_Debug ar;
    lua_alg_push_ref(L, ref);
    lua_getinfo(L, ">S", &ar);
    snprintf(buf, n, "%s:%d", ar.short_src, ar.linedefined);
}

/* Appends what identifies a function's code: its line and its chunk (the SHA-256 of the
 * file it came from, or of the text given to load()). */
static void hash_function(lua_State *L, int ref, const char *key, sha256_ctx *h)
{
    if (ref == LUA_NOREF)
        return;
    lua_Debug ar;
    lua_alg_push_ref(L, ref);
    lua_getinfo(L, ">S", &ar);
    char hex[SHA256_HEX_LEN + 1], line[160];
    cs_error err;
    if (ar.source[0] != '@' || sha256_file_hex(ar.source + 1, hex, &err) < 0)
        sha256_hex(ar.source, strlen(ar.source), hex);
    snprintf(line, sizeof line, "%s:%d:%s\n", key, ar.linedefined, hex);
    sha256_update(h, line, strlen(line));
}

/* The definition hash: scalar settings, parameter declarations and the chunks of the
 * functions (see docs/scenarios.md, "Resume"). */
static void compute_hash(lua_State *L, lua_alg *a)
{
    sha256_ctx h;
    sha256_init(&h);
    char text[512];
    snprintf(text, sizeof text, "collsim-lua-alg-1\n%s\n%s\nform=%d kind=%d units=%lld split=%d\n",
             a->ua.name, coll_name(a->ua.desc.coll), (int)a->form, (int)a->kind,
             (long long)a->units, a->split);
    sha256_update(&h, text, strlen(text));
    for (const alg_param_desc *d = a->params; d->name; d++) {
        snprintf(text, sizeof text, "param %s %d %s %s\n", d->name, (int)d->type, d->def,
                 d->choices ? d->choices : "");
        sha256_update(&h, text, strlen(text));
    }
    hash_function(L, a->rank_fn, "rank", &h);
    hash_function(L, a->check_fn, "check", &h);
    hash_function(L, a->units_fn, "units", &h);
    hash_function(L, a->peer_fn, "peer", &h);
    hash_function(L, a->steps_fn, "steps", &h);
    hash_function(L, a->blocks_fn, "blocks", &h);
    uint8_t digest[SHA256_DIGEST_LEN];
    sha256_final(&h, digest);
    for (int i = 0; i < 8; i++)
        snprintf(a->def_hash + 2 * i, 3, "%02x", digest[i]);
}

/* ---- the two forms --------------------------------------------------------------------- */

static void read_steps_form(lua_State *L, lua_alg *a)
{
    a->rank_fn = function_field(L, 1, "rank", "");
    lua_getfield(L, 1, "units");
    if (lua_isnil(L, -1)) {
        a->units = 1;
    } else if (lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 1) {
        a->units = lua_tointeger(L, -1);
    } else if (lua_type(L, -1) == LUA_TFUNCTION) {
        a->units_fn = function_field(L, 1, "units", "");
    } else {
        luaL_error(L, DEF ": units must be a whole number >= 1 or a function(P, size, params, "
                      "info)");
    }
    lua_pop(L, 1);
}

static void read_butterfly_form(lua_State *L, lua_alg *a, coll_kind coll)
{
    if (coll != COLL_ALLREDUCE && coll != COLL_REDUCE_SCATTER && coll != COLL_ALLGATHER)
        luaL_error(L, DEF ": butterfly serves allreduce, reduce_scatter and allgather, not %s",
                   coll_name(coll));
    a->form = LUA_ALG_BUTTERFLY;
    lua_getfield(L, 1, "butterfly");
    if (!lua_istable(L, -1))
        luaL_error(L, DEF ": butterfly must be a table {peer = function(v, step, n), ...}");
    int b = lua_gettop(L);
    check_keys(L, b, bfly_keys, "butterfly");
    a->peer_fn = function_field(L, b, "peer", "butterfly.");
    if (a->peer_fn == LUA_NOREF)
        luaL_error(L, DEF ": butterfly.peer is required: function(v, step, n) returning the "
                      "participant v exchanges with at that step");
    a->steps_fn = function_field(L, b, "steps", "butterfly.");
    lua_getfield(L, b, "blocks");
    int t = lua_type(L, -1);
    if (t != LUA_TNIL && t != LUA_TFUNCTION &&
        !(t == LUA_TSTRING && strcmp(lua_tostring(L, -1), "contiguous") == 0))
        luaL_error(L, DEF ": butterfly.blocks must be \"contiguous\" (the default) or a "
                      "function(v, step, n)");
    lua_pop(L, 1);
    a->blocks_fn = function_field(L, b, "blocks", "butterfly.");
    lua_getfield(L, b, "split");
    a->split = lua_toboolean(L, -1);
    lua_pop(L, 2);
    char kind[16];
    if (!string_field(L, 1, "kind", NULL, kind, sizeof kind)) {
        if (coll == COLL_ALLREDUCE)
            luaL_error(L, DEF ": a butterfly allreduce needs kind = \"latency\" (the whole "
                          "vector every step) or \"bandwidth\" (reduce-scatter + allgather)");
    } else if (coll != COLL_ALLREDUCE) {
        luaL_error(L, DEF ": kind applies to a butterfly allreduce only");
    } else if (strcmp(kind, "latency") == 0 || strcmp(kind, "bandwidth") == 0) {
        a->kind = kind[0] == 'l' ? LUA_ALG_LATENCY : LUA_ALG_BANDWIDTH;
    } else {
        luaL_error(L, DEF ": kind '%s' (allowed: latency, bandwidth)", kind);
    }
    if (coll != COLL_ALLREDUCE) /* reduce-scatter and allgather move blocks */
        a->kind = LUA_ALG_BANDWIDTH;
    if (a->kind == LUA_ALG_LATENCY && a->blocks_fn != LUA_NOREF)
        luaL_error(L, DEF ": butterfly.blocks: a latency butterfly sends the whole vector");
}

/* ---- collsim.define_algorithm ---------------------------------------------------------- */

static void check_name(lua_State *L, const char *name)
{
    if (!name[0])
        luaL_error(L, DEF ": name is required");
    for (const char *c = name; *c; c++)
        if (!(*c == '_' || *c == '-' || *c == '.' || (*c >= '0' && *c <= '9') ||
              (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            luaL_error(L, DEF ": name '%s': use letters, digits, '_', '-' and '.'", name);
}

static lua_alg *new_definition(lua_State *L)
{
    lua_alg *a = lua_newuserdatauv(L, sizeof *a, 0);
    memset(a, 0, sizeof *a);
    luaL_ref(L, LUA_REGISTRYINDEX); /* anchored for the state's lifetime */
    a->L = L;
    a->lock = lua_alg_state_lock(L);
    a->rank_fn = a->check_fn = a->units_fn = LUA_NOREF;
    a->peer_fn = a->steps_fn = a->blocks_fn = LUA_NOREF;
    a->ua.params = a->params;
    return a;
}

/* The descriptions `collsim list` would show. */
static void describe(lua_State *L, lua_alg *a, char *summary, size_t ns, char *constraints,
                     size_t nc)
{
    char dflt[400];
    snprintf(dflt, sizeof dflt, "defined in Lua at %s", a->where);
    string_field(L, 1, "summary", dflt, summary, ns);
    snprintf(dflt, sizeof dflt, "%s",
             a->form == LUA_ALG_BUTTERFLY ? "any P >= 2 (folds to a power of two)"
             : a->check_fn != LUA_NOREF   ? "any P >= 2 its check function accepts"
                                          : "any P >= 2");
    string_field(L, 1, "constraints", dflt, constraints, nc);
}

/* collsim.define_algorithm{name = ..., collective = ..., rank = function ... end | butterfly
 * = {...}, ...} -> the name */
int scenario_l_define_algorithm(lua_State *L)
{
    sweep_plan *p = scenario_plan(L);
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    check_keys(L, 1, def_keys, "definition");
    char name[64], coll_text[32];
    string_field(L, 1, "name", "", name, sizeof name);
    check_name(L, name);
    coll_kind coll;
    cs_error err;
    if (!string_field(L, 1, "collective", NULL, coll_text, sizeof coll_text))
        luaL_error(L, DEF ": collective is required (e.g. collective = \"allreduce\")");
    if (coll_from_name(coll_text, &coll, &err) < 0)
        luaL_error(L, DEF ": collective: %s", err.msg);
    lua_alg *a = new_definition(L);
    a->ua.desc.coll = coll;
    lua_getfield(L, 1, "rank");
    int has_rank = !lua_isnil(L, -1);
    lua_getfield(L, 1, "butterfly");
    int has_bfly = !lua_isnil(L, -1);
    lua_pop(L, 2);
    if (has_rank == has_bfly)
        luaL_error(L, DEF ": give either rank = function(rank, P, size, params, info) "
                      "returning the rank's steps, or butterfly = {peer = ...}");
    if (has_rank)
        read_steps_form(L, a);
    else
        read_butterfly_form(L, a, coll);
    lua_getfield(L, 1, "kind");
    lua_getfield(L, 1, "units");
    if (has_rank && !lua_isnil(L, -2))
        luaL_error(L, DEF ": kind applies to a butterfly allreduce only");
    if (has_bfly && !lua_isnil(L, -1))
        luaL_error(L, DEF ": units applies to the rank form (a butterfly chooses its blocks)");
    lua_pop(L, 2);
    a->check_fn = function_field(L, 1, "check", "");
    read_params(L, a);
    check_defaults(L, a);
    function_where(L, has_rank ? a->rank_fn : a->peer_fn, a->where, sizeof a->where);
    compute_hash(L, a);
    a->ua.serialize = a->form == LUA_ALG_STEPS || a->blocks_fn != LUA_NOREF ? a->lock : NULL;
    char summary[160], constraints[160];
    describe(L, a, summary, sizeof summary, constraints, sizeof constraints);
    if (user_alg_register(&p->algorithms, &a->ua, coll, name, summary, constraints,
                          &lua_alg_ops, a, &err) < 0)
        return luaL_error(L, DEF ": %s", err.msg);
    lua_pushstring(L, name);
    return 1;
}

const char *lua_alg_def_hash(const alg_desc *alg)
{
    if (!user_alg_is(alg) || ((const user_alg *)alg)->ops != &lua_alg_ops)
        return NULL;
    return ((const lua_alg *)alg)->def_hash; /* the descriptor is the first member */
}
