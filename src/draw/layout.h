/* layout.h - where every node and link of a topology goes on a picture.
 *
 * A layout gives every node (hosts and switches) a position and every link a shape: a
 * straight segment between its two nodes, or a quadratic Bezier curve through a control
 * point (torus wrap-around links, the cliques of HyperX / 2dfc rows and columns, both
 * directions of a Kautz pair). It may also carry decorations drawn beneath: group
 * outlines with their labels. Coordinates are pixels, y down, inside [0, width] x
 * [0, height]; the renderer (render.h) adds titles and legends around it.
 *
 * One layout per family shape, each in its own file:
 *   layout_grid.c    torus / mesh (2-D grid, wrap-around arcs; 1-D rings as a circle;
 *                    3-D and up as 2-D planes side by side), HyperX and 2dfc (grid of
 *                    switches, row / column cliques as arcs, attached hosts below),
 *                    HammingMesh (boards as blocks of the grid, row switches on the
 *                    left, column switches on top)
 *   layout_groups.c  Dragonfly and Dragonfly+: groups around a circle, each a light disc
 *                    holding its routers (leaves and spines) and hosts; global links as
 *                    chords between the groups
 *   layout_tree.c    fat trees: hosts at the bottom, then leaves, spines / aggregation
 *                    switches, cores, one layer per level
 *   layout_circle.c  Kautz (a directed graph: vertices on a circle, links as slightly
 *                    bent chords so that u->v and v->u are both visible) and any family
 *                    without a layout of its own
 *
 * The sizes are chosen from the host radius (which the renderer picks to fit the widest
 * rank label) so that labels never overlap: neighbouring nodes are at least two radii
 * plus a gap apart.
 */
#ifndef COLLSIM_DRAW_LAYOUT_H
#define COLLSIM_DRAW_LAYOUT_H

#include <stdint.h>

#include "common/error.h"
#include "topologies/topology.h"

/* The largest topologies drawn: beyond them a picture is unreadable anyway. */
#define DRAW_MAX_NODES 4096
#define DRAW_MAX_LINKS 40000

/* How a link is drawn from node a to node b:
 *   straight  a segment;
 *   curve     a quadratic Bezier curve through control point (px[0], py[0]);
 *   bracket   a curve through control 0 to point 1, a segment to point 2, a curve through
 *             control 3 to b (torus wrap-around links, HammingMesh row / column links:
 *             they leave the grid line, run along a lane of their own, and come back). */
typedef enum { LINK_SHAPE_STRAIGHT, LINK_SHAPE_CURVE, LINK_SHAPE_BRACKET } draw_link_kind;
typedef struct draw_link_shape {
    uint8_t kind; /* draw_link_kind */
    double px[4], py[4];
} draw_link_shape;

typedef enum { DECO_DISC, DECO_BOX } draw_deco_kind;

/* A group outline (disc: centre x, y, radius w; box: corner x, y, size w x h) and its
 * label at (lx, ly), centred. */
typedef struct draw_deco {
    uint8_t kind;
    double x, y, w, h;
    double lx, ly;
    char label[32];
} draw_deco;

typedef struct draw_layout {
    const char *style;        /* "grid", "hyperx", "hammingmesh", "groups", "tree", "circle" */
    double width, height;
    double host_r;            /* radius of a host's circle */
    double switch_r;          /* half the side of a switch's square */
    double *x, *y;            /* per node */
    draw_link_shape *link;    /* per link */
    draw_deco *deco;
    int ndeco, cap_deco;
} draw_layout;

/* Fails unless a topology of this many nodes and links can be drawn (the limits above);
 * `what` names it in the message. draw_run checks the size before building the topology. */
int draw_layout_check_size(const char *what, double nodes, double links, cs_error *err);
/* Lays out t with hosts of radius host_r. Errors: more than DRAW_MAX_NODES nodes or
 * DRAW_MAX_LINKS links (the message gives the limits). */
int draw_layout_build(const topology *t, double host_r, draw_layout *out, cs_error *err);
void draw_layout_free(draw_layout *l);

/* ---- for the layout files ---------------------------------------------------------- */

/* Allocates the per-node and per-link arrays (straight links, nodes at 0, 0). */
void layout_alloc(draw_layout *l, const topology *t, const char *style, double host_r);
/* Adds a decoration; returns it. */
draw_deco *layout_add_deco(draw_layout *l, draw_deco_kind kind, double x, double y, double w,
                           double h, const char *label);
/* A box `pad` around the nodes of group g among nodes 0..nnodes-1, labelled `label`;
 * NULL (and nothing added) when the group has none of them. */
draw_deco *layout_group_box(draw_layout *l, const topology *t, int32_t g, int32_t nnodes,
                            double pad, const char *label);
/* Bends link id: the control point at `bulge` pixels from the midpoint, perpendicular to
 * the link, to the left of the a -> b direction (negative: to the right). */
void layout_bend(draw_layout *l, const topology *t, int64_t id, double bulge);
/* Shifts everything (nodes, control points, decorations) so that the drawing starts at
 * (margin, margin), and sets width and height to its extent plus the margin; the extent
 * counts node radii and the sampled link curves. */
void layout_fit(draw_layout *l, const topology *t, double margin);

/* The family layouts (called by draw_layout_build after layout_alloc). */
void layout_grid(draw_layout *l, const topology *t);
void layout_hyperx(draw_layout *l, const topology *t);
void layout_hammingmesh(draw_layout *l, const topology *t);
void layout_groups(draw_layout *l, const topology *t);
void layout_tree(draw_layout *l, const topology *t);
void layout_circle(draw_layout *l, const topology *t);
/* Hosts hanging off switches: each switch's hosts in a row centred at (dx, dy) from the
 * switch's centre (used by the grid, circle and tree layouts). */
void layout_hosts_below(draw_layout *l, const topology *t, double dx, double dy);
/* Sets link id to a bracket from a to b: leaves a towards (ax1, ay1) (control (cx0, cy0)),
 * runs to (bx1, by1), comes into b through control (cx3, cy3). */
void layout_bracket(draw_layout *l, int64_t id, double cx0, double cy0, double ax1, double ay1,
                    double bx1, double by1, double cx3, double cy3);
/* Sets link id to a curve through control point (cx, cy). */
void layout_curve(draw_layout *l, int64_t id, double cx, double cy);

#endif
