/* plan_skips.c - algorithms = "all": the points whose algorithm's constraints the point
 * does not meet are left out of the plan, and each such algorithm is noted once with the
 * reason (sweep_plan_skipped), instead of one error row per point. */
#include <stdio.h>
#include <string.h>

#include "algorithms/registry.h"
#include "common/util.h"
#include "sweep/sweep_internal.h"

/* Can the constraints be checked before the run? Not for algorithms that take their
 * shape from the placement (ALG_READS_DIMS) or points with a shape, nor for alltoallv
 * (its workload is made at run time): those points stay and run. */
static int checkable(const alg_desc *d, const sweep_point *pt, const sweep_plan *p)
{
    return !(d->flags & ALG_READS_DIMS) && pt->coll != COLL_ALLTOALLV &&
           sweep_plan_str(p, pt->dims)[0] == '\0';
}

/* Notes "algorithm: reason" once per algorithm (the first reason met). */
static void note_skip(sweep_plan *p, const char *name, const char *reason)
{
    for (size_t i = 0; i < p->nskipped; i++)
        if (strcmp(p->skipped[i].name, name) == 0) {
            p->skipped[i].points++;
            return;
        }
    VEC_RESERVE(p->skipped, p->skipped_cap, p->nskipped + 1);
    plan_skip *s = &p->skipped[p->nskipped++];
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->reason, sizeof s->reason, "%s", reason);
    s->points = 1;
}

int plan_meets_constraints(sweep_plan *p, const sweep_point *pt)
{
    const char *name = sweep_plan_str(p, pt->algorithm);
    const alg_desc *d = registry_find(p->algorithms.n ? &p->algorithms : NULL, pt->coll, name,
                                      NULL);
    if (!d || !checkable(d, pt, p))
        return 1;
    coll_spec s;
    cs_error err;
    coll_spec_init(&s, pt->coll, pt->ranks, pt->bytes);
    s.root = pt->root;
    s.dst = pt->dst;
    s.ranks_per_node = pt->ranks_per_node;
    alg_run run;
    if (coll_spec_set_params(&s, sweep_plan_str(p, pt->params), &err) == 0 &&
        alg_run_prepare(&run, d, &s, &err) == 0) {
        alg_run_release(&run);
        return 1;
    }
    char reason[600];
    snprintf(reason, sizeof reason, "P=%d: %s", pt->ranks, err.msg);
    note_skip(p, name, reason);
    return 0;
}

size_t sweep_plan_skipped(const sweep_plan *p, char *buf, size_t n)
{
    size_t len = 0;
    if (n)
        buf[0] = '\0';
    for (size_t i = 0; i < p->nskipped && len < n; i++)
        len += (size_t)snprintf(buf + len, n - len, "  %s: %s (%d point%s)\n",
                                p->skipped[i].name, p->skipped[i].reason,
                                p->skipped[i].points, p->skipped[i].points == 1 ? "" : "s");
    return p->nskipped;
}
