/* predict.c - what the endpoint model says a table should show, for the residuals
 * (calibrate.h): the one-way time of one message, and a stream window's time per message
 * (fit_stream.c: T = (N W - 1) tau + T1(s) + T1(ack)). */
#include <math.h>

#include "calibrate/calibrate.h"

static double one_way(const cal_params *p, cal_factors f, double s)
{
    double w = s + p->envelope; /* bytes on the wire */
    double t = p->send_overhead + p->recv_overhead + p->latency * cal_lat_factor(f, w) +
               w / (p->bandwidth * cal_bw_factor(f, w));
    if (p->eager_limit >= 0 && s > p->eager_limit)
        t += 2 * (p->latency + p->envelope / p->bandwidth);
    return t;
}

double cal_predict(const cal_params *p, cal_factors f, const cal_table *t, double s)
{
    if (t->kind == CAL_LATENCY)
        return one_way(p, f, s);
    double w = s + p->envelope;
    double wire = w / (p->bandwidth * cal_bw_factor(f, w)), cpu;
    if (t->bidir)
        cpu = p->send_overhead + p->recv_overhead;
    else
        cpu = fmax(p->send_overhead, p->recv_overhead) / t->pairs;
    double tau = fmax(fmax(p->msg_gap, cpu), wire);
    double msgs = (double)t->pairs * t->window;
    double total = (msgs - 1) * tau + one_way(p, f, s);
    if (t->source == CAL_OSU_BW || t->source == CAL_OSU_MBW_MR)
        total += one_way(p, f, 4);
    return total / msgs;
}
