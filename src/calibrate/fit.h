/* fit.h - the two curve fits behind cal_fit_tables (fit_latency.c, fit_stream.c). */
#ifndef COLLSIM_CAL_FIT_H
#define COLLSIM_CAL_FIT_H

#include "calibrate/calibrate.h"

/* One-way time T1(s) = a + lat * phi(s + env) + (s + env) / psi(s + env) / bw
 *                     + step * [s > eager]
 * (phi, psi: the factors; lat is 0 without factors, where it is part of a, and so is env
 * / bw: env is fitted here only with factors, where it moves sizes across thresholds). */
typedef struct lat_fit {
    double a, lat, inv_bw, step, env;
    double eager; /* the largest size before the step; -1: no step */
    cal_factors factors;
} lat_fit;

int cal_fit_latency(const cal_table *tables, size_t n, cal_factors f, lat_fit *out,
                    cs_error *err);
double cal_lat_eval(const lat_fit *l, double bytes);

/* A stream's time per message tau(s) = max(plateau, c0 + c1 * s / psi(s)). */
typedef struct stream_fit {
    double plateau;  /* -1: no size was limited by the endpoints */
    double c0, c1;   /* c1 = 0: no size was limited by the wire */
    int nplateau, nwire;
} stream_fit;

/* The per-message time of table t in steady state (the window's fill and drain, T1 from
 * the latency fit, taken out), then the two-piece fit. */
void cal_fit_stream(const cal_table *t, const lat_fit *l, stream_fit *out);

#endif
