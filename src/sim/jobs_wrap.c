/* jobs_wrap.c - a job's schedule as the simulator runs it: a first step holding only a
 * timed op of the job's start time (none when it starts at 0), then the job's own schedule
 * (its algorithm's, or its traffic pattern's) `reps` times, back to back, each repetition
 * opening steps of its own (jobs_internal.h: job_run). */
#include <math.h>
#include <string.h>

#include "algorithms/registry.h"
#include "sim/jobs_internal.h"
#include "sim/rank_shape.h"

void job_timed_op(sched_builder *b, int64_t ns)
{
    sb_copy(b, ns);
    b->rs.ops[b->rs.nops - 1].flags |= OPF_TIME;
}

static void wrap_gen(const coll_spec *spec, const void *ctx, int32_t rank, sched_builder *b)
{
    (void)spec;
    const job_run *jr = ctx;
    if (jr->start_ns > 0) {
        sb_step(b);
        job_timed_op(b, jr->start_ns);
    }
    for (int32_t i = 0; i < jr->reps; i++) {
        b->step_open = 0; /* the repetition's first op opens a step of its own */
        jr->inner.alg->gen_rank(&jr->inner.spec, jr->inner.ctx, rank, b);
    }
}

static const alg_desc wrap_desc = {
    .coll = COLL_ALLTOALL, .name = "job", .summary = "a job: start time and repetitions",
    .constraints = "any P >= 2", .gen_rank = wrap_gen,
};

/* A collective job's own run. */
static int prepare_collective(const job_set *js, const job_spec *j, const topology *t,
                              const int32_t *host_of_rank, alg_run *run, cs_error *err)
{
    const alg_desc *alg = registry_find(js->algorithms, j->spec.coll, j->algorithm, err);
    if (!alg)
        return -1;
    if ((alg->flags & ALG_DEPS) && js->base.model == SIM_MODEL_PACKET)
        return cs_fail(err, "the packet model runs step schedules only, and %s has ops with "
                            "dependencies or tags (use a flow model: cm02, lv08, smpi)",
                       alg->name);
    if ((alg->flags & ALG_DEPS) && (j->start_s > 0 || j->reps > 1))
        return cs_fail(err, "%s has ops with dependencies or tags, which cannot be repeated "
                            "or delayed yet (give start=0 and reps=1)", alg->name);
    coll_spec spec = j->spec;
    if (rank_shape_resolve(alg, &spec, t, host_of_rank, err) < 0)
        return -1;
    return alg_run_prepare(run, alg, &spec, err);
}

int job_run_prepare(const job_set *js, int k, const topology *t, const int32_t *host_of_rank,
                    job_run *jr, cs_error *err)
{
    const job_spec *j = &js->jobs[k];
    memset(jr, 0, sizeof *jr);
    int rc;
    if (j->pattern != JOB_PATTERN_NONE)
        rc = job_pattern_prepare(j, jobs_injection_Bps(t, host_of_rank, j->spec.P,
                                                       j->spec.ranks_per_node),
                                 &jr->inner, err);
    else
        rc = prepare_collective(js, j, t, host_of_rank, &jr->inner, err);
    if (rc < 0) {
        cs_error_prefix(err, "job %s", j->name);
        return -1;
    }
    jr->start_ns = (int64_t)llround(j->start_s * 1e9);
    jr->reps = j->reps;
    jr->outer = jr->inner;
    jr->outer.alg = &wrap_desc;
    jr->outer.ctx = jr;
    return 0;
}

void job_run_release(job_run *jr)
{
    alg_run_release(&jr->inner);
    memset(jr, 0, sizeof *jr);
}
