/* auto_pass.c - model = "auto" in a sweep: whether a second-pass point runs (sweep.h,
 * docs/scenarios.md "model = auto").
 *
 * A second-pass point runs when its first-pass (analytic) time is within auto_factor of
 * the best first-pass time of its group: the points that differ only in algorithm,
 * params and dims. It is decided once every first-pass point of the group has a row;
 * first-pass points that failed do not count as the best, and a second pass whose own
 * first pass failed is skipped. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sweep/sweep_internal.h"

int sweep_auto_decide(const sweep_plan *p, const point_record *rec, const size_t *indices,
                      size_t n, size_t pos, char *why, size_t len)
{
    const sweep_point *second = sweep_plan_point(p, indices[pos]);
    double best = INFINITY, mine = NAN;
    int mine_done = 0;
    for (size_t i = 0; i < n; i++) {
        const sweep_point *q = sweep_plan_point(p, indices[i]);
        if (q->auto_pass != 1 || q->auto_group != second->auto_group)
            continue;
        if (!rec[i].status[0])
            return -1; /* a first pass of the group has no row yet */
        int ok = strcmp(rec[i].status, "ok") == 0 && isfinite(rec[i].time_s);
        if (ok && rec[i].time_s < best)
            best = rec[i].time_s;
        if ((int64_t)indices[i] == second->auto_first) {
            mine_done = 1;
            mine = ok ? rec[i].time_s : NAN;
        }
    }
    if (!mine_done || isnan(mine)) {
        snprintf(why, len, "auto: not run, its first pass (analytic) has no time");
        return 0;
    }
    if (mine <= best * second->auto_factor)
        return 1;
    snprintf(why, len, "auto: not run, its first pass (analytic) took %.3g s, %.3gx the best "
                       "of its group (auto_factor %g)", mine, mine / best, second->auto_factor);
    return 0;
}
