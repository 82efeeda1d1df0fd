/* user_alg.c - run-time algorithms defined by callbacks: registration, the first-error
 * channel and serialized generation (see user_alg.h). */
#include "schedio/user_alg.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The per-run context of every user algorithm: the definition, its own context, and the
 * first error of the run (written once, under err_lock; `failed` is read without it). */
typedef struct user_run {
    const user_alg *a;
    void *run_ctx;
    atomic_int failed;
    pthread_mutex_t err_lock;
    cs_error first;
} user_run;

static void run_fail(user_run *u, const cs_error *err)
{
    pthread_mutex_lock(&u->err_lock);
    if (!atomic_load(&u->failed)) {
        u->first = *err;
        atomic_store(&u->failed, 1);
    }
    pthread_mutex_unlock(&u->err_lock);
}

static int user_prepare(const coll_spec *spec, sched_layout *layout, void **ctx, cs_error *err)
{
    const user_alg *a = *ctx; /* the descriptor, a's first member (algorithm.h) */
    user_run *u = xcalloc(1, sizeof *u);
    u->a = a;
    pthread_mutex_init(&u->err_lock, NULL);
    atomic_init(&u->failed, 0);
    int rc = a->ops->prepare(a->def, spec, layout, &u->run_ctx, err);
    if (rc == USER_ALG_BROKEN) { /* a failure of the definition, reported after the run */
        u->run_ctx = NULL;
        run_fail(u, err);
        rc = 0;
    }
    if (rc < 0) {
        pthread_mutex_destroy(&u->err_lock);
        free(u);
        *ctx = NULL;
        return -1;
    }
    *ctx = u;
    return 0;
}

/* Under the definition's lock, into a private builder; replayed once the lock is free. */
static int gen_serialized(const user_run *u, const coll_spec *spec, int32_t rank,
                          sched_builder *b, cs_error *err)
{
    sched_builder own;
    sb_init(&own, b->layout);
    sb_begin_rank(&own, rank);
    pthread_mutex_lock(u->a->serialize);
    int rc = u->a->ops->gen_rank(u->a->def, u->run_ctx, spec, rank, &own, err);
    pthread_mutex_unlock(u->a->serialize);
    sb_end_rank(&own);
    if (rc == 0)
        sb_replay(b, &own.rs);
    sb_free(&own);
    return rc;
}

static void user_gen_rank(const coll_spec *spec, const void *ctx, int32_t rank, sched_builder *b)
{
    user_run *u = (user_run *)ctx; /* only the error slot is written, under its lock */
    if (atomic_load(&u->failed))
        return; /* the run has failed: the caller reports that, not this rank */
    cs_error err;
    cs_error_clear(&err);
    int rc = u->a->serialize ? gen_serialized(u, spec, rank, b, &err)
                             : u->a->ops->gen_rank(u->a->def, u->run_ctx, spec, rank, b, &err);
    if (rc < 0)
        run_fail(u, &err);
}

static void user_release(void *ctx)
{
    user_run *u = ctx;
    if (u->a->ops->release && u->run_ctx)
        u->a->ops->release(u->a->def, u->run_ctx);
    pthread_mutex_destroy(&u->err_lock);
    free(u);
}

int user_alg_register(alg_registry *reg, user_alg *a, coll_kind coll, const char *name,
                      const char *summary, const char *constraints, const user_alg_ops *ops,
                      void *def, cs_error *err)
{
    cs_error ignored;
    if (registry_find(reg, coll, name, &ignored))
        return cs_fail(err, "algorithm name '%s' is taken for %s", name, coll_name(coll));
    if (!name[0] || strlen(name) >= sizeof a->name)
        return cs_fail(err, "algorithm name '%s' must have 1 to %zu characters", name,
                       sizeof a->name - 1);
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
    a->desc.params = a->params;
    a->desc.prepare = user_prepare;
    a->desc.gen_rank = user_gen_rank;
    a->desc.release = user_release;
    return alg_registry_add(reg, &a->desc, err);
}

int user_alg_is(const alg_desc *alg)
{
    return alg && alg->prepare == user_prepare;
}

int user_alg_run_error(const alg_run *run, cs_error *err)
{
    if (!user_alg_is(run->alg) || !run->ctx)
        return 0;
    user_run *u = run->ctx;
    if (!atomic_load(&u->failed))
        return 0;
    pthread_mutex_lock(&u->err_lock);
    *err = u->first;
    pthread_mutex_unlock(&u->err_lock);
    return -1;
}
