/* render.h - a topology's layout, with or without link loads, as a scene (scene.h).
 *
 * A figure is a title, a legend, and one or two panels side by side (--compare). Each
 * panel draws the same layout:
 *
 *   - decorations (group discs and boxes) with their labels;
 *   - every link once, as a path with id "l<link id>" and class "link": without loads in
 *     its class colour (host grey, local blue, global orange), with loads coloured and
 *     thickened by its bytes (the larger of its two directions) on a yellow-to-dark-red
 *     scale up to the figure's maximum, unloaded links faint in their class colour; its
 *     data-fwd / data-rev attributes hold the bytes a -> b and b -> a (a shared or one-way
 *     link has one resource: data-fwd, and data-rev 0). One-way links get arrowheads;
 *   - the chosen rank's own messages of the step as dashed violet paths (class "route"),
 *     one per link they cross;
 *   - every host once, a circle with id "h<host>" and class "host", labelled with its
 *     (first) rank (class "label"; hosts without a rank are dashed and unlabelled), the
 *     chosen rank's host filled violet and labelled with it, the hosts of its peers of the
 *     step ringed violet; every switch
 *     once, a rounded square with id "s<node>" and class "switch".
 *
 * In a two-panel figure the ids of the second panel start with "p1-".
 */
#ifndef COLLSIM_DRAW_RENDER_H
#define COLLSIM_DRAW_RENDER_H

#include <stdint.h>

#include "draw/layout.h"
#include "draw/loads.h"
#include "draw/scene.h"
#include "topologies/topology.h"

#define DRAW_MAX_PANELS 2

typedef struct draw_panel {
    char title[160];
    char subtitle[240];
    const draw_loads *loads; /* NULL: the topology alone */
    int32_t step;            /* DRAW_TOTAL or a step */
} draw_panel;

typedef struct draw_figure {
    const topology *t;
    const draw_layout *layout;
    const int32_t *rank_of_host; /* per host: its first rank, -1 none */
    const int32_t *host_of_rank; /* per rank: its host (the highlight with several ranks
                                    per host: the chosen rank's and its peers' hosts) */
    char title[400];
    int32_t rank;                /* highlighted rank, -1: none */
    int64_t scale_max;           /* bytes at the dark end of the colour scale */
    int npanels;
    draw_panel panels[DRAW_MAX_PANELS];
} draw_figure;

/* The figure as a scene (initialised here; the caller frees it). */
void draw_render(const draw_figure *f, scene *out);

/* The host radius that fits rank labels up to max_rank. */
double draw_host_radius(int32_t max_rank);

/* "1.5 MiB", "512 B", "3 KiB" (three significant digits). */
void draw_format_bytes(int64_t bytes, char *buf, size_t n);

/* A node's name in pictures and tables: "h<id>" for hosts, "s<id>" for switches. */
void draw_node_name(const topology *t, int32_t v, char *buf, size_t n);

/* The colour of a link carrying `bytes` out of `max`. */
uint32_t draw_load_color(int64_t bytes, int64_t max);

#endif
