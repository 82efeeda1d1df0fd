/* hostlist.h - host lists as schedulers print them: Slurm hostlist expressions.
 *
 * A hostlist expression names hosts compactly, as $SLURM_JOB_NODELIST and `scontrol show
 * hostname` do:
 *
 *   lrdn[0001-0004,0010],lrdn0100     lrdn0001 lrdn0002 lrdn0003 lrdn0004 lrdn0010 lrdn0100
 *   nid[005000-005002]                nid005000 nid005001 nid005002
 *   node[8-10]                        node8 node9 node10       (width of the lower bound)
 *   node[08-10]                       node08 node09 node10
 *   rack[1-2]-n[1-2]-ib               rack1-n1-ib rack1-n2-ib rack2-n1-ib rack2-n2-ib
 *
 * Items are separated by commas outside brackets or by white space (so one name per line,
 * the output of `scontrol show hostnames`, is a hostlist too). An item is text with any
 * number of bracket groups; a group is a comma-separated list of numbers and ranges LO-HI,
 * printed zero-padded to the number of digits of LO. Several groups expand to their
 * product, the leftmost group varying slowest (Slurm's order). Names keep the order of
 * the expression; duplicates are kept (callers decide what a repeated host means).
 *
 * Errors give the 1-based column in the expression: "column 6: missing ']' to close the
 * '[' at column 5", "column 7: '[' inside brackets (groups cannot nest)", "column 9:
 * expected a number", "column 8: range 10-2 goes down", "column 1: empty host name".
 */
#ifndef COLLSIM_HOSTLIST_H
#define COLLSIM_HOSTLIST_H

#include <stdint.h>

#include "common/error.h"

/* An expansion is refused beyond this many names (a typo like [1-999999999]). */
#define HOSTLIST_MAX_NAMES (1 << 18) /* 262,144: more nodes than any machine has (Fugaku: 158,976) */

typedef struct hostlist {
    char **names;
    int64_t n, cap;
} hostlist;

void hostlist_init(hostlist *h);
void hostlist_free(hostlist *h);
void hostlist_push(hostlist *h, const char *name);

/* Appends the expansion of `expr` to h (on error h may hold part of it). */
int hostlist_expand(const char *expr, hostlist *h, cs_error *err);

/* Natural order of host names: digit runs compare as numbers ("h2" < "h10"), then the
 * shorter run first ("n01" < "n001" when equal in value), other characters bytewise. */
int hostname_cmp(const char *a, const char *b);

#endif
