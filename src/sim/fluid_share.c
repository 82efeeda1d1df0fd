/* fluid_share.c - the fluid network's bandwidth sharing (fluid.h): weighted max-min
 * fairness by progressive filling, over the flows that share a resource, transitively,
 * with the resources an instant changed (the others keep their rates: their shares do not
 * depend on the change).
 *
 * Every active flow f has the weight 1 / penalty(f) on each resource of its route. The
 * level of a resource is remaining / usage (its capacity not yet given, over the weights
 * of its flows not yet fixed). Repeatedly: the flow with the smallest bound x penalty
 * below the smallest level gets its bound; else every unfixed flow of the resource of the
 * smallest level gets level / penalty. Fixing a flow takes its rate from each resource
 * of its route; a resource whose remaining falls below maxmin/precision x bandwidth is
 * saturated (SimGrid's double_update), its other flows are fixed by their other
 * resources. This is maxmin.cpp's result; only the order of the floating-point sums
 * differs (levels only grow, so a heap of resources by level replaces its scans).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/util.h"
#include "sim/fluid_internal.h"

static double level(const fl_res *r)
{
    return r->level;
}

/* remaining / usage, computed once per change rather than at every comparison. */
static void set_level(fl_res *r)
{
    r->level = r->remaining / r->usage;
}

/* ---- the heap of resources by level, and of bounded flows by bound x penalty --------- */

/* Entries carry a copy of their resource's level (refreshed with it: fix), so that
 * comparisons read the heap's own array, not the resources spread over the network. */
static int res_before(const fl_rent *a, const fl_rent *b)
{
    return a->level < b->level || (a->level == b->level && a->id < b->id);
}

static void res_swap(fl_net *fl, int64_t i, int64_t j)
{
    fl_rent *h = fl->rheap, x = h[i];
    h[i] = h[j];
    h[j] = x;
    fl->res[h[i].id].heap = (int32_t)i;
    fl->res[h[j].id].heap = (int32_t)j;
}

static int64_t res_down(fl_net *fl, int64_t i, int64_t n)
{
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            return i;
        if (c + 1 < n && res_before(&fl->rheap[c + 1], &fl->rheap[c]))
            c++;
        if (!res_before(&fl->rheap[c], &fl->rheap[i]))
            return i;
        res_swap(fl, i, c);
        i = c;
    }
}

/* Entry i of a valid heap changed its level: down, then up. (Building the heap uses
 * res_down alone: moving up into the part not yet built would break it.) */
static void res_sift(fl_net *fl, int64_t i, int64_t n)
{
    i = res_down(fl, i, n);
    while (i > 0 && res_before(&fl->rheap[i], &fl->rheap[(i - 1) / 2])) {
        res_swap(fl, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void res_remove(fl_net *fl, int64_t *n, int32_t r)
{
    int64_t i = fl->res[r].heap;
    fl->res[r].heap = -1;
    fl_rent last = fl->rheap[--*n];
    if (i == *n)
        return;
    fl->rheap[i] = last;
    fl->res[last.id].heap = (int32_t)i;
    res_sift(fl, i, *n);
}

static double blevel(const fl_flow *f)
{
    return f->bound * f->penalty;
}

static int cmp_bkey(const void *a, const void *b)
{
    const fl_bkey *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key ? 1 : (x->id > y->id) - (x->id < y->id);
}

/* ---- SimGrid's modified set ----------------------------------------------------------- */

static void add_modified(fl_net *fl, int32_t r)
{
    fl->res[r].inset = fl->round;
    if (fl->ncomp_res == fl->cap_comp_res) {
        fl->cap_comp_res = fl->cap_comp_res ? 2 * fl->cap_comp_res : 256;
        fl->comp_res = xrealloc(fl->comp_res, (size_t)fl->cap_comp_res * sizeof *fl->comp_res);
        fl->rheap = xrealloc(fl->rheap, (size_t)fl->cap_comp_res * sizeof *fl->rheap);
    }
    fl->comp_res[fl->ncomp_res++] = r;
}

/* Flow id was enabled or is about to leave: its resources changed. */
void fl_mark_modified(fl_net *fl, int32_t id)
{
    for (int k = 0; k < fl->flows[id].nres; k++) {
        int32_t r = fl->hop_res[(int64_t)id * fl->maxh + k];
        if (fl->res[r].inset != fl->round)
            add_modified(fl, r);
    }
}

static void comp_add_flow(fl_net *fl, int32_t id)
{
    if (fl->ncomp_flow == fl->cap_comp_flow) {
        fl->cap_comp_flow = fl->cap_comp_flow ? 2 * fl->cap_comp_flow : 256;
        fl->comp_flow = xrealloc(fl->comp_flow, (size_t)fl->cap_comp_flow * sizeof *fl->comp_flow);
        fl->bheap = xrealloc(fl->bheap, (size_t)fl->cap_comp_flow * sizeof *fl->bheap);
    }
    fl->comp_flow[fl->ncomp_flow++] = id;
}

/* The flows to solve: every active flow on a changed resource, the other resources of
 * those flows, their flows, and so on (the resources join fl->comp_res as they are met). */
static void component(fl_net *fl)
{
    fl->ncomp_flow = 0;
    for (int64_t i = 0; i < fl->ncomp_res; i++) {
        const fl_res *r = &fl->res[fl->comp_res[i]];
        for (int32_t j = 0; j < r->n; j++) {
            int32_t id = r->flows[j];
            fl_flow *f = &fl->flows[id];
            if (f->mark == fl->round)
                continue;
            f->mark = fl->round;
            comp_add_flow(fl, id);
            for (int k = 0; k < f->nres; k++) {
                int32_t c = fl->hop_res[(int64_t)id * fl->maxh + k];
                if (fl->res[c].inset != fl->round)
                    add_modified(fl, c);
            }
        }
    }
}

/* Whether flow id's bound can be below the level it gets: unless one of its resources has
 * no more bandwidth than the bound (its level never exceeds its bandwidth x penalty), that
 * is when TCP gamma's bound is below the route's smallest bandwidth. */
static int bound_matters(const fl_net *fl, int32_t id)
{
    const fl_flow *f = &fl->flows[id];
    for (int k = 0; k < f->nres; k++) {
        const fl_res *r = &fl->res[fl->hop_res[(int64_t)id * fl->maxh + k]];
        if (r->inset == fl->round && r->bw <= f->bound)
            return 0;
    }
    return 1;
}

/* ---- progressive filling -------------------------------------------------------------- */

/* Flow id gets `rate`: taken from every resource of its route still being filled. */
static void fix(fl_net *fl, int32_t id, double rate, int64_t *nheap)
{
    fl_flow *f = &fl->flows[id];
    if (fl->cfg.fault_share > 0 && ++fl->rates == fl->cfg.fault_share)
        rate *= 1.5; /* tests: a wrong share, for the checks to catch */
    f->fixed = 1;
    f->rate = rate;
    double w = 1.0 / f->penalty;
    for (int k = 0; k < f->nres; k++) {
        int32_t ri = fl->hop_res[(int64_t)id * fl->maxh + k];
        fl_res *r = &fl->res[ri];
        if (r->heap < 0)
            continue;
        r->remaining -= rate;
        if (r->remaining < r->bw * FL_MAXMIN_PRECISION)
            r->remaining = 0;
        r->usage -= w;
        if (r->usage < FL_MAXMIN_PRECISION)
            r->usage = 0;
        if (!(r->usage > FL_MAXMIN_PRECISION) || !(r->remaining > r->bw * FL_MAXMIN_PRECISION)) {
            res_remove(fl, nheap, ri);
        } else {
            set_level(r);
            fl->rheap[r->heap].level = r->level;
            res_sift(fl, r->heap, *nheap);
        }
    }
}

/* Sets up the component's resources (heap by level) and bounded flows (sorted); returns
 * the number of bounded flows. */
static int64_t fill_setup(fl_net *fl, int64_t *nheap)
{
    *nheap = 0;
    for (int64_t i = 0; i < fl->ncomp_res; i++) {
        int32_t ri = fl->comp_res[i];
        fl_res *r = &fl->res[ri];
        r->remaining = r->bw;
        r->usage = 0;
        for (int32_t j = 0; j < r->n; j++)
            r->usage += 1.0 / fl->flows[r->flows[j]].penalty;
        r->heap = -1;
        if (r->usage > 0 && r->remaining > 0) {
            set_level(r);
            fl->rheap[*nheap] = (fl_rent){.level = r->level, .id = ri};
            r->heap = (int32_t)(*nheap)++;
        }
    }
    for (int64_t i = *nheap / 2; i >= 0 && *nheap > 0; i--)
        res_down(fl, i, *nheap);
    int64_t nb = 0;
    for (int64_t i = 0; i < fl->ncomp_flow; i++)
        if (bound_matters(fl, fl->comp_flow[i]))
            fl->bheap[nb++] = (fl_bkey){blevel(&fl->flows[fl->comp_flow[i]]), fl->comp_flow[i]};
    qsort(fl->bheap, (size_t)nb, sizeof *fl->bheap, cmp_bkey);
    return nb;
}

static void fill(fl_net *fl)
{
    int64_t nheap, nb = fill_setup(fl, &nheap), b = 0;
    double last = 0;
    while (nheap > 0) {
        int32_t ri = fl->rheap[0].id;
        double lvl = level(&fl->res[ri]);
        while (b < nb && fl->flows[fl->bheap[b].id].fixed)
            b++;
        if (b < nb && fl->bheap[b].key < lvl) {
            fix(fl, fl->bheap[b].id, fl->flows[fl->bheap[b].id].bound, &nheap);
            continue;
        }
        last = lvl;
        const fl_res *r = &fl->res[ri];
        for (int32_t j = 0; j < r->n; j++) { /* r stays while flows are left on it */
            fl_flow *f = &fl->flows[r->flows[j]];
            if (!f->fixed)
                fix(fl, r->flows[j], lvl / f->penalty, &nheap);
        }
        if (fl->res[ri].heap >= 0)
            res_remove(fl, &nheap, ri);
    }
    for (int64_t i = 0; i < fl->ncomp_flow; i++) { /* left by saturated resources */
        fl_flow *f = &fl->flows[fl->comp_flow[i]];
        if (!f->fixed)
            fix(fl, fl->comp_flow[i], fmin(f->bound, (last > 0 ? last : 1) / f->penalty), &nheap);
    }
}

void fl_share(fl_net *fl, double now)
{
    component(fl);
    fl->solves++;
    fl->solved_flows += fl->ncomp_flow;
    for (int64_t i = 0; i < fl->ncomp_flow; i++) { /* what they sent since their last change */
        fl_flow *f = &fl->flows[fl->comp_flow[i]];
        if (f->remains > 0) {
            f->remains -= f->rate * (now - f->last);
            if (f->remains < FL_MAXMIN_PRECISION * FL_SURF_PRECISION)
                f->remains = 0;
        }
        f->last = now;
        f->fixed = 0;
    }
    fill(fl);
    if (fl->cfg.verify)
        fl_share_verify(fl);
    for (int64_t i = 0; i < fl->ncomp_flow; i++) {
        int32_t id = fl->comp_flow[i];
        fl_flow *f = &fl->flows[id];
        f->date = f->remains > 0 ? now + f->remains / f->rate : now;
        f->seq = ++fl->seq;
        fl_heap_update(&fl->heap, fl->flows, id);
    }
    fl->ncomp_res = 0; /* the next round */
    fl->round++;
}

/* ---- the check (tests): feasible, and every flow bounded or bottlenecked ------------- */

#define FL_VERIFY_TOL 1e-4

static void bad(fl_net *fl, const char *what)
{
    if (fl->bad_solutions++ == 0)
        snprintf(fl->bad_what, sizeof fl->bad_what, "%s", what);
}

/* Flow f is at its bound, or has a saturated resource on which no flow has a larger
 * weighted rate (rate x penalty): the max-min condition. */
static int bottlenecked(const fl_net *fl, int32_t id)
{
    const fl_flow *f = &fl->flows[id];
    if (f->rate >= f->bound * (1 - FL_VERIFY_TOL))
        return 1;
    for (int k = 0; k < f->nres; k++) {
        const fl_res *r = &fl->res[fl->hop_res[(int64_t)id * fl->maxh + k]];
        double sum = 0, top = 0;
        for (int32_t j = 0; j < r->n; j++) {
            const fl_flow *g = &fl->flows[r->flows[j]];
            sum += g->rate;
            top = fmax(top, g->rate * g->penalty);
        }
        if (sum >= r->bw * (1 - FL_VERIFY_TOL) && f->rate * f->penalty >= top * (1 - FL_VERIFY_TOL))
            return 1;
    }
    return 0;
}

void fl_share_verify(fl_net *fl)
{
    char what[256];
    for (int64_t i = 0; i < fl->ncomp_res; i++) {
        const fl_res *r = &fl->res[fl->comp_res[i]];
        double sum = 0;
        for (int32_t j = 0; j < r->n; j++)
            sum += fl->flows[r->flows[j]].rate;
        if (sum > r->bw * (1 + FL_VERIFY_TOL)) {
            snprintf(what, sizeof what, "resource %d carries %.9g B/s over its %.9g B/s",
                     fl->comp_res[i], sum, r->bw);
            bad(fl, what);
        }
    }
    for (int64_t i = 0; i < fl->ncomp_flow; i++) {
        const fl_flow *f = &fl->flows[fl->comp_flow[i]];
        if (f->rate > f->bound * (1 + FL_VERIFY_TOL) || !bottlenecked(fl, fl->comp_flow[i])) {
            snprintf(what, sizeof what, "flow %d -> %d at %.9g B/s is %s", f->msg->src_rank,
                     f->msg->dst_rank, f->rate,
                     f->rate > f->bound ? "above its bound" : "not max-min fair");
            bad(fl, what);
        }
    }
}
