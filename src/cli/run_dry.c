/* run_dry.c - `collsim run --dry-run`: the plan, one line per point, and the points that
 * would fail on a dims mismatch (rank_shape.h), found before anything runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "sim/dims_check.h"
#include "sweep/sweep.h"
#include "traffic/workload.h"

/* Prints "point N (label): message" on stderr for each point whose explicit dims
 * contradict its rank-to-node mapping; returns how many. */
static size_t report_dims(const sweep_plan *plan)
{
    size_t n = sweep_plan_count(plan), bad = 0;
    dims_checker d;
    dims_checker_init(&d);
    for (size_t i = 0; i < n; i++) {
        const sweep_point *pt = sweep_plan_point(plan, i);
        if (pt->dims < 0 || !*sweep_plan_str(plan, pt->dims))
            continue; /* no dims given: the job's shape is taken, nothing to contradict */
        sim_config c;
        workload *w = NULL;
        cs_error err;
        int rc = sweep_point_config(plan, pt, &c, &w, &err);
        if (rc == 0)
            rc = dims_check(&d, &c, &err);
        if (w)
            workload_free(w);
        if (rc < 0 && strstr(err.msg, "do not match the rank-to-node mapping")) {
            char label[512];
            sweep_point_label(plan, pt, label, sizeof label);
            fprintf(stderr, "collsim run: --dry-run: point %zu (%s) would fail: %s\n", i, label,
                    err.msg);
            bad++;
        }
    }
    dims_checker_free(&d);
    return bad;
}

int run_dry(const sweep_plan *plan)
{
    size_t n = sweep_plan_count(plan);
    for (size_t i = 0; i < n; i++) {
        const sweep_point *pt = sweep_plan_point(plan, i);
        char label[512];
        sweep_point_label(plan, pt, label, sizeof label);
        printf("%zu\t%s\t%s\t%s\t%s\n", i, pt->id, sweep_plan_str(plan, pt->topology),
               sim_model_name(pt->model), label);
    }
    fflush(stdout);
    fprintf(stderr, "collsim run: %zu points (%zu duplicates dropped); --dry-run: nothing run\n",
            n, sweep_plan_facts(plan)->duplicates);
    size_t bad = report_dims(plan);
    if (bad == 0)
        return 0;
    fprintf(stderr, "collsim run: --dry-run: %zu point(s) would fail: their dims do not match "
                    "the rank-to-node mapping (docs/topologies.md \"Dimension order\")\n", bad);
    return EXIT_USAGE;
}
