/* verify.c - choosing a verification engine and running it (see verify.h). */
#include "algorithms/verify.h"

#include <string.h>
#include <unistd.h>

#include "algorithms/verify_internal.h"
#include "common/util.h"

/* Non-reductions get the full engine only while it is cheap: beyond that the streaming
 * engine checks them just as completely, in parallel and in less memory. */
#define FULL_ENGINE_CHEAP ((int64_t)256 << 20)

void verify_options_default(verify_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = VERIFY_AUTO;
    o->threads = 0;
    o->max_memory = (int64_t)4 << 30;
    o->eager_limit = -1;
}

const char *verify_mode_name(verify_mode m)
{
    switch (m) {
    case VERIFY_FULL: return "full";
    case VERIFY_STREAM: return "stream";
    default: return "auto";
    }
}

static int default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > 16 ? 16 : (int)n;
}

int verify_run(const alg_run *run, const verify_options *opt, verify_result *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    double t0 = wall_seconds();
    int threads = opt->threads > 0 ? opt->threads : default_threads();
    verify_mode mode = opt->mode;
    int64_t estimate = -1;
    if (mode != VERIFY_STREAM) {
        estimate = verify_full_estimate(run);
        if (mode == VERIFY_AUTO) {
            int fits = estimate <= opt->max_memory;
            int cheap = estimate <= FULL_ENGINE_CHEAP;
            mode = fits && (coll_is_reduction(run->spec.coll) || cheap) ? VERIFY_FULL : VERIFY_STREAM;
        } else if (estimate > opt->max_memory) {
            return cs_fail(err,
                           "the full verification engine would need about %lld MiB, more than "
                           "the %lld MiB allowed (--max-memory); use the streaming engine",
                           (long long)(estimate >> 20), (long long)(opt->max_memory >> 20));
        }
    }
    if (run->alg->flags & ALG_DEPS) { /* only the full engine follows dependencies */
        if (mode == VERIFY_STREAM)
            return cs_fail(err, "the stream engine verifies step schedules only, and %s has "
                                "ops with dependencies or tags (use --engine full or auto)",
                           run->alg->name);
        if (estimate > opt->max_memory)
            return cs_fail(err, "the full verification engine would need about %lld MiB, more "
                                "than the %lld MiB allowed (--max-memory), and the stream engine "
                                "cannot verify dependencies", (long long)(estimate >> 20),
                           (long long)(opt->max_memory >> 20));
        mode = VERIFY_FULL;
    }
    int rc;
    if (mode == VERIFY_FULL) {
        rc = verify_full(run, opt->eager_limit, res, err);
    } else {
        rc = verify_stream(run, threads, res, err);
        /* Matched but not step-aligned: only the full engine can rule out deadlocks. */
        if (rc == 0 && res->ok && !res->deadlock_checked) {
            if (estimate < 0)
                estimate = verify_full_estimate(run);
            if (estimate <= opt->max_memory)
                rc = verify_full(run, opt->eager_limit, res, err);
        }
    }
    res->wall_s = wall_seconds() - t0;
    res->peak_rss_kb = peak_rss_kb();
    return rc;
}
