/* render_internal.h - colours, sizes and the panel drawer shared by the renderer (render.c,
 * render_legend.c); internal to src/draw. */
#ifndef COLLSIM_DRAW_RENDER_INTERNAL_H
#define COLLSIM_DRAW_RENDER_INTERNAL_H

#include <stdint.h>

#include "draw/render.h"
#include "topologies/faults.h"
#include "topologies/topology.h"

static const uint32_t CLASS_COLOR[LINK__COUNT] = {0x868e96, 0x1c7ed6, 0xf08c00};
static const double CLASS_WIDTH[LINK__COUNT] = {1.2, 1.6, 1.8};
#define COLOR_TEXT 0x212529
#define COLOR_MUTED 0x495057
#define COLOR_DECO_FILL 0xf1f3f5
#define COLOR_DECO_STROKE 0xced4da
#define COLOR_SWITCH_FILL 0xdee2e6
#define COLOR_HIGHLIGHT 0x7048e8
#define COLOR_PEER_FILL 0xe5dbff
#define COLOR_FAILED 0xe03131 /* failed links (topologies/faults.h): red, dashed */
#define UNLOADED_OPACITY 0.3
#define LOAD_MIN_WIDTH 1.5
#define LOAD_EXTRA_WIDTH 6.0
#define LABEL_SIZE 10.0
#define TITLE_SIZE 14.0
#define PANEL_TITLE_SIZE 12.0
#define LEGEND_SIZE 11.0
#define DECO_LABEL_SIZE 11.0
/* titles are bold: about 15 % wider than scene_text_width estimates */
#define BOLD_WIDER 1.15

/* Draws panel p of f into s with its layout at the origin; element ids get prefix idp. */
void draw_render_panel(const draw_figure *f, const draw_panel *p, const char *idp, scene *s);

#endif
