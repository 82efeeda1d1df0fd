/* goal_internal.h - the GOAL reader's state, shared by goal_read.c (lines and tokens) and
 * goal_rank.c (building ranks from operations, annotations and dependencies). */
#ifndef COLLSIM_GOAL_INTERNAL_H
#define COLLSIM_GOAL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "schedio/goal.h"

/* One parsed operation of the current rank. */
typedef struct goal_op {
    uint8_t kind;        /* op_kind; a plain `calc` is OP_COPY */
    uint8_t flags;       /* OPF_COMBINE from the annotation */
    uint8_t join;        /* annotated join node: dropped */
    uint8_t deps;        /* keeps its requires lines (plain files; `deps` annotation) */
    int32_t peer;
    int32_t tag;
    int64_t bytes;
    int64_t step;        /* annotated step, or the layer (goal_rank.c) */
    uint32_t range_first, nranges; /* into goal_reader.ranges */
    int line;
} goal_op;

/* "a requires b" (irequires: a may start once b started). */
typedef struct goal_dep {
    uint32_t a, b;
    int start_only;
    int line;
} goal_dep;

typedef struct goal_reader {
    const char *name;
    int line;
    cs_error *err;
    goal_read_options opt;
    int in_block_comment;
    /* header */
    int has_header;
    sched_layout layout;
    int has_blocks;
    int header_tags; /* tags=yes: the file's tags are the schedule's own */
    int64_t bytes;
    char algorithm[64];
    /* ranks */
    int32_t P;
    char *seen;
    rank_sched *ranks;
    int32_t rank; /* the open rank block, -1 outside */
    int rank_line;
    /* the open rank's operations, pending annotation, labels and dependencies */
    goal_op *ops;
    size_t nops, cap_ops;
    blk_range *ranges;
    size_t nranges, cap_ranges;
    int have_note;
    goal_op note;
    int note_line;
    goal_dep *deps;
    size_t ndeps, cap_deps;
    struct label_table *labels;
    int32_t **op_lines;  /* per rank: the file line of each op (in IR order), for the
                            matching check at the end; freed by goal_reader_finish */
    int has_deps;
} goal_reader;

void goal_reader_init(goal_reader *g, const char *name, const goal_read_options *opt,
                      cs_error *err);
void goal_reader_free(goal_reader *g);
int goal_reader_set_ranks(goal_reader *g, int32_t P);
int goal_reader_header(goal_reader *g, const char *text);
int goal_reader_annotation(goal_reader *g, const char *text);
int goal_reader_add_op(goal_reader *g, const goal_op *op, const char *label);
int goal_reader_add_dep(goal_reader *g, const char *a, const char *b, int start_only);
int goal_reader_end_rank(goal_reader *g);
/* After the last line: checks every rank was given, moves the schedule into out. */
int goal_reader_finish(goal_reader *g, sched_file *out);

/* Every message of a plain file has its match by (source, destination, tag) in posting
 * order (goal_match.c); else fails naming file:line of the first one without. */
int goal_check_matching(goal_reader *g);

/* Steps from dependency layers (goal_layers.c): sets ops[i].step for a byte-only rank;
 * fails on a dependency cycle. */
int goal_assign_layers(goal_reader *g);

#endif
