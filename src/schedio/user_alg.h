/* user_alg.h - how a run-time algorithm (a Lua function, src/sweep/lua_alg.c) plugs into
 * collsim.
 *
 * It follows what file_alg.h does for schedule files, which works with the verifier,
 * `collsim sim` (sim_config.algorithms), the exporters and `collsim check`:
 *
 *   1. the definition embeds an alg_desc as its FIRST member and fills prepare /
 *      gen_rank / release with functions shared by every definition of its kind;
 *   2. alg_run_prepare hands prepare() the descriptor itself in *ctx (algorithm.h), so
 *      prepare() casts it back to the definition, checks the spec, chooses the layout and
 *      stores a per-run context in *ctx;
 *   3. the descriptor is added to an alg_registry (registry.h) that the caller passes to
 *      registry_find / sim_config.algorithms; names must not clash with built-ins.
 *
 * What a callback-defined generator needs beyond a built-in one, and this layer adds:
 *
 *   errors     a script can fail while generating. ops->gen_rank returns -1 with a
 *              message; the run keeps the first one, later ranks generate nothing, and
 *              user_alg_run_error() hands it to the caller, which reports it instead of
 *              whatever the verifier or simulator made of the truncated schedule. A
 *              prepare() error that is not a constraint (ops->prepare returns
 *              USER_ALG_BROKEN: a script error, a peer function that is no butterfly) is
 *              kept the same way, so that it is a failure and not a "skip".
 *   serialize  when `serialize` is set (an interpreter that must not be entered by two
 *              threads, or by two SimGrid actors, at once), ops->gen_rank runs under that
 *              lock into a private builder, and the finished rank is replayed into the
 *              caller's builder after the lock is released: the verifier's threads
 *              (verify_stream.c) take turns, and a simulator actor never switches out
 *              (its streaming sink blocks, sim_actors.c) in the middle of a script call.
 */
#ifndef COLLSIM_USER_ALG_H
#define COLLSIM_USER_ALG_H

#include <pthread.h>

#include "algorithms/registry.h"

/* ops->prepare's return value for a broken definition (a failure, not a constraint). */
#define USER_ALG_BROKEN (-2)

typedef struct user_alg_ops {
    /* Checks the spec and chooses the layout (layout_init(..., units) / layout_set_rows);
     * *run_ctx receives what gen_rank needs for this spec. Returns 0, -1 when a constraint
     * excludes the spec (the message names it), or USER_ALG_BROKEN with the message. */
    int (*prepare)(void *def, const coll_spec *spec, sched_layout *layout, void **run_ctx,
                   cs_error *err);
    /* Writes one rank (between sb_begin_rank and sb_end_rank, which the caller does);
     * returns 0, or -1 with a message naming the rank. */
    int (*gen_rank)(void *def, const void *run_ctx, const coll_spec *spec, int32_t rank,
                    sched_builder *b, cs_error *err);
    void (*release)(void *def, void *run_ctx); /* may be NULL; run_ctx may be NULL */
} user_alg_ops;

typedef struct user_alg {
    alg_desc desc;              /* first member (see above) */
    const user_alg_ops *ops;
    void *def;                  /* e.g. the Lua definition */
    pthread_mutex_t *serialize; /* non-NULL: gen_rank runs under this lock (see above) */
    const alg_param_desc *params; /* copied into desc.params; may be NULL */
    char name[64], summary[160], constraints[160];
} user_alg;

/* Fills a->desc from name / summary / constraints / collective and a->params (set it
 * before), and adds it to reg; fails when the name is taken (by a built-in or another
 * user algorithm) or does not fit. */
int user_alg_register(alg_registry *reg, user_alg *a, coll_kind coll, const char *name,
                      const char *summary, const char *constraints, const user_alg_ops *ops,
                      void *def, cs_error *err);

/* Is this a user algorithm's descriptor? */
int user_alg_is(const alg_desc *alg);

/* 0 when the run's generator has not failed (always for other algorithms), else -1 with
 * the first error (call it after generating, before alg_run_release). */
int user_alg_run_error(const alg_run *run, cs_error *err);

#endif
