/* traffic.c - counting a schedule's bytes per link and per link class (see traffic.h). */
#include "traffic/traffic.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

void traffic_tally_init(traffic_tally *x, const topology *t)
{
    memset(x, 0, sizeof *x);
    x->t = t;
    x->resource_bytes = xcalloc((size_t)(2 * t->nlinks + 1), sizeof *x->resource_bytes);
}

void traffic_tally_free(traffic_tally *x)
{
    free(x->resource_bytes);
    x->resource_bytes = NULL;
}

/* *counter += bytes, saturating at INT64_MAX (x->overflow set); *sum is the same sum in
 * double precision, which x->worst follows. */
static inline void add_bytes(traffic_tally *x, int64_t *counter, double *sum, int64_t bytes)
{
    if (__builtin_add_overflow(*counter, bytes, counter)) {
        *counter = INT64_MAX;
        x->overflow = 1;
    }
    if (sum) {
        *sum += (double)bytes;
        if (*sum > x->worst)
            x->worst = *sum;
    }
}

void traffic_tally_message(traffic_tally *x, int32_t src_host, int32_t dst_host, int64_t bytes)
{
    x->c.messages++;
    add_bytes(x, &x->c.bytes_sent, &x->sum_sent, bytes);
    int32_t gs = x->t->group[src_host], gd = x->t->group[dst_host];
    if (gs >= 0 && gd >= 0 && gs != gd)
        add_bytes(x, &x->c.bytes_intergroup_msgs, &x->sum_intergroup, bytes);
}

void traffic_tally_hop(traffic_tally *x, int64_t resource, int64_t bytes)
{
    int cls = x->t->links[resource / 2].cls;
    /* a resource's bytes are at most its class's: the class sums bound `worst` */
    add_bytes(x, &x->resource_bytes[resource], NULL, bytes);
    add_bytes(x, &x->c.bytes_class[cls], &x->sum_class[cls], bytes);
}

int traffic_tally_check(const traffic_tally *x, cs_error *err)
{
    if (!x->overflow)
        return 0;
    const double limit = 9223372036854775807.0;
    return cs_fail(err, "the byte counts of this point overflow: bytes x links would reach "
                        "%.3g, more than 2^63-1 (%.3g); only sizes at most %.3g times these "
                        "fit (a smaller --size, or fewer ranks)",
                   x->worst, limit, limit / x->worst);
}

void traffic_tally_steps(traffic_tally *x, int32_t steps)
{
    if (steps > x->c.steps)
        x->c.steps = steps;
}

void traffic_tally_result(const traffic_tally *x, traffic_counts *out)
{
    *out = x->c;
    out->max_link_bytes = 0;
    for (int64_t r = 0; r < 2 * x->t->nlinks; r++)
        if (x->resource_bytes[r] > out->max_link_bytes)
            out->max_link_bytes = x->resource_bytes[r];
}

/* ---- streaming a schedule ------------------------------------------------------------ */

typedef struct count_ctx {
    traffic_tally *tally;
    topology *t;
    const int32_t *host_of_rank;
    topo_hop *hops;
    int max_hops;
    int failed;
    cs_error *err;
    traffic_walk_opts opts;
} count_ctx;

static void count_send(count_ctx *cc, int32_t rank, uint32_t step, const sched_op *o)
{
    int32_t src = cc->host_of_rank[rank], dst = cc->host_of_rank[o->peer];
    traffic_tally_message(cc->tally, src, dst, o->bytes);
    int n = 0;
    if (src != dst) { /* intra-node messages never reach the network */
        n = topo_route(cc->t, src, dst, cc->hops, cc->max_hops);
        if (n < 0) {
            if (!cc->failed)
                cs_fail(cc->err, "no route from host h%d (rank %d) to host h%d (rank %d)", src,
                        rank, dst, o->peer);
            cc->failed = 1;
            return;
        }
        for (int i = 0; i < n; i++)
            traffic_tally_hop(cc->tally, traffic_resource(cc->t, cc->hops[i]), o->bytes);
    }
    if (cc->opts.visit)
        cc->opts.visit(cc->opts.visit_ctx, rank, step, o, src, dst, cc->hops, n);
}

static void count_sink(void *ctx, const rank_sched *chunk, uint32_t first_step)
{
    count_ctx *cc = ctx;
    for (uint32_t s = 0; s < chunk->nsteps; s++) {
        uint32_t step = first_step + s;
        if (cc->opts.step != TRAFFIC_ALL_STEPS &&
            ((int64_t)step < cc->opts.step || (int64_t)step >= cc->opts.step + cc->opts.nsteps))
            continue;
        if (cc->opts.visit_step)
            cc->opts.visit_step(cc->opts.visit_ctx, chunk, s, step);
        for (uint32_t i = rs_step_begin(chunk, s); i < rs_step_end(chunk, s); i++)
            if (chunk->ops[i].kind == OP_SEND)
                count_send(cc, chunk->rank, step, &chunk->ops[i]);
    }
    traffic_tally_steps(cc->tally, (int32_t)(first_step + chunk->nsteps));
}

void traffic_walk_opts_init(traffic_walk_opts *o)
{
    o->step = TRAFFIC_ALL_STEPS;
    o->nsteps = 1;
    o->visit = NULL;
    o->visit_step = NULL;
    o->visit_ctx = NULL;
}

int traffic_count_ex(const alg_run *run, topology *t, const int32_t *host_of_rank,
                     const traffic_walk_opts *opts, traffic_counts *out, traffic_tally *tally,
                     cs_error *err)
{
    traffic_tally local;
    traffic_tally *x = tally ? tally : &local;
    traffic_tally_init(x, t);
    count_ctx cc = {x, t, host_of_rank, NULL, t->max_route_hops, 0, err, {0}};
    if (opts)
        cc.opts = *opts;
    else
        traffic_walk_opts_init(&cc.opts);
    cc.hops = xmalloc((size_t)cc.max_hops * sizeof *cc.hops);
    sched_builder b;
    sb_init_streaming(&b, &run->layout, count_sink, &cc);
    for (int32_t r = 0; r < run->spec.P && !cc.failed; r++)
        alg_run_gen(run, r, &b);
    sb_free(&b);
    free(cc.hops);
    traffic_tally_result(x, out);
    int rc = cc.failed ? -1 : traffic_tally_check(x, err);
    if (!tally)
        traffic_tally_free(&local);
    return rc;
}

int traffic_count(const alg_run *run, topology *t, const int32_t *host_of_rank,
                  traffic_counts *out, traffic_tally *tally, cs_error *err)
{
    return traffic_count_ex(run, t, host_of_rank, NULL, out, tally, err);
}
