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
 * the slower side's overhead: see solve.c), the line is the wire. The fit tries every
 * split of the sizes into a plateau (the smaller sizes: their weighted mean) and a line
 * (the larger sizes: weighted least squares of tau on s / psi(s), at least 3 points), and
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

/* The line over points [k, n): its SSE, or -1 when it cannot be fitted. */
static double fit_line(const double *s, const double *tau, size_t k, size_t n, const lat_fit *l,
                       double *c)
{
    size_t m = n - k;
    double *x = xmalloc(2 * m * sizeof *x), *w = xmalloc(m * sizeof *w);
    for (size_t i = 0; i < m; i++) {
        x[2 * i] = 1;
        x[2 * i + 1] = s[k + i] / cal_bw_factor(l->factors, s[k + i] + l->env);
        w[i] = 1 / (tau[k + i] * tau[k + i]);
    }
    double sse = lsq_solve(x, tau + k, w, m, 2, c);
    free(x);
    free(w);
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
        if (n - k != 0 && n - k < 3)
            continue;
        double g = -1, c[2] = {0, 0}, sse = 0;
        if (k > 0)
            sse += fit_plateau(tau, k, &g);
        if (n - k > 0) {
            double e = fit_line(s, tau, k, n, l, c);
            if (e < 0)
                continue;
            sse += e;
        }
        int params = (k > 0) + 2 * (n - k > 0);
        double bic = (double)n * log(sse / (double)n + 1e-30) + params * log((double)n);
        if (bic < best) {
            best = bic;
            *out = (stream_fit){g, c[0], c[1], (int)k, (int)(n - k)};
        }
    }
    free(s);
    free(tau);
}
