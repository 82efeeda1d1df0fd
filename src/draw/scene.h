/* scene.h - a picture as a list of primitives, written as SVG or as JSON (for the PNG
 * renderer scripts/render_scene.py).
 *
 * A scene is a canvas (width x height, in pixels, y pointing down) and an ordered list of
 * items, drawn in order (later items on top):
 *
 *   path     straight segments and quadratic Bezier curves (several sub-paths allowed:
 *            an arrowhead is two short strokes in the same path as its link)
 *   circle   centre and radius
 *   rect     corner, size and corner radius
 *   text     anchor point (the baseline's start, middle or end), size, weight
 *
 * Every item has a stroke and a fill colour (SCENE_NONE: none), a stroke width, an
 * opacity, a dash flag and, for SVG readers and tests, an optional element id, a class
 * (a static string: "link", "host", "switch", "label", "legend", ...), a tooltip (<title>)
 * and two optional integers written as data-fwd / data-rev attributes (a link's bytes in
 * each direction). The JSON form keeps the geometry and styles only.
 *
 * Output is deterministic: numbers are printed with at most two decimals, nothing depends
 * on time, addresses or the locale.
 */
#ifndef COLLSIM_SCENE_H
#define COLLSIM_SCENE_H

#include <stdint.h>
#include <stdio.h>

#define SCENE_NONE 0xffffffffu /* no stroke / no fill */
#define SCENE_NO_DATA INT64_MIN

typedef enum { SCENE_PATH, SCENE_CIRCLE, SCENE_RECT, SCENE_TEXT } scene_kind;
typedef enum { SCENE_START, SCENE_MIDDLE, SCENE_END } scene_anchor;

/* One path segment: 'M' move to (x, y), 'L' line to (x, y), 'Q' quadratic curve through
 * control point (cx, cy) to (x, y). */
typedef struct scene_seg {
    char op;
    double cx, cy, x, y;
} scene_seg;

typedef struct scene_item {
    uint8_t kind;   /* scene_kind */
    uint8_t anchor; /* text: scene_anchor */
    uint8_t bold;   /* text */
    uint8_t dashed;
    uint32_t stroke, fill; /* 0xRRGGBB or SCENE_NONE */
    double width, opacity;
    double x, y, w, h, r;  /* circle: x, y, r; rect: x, y, w, h, r; text: x, y, h = size */
    uint32_t seg_first, nsegs; /* path: segments in scene.segs */
    char id[32];
    const char *cls;       /* static string or NULL */
    char *text;            /* text content (owned) */
    char *title;           /* tooltip (owned) or NULL */
    int64_t data_fwd, data_rev; /* SCENE_NO_DATA: not written */
} scene_item;

typedef struct scene {
    double width, height;
    uint32_t background; /* SCENE_NONE: transparent */
    scene_item *items;
    size_t nitems, cap_items;
    scene_seg *segs;
    size_t nsegs, cap_segs;
} scene;

void scene_init(scene *s, double width, double height);
void scene_free(scene *s);

/* Adding items: each returns the new item (valid until the next addition) with a thin
 * black stroke, no fill, opacity 1, no id / class / data; the caller sets the rest. */
scene_item *scene_circle(scene *s, double x, double y, double r);
scene_item *scene_rect(scene *s, double x, double y, double w, double h, double r);
scene_item *scene_text(scene *s, double x, double y, double size, scene_anchor anchor,
                       const char *text);
/* A path: start it, then add segments; they belong to the last path started. */
scene_item *scene_path(scene *s);
void scene_move(scene *s, double x, double y);
void scene_line(scene *s, double x, double y);
void scene_quad(scene *s, double cx, double cy, double x, double y);
/* An open arrowhead at (x, y) pointing along (dx, dy), `len` long, in the last path. */
void scene_arrowhead(scene *s, double x, double y, double dx, double dy, double len);
void scene_item_set_title(scene_item *it, const char *title);

/* Appends every item of `src`, shifted by (dx, dy), to dst (side-by-side panels). */
void scene_append(scene *dst, const scene *src, double dx, double dy);

/* Width of `text` at font size `size` (an upper estimate for a sans-serif font: layouts
 * use it to keep labels apart). */
double scene_text_width(const char *text, double size);

/* v with at most two decimals, no trailing zeros, never "-0" (buf: 32 bytes). */
const char *scene_num(double v, char *buf);

/* ---- writers ------------------------------------------------------------------------- */

/* A standalone SVG document. */
int scene_write_svg(const scene *s, FILE *f);
/* An animated SVG: the frames (same canvas size) shown one after the other, `seconds`
 * each, looping (SMIL discrete visibility animation; a viewer without SMIL shows frame 0). */
int scene_write_svg_animated(const scene *frames, int nframes, double seconds, FILE *f);
/* The JSON form read by scripts/render_scene.py. */
int scene_write_json(const scene *s, FILE *f);

#endif
