/* draw.c - the drawing entry point: topology, placement, loads, figures, files (draw.h). */
#include "draw/draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/units.h"
#include "common/util.h"
#include "draw/layout.h"
#include "draw/output.h"
#include "draw/aggregate.h"
#include "draw/render.h"
#include "schedio/user_alg.h"
#include "sim/rank_shape.h"

void draw_options_init(draw_options *o)
{
    memset(o, 0, sizeof *o);
    o->placement.kind = PLACE_LINEAR;
    o->ranks_per_node = 1;
    coll_spec_init(&o->spec, COLL_BCAST, 2, 1 << 20);
    o->step = DRAW_TOTAL;
    o->frame_seconds = 1.0;
    o->rank = -1;
}

typedef struct draw_state {
    topology *t;
    int32_t P;
    int32_t *host_of_rank, *rank_of_host;
    draw_layout layout;
    draw_loads loads[DRAW_MAX_ALGORITHMS];
    char label[DRAW_MAX_ALGORITHMS][384]; /* "name" or "name params" */
    int nloads;
    int64_t scale_max;
    char aggregated[DRAW_AGGREGATE_NOTE]; /* aggregate.h: drawn by groups, else "" */
    char whole[DRAW_AGGREGATE_NOTE];
} draw_state;

static void state_free(draw_state *s)
{
    for (int i = 0; i < s->nloads; i++)
        draw_loads_free(&s->loads[i]);
    draw_layout_free(&s->layout);
    free(s->host_of_rank);
    free(s->rank_of_host);
    topo_free(s->t);
}

/* Topology, placement, rank labels, layout. */
static int setup(const draw_options *o, draw_state *s, cs_error *err)
{
    topo_size size; /* refused before building when too large to draw (issue 13) */
    if (topo_size_spec(o->topology, &size, err) < 0 ||
        draw_layout_check_size(o->topology, size.hosts + size.switches, size.links, err) < 0 ||
        topo_build_spec(o->topology, &s->t, err) < 0)
        return -1;
    /* the topology alone, with default ranks: a large machine is drawn by its groups */
    if (o->nalgorithms == 0 && o->ranks == 0 &&
        draw_aggregate_groups(&s->t, s->aggregated, s->whole, err) < 0)
        return -1;
    int32_t Q = o->ranks_per_node > 0 ? o->ranks_per_node : 1;
    int64_t P = o->ranks > 0 ? o->ranks : (int64_t)s->t->nhosts * Q, most = (int64_t)s->t->nhosts * Q;
    if (P > most || P > INT32_MAX) /* before the per-rank table is allocated */
        return cs_fail(err, "%lld ranks at %d per host: more than the topology's %d hosts hold "
                            "(or more than 2^31-1)", (long long)P, Q, s->t->nhosts);
    s->P = (int32_t)P;
    s->host_of_rank = xmalloc((size_t)s->P * sizeof *s->host_of_rank);
    if (placement_compute(&o->placement, s->t, s->P, Q, s->host_of_rank, err) < 0)
        return -1;
    if (o->rank >= s->P)
        return cs_fail(err, "rank %d: there are %d ranks (0..%d)", o->rank, s->P, s->P - 1);
    s->rank_of_host = xmalloc((size_t)s->t->nhosts * sizeof *s->rank_of_host);
    for (int32_t h = 0; h < s->t->nhosts; h++)
        s->rank_of_host[h] = -1;
    for (int32_t r = s->P - 1; r >= 0; r--)
        s->rank_of_host[s->host_of_rank[r]] = r; /* the host's first rank wins */
    return draw_layout_build(s->t, draw_host_radius(s->P - 1), &s->layout, err);
}

/* Counts the loads of every algorithm named in o. */
static int count_loads(const draw_options *o, draw_state *s, cs_error *err)
{
    coll_spec spec = o->spec;
    spec.P = s->P;
    spec.ranks_per_node = o->ranks_per_node > 0 ? o->ranks_per_node : 1;
    for (int i = 0; i < o->nalgorithms; i++) {
        const alg_desc *alg = registry_find(o->user_algorithms, spec.coll, o->algorithms[i], err);
        coll_spec own = spec; /* with this algorithm's own parameters */
        alg_run run;
        if (!alg || coll_spec_set_params(&own, o->params[i], err) < 0 ||
            rank_shape_resolve(alg, &own, s->t, s->host_of_rank, err) < 0 ||
            alg_run_prepare(&run, alg, &own, err) < 0)
            return -1;
        size_t len = (size_t)snprintf(s->label[i], sizeof s->label[i], "%s", o->algorithms[i]);
        for (int k = 0; k < own.nparams && len < sizeof s->label[i]; k++) /* as it ran */
            len += (size_t)snprintf(s->label[i] + len, sizeof s->label[i] - len, " %s=%s",
                                    own.params[k].name, own.params[k].value);
        int rc = draw_loads_count(&run, s->t, s->host_of_rank, o->rank, &s->loads[i], err);
        if (rc == 0) {
            s->nloads++; /* counted, so that the state's cleanup frees it */
            if (user_alg_run_error(&run, err) < 0) /* a Lua algorithm failed */
                rc = -1;
        }
        alg_run_release(&run);
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int64_t max_of_step(const draw_loads *l, int32_t step)
{
    int64_t m = 0;
    for (int64_t r = 0; r < l->nres; r++) {
        int64_t b = draw_loads_bytes(l, step, r);
        m = b > m ? b : m;
    }
    return m;
}

static int64_t sum_of_step(const draw_loads *l, int32_t step)
{
    int64_t sum = 0;
    for (int64_t r = 0; r < l->nres; r++)
        sum += draw_loads_bytes(l, step, r);
    return sum;
}

static int32_t max_steps(const draw_state *s)
{
    int32_t n = 0;
    for (int i = 0; i < s->nloads; i++)
        n = s->loads[i].nsteps > n ? s->loads[i].nsteps : n;
    return n;
}

/* The colour scale: the largest link direction in what the call draws. */
static int64_t choose_scale(const draw_options *o, const draw_state *s)
{
    int64_t m = 0;
    for (int i = 0; i < s->nloads; i++) {
        if (o->all_steps) {
            for (int32_t k = 0; k < s->loads[i].nsteps; k++) {
                int64_t x = max_of_step(&s->loads[i], k);
                m = x > m ? x : m;
            }
        } else {
            int64_t x = max_of_step(&s->loads[i], o->step);
            m = x > m ? x : m;
        }
    }
    return m > 0 ? m : 1;
}

static void describe_panel(const draw_state *s, int i, const char *name, int32_t step,
                           draw_panel *p)
{
    const draw_loads *l = &s->loads[i];
    char sum[32], max[32];
    draw_format_bytes(sum_of_step(l, step), sum, sizeof sum);
    draw_format_bytes(max_of_step(l, step), max, sizeof max);
    snprintf(p->title, sizeof p->title, "%s", name);
    if (step == DRAW_TOTAL)
        snprintf(p->subtitle, sizeof p->subtitle, "whole run, %d steps: %s over links, max %s",
                 l->nsteps, sum, max);
    else if (step >= l->nsteps)
        snprintf(p->subtitle, sizeof p->subtitle, "step %d: finished (steps 0..%d)", step,
                 l->nsteps - 1);
    else
        snprintf(p->subtitle, sizeof p->subtitle, "step %d (steps 0..%d): %s over links, max %s",
                 step, l->nsteps - 1, sum, max);
    p->loads = l;
    p->step = step;
}

static void describe_figure(const draw_options *o, const draw_state *s, int32_t step,
                            draw_figure *f)
{
    memset(f, 0, sizeof *f);
    f->t = s->t;
    f->layout = &s->layout;
    f->rank_of_host = s->rank_of_host;
    f->host_of_rank = s->host_of_rank;
    f->rank = o->rank;
    f->scale_max = s->scale_max;
    char place[128];
    placement_format(&o->placement, place, sizeof place);
    if (s->nloads == 0) {
        snprintf(f->title, sizeof f->title, "%s", o->topology);
        f->npanels = 1;
        draw_panel *p = &f->panels[0];
        if (s->aggregated[0])
            snprintf(p->title, sizeof p->title, "%s", s->aggregated);
        else
            snprintf(p->title, sizeof p->title, "%d hosts, %d switches, %lld links",
                     s->t->nhosts, s->t->nswitches, (long long)s->t->nlinks);
        if (s->aggregated[0])
            snprintf(p->subtitle, sizeof p->subtitle, "%s", s->whole);
        else
            snprintf(p->subtitle, sizeof p->subtitle, "%d ranks, placement %s", s->P, place);
        p->step = DRAW_TOTAL;
        return;
    }
    char size[32];
    format_size(o->spec.bytes, size, sizeof size);
    snprintf(f->title, sizeof f->title, "%s: %s of %s, %d ranks, placement %s", o->topology,
             coll_name(o->spec.coll), size, s->P, place);
    f->npanels = s->nloads;
    for (int i = 0; i < s->nloads; i++)
        describe_panel(s, i, s->label[i], step, &f->panels[i]);
}

static void note_file(draw_result *res, const char *path)
{
    if (res->nfiles++ == 0)
        snprintf(res->first_file, sizeof res->first_file, "%s", path);
    snprintf(res->last_file, sizeof res->last_file, "%s", path);
}

/* --all-steps: one picture per step, then the animation. */
static int write_all_steps(const draw_options *o, draw_state *s, draw_result *res,
                           cs_error *err)
{
    int32_t n = max_steps(s);
    int width = snprintf(NULL, 0, "%d", n > 0 ? n - 1 : 0);
    scene *frames = xcalloc((size_t)(n > 0 ? n : 1), sizeof *frames);
    int rc = 0;
    for (int32_t k = 0; k < n && rc == 0; k++) {
        draw_figure f;
        describe_figure(o, s, k, &f);
        draw_render(&f, &frames[k]);
        char suffix[32], path[1100];
        snprintf(suffix, sizeof suffix, "-step%0*d", width, k);
        output_name(o->out, suffix, NULL, path, sizeof path);
        rc = output_scene(&frames[k], path, err);
        if (rc == 0)
            note_file(res, path);
    }
    if (rc == 0 && n > 0) {
        char path[1100];
        output_name(o->out, "-anim", ".svg", path, sizeof path);
        rc = output_animation(frames, n, o->frame_seconds, path, err);
        if (rc == 0)
            note_file(res, path);
    }
    for (int32_t k = 0; k < n; k++)
        scene_free(&frames[k]);
    free(frames);
    return rc;
}

static int check_options(const draw_options *o, cs_error *err)
{
    out_format fmt;
    if (!o->topology[0])
        return cs_fail(err, "no topology given");
    if (!o->out[0])
        return cs_fail(err, "no output file given");
    if (output_format(o->out, &fmt, err) < 0)
        return -1;
    if (o->nalgorithms == 0 && (o->all_steps || o->step != DRAW_TOTAL || o->link_csv[0]))
        return cs_fail(err, "steps and link tables need a collective and an algorithm");
    if (o->frame_seconds <= 0)
        return cs_fail(err, "frame time must be positive");
    if (output_check_writable(o->out, "--out", err) < 0)
        return -1;
    if (o->link_csv[0] && output_check_writable(o->link_csv, "--link-csv", err) < 0)
        return -1;
    return 0;
}

int draw_run(const draw_options *o, draw_result *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    if (check_options(o, err) < 0)
        return -1;
    draw_state s;
    memset(&s, 0, sizeof s);
    int rc = setup(o, &s, err);
    if (rc == 0)
        rc = count_loads(o, &s, err);
    int32_t n = max_steps(&s);
    if (rc == 0 && o->step != DRAW_TOTAL && o->step >= n)
        rc = cs_fail(err, "step %d: the run has %d steps (0..%d)", o->step, n, n - 1);
    if (rc == 0) {
        s.scale_max = choose_scale(o, &s);
        res->steps = n;
        res->max_link_bytes = s.nloads ? s.scale_max : 0;
    }
    if (rc == 0 && o->all_steps) {
        rc = write_all_steps(o, &s, res, err);
    } else if (rc == 0) {
        draw_figure f;
        scene sc;
        describe_figure(o, &s, o->step, &f);
        draw_render(&f, &sc);
        rc = output_scene(&sc, o->out, err);
        scene_free(&sc);
        if (rc == 0)
            note_file(res, o->out);
    }
    if (rc == 0 && o->link_csv[0]) {
        const draw_loads *loads[DRAW_MAX_ALGORITHMS];
        const char *names[DRAW_MAX_ALGORITHMS];
        for (int i = 0; i < s.nloads; i++) {
            loads[i] = &s.loads[i];
            names[i] = s.label[i];
        }
        rc = output_link_csv(o->link_csv, s.t, loads, names, s.nloads, err);
    }
    state_free(&s);
    return rc;
}
