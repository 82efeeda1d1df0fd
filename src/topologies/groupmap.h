/* groupmap.h - group maps: which group (Dragonfly group, cell, cabinet, fat-tree subtree)
 * each host name belongs to, as a user or a machine preset writes it down.
 *
 * A map is text, one rule per line; '#' starts a comment, blank lines are skipped:
 *
 *   HOSTS GROUP              the hosts of a hostlist expression (hostlist.h: a name, or
 *                            e.g. lrdn[0001-0180]) are in group GROUP (any word)
 *   regex RE EXPR            a host whose whole name matches the POSIX extended regular
 *                            expression RE (\d and \w allowed) is in the group EXPR, an
 *                            integer expression of n, the number matched by RE's first
 *                            parenthesised group: + - * / % ( ), / and % round down,
 *                            e.g. `regex nid0*([0-9]+) (n - 5000) / 124`
 *   regex RE table           ... in the group of the first `range` line below holding n
 *   range LO[-HI] GROUP      (only after `regex RE table`): n in LO..HI is in GROUP
 *
 * Explicit host lines win over regex rules; regex rules are tried in file order and the
 * first that matches (and, for a table, holds n) gives the group. A host no rule matches
 * has no group. Groups are names: "3" from an expression and "3" from a table line are
 * the same group. Errors name origin:line (and the column for hostlist errors).
 *
 * Domain suffixes: a host lrdn0155.leonardo.local matches what lrdn0155 matches (explicit
 * lines and regex rules are tried on the full name first, then on the name before its first
 * '.'), and a host lrdn0155 matches a map line naming lrdn0155.leonardo.local.
 *
 * PICO's node maps (NODE 0001 RACK 1 CELL 1 ...: groupmap_pico.h) are read too, detected by
 * their first line.
 *
 * Users give maps as files (`--groups FILE`); a machine preset carries one in its `groups:`
 * field (docs/topologies.md), and `--groups preset.yaml` uses that.
 */
#ifndef COLLSIM_GROUPMAP_H
#define COLLSIM_GROUPMAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

typedef struct group_map group_map;

/* Parses map text; messages say "<origin>:<first_line + i>: ...". */
int group_map_parse(const char *text, const char *origin, int first_line, group_map **out,
                    cs_error *err);
/* A map file, or the `groups:` field of a YAML preset (a path ending in .yaml / .yml). */
int group_map_load(const char *path, group_map **out, cs_error *err);
void group_map_free(group_map *m);

/* The group of a host: writes its name into group (n bytes) and returns 1; 0 when no rule
 * matches; -1 on an error evaluating a rule (division by zero, naming the rule's line). */
int group_map_lookup(const group_map *m, const char *host, char *group, size_t n,
                     cs_error *err);

/* Group names to dense ids 0, 1, 2, ... in order of first appearance. */
typedef struct group_ids group_ids;
group_ids *group_ids_new(void);
void group_ids_free(group_ids *g);
int32_t group_ids_get(group_ids *g, const char *name); /* adds it when new */
int32_t group_ids_count(const group_ids *g);
const char *group_ids_name(const group_ids *g, int32_t id);

/* Groups of n host names through the map (-1: no rule matched). */
int group_map_assign(const group_map *m, const char *const *hosts, int64_t n, group_ids *ids,
                     int32_t *group_of_host, cs_error *err);

/* The file or preset the map came from (its origin). */
const char *group_map_origin(const group_map *m);

/* How many distinct hosts of a job a map puts in a group (groupmap_cover.c). */
typedef struct group_map_cover {
    int64_t matched, unmatched; /* distinct host names */
    char example[256];          /* one unmatched host, "" when every host matched */
} group_map_cover;

/* Counts the distinct names of hosts[0..n-1] with group_of_host >= 0 (group_map_assign's
 * output). A map that matches none of them is an error: "<origin>: no host of the job is in
 * the group map (N hosts, e.g. 'x'; ...)". */
int group_map_cover_check(const group_map *m, const char *const *hosts,
                          const int32_t *group_of_host, int64_t n, group_map_cover *c,
                          cs_error *err);

/* The warning line for a partial match, without a trailing newline: "warning: <origin>: U of
 * N hosts of the job are in no group of the map (e.g. 'x')"; "" when every host matched. */
void group_map_cover_warning(const group_map *m, const group_map_cover *c, char *buf,
                             size_t n);

#endif
