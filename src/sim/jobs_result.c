/* jobs_result.c - a job's row: the sim_row columns, then job start_s reps alone_time_s
 * slowdown (jobs.h, docs/results.md). NAN is an empty CSV field and null in JSON. */
#include <math.h>
#include <string.h>

#include "common/json.h"
#include "sim/jobs.h"

static void number(FILE *f, double x, const char *empty)
{
    if (isnan(x))
        fputs(empty, f);
    else
        fprintf(f, "%.10g", x);
}

const char *const job_column_names[JOB_NCOLUMNS] = {"job", "start_s", "reps", "alone_time_s",
                                                    "slowdown"};

void job_result_csv_header(FILE *f)
{
    sim_row_csv_header_fields(f);
    for (int i = 0; i < JOB_NCOLUMNS; i++)
        fprintf(f, ",%s", job_column_names[i]);
    fputc('\n', f);
}

void job_result_csv_columns(FILE *f, const job_result *r)
{
    fprintf(f, ",%s,", r->job); /* job names hold no comma or quote (job_spec_parse) */
    number(f, r->start_s, "");
    fprintf(f, ",%d,", r->reps);
    number(f, r->alone_s, "");
    fputc(',', f);
    number(f, r->slowdown, "");
}

void job_result_csv(FILE *f, const job_result *r)
{
    sim_row_csv_fields(f, &r->row);
    job_result_csv_columns(f, r);
    fputc('\n', f);
}

void job_result_json(FILE *f, const job_result *r)
{
    fputc('{', f);
    sim_row_json_fields(f, &r->row);
    fputs(",\"job\":", f);
    json_write_string(f, r->job);
    fputs(",\"start_s\":", f);
    number(f, r->start_s, "null");
    fprintf(f, ",\"reps\":%d,\"alone_time_s\":", r->reps);
    number(f, r->alone_s, "null");
    fputs(",\"slowdown\":", f);
    number(f, r->slowdown, "null");
    fputs("}\n", f);
}

void job_result_text(FILE *f, const job_result *r)
{
    fprintf(f, "job %s (start %g s, %d repetition%s)\n", r->job, r->start_s, r->reps,
            r->reps == 1 ? "" : "s");
    sim_row_text(f, &r->row);
    if (!isnan(r->alone_s)) {
        char us[32];
        snprintf(us, sizeof us, "%.4g us", r->alone_s * 1e6);
        fprintf(f, "  %-13s %-12s the job alone on its hosts: slowdown %.4f\n", "alone", us,
                r->slowdown);
    }
    fputc('\n', f);
}
