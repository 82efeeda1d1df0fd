/* user_alg.h - how a run-time algorithm (a Lua function, later) plugs into collsim.
 *
 * The interface proposed to the Lua scenario layer (issue 11, item 1), implemented and
 * tested with C callbacks (tests/test_goal.c). It follows what file_alg.h does for
 * schedule files, which works with the verifier, `collsim sim` (sim_config.algorithms),
 * the exporters and `collsim check`:
 *
 *   1. the definition embeds an alg_desc as its FIRST member and fills prepare /
 *      gen_rank / release with functions shared by every definition of its kind;
 *   2. alg_run_prepare hands prepare() the descriptor itself in *ctx (algorithm.h), so
 *      prepare() casts it back to the definition, checks the spec, chooses the layout and
 *      stores a per-run context in *ctx;
 *   3. the descriptor is added to an alg_registry (registry.h) that the caller passes to
 *      registry_find / sim_config.algorithms; names must not clash with built-ins.
 *
 * For Lua, gen_rank calls the Lua function for one rank and feeds what it returns into
 * the sched_builder with sb_step / sb_send / sb_recv / sb_reduce / sb_copy (schedule.h);
 * because gen_rank may be called from several verifier threads at once, the Lua layer
 * either gives each thread its own lua_State or sets `single_threaded`, which makes
 * verify_run use one thread (the caller passes verify_options.threads = 1). Butterfly and
 * tree patterns can instead supply only a peer function and a block rule and reuse the C
 * engines (butterfly.h, tree.h) from gen_rank.
 */
#ifndef COLLSIM_USER_ALG_H
#define COLLSIM_USER_ALG_H

#include "algorithms/registry.h"

typedef struct user_alg_ops {
    /* Checks the spec and chooses the layout (layout_init(..., units) / layout_set_rows);
     * *run_ctx receives what gen_rank needs for this spec. Errors name the constraint. */
    int (*prepare)(void *def, const coll_spec *spec, sched_layout *layout, void **run_ctx,
                   cs_error *err);
    /* Writes one rank (between sb_begin_rank and sb_end_rank, which the caller does). A
     * Lua error becomes a schedule the verifier rejects plus a message kept in run_ctx. */
    void (*gen_rank)(void *def, const void *run_ctx, const coll_spec *spec, int32_t rank,
                     sched_builder *b);
    void (*release)(void *def, void *run_ctx); /* may be NULL */
} user_alg_ops;

typedef struct user_alg {
    alg_desc desc;          /* first member (see above) */
    const user_alg_ops *ops;
    void *def;              /* e.g. the Lua registry reference of the function */
    int single_threaded;    /* gen_rank must not run concurrently */
    char name[64], summary[160], constraints[160];
} user_alg;

/* Fills a->desc from name / summary / constraints / collective and adds it to reg;
 * fails when the name is taken (by a built-in or another user algorithm). */
int user_alg_register(alg_registry *reg, user_alg *a, coll_kind coll, const char *name,
                      const char *summary, const char *constraints, const user_alg_ops *ops,
                      void *def, cs_error *err);

#endif
