/* groupmap_pico.h - PICO's node map format (HLC-Lab/pico, tracer/maps/leonardo.txt) read
 * as a group map.
 *
 * PICO writes one node per line as KEY VALUE pairs, e.g.
 *
 *   NODE 0001 RACK 1 CELL 1 ROW 1 PARTITION 1  SWITCH 10100
 *
 * and its tracer gives a host lrdn<N> the CELL of the line whose NODE is N. collsim reads
 * the same file: the group of a host named <letters><digits> (lrdn0155, after any domain
 * suffix is dropped: groupmap.h) is the CELL of the line whose NODE is that number. An
 * optional first line of column names only (`NODE RACK CELL ...`) is a header and skipped;
 * '#' starts a comment. Other columns are ignored. A line without `NODE <number>` and
 * `CELL <group>`, or a node given twice with different cells, is an error naming
 * origin:line.
 */
#ifndef COLLSIM_GROUPMAP_PICO_H
#define COLLSIM_GROUPMAP_PICO_H

#include "common/error.h"

/* 1 when the first line that is not blank or a comment starts with the word NODE. */
int pico_map_detect(const char *text);

/* The same map as collsim map rules (groupmap.h): a `regex ... table` line and one `range`
 * line per run of consecutive nodes in one cell. *out is malloc'ed. Errors name
 * "<origin>:<first_line + i>". */
int pico_map_rules(const char *text, const char *origin, int first_line, char **out,
                   cs_error *err);

#endif
