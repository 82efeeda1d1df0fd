/* aggregate.h - drawing a large machine by its groups.
 *
 * A Dragonfly of more than DRAW_AGGREGATE_HOSTS hosts (LUMI: 2,976 hosts, 744 routers,
 * 14,412 links) drawn node by node is a 42,000-pixel picture of unreadable dots. Drawn
 * alone (no collective), such a topology is shown by its groups instead: one router and
 * one host per group, one global link per pair of groups, when every pair of groups is
 * joined (the all-to-all group graph of a balanced Dragonfly); the note says so for the
 * title. Loads of a collective are not aggregated: with --collective the whole machine
 * is drawn (the PNG then capped at 4096 pixels by scripts/render_scene.py).
 */
#ifndef COLLSIM_DRAW_AGGREGATE_H
#define COLLSIM_DRAW_AGGREGATE_H

#include <stddef.h>

#include "common/error.h"
#include "topologies/topology.h"

#define DRAW_AGGREGATE_HOSTS 1024

/* Replaces *t by its group graph and writes the note (what a node stands for) and the
 * whole machine's size: 1; 0 when t is drawn as it is (another family, small, or groups
 * not all joined); -1 on error. Both strings hold DRAW_AGGREGATE_NOTE bytes. */
#define DRAW_AGGREGATE_NOTE 256
int draw_aggregate_groups(topology **t, char *note, char *whole, cs_error *err);

#endif
