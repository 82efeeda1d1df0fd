/* user_alg.c - run-time algorithms defined by callbacks (see user_alg.h). */
#include "schedio/user_alg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-run context of every user algorithm: the definition and its own context. */
typedef struct user_run {
    const user_alg *a;
    void *run_ctx;
} user_run;

static int user_prepare(const coll_spec *spec, sched_layout *layout, void **ctx, cs_error *err)
{
    const user_alg *a = *ctx; /* the descriptor, a's first member (algorithm.h) */
    user_run *u = xcalloc(1, sizeof *u);
    u->a = a;
    if (a->ops->prepare(a->def, spec, layout, &u->run_ctx, err) < 0) {
        free(u);
        *ctx = NULL;
        return -1;
    }
    *ctx = u;
    return 0;
}

static void user_gen_rank(const coll_spec *spec, const void *ctx, int32_t rank, sched_builder *b)
{
    const user_run *u = ctx;
    u->a->ops->gen_rank(u->a->def, u->run_ctx, spec, rank, b);
}

static void user_release(void *ctx)
{
    user_run *u = ctx;
    if (u->a->ops->release)
        u->a->ops->release(u->a->def, u->run_ctx);
    free(u);
}

int user_alg_register(alg_registry *reg, user_alg *a, coll_kind coll, const char *name,
                      const char *summary, const char *constraints, const user_alg_ops *ops,
                      void *def, cs_error *err)
{
    cs_error ignored;
    if (registry_find(reg, coll, name, &ignored))
        return cs_fail(err, "algorithm name '%s' is taken for %s", name, coll_name(coll));
    snprintf(a->name, sizeof a->name, "%s", name);
    snprintf(a->summary, sizeof a->summary, "%s", summary ? summary : "");
    snprintf(a->constraints, sizeof a->constraints, "%s", constraints ? constraints : "");
    a->ops = ops;
    a->def = def;
    memset(&a->desc, 0, sizeof a->desc);
    a->desc.coll = coll;
    a->desc.name = a->name;
    a->desc.summary = a->summary;
    a->desc.constraints = a->constraints;
    a->desc.prepare = user_prepare;
    a->desc.gen_rank = user_gen_rank;
    a->desc.release = user_release;
    return alg_registry_add(reg, &a->desc, err);
}
