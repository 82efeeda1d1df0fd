/* progress.c - telling the user how a sweep goes, on stderr (sweep_internal.h): one
 * rewritten status line on a terminal (points done / total, the point, ETA), one log line
 * per finished point otherwise. */
#include <stdio.h>

#include "common/util.h"
#include "sweep/sweep_internal.h"

void progress_init(progress *pr, progress_mode mode, size_t total, size_t done)
{
    pr->mode = mode;
    pr->total = total;
    pr->done = done;
    pr->done_at_start = done;
    pr->started = wall_seconds();
}

/* Seconds left, from the mean time per point of this run; < 0 when unknown. */
static double eta_seconds(const progress *pr)
{
    size_t ran = pr->done - pr->done_at_start;
    if (ran == 0)
        return -1;
    return (wall_seconds() - pr->started) / (double)ran * (double)(pr->total - pr->done);
}

void progress_point(progress *pr, const char *label, const char *status, double wall_s)
{
    pr->done++;
    if (pr->mode == PROGRESS_QUIET)
        return;
    double eta = eta_seconds(pr);
    if (pr->mode == PROGRESS_TTY) {
        fprintf(stderr, "\r\033[K[%zu/%zu] %s %s", pr->done, pr->total, label, status);
        if (eta >= 0)
            fprintf(stderr, "  ETA %.0f s", eta);
        if (pr->done == pr->total)
            fputc('\n', stderr);
    } else {
        fprintf(stderr, "collsim run: [%zu/%zu] %s: %s (%.2f s)\n", pr->done, pr->total, label,
                status, wall_s);
    }
    fflush(stderr);
}

void progress_end(progress *pr)
{
    if (pr->mode == PROGRESS_TTY && pr->done != pr->total)
        fputc('\n', stderr);
}
