/* fit_latency.c - the one-way time of one message against its size.
 *
 * The endpoint model's one-way time is o_s + o_r + L + (s + e) / bw below the eager limit
 * and the same plus one round trip 2 (L + e / bw) above it: two parallel lines. Every
 * latency point enters one weighted least-squares fit of
 *     T1(s) = a + s / bw + step * [s > E]
 * (weights 1 / T1^2: relative errors count, so the 0 B point weighs as much as 16 MiB).
 * E is not a parameter of a linear fit, so the fit is repeated for every measured size as
 * E (and for no step at all) and the smallest residual wins; a step must be positive and
 * must explain far more than the noise (F-ratio > 25) to be accepted. The measured sizes
 * bound the eager limit only to [E, next size): E is reported.
 * With SMPI's factors, L is a separate column (its factor phi varies with the size), the
 * size column is (s + e) / psi(s + e), and the envelope e decides which factor a size gets:
 * the fit is repeated for every whole e from 0 to 1024 B and the smallest residual wins
 * (SMPI's own envelope is 16 B). No step is sought then: SMPI's rendezvous (a blocking send
 * of 64 KiB or more waits for the receiver) adds no handshake time to a ping-pong. */
#include <math.h>
#include <stdlib.h>

#include "calibrate/fit.h"
#include "calibrate/lsq.h"
#include "common/util.h"

double cal_lat_eval(const lat_fit *l, double bytes)
{
    double w = bytes + l->env;
    double t = l->a + l->lat * cal_lat_factor(l->factors, w) +
               (l->factors == CAL_FACTORS_SMPI ? w : bytes) / cal_bw_factor(l->factors, w) *
                   l->inv_bw;
    return l->eager >= 0 && bytes > l->eager ? t + l->step : t;
}

typedef struct rows {
    double *x, *y, *w, *s;
    size_t n;
    int k; /* columns without the step */
} rows;

static void fill_rows(rows *r, cal_factors f, double env, double eager)
{
    int k = r->k + (eager >= 0);
    for (size_t i = 0; i < r->n; i++) {
        double *x = r->x + i * (size_t)k, s = r->s[i] + env;
        int j = 0;
        x[j++] = 1;
        if (f == CAL_FACTORS_SMPI)
            x[j++] = cal_lat_factor(f, s);
        x[j++] = s / cal_bw_factor(f, s);
        if (eager >= 0)
            x[j] = s > eager;
    }
}

/* Fits with the step after `eager` (-1: none); returns the SSE or -1. */
static double fit_with(rows *r, cal_factors f, double env, double eager, lat_fit *out)
{
    double c[LSQ_MAX];
    fill_rows(r, f, env, eager);
    double sse = lsq_solve(r->x, r->y, r->w, r->n, r->k + (eager >= 0), c);
    if (sse < 0)
        return -1;
    int j = 0;
    out->a = c[j++];
    out->lat = f == CAL_FACTORS_SMPI ? c[j++] : 0;
    out->inv_bw = c[j++];
    out->step = eager >= 0 ? c[j] : 0;
    out->eager = eager;
    out->env = env;
    out->factors = f;
    return sse;
}

static void collect(const cal_table *tables, size_t n, rows *r)
{
    size_t total = 0;
    for (size_t t = 0; t < n; t++)
        if (tables[t].kind == CAL_LATENCY)
            total += tables[t].n;
    r->x = xmalloc(total * (LSQ_MAX + 1) * sizeof *r->x);
    r->y = xmalloc(total * sizeof *r->y);
    r->w = xmalloc(total * sizeof *r->w);
    r->s = xmalloc(total * sizeof *r->s);
    r->n = 0;
    for (size_t t = 0; t < n; t++)
        for (size_t i = 0; tables[t].kind == CAL_LATENCY && i < tables[t].n; i++) {
            r->s[r->n] = tables[t].pts[i].bytes;
            r->y[r->n] = tables[t].pts[i].seconds;
            r->w[r->n] = 1 / (r->y[r->n] * r->y[r->n]);
            r->n++;
        }
}

int cal_fit_latency(const cal_table *tables, size_t n, cal_factors f, lat_fit *out,
                    cs_error *err)
{
    rows r;
    collect(tables, n, &r);
    r.k = f == CAL_FACTORS_SMPI ? 3 : 2;
    double sse0 = r.n >= (size_t)r.k ? fit_with(&r, f, 0, -1, out) : -1;
    for (int env = 1; f == CAL_FACTORS_SMPI && sse0 >= 0 && env <= 1024; env++) {
        lat_fit cand;
        double sse = fit_with(&r, f, env, -1, &cand);
        if (sse >= 0 && sse < sse0)
            sse0 = sse, *out = cand;
    }
    int rc = 0;
    if (sse0 < 0) {
        rc = cs_fail(err, "the latency tables do not determine a latency and a bandwidth "
                     "(%zu points; need at least %d sizes%s)", r.n, r.k,
                     f == CAL_FACTORS_SMPI ? " on both sides of SMPI's factor thresholds" : "");
    } else if (r.n > (size_t)r.k + 2 && f != CAL_FACTORS_SMPI) {
        lat_fit best = *out, cand;
        double best_sse = sse0;
        for (size_t i = 0; i < r.n; i++) {
            double sse = fit_with(&r, f, out->env, r.s[i], &cand);
            if (sse >= 0 && sse < best_sse && cand.step > 0)
                best = cand, best_sse = sse;
        }
        double dof = (double)r.n - r.k - 1;
        if (best.eager >= 0 && (sse0 - best_sse) > 25 * (best_sse / dof) &&
            best.step > 1e-3 * cal_lat_eval(&best, best.eager))
            *out = best;
    }
    free(r.x);
    free(r.y);
    free(r.w);
    free(r.s);
    return rc;
}
