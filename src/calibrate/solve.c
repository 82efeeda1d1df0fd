/* solve.c - the endpoint parameters from the latency fit and the stream fits.
 *
 *   bw          1 / slope of the one-way time (latency tables).
 *   envelope    e = c0 / c1 of a stream's wire-bound line tau = (s + e) / bw (the stream
 *               with the most wire-bound eager sizes); 0 when no stream reached the wire.
 *   eager_limit the size before the one-way time's step (fit_latency.c).
 *   latency     without factors the step is one round trip 2 (L + e / bw), so
 *               L = step / 2 - e / bw; with SMPI's factors L is fitted directly; with
 *               neither, osu_bibw's plateau gives o_s + o_r (below) and L is the rest of
 *               the zero-byte time.
 *   o_s + o_r   the zero-byte one-way time a = o_s + o_r + L + e / bw minus L + e / bw.
 *   split       a one-pair stream's plateau G1 = max(g, o_s, o_r); osu_bibw's plateau
 *               G2 = max(g, o_s + o_r) (each rank sends and receives); osu_mbw_mr with N
 *               pairs GN = max(g, max(o_s, o_r) / N). If G1 < o_s + o_r the stream was
 *               limited by the slower side: it gets G1, the other side the rest (which side
 *               is slower the tables cannot tell: --slower-side, default send); g then
 *               shows only with N pairs (GN above G1 / N), else it is 0 (not seen). If
 *               G1 >= o_s + o_r, or GN shows a g as large as G1, the NIC gap hid the
 *               overheads: g = GN or G1 and the sum is split by --send-share.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "calibrate/fit.h"

const char *const cal_param_names[CAL_NPARAMS] = {
    "latency", "bandwidth", "send_overhead", "recv_overhead", "msg_gap", "envelope",
    "eager_limit"};
enum { P_LAT, P_BW, P_OS, P_OR, P_GAP, P_ENV, P_EAGER };
#define TOL 0.02

typedef struct plateaus {
    double g1, g2, gn, env, env_c1;
    int npairs, env_points;
} plateaus;

static void warn(cal_fit *fit, const char *msg)
{
    if (fit->nwarnings < 4)
        snprintf(fit->warnings[fit->nwarnings++], sizeof fit->warnings[0], "%s", msg);
}

static void stream_plateaus(const cal_table *tables, size_t n, const lat_fit *l, plateaus *pl)
{
    *pl = (plateaus){-1, -1, -1, 0, 0, 1, 0};
    for (size_t t = 0; t < n; t++) {
        if (tables[t].kind != CAL_STREAM)
            continue;
        stream_fit sf;
        cal_fit_stream(&tables[t], l, &sf);
        if (sf.plateau > 0) {
            if (tables[t].bidir)
                pl->g2 = sf.plateau;
            else if (tables[t].pairs > 1)
                pl->gn = sf.plateau, pl->npairs = tables[t].pairs;
            else
                pl->g1 = sf.plateau;
        }
        if (sf.nwire > pl->env_points && sf.c1 > 0) {
            pl->env = sf.c0 / sf.c1;
            pl->env_c1 = sf.c1;
            pl->env_points = sf.nwire;
        }
    }
}

/* g from the N-pair message rate when it shows above the overheads' share; else -1. */
static double gap_from_pairs(const plateaus *pl, double slow)
{
    return pl->gn > 0 && pl->gn > slow / pl->npairs * (1 + TOL) ? pl->gn : -1;
}

static void split_by_share(cal_fit *fit, const cal_options *o, double sum, const char *why)
{
    fit->p.send_overhead = o->send_share * sum;
    fit->p.recv_overhead = (1 - o->send_share) * sum;
    snprintf(fit->how[P_OS], sizeof fit->how[0], "%.2f x (o_s + o_r = %.4gus): %s "
             "(--send-share)", o->send_share, sum * 1e6, why);
    snprintf(fit->how[P_OR], sizeof fit->how[0], "the rest of o_s + o_r");
}

static void split_overheads(cal_fit *fit, const cal_options *o, const plateaus *pl, double sum)
{
    cal_params *p = &fit->p;
    double g = pl->g1 > 0 ? gap_from_pairs(pl, pl->g1) : -1;
    if (pl->g1 > 0 && pl->g1 < sum * (1 - TOL) && pl->g1 > sum / 2 &&
        !(g > 0 && g >= pl->g1 * (1 - TOL))) {
        double slow = pl->g1, fast = sum - pl->g1;
        p->send_overhead = o->slower_recv ? fast : slow;
        p->recv_overhead = o->slower_recv ? slow : fast;
        snprintf(fit->how[P_OS], sizeof fit->how[0], "the %s side limits the one-pair stream "
                 "(plateau %.4gus, --slower-side); o_s + o_r = %.4gus from the one-way time",
                 o->slower_recv ? "receiving" : "sending", pl->g1 * 1e6, sum * 1e6);
        snprintf(fit->how[P_OR], sizeof fit->how[0], "o_s + o_r minus the slower side");
        p->msg_gap = g > 0 ? g : 0;
        if (g > 0)
            snprintf(fit->how[P_GAP], sizeof fit->how[0], "plateau of the %d-pair message rate",
                     pl->npairs);
        else
            snprintf(fit->how[P_GAP], sizeof fit->how[0], "not seen (any g <= %.4gus fits: the "
                     "overheads limit the streams); written as 0", slow * 1e6);
        return;
    }
    if (pl->g1 > 0 && (pl->g1 >= sum * (1 - TOL) || g > 0)) {
        p->msg_gap = g > 0 ? g : pl->g1;
        split_by_share(fit, o, sum, "the NIC gap hides them in the streams");
        snprintf(fit->how[P_GAP], sizeof fit->how[0], "plateau of the %s",
                 g > 0 ? "several-pair message rate" : "one-pair stream");
        return;
    }
    p->msg_gap = 0;
    split_by_share(fit, o, sum, "the tables cannot split the sum");
    snprintf(fit->how[P_GAP], sizeof fit->how[0], pl->g1 > 0 ? "not seen (the stream's "
             "plateau is below (o_s + o_r) / 2: overheads overlap); written as 0"
             : "not measured (no one-pair stream with small sizes); written as 0");
    if (pl->g1 > 0)
        warn(fit, "the one-pair stream is faster than (o_s + o_r) / 2: the endpoint model "
                  "serialises overheads, the measured system overlaps them");
}

/* Latency and o_s + o_r; returns the sum. */
static double latency_and_sum(cal_fit *fit, const lat_fit *l, const plateaus *pl)
{
    cal_params *p = &fit->p;
    double wire_env = p->envelope / p->bandwidth, sum;
    if (l->factors == CAL_FACTORS_SMPI) {
        p->latency = l->lat;
        sum = l->a; /* the envelope's wire time is in the size column */
        snprintf(fit->how[P_LAT], sizeof fit->how[0], "fitted with SMPI's latency factors");
    } else if (l->eager >= 0) {
        p->latency = l->step / 2 - wire_env;
        sum = l->a - l->step / 2;
        snprintf(fit->how[P_LAT], sizeof fit->how[0], "half the rendezvous step (%.4gus) minus "
                 "envelope / bandwidth", l->step * 1e6);
    } else if (pl->g2 > 0 && (pl->g1 < 0 || pl->g2 > pl->g1 * (1 + TOL))) {
        sum = pl->g2;
        p->latency = l->a - sum - wire_env;
        snprintf(fit->how[P_LAT], sizeof fit->how[0], "zero-byte time minus o_s + o_r (osu_bibw "
                 "plateau) and envelope / bandwidth");
    } else {
        sum = 0;
        p->latency = l->a - wire_env;
        snprintf(fit->how[P_LAT], sizeof fit->how[0], "the whole zero-byte time: not separable "
                 "from o_s + o_r (no rendezvous step, no osu_bibw plateau)");
        warn(fit, "o_s + o_r set to 0: give an osu_bibw table or sizes above the eager limit");
    }
    if (p->latency < 0) {
        warn(fit, "the fitted latency was negative; set to 0");
        p->latency = 0;
    }
    if (sum < 0) {
        warn(fit, "the fitted o_s + o_r was negative; set to 0");
        sum = 0;
    }
    return sum;
}

int cal_fit_tables(const cal_table *tables, size_t n, const cal_options *o, cal_fit *fit,
                   cs_error *err)
{
    memset(fit, 0, sizeof *fit);
    lat_fit l;
    if (cal_fit_latency(tables, n, o->factors, &l, err) < 0)
        return -1;
    if (l.inv_bw <= 0)
        return cs_fail(err, "the one-way time does not grow with the size (slope %.3g s/B): "
                       "no bandwidth to fit", l.inv_bw);
    cal_params *p = &fit->p;
    p->bandwidth = 1 / l.inv_bw;
    snprintf(fit->how[P_BW], sizeof fit->how[0], "slope of the one-way time%s",
             o->factors == CAL_FACTORS_SMPI ? " with SMPI's bandwidth factors" : "");
    plateaus pl;
    stream_plateaus(tables, n, &l, &pl);
    if (o->factors == CAL_FACTORS_SMPI) {
        p->envelope = l.env;
        snprintf(fit->how[P_ENV], sizeof fit->how[0], "the envelope that puts the one-way "
                 "time's sizes on SMPI's factor thresholds best");
    } else {
        p->envelope = pl.env_points ? fmax(pl.env, 0) : 0;
        snprintf(fit->how[P_ENV], sizeof fit->how[0], pl.env_points ? "intercept x bandwidth of "
                 "the stream's wire-bound sizes (%d points)" : "not measured (no stream reached "
                 "the wire); written as 0", pl.env_points);
    }
    p->eager_limit = l.eager;
    snprintf(fit->how[P_EAGER], sizeof fit->how[0], l.eager >= 0 ? "last size before the "
             "one-way time's step (the limit is below the next measured size)"
             : "no rendezvous step: every measured size was eager");
    double sum = latency_and_sum(fit, &l, &pl);
    split_overheads(fit, o, &pl, sum);
    return 0;
}
