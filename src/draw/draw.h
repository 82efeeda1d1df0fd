/* draw.h - pictures of topologies, routes and per-step link loads: the one entry point
 * behind `collsim draw` (src/cli/cmd_draw.c) and the Lua `collsim.draw{...}` binding.
 *
 * What draw_run() does with a draw_options:
 *
 *   1. builds the topology (topo_build_spec: "family key=value ..." or a preset .yaml),
 *      places `ranks` ranks (default: every host, ranks_per_node each) with `placement`,
 *      and lays it out (layout.h: one layout per family);
 *   2. without an algorithm: one picture of the topology, links in their class colours,
 *      hosts labelled with their rank;
 *   3. with one algorithm (or two: side by side, same placement, same colour scale):
 *      prepares the collective, counts its bytes on every link step by step with the
 *      traffic counter (loads.h), and draws the whole run (step = DRAW_TOTAL), one step,
 *      or, with all_steps, every step (one file each) plus an animated SVG of them all;
 *      the highlighted rank's peers and message routes are marked;
 *   4. writes the pictures (the format follows the extension of `out`: .svg, .png
 *      rendered by scripts/render_scene.py with matplotlib, or .json, the scene itself)
 *      and, if asked, a per-link CSV (link_csv) of every step and of the whole run.
 *
 * Files are written to a temporary name and renamed into place. With all_steps, "x.svg"
 * becomes x-step0.svg .. x-stepN.svg (zero-padded to the width of the last step) and
 * x-anim.svg (always SVG). The colour scale runs from 0 to the largest byte count of one
 * link direction in anything the call draws: one step, or every step of every panel with
 * all_steps (so that frames compare), printed in the legend as "max link load".
 *
 * Link CSV columns (one row per link direction that exists: both for full-duplex links,
 * a -> b only for shared and one-way ones; every step, then step "all" for the run):
 *   algorithm,step,link,class,from,to,bytes
 * `algorithm` (and a panel's title) is the name followed by the parameters it ran with,
 * "bine_torus ports=1", so that two variants of one algorithm can be told apart.
 * from / to are node names (h<id> hosts, s<id> switches). scripts/plot_linkload.py
 * plots its histogram per link class.
 */
#ifndef COLLSIM_DRAW_H
#define COLLSIM_DRAW_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "algorithms/registry.h"
#include "common/error.h"
#include "draw/loads.h"
#include "sim/placement.h"

#define DRAW_MAX_ALGORITHMS 2

typedef struct draw_options {
    char topology[1024];       /* required */
    placement_spec placement;  /* default linear */
    int32_t ranks;             /* P; 0: every host (x ranks_per_node) */
    int32_t ranks_per_node;    /* Q, default 1 */
    /* traffic overlay: nalgorithms = 0 draws the topology alone */
    int nalgorithms;
    char algorithms[DRAW_MAX_ALGORITHMS][64];
    char params[DRAW_MAX_ALGORITHMS][256]; /* per algorithm, on top of spec's parameters:
                                              "name=value ..." ("" = none) */
    coll_spec spec;            /* collective, bytes, root, dst, params, dims; P and Q are
                                  set from ranks / ranks_per_node */
    const alg_registry *user_algorithms; /* NULL: built-ins only */
    int32_t step;              /* DRAW_TOTAL (default) or one step, 0-based */
    int all_steps;             /* every step, plus the animation */
    double frame_seconds;      /* animation: seconds per step (default 1) */
    int32_t rank;              /* highlighted rank, -1 (default): none */
    char out[1024];            /* required: .svg, .png or .json */
    char link_csv[1024];       /* optional ("" = none); needs an algorithm */
} draw_options;

typedef struct draw_result {
    int32_t steps;             /* the longest run's steps (0 without an algorithm) */
    int64_t max_link_bytes;    /* the colour scale's maximum */
    int nfiles;                /* pictures written (the CSV not counted) */
    char first_file[1024];     /* the first and the last picture written */
    char last_file[1024];
} draw_result;

/* Defaults: linear placement, Q = 1, no algorithm, bcast of 1 MiB from root 0 (when an
 * algorithm is named), DRAW_TOTAL, no highlight, 1 s frames. */
void draw_options_init(draw_options *o);

/* Does everything above. Errors name the option at fault (topology, placement, algorithm
 * constraint, step out of range, rank out of range, unknown extension, a file that
 * cannot be written, the PNG renderer failing). */
int draw_run(const draw_options *o, draw_result *res, cs_error *err);

#endif
