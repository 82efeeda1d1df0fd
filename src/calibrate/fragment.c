/* fragment.c - the preset fragment `collsim calibrate --output frag.yaml` writes: the
 * endpoint keys (send_overhead, recv_overhead, msg_gap, envelope, eager_limit) with units,
 * and the fitted latency and bandwidth as comments (they are per route, a preset's link
 * keys are per link: which links they go to is the preset's choice). A preset includes it
 * with `include: frag.yaml`. Written all or nothing (atomic_file.h). */
#include <math.h>

#include "calibrate/calibrate.h"
#include "common/atomic_file.h"

/* Times in ns with three decimals ("1200.000ns"): exact enough, one unit to read. */
static void put_time(FILE *f, const char *key, double s, const char *how)
{
    fprintf(f, "%s: %.3fns   # %s\n", key, s * 1e9, how);
}

int cal_write_fragment(const char *path, const cal_fit *fit, cal_factors fac,
                       const char *const *inputs, size_t ninputs, cs_error *err)
{
    atomic_file a;
    if (atomic_file_open(&a, path, err) < 0)
        return -1;
    FILE *f = a.f;
    const cal_params *p = &fit->p;
    fprintf(f, "# Endpoint costs fitted by `collsim calibrate` from:\n");
    for (size_t i = 0; i < ninputs; i++)
        fprintf(f, "#   %s\n", inputs[i]);
    fprintf(f, "# Fitted route latency %.3fns and bandwidth %.6gGBps (%s): put them in the\n"
               "# preset's link keys (host_lat, local_lat, ..., host_bw) as its routes need.\n",
            p->latency * 1e9, p->bandwidth / 1e9,
            fac == CAL_FACTORS_SMPI ? "link values under SMPI's default factors, --model smpi"
                                    : "whole route, all hops");
    for (int i = 0; i < fit->nwarnings; i++)
        fprintf(f, "# warning: %s\n", fit->warnings[i]);
    put_time(f, "send_overhead", p->send_overhead, fit->how[2]);
    put_time(f, "recv_overhead", p->recv_overhead, fit->how[3]);
    put_time(f, "msg_gap", p->msg_gap, fit->how[4]);
    fprintf(f, "envelope: %.0fB   # %s\n", round(p->envelope), fit->how[5]);
    if (p->eager_limit >= 0)
        fprintf(f, "eager_limit: %.0fB   # %s\n", p->eager_limit, fit->how[6]);
    else
        fprintf(f, "# eager_limit: not written: %s\n", fit->how[6]);
    return atomic_file_commit(&a, 1, err);
}
