/* lua_alg.h - algorithms written in Lua: collsim.define_algorithm{...}
 * (docs/custom-algorithms.md), shared by the files of src/sweep that implement them:
 *
 *   lua_alg.c        reading a definition, its parameters and hash; registration
 *   lua_alg_run.c    what both forms share: the lock, calls into Lua, prepare, release
 *   lua_alg_steps.c  the steps form: rank(r, P, size, params, info) returns the steps
 *   lua_alg_bfly.c   the butterfly form: a peer function (and a block rule) on the C
 *                    butterfly engine (algorithms/butterfly.h)
 *
 * A definition lives in a Lua full userdata anchored in the state's registry, so it is
 * freed with the state (sweep_plan_free); its descriptor is in the plan's alg_registry.
 * Lua is entered only under the state's lock (user_alg.h: serialize), from prepare and,
 * for definitions that need it, from gen_rank.
 */
#ifndef COLLSIM_LUA_ALG_H
#define COLLSIM_LUA_ALG_H

#include <pthread.h>

#include <lua.h>

#include "algorithms/butterfly.h"
#include "schedio/user_alg.h"

typedef enum { LUA_ALG_STEPS, LUA_ALG_BUTTERFLY } lua_alg_form;
typedef enum { LUA_ALG_LATENCY, LUA_ALG_BANDWIDTH } lua_alg_kind;

/* The text behind a declared parameter (alg_param_desc points into it). */
typedef struct lua_alg_param_text {
    char name[SPEC_PARAM_LEN], def[SPEC_PARAM_LEN], choices[256], doc[160];
} lua_alg_param_text;

typedef struct lua_alg {
    user_alg ua;           /* first member: the descriptor (user_alg.h) */
    lua_State *L;
    pthread_mutex_t *lock; /* the state's lock */
    lua_alg_form form;
    lua_alg_kind kind;     /* butterfly allreduce: whole vector, or reduce-scatter + allgather */
    /* registry references of the functions, LUA_NOREF when absent */
    int rank_fn, check_fn, units_fn, peer_fn, steps_fn, blocks_fn;
    int64_t units;         /* steps form: blocks per unit of the layout, when units_fn is absent */
    int split;             /* butterfly: one message per contiguous run of blocks */
    char where[320];       /* "file:line" where the rank (or peer) function is defined */
    char def_hash[17];     /* hash of the definition and the source of its functions */
    alg_param_desc params[SPEC_MAX_PARAMS + 1];
    lua_alg_param_text ptext[SPEC_MAX_PARAMS];
} lua_alg;

/* One prepared run. */
typedef struct lua_run {
    const lua_alg *a;
    coll_spec spec;
    int params_ref, info_ref; /* the tables every call receives */
    int64_t nblocks;
    /* butterfly form */
    chunk_map map;
    bfly_pattern base, pat;   /* the peer table; pat adds the block rule */
    bfly_contiguous contiguous;
    bfly_remap remap;
    bfly_opts opts;
    int remap_needed;         /* contiguous positions that are not the identity */
    int32_t n;                /* participants */
    int32_t *peers;           /* peers[step * n + v] */
    int32_t *pos, *pos_inv;
    /* an error inside an engine callback (the blocks function), for gen_rank */
    int cb_failed;
    cs_error cb_err;
} lua_run;

/* lua_alg.c */
int scenario_l_define_algorithm(lua_State *L);
/* The definition hash (16 hex digits) of a Lua algorithm, NULL for any other. */
const char *lua_alg_def_hash(const alg_desc *alg);

/* lua_alg_run.c */
extern const user_alg_ops lua_alg_ops;
/* The state's lock, created on first use (a userdata in the registry). */
pthread_mutex_t *lua_alg_state_lock(lua_State *L);
/* Calls the function below its nargs arguments (lua_pcall in u's state); on an error sets
 * err to the Lua message (which starts with "file:line:") followed by
 * " (allreduce my_alg, P=8, <fmt...>)" and returns -1 with the stack as before the
 * function was pushed. The context is formatted only on an error. */
int lua_alg_call(const lua_run *u, int nargs, int nresults, cs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Calls fn(P, size, params, info) (check, units) for one result, as lua_alg_call. */
int lua_alg_call_spec_fn(const lua_run *u, int fn, const char *what, cs_error *err);
/* "allreduce my_alg, P=8" for messages. */
void lua_alg_context(const lua_run *u, char *buf, size_t n);
/* Pushes the registry value `ref`. */
void lua_alg_push_ref(lua_State *L, int ref);
/* An integer result at idx in [lo, hi], else -1 with "what must be ...". */
int lua_alg_integer(lua_State *L, int idx, int64_t lo, int64_t hi, const char *what,
                    int64_t *out, cs_error *err);
/* Ranges at idx: {lo, hi} or a list of {lo, hi}, each 0 <= lo <= hi <= limit (empty ones
 * dropped), appended to out; -1 with a message naming `what` otherwise. */
int lua_alg_ranges(lua_State *L, int idx, int64_t limit, const char *what, range_list *out,
                   cs_error *err);

/* lua_alg_steps.c */
int lua_alg_steps_prepare(lua_run *u, sched_layout *layout, cs_error *err);
int lua_alg_steps_gen(const lua_run *u, int32_t rank, sched_builder *b, cs_error *err);

/* lua_alg_bfly.c */
int lua_alg_bfly_prepare(lua_run *u, sched_layout *layout, cs_error *err);
int lua_alg_bfly_gen(lua_run *u, int32_t rank, sched_builder *b, cs_error *err);
void lua_alg_bfly_release(lua_run *u);

#endif
