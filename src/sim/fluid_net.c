/* fluid_net.c - the fluid network's flows (fluid.h): a message becomes a flow on its route
 * once both sides are posted, waits its route's latency, shares the links with the other
 * flows (fluid_share.c) and completes when its bytes are through; the events of one
 * instant are handled together, as SimGrid's lazy network update does. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/enum_names.h"
#include "common/util.h"
#include "sim/fluid_internal.h"

static const char *const engine_names[] = {"simgrid", "loop"};

const char *flow_engine_name(flow_engine e)
{
    return enum_name(ENUM_NAMES(engine_names), (int)e);
}

int flow_engine_parse(const char *text, flow_engine *out, cs_error *err)
{
    int v;
    if (enum_parse(ENUM_NAMES(engine_names), "flow engine", text, &v, err) < 0)
        return -1;
    *out = (flow_engine)v;
    return 0;
}

pk_net *fl_net_new(const fluid_config *c, topology *t, int32_t P, const int32_t *host_of_rank,
                   sg_host_t actor_host, traffic_tally *tally)
{
    packet_config pc;
    packet_config_init(&pc); /* the loop engine; the packet options play no part */
    pk_net *n = pk_net_new(&pc, t, P, host_of_rank, actor_host, tally);
    n->defer_compute = c->serial_compute ? 0 : c->fault_defer == 1 ? 2 : 1;
    n->defer_late = c->fault_defer == 2;
    n->digest_events = c->digest_events;
    fl_net *fl = xcalloc(1, sizeof *fl);
    fl->cfg = *c;
    fl->maxh = t->max_route_hops > 0 ? t->max_route_hops : 1;
    fl->nres = 2 * t->nlinks;
    fl->res = xcalloc((size_t)(fl->nres > 0 ? fl->nres : 1), sizeof *fl->res);
    for (int64_t l = 0; l < t->nlinks; l++)
        for (int dir = 0; dir < 2; dir++) {
            int64_t r = traffic_resource(t, (topo_hop){l, (int8_t)dir});
            fl->res[r].bw = t->links[l].bw;
            fl->res[r].heap = -1;
        }
    fl->free_flow = -1;
    fl->armed = INFINITY;
    fl->round = 1;
    fl->route = xmalloc((size_t)(fl->maxh + 1) * sizeof *fl->route);
    int bits = 6;
    while (bits < 24 && ((int64_t)1 << bits) < 2 * (int64_t)t->nhosts)
        bits++;
    fl->route_mask = ((uint64_t)1 << bits) - 1;
    fl->route_shift = 64 - bits;
    fl->routes = xmalloc(((size_t)1 << bits) * sizeof *fl->routes);
    for (uint64_t i = 0; i <= fl->route_mask; i++)
        fl->routes[i].key = -1;
    fl->route_res = xmalloc(((size_t)1 << bits) * (size_t)fl->maxh * sizeof *fl->route_res);
    /* the loopback: a FATPIPE link, every flow gets its bandwidth up to gamma's bound */
    fl->loop_rate = t->intra_lat > 0 ? fmin(t->intra_bw, FL_TCP_GAMMA / (2.0 * t->intra_lat))
                                     : t->intra_bw;
    n->fluid = fl;
    return n;
}

void fl_net_free(pk_net *n)
{
    fl_net *fl = n->fluid;
    if (!fl)
        return;
    for (int64_t r = 0; r < fl->nres; r++) {
        if (fl->res[r].bytes > 0)
            traffic_tally_hop(n->tally, r, fl->res[r].bytes);
        free(fl->res[r].flows);
    }
    free(fl->res);
    free(fl->flows);
    free(fl->hop_res);
    free(fl->hop_pos);
    fl_heap_free(&fl->heap);
    free(fl->ended);
    free(fl->comp_res);
    free(fl->comp_flow);
    free(fl->rheap);
    free(fl->bheap);
    free(fl->route);
    free(fl->routes);
    free(fl->route_res);
    free(fl);
    n->fluid = NULL;
}

int fl_net_check(const pk_net *n, cs_error *err)
{
    const fl_net *fl = n->fluid;
    if (fl->bad_solutions > 0)
        return cs_fail(err, "fluid network: %lld bandwidth share(s) failed the max-min check, "
                            "the first: %s", (long long)fl->bad_solutions, fl->bad_what);
    if (fl_heap_size(&fl->heap) > 0)
        return cs_fail(err, "fluid network: %lld flow(s) never completed",
                       (long long)fl_heap_size(&fl->heap));
    return 0;
}

int fl_net_stats(const pk_net *n, fl_run_stats *s)
{
    const fl_net *fl = n->fluid;
    if (!fl)
        return 0;
    *s = (fl_run_stats){.flows = fl->nstarted, .solves = fl->solves,
                        .solved_flows = fl->solved_flows};
    return 1;
}

/* ---- flows ---------------------------------------------------------------------------- */

static int32_t flow_new(fl_net *fl)
{
    int32_t id = fl->free_flow;
    if (id >= 0) {
        fl->free_flow = fl->flows[id].next_free;
        return id;
    }
    if (fl->nflows == fl->cap_flows) {
        fl->cap_flows = fl->cap_flows ? 2 * fl->cap_flows : 1024;
        fl->flows = xrealloc(fl->flows, (size_t)fl->cap_flows * sizeof *fl->flows);
        size_t hops = (size_t)fl->cap_flows * (size_t)fl->maxh;
        fl->hop_res = xrealloc(fl->hop_res, hops * sizeof *fl->hop_res);
        fl->hop_pos = xrealloc(fl->hop_pos, hops * sizeof *fl->hop_pos);
    }
    return fl->nflows++;
}

static void note_ended(fl_net *fl, int32_t id)
{
    if (fl->nended == fl->cap_ended) {
        fl->cap_ended = fl->cap_ended ? 2 * fl->cap_ended : 256;
        fl->ended = xrealloc(fl->ended, (size_t)fl->cap_ended * sizeof *fl->ended);
    }
    fl->ended[fl->nended++] = id;
}

/* One PK_EV_FLUID event queued at the earliest flow date (older, later ones are stale). */
static void arm(pk_net *n)
{
    fl_net *fl = n->fluid;
    int32_t id = fl_heap_top(&fl->heap);
    if (id >= 0 && fl->flows[id].date < fl->armed) {
        fl->armed = fl->flows[id].date;
        pk_heap_push(&n->heap, fl->armed, PK_EV_FLUID, 0, NULL);
    }
}

/* The route from host src to host dst (topo_route), its resources (*res) and latency,
 * computed once per slot of the direct-mapped cache. */
static const fl_route *route_of(pk_net *n, int32_t src, int32_t dst, const int32_t **res)
{
    fl_net *fl = n->fluid;
    int64_t key = (int64_t)src * n->t->nhosts + dst;
    uint64_t i = ((uint64_t)key * 0x9E3779B97F4A7C15ull) >> fl->route_shift;
    fl_route *c = &fl->routes[i];
    int32_t *rr = fl->route_res + i * (uint64_t)fl->maxh;
    *res = rr;
    if (c->key == key)
        return c;
    int len = topo_route(n->t, src, dst, fl->route, fl->maxh);
    double lat = 0, minbw = INFINITY;
    for (int k = 0; k < len; k++) {
        rr[k] = (int32_t)traffic_resource(n->t, fl->route[k]);
        lat += n->t->links[fl->route[k].link].lat;
        minbw = fmin(minbw, fl->res[rr[k]].bw);
    }
    *c = (fl_route){.key = key, .lat = lat, .minbw = minbw, .len = len};
    return c;
}

/* The route's resources and latency; its bytes counted on them. */
static double flow_route(pk_net *n, fl_flow *f, int32_t id)
{
    fl_net *fl = n->fluid;
    pk_msg *m = f->msg;
    const int32_t *res;
    const fl_route *c = route_of(n, m->src_host, m->dst_host, &res);
    int32_t *hop = fl->hop_res + (int64_t)id * fl->maxh;
    for (int i = 0; i < c->len; i++) {
        hop[i] = res[i];
        if (n->rank_tally)
            traffic_tally_hop(n->rank_tally[m->src_rank], res[i], m->bytes);
        else
            fl->res[res[i]].bytes += m->bytes;
    }
    f->nres = c->len;
    /* CM02's bound: the route's smallest bandwidth, and TCP gamma's window */
    f->bound = c->lat > 0 ? fmin(c->minbw, FL_TCP_GAMMA / (2.0 * c->lat)) : c->minbw;
    return c->lat;
}

void fl_msg_start(pk_net *n, pk_msg *m)
{
    fl_net *fl = n->fluid;
    int32_t id = flow_new(fl);
    fl_flow *f = &fl->flows[id];
    *f = (fl_flow){.msg = m, .remains = (double)m->bytes, .last = n->now, .heap = -1,
                   .src_rank = m->src_rank, .state = FL_LATENCY, .next_free = -1};
    double lat;
    if (m->src_host == m->dst_host) {
        f->nres = 0;
        lat = n->t->intra_lat;
        f->bound = INFINITY;
    } else {
        lat = flow_route(n, f, id);
    }
    f->penalty = lat > 0 ? lat : 1.0; /* CM02: the latency (weight-S 0) */
    f->date = lat + n->now;           /* as SimGrid: latency + last update */
    f->seq = ++fl->seq;
    fl->nstarted++;
    fl_heap_push_latency(&fl->heap, fl->flows, id, lat);
    arm(n);
}

/* Flow id's latency is paid: it starts sharing its resources. */
static void flow_activate(fl_net *fl, int32_t id, double now)
{
    fl_flow *f = &fl->flows[id];
    f->state = FL_ACTIVE;
    f->last = now;
    f->rate = 0;
    if (f->nres == 0) { /* the loopback: nothing shared */
        f->rate = fl->loop_rate;
        f->date = f->remains > 0 ? now + f->remains / f->rate : now;
        f->seq = ++fl->seq;
        fl_heap_push(&fl->heap, fl->flows, id);
        return;
    }
    for (int i = 0; i < f->nres; i++) {
        int64_t k = (int64_t)id * fl->maxh + i;
        fl_res *r = &fl->res[fl->hop_res[k]];
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 4;
            r->flows = xrealloc(r->flows, (size_t)r->cap * sizeof *r->flows);
        }
        fl->hop_pos[k] = r->n;
        r->flows[r->n++] = id;
    }
    fl_mark_modified(fl, id);
}

/* Flow id has sent its bytes: it leaves its resources and its message completes. */
static void flow_end(pk_net *n, int32_t id)
{
    fl_net *fl = n->fluid;
    fl_flow *f = &fl->flows[id];
    if (f->nres > 0)
        fl_mark_modified(fl, id);
    for (int i = 0; i < f->nres; i++) {
        int64_t k = (int64_t)id * fl->maxh + i;
        fl_res *r = &fl->res[fl->hop_res[k]];
        int32_t pos = fl->hop_pos[k], last = r->flows[--r->n];
        if (last != id) { /* the last flow takes its place */
            r->flows[pos] = last;
            fl_flow *g = &fl->flows[last];
            for (int j = 0; j < g->nres; j++)
                if (fl->hop_res[(int64_t)last * fl->maxh + j] == fl->hop_res[k]) {
                    fl->hop_pos[(int64_t)last * fl->maxh + j] = pos;
                    break;
                }
        }
    }
    pk_msg *m = f->msg;
    f->state = FL_FREE;
    f->msg = NULL;
    f->next_free = fl->free_flow;
    fl->free_flow = id;
    m->done_at = n->now;
    m->delivered_bytes = m->bytes;
    pk_msg_complete(n, m);
}

/* The loop engine's PK_EV_FLUID event, one round of SimGrid's lazy update: every flow date
 * within surf/precision of now in date order (latency ends enable their flows at once,
 * completions are freed after them, as SimGrid frees a finished comm's variable once the
 * model's update is over), then the new shares of what they changed. */
void fl_run(pk_net *n)
{
    fl_net *fl = n->fluid;
    if (!(fl->armed < n->now + FL_SURF_PRECISION))
        return; /* stale: a later date was armed since */
    fl->armed = INFINITY;
    int32_t id;
    while ((id = fl_heap_top(&fl->heap)) >= 0 &&
           fl->flows[id].date < n->now + FL_SURF_PRECISION) {
        fl_heap_remove(&fl->heap, fl->flows, id);
        if (fl->flows[id].state == FL_LATENCY)
            flow_activate(fl, id, n->now);
        else
            note_ended(fl, id);
    }
    for (int64_t i = 0; i < fl->nended; i++)
        flow_end(n, fl->ended[i]);
    fl->nended = 0;
    if (fl->ncomp_res > 0)
        fl_share(fl, n->now);
    arm(n);
}
