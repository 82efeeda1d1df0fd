/* fit_stream.c - a stream's time per message against its size.
 *
 * A window of W back-to-back messages (per pair; N pairs) takes, from the first send to the
 * receiver's acknowledgement, T = (N W - 1) tau + T1(s) + T1(ack): the first message's
 * one-way time, one steady-state interval tau per further message, and OSU's 4-byte
 * acknowledgement (osu_bw, osu_mbw_mr; osu_bibw and CSV streams have none, and osu_bibw's
 * W messages per direction overlap the other direction's). With T1 from the latency fit,
 * tau = (N W tau_measured - T1(s) - T1(ack)) / (N W - 1).
 *
 * In the endpoint model tau = max(G, (s + e) / bw): G is the endpoints' limit (msg_gap, or
 * the slower side's overhead: see solve.c), the line is the wire, its slope 1 / bw from
 * the latency fit. The fit tries every split of the sizes into a plateau (the smaller
 * sizes: their weighted mean) and a line (the larger sizes, at least 2: the weighted mean
 * of tau - s / bw is its intercept e / bw), and
 * keeps the split with the smallest Bayesian information criterion (residual and number of
 * parameters). Sizes above the eager limit are left out of the line: their handshake adds
 * its own envelope on the wire. */
#include <math.h>
#include <stdlib.h>

#include "calibrate/fit.h"
#include "calibrate/lsq.h"
#include "common/util.h"

enum { OSU_ACK_BYTES = 4 };

static double steady_tau(const cal_table *t, const lat_fit *l, double bytes, double measured)
{
    double msgs = (double)t->pairs * t->window;
    double fixed = cal_lat_eval(l, bytes);
    if (t->source == CAL_OSU_BW || t->source == CAL_OSU_MBW_MR)
        fixed += cal_lat_eval(l, OSU_ACK_BYTES);
    if (msgs <= 1)
        return measured;
    double tau = (msgs * measured - fixed) / (msgs - 1);
    return tau > 0 ? tau : measured;
}

/* The line over points [k, n) with the latency fit's slope: its intercept c0 (the
 * weighted mean of tau - s / bw) and SSE. */
static double fit_line(const double *s, const double *tau, size_t k, size_t n, const lat_fit *l,
                       double *c0)
{
    double sw = 0, swr = 0, sse = 0;
    for (size_t i = k; i < n; i++) {
        double w = 1 / (tau[i] * tau[i]);
        double r = tau[i] - s[i] / cal_bw_factor(l->factors, s[i] + l->env) * l->inv_bw;
        sw += w;
        swr += w * r;
    }
    *c0 = swr / sw;
    for (size_t i = k; i < n; i++) {
        double r = tau[i] - s[i] / cal_bw_factor(l->factors, s[i] + l->env) * l->inv_bw - *c0;
        sse += r * r / (tau[i] * tau[i]);
    }
    return sse;
}

static double fit_plateau(const double *tau, size_t k, double *g)
{
    double sw = 0, swy = 0, sse = 0;
    for (size_t i = 0; i < k; i++) {
        sw += 1 / (tau[i] * tau[i]);
        swy += 1 / tau[i];
    }
    *g = swy / sw;
    for (size_t i = 0; i < k; i++)
        sse += (tau[i] - *g) * (tau[i] - *g) / (tau[i] * tau[i]);
    return sse;
}

void cal_fit_stream(const cal_table *t, const lat_fit *l, stream_fit *out)
{
    double *s = xmalloc(t->n * sizeof *s), *tau = xmalloc(t->n * sizeof *tau);
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (l->eager >= 0 && t->pts[i].bytes > l->eager)
            break;
        s[n] = t->pts[i].bytes;
        tau[n] = steady_tau(t, l, s[n], t->pts[i].seconds);
        n++;
    }
    *out = (stream_fit){-1, 0, 0, 0, 0};
    double best = INFINITY;
    for (size_t k = 0; k <= n; k++) { /* [0, k) plateau, [k, n) line */
        if (n - k == 1)
            continue;
        double g = -1, c0 = 0, sse = 0;
        if (k > 0)
            sse += fit_plateau(tau, k, &g);
        if (n - k > 0)
            sse += fit_line(s, tau, k, n, l, &c0);
        int params = (k > 0) + (n - k > 0);
        double bic = (double)n * log(sse / (double)n + 1e-30) + params * log((double)n);
        if (bic < best) {
            best = bic;
            *out = (stream_fit){g, c0, n - k > 0 ? l->inv_bw : 0, (int)k, (int)(n - k)};
        }
    }
    free(s);
    free(tau);
}
