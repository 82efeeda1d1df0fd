/* jobs_run.c - several jobs: one simulation of all of them together, then one of each job
 * alone on the same hosts, each in a child process (SimGrid initialises once per process);
 * every job's row gets alone_s and slowdown = time_s / alone_s (jobs.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "sim/jobs_internal.h"
#include "sim/sim_internal.h"

typedef struct jobs_work_arg {
    const job_set *js;
    unsigned mask;
} jobs_work_arg;

/* The child: the jobs of the mask together; the payload is njobs job_results. */
static int jobs_work(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const jobs_work_arg *a = arg;
    size_t n = (size_t)a->js->njobs * sizeof(job_result);
    job_result *out = xcalloc((size_t)a->js->njobs, sizeof *out);
    double t0 = wall_seconds();
    if (jobs_simulate(a->js, a->mask, out, err) < 0) {
        free(out);
        return -1;
    }
    for (int k = 0; k < a->js->njobs; k++) { /* measurements of the whole run */
        out[k].row.sim_wall_s = wall_seconds() - t0;
        out[k].row.sim_peak_rss_kb = peak_rss_kb();
    }
    *payload = out;
    *len = n;
    return 0;
}

static int run_mask(const job_set *js, unsigned mask, job_result **out, cs_error *err)
{
    jobs_work_arg a = {js, mask};
    void *payload = NULL;
    size_t len = 0;
    if (sim_run_in_child(jobs_work, &a, &payload, &len, err) < 0)
        return -1;
    if (len != (size_t)js->njobs * sizeof(job_result)) {
        free(payload);
        return cs_fail(err, "internal: the jobs' child answered %zu bytes", len);
    }
    *out = payload;
    return 0;
}

/* Together, then each alone: the work of jobs_run_isolated without a time limit. */
static int run_all(const job_set *js, int alone, job_result *out, cs_error *err)
{
    if (js->njobs < 1 || js->njobs > JOBS_MAX)
        return cs_fail(err, "%d jobs: allowed 1 to %d", js->njobs, JOBS_MAX);
    job_result *all;
    if (run_mask(js, (1u << js->njobs) - 1, &all, err) < 0)
        return -1;
    memcpy(out, all, (size_t)js->njobs * sizeof *out);
    free(all);
    int timed = js->base.model != SIM_MODEL_TRAFFIC;
    for (int k = 0; k < js->njobs && timed && (alone || js->njobs == 1); k++) {
        double alone_s = out[k].row.time_s; /* one job: it is alone */
        if (js->njobs > 1) {
            job_result *one;
            if (run_mask(js, 1u << k, &one, err) < 0) {
                cs_error_prefix(err, "job %s alone", js->jobs[k].name);
                return -1;
            }
            alone_s = one[k].row.time_s;
            free(one);
        }
        out[k].alone_s = alone_s;
        out[k].slowdown = out[k].row.time_s / alone_s;
    }
    return 0;
}

/* ---- the whole point in one child (a time limit on all its simulations at once, and the
 * sweep runner's polled points) ------------------------------------------------------- */

typedef struct point_arg {
    job_set js;   /* base.point_timeout_s = 0: the limit is the parent's */
    int alone;
} point_arg;

static int point_work(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const point_arg *a = arg;
    job_result *out = xcalloc((size_t)a->js.njobs, sizeof *out);
    if (run_all(&a->js, a->alone, out, err) < 0) {
        free(out);
        return -1;
    }
    *payload = out;
    *len = (size_t)a->js.njobs * sizeof *out;
    return 0;
}

static point_arg *point_arg_new(const job_set *js, int alone)
{
    point_arg *a = xmalloc(sizeof *a);
    a->js = *js;
    a->js.base.point_timeout_s = 0;
    a->alone = alone;
    return a;
}

/* The child's answer: njobs results. */
static int take_results(const job_set *js, void *payload, size_t len, job_result *out,
                        cs_error *err)
{
    if (len != (size_t)js->njobs * sizeof *out) {
        free(payload);
        return cs_fail(err, "internal: the jobs' child answered %zu bytes", len);
    }
    memcpy(out, payload, len);
    free(payload);
    return 0;
}

int jobs_run_isolated(const job_set *js, int alone, job_result *out, cs_error *err)
{
    if (js->base.point_timeout_s <= 0)
        return run_all(js, alone, out, err);
    point_arg *a = point_arg_new(js, alone);
    void *payload = NULL;
    size_t len = 0;
    int timed_out;
    int rc = sim_run_in_child_timed(point_work, a, js->base.point_timeout_s, &payload, &len,
                                    &timed_out, err);
    free(a);
    return rc < 0 ? -1 : take_results(js, payload, len, out, err);
}

int jobs_job_start(const job_set *js, int alone, sim_job *job, cs_error *err)
{
    point_arg *a = point_arg_new(js, alone);
    int rc = sim_job_start_work(point_work, a, job, err); /* the child has its copy */
    free(a);
    return rc;
}

int jobs_job_finish(sim_job *job, const job_set *js, job_result *out, cs_error *err)
{
    void *payload = NULL;
    size_t len = 0;
    if (sim_job_finish_payload(job, &payload, &len, err) < 0)
        return -1;
    return take_results(js, payload, len, out, err);
}
