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

int jobs_run_isolated(const job_set *js, int alone, job_result *out, cs_error *err)
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
