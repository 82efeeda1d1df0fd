/* report.c - the fit printed for people: each parameter with how it was determined, then
 * every table's points with the model's value and the relative residual. */
#include <math.h>

#include "calibrate/calibrate.h"

static void print_value(FILE *out, int i, const cal_params *p)
{
    const double v[CAL_NPARAMS] = {p->latency, p->bandwidth, p->send_overhead,
                                   p->recv_overhead, p->msg_gap, p->envelope, p->eager_limit};
    if (i == 1)
        fprintf(out, "%-14s %12.6g GBps", cal_param_names[i], v[i] / 1e9);
    else if (i >= 5 && v[i] < 0)
        fprintf(out, "%-14s %12s     ", cal_param_names[i], "none");
    else if (i >= 5)
        fprintf(out, "%-14s %12.6g B   ", cal_param_names[i], v[i]);
    else
        fprintf(out, "%-14s %12.6g us  ", cal_param_names[i], v[i] * 1e6);
}

void cal_report(FILE *out, const cal_fit *fit, cal_factors f, const cal_table *tables,
                size_t n)
{
    fprintf(out, "# parameters (%s)\n",
            f == CAL_FACTORS_SMPI ? "link latency and bandwidth under SMPI's default factors"
                                  : "latency: the whole route; bandwidth: its bottleneck");
    for (int i = 0; i < CAL_NPARAMS; i++) {
        print_value(out, i, &fit->p);
        fprintf(out, "  %s\n", fit->how[i]);
    }
    for (int i = 0; i < fit->nwarnings; i++)
        fprintf(out, "# warning: %s\n", fit->warnings[i]);
    for (size_t t = 0; t < n; t++) {
        const cal_table *tb = &tables[t];
        fprintf(out, "# residuals: %s (%s, %s%s)\n", tb->path, cal_source_name(tb->source),
                tb->kind == CAL_LATENCY ? "one-way time" : "time per message",
                tb->pairs > 1 ? ", several pairs" : "");
        fprintf(out, "%12s %14s %14s %9s\n", "bytes", "measured_us", "model_us", "error_%");
        double worst = 0;
        for (size_t i = 0; i < tb->n; i++) {
            double m = tb->pts[i].seconds;
            double pr = cal_predict(&fit->p, f, tb, tb->pts[i].bytes);
            double e = (pr - m) / m * 100;
            worst = fmax(worst, fabs(e));
            fprintf(out, "%12.0f %14.6g %14.6g %+9.3f\n", tb->pts[i].bytes, m * 1e6, pr * 1e6, e);
        }
        fprintf(out, "# largest |error| %.3f %%\n", worst);
    }
}
