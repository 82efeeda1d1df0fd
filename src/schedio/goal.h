/* goal.h - schedules as GOAL text files, the format of LogGOPSim and ATLAHS.
 *
 * GOAL (as read by LogGOPSim's txt2bin) describes, per rank, a graph of operations:
 *
 *   num_ranks 4                      the number of ranks (before the first rank block)
 *   rank 0 {                         one block per rank
 *   l1: send 512b to 1 tag 0         send 512 bytes to rank 1 (tag, cpu, nic optional)
 *   l2: recv 512b from 1 tag 0       receive 512 bytes from rank 1
 *   l3: calc 512                     local work (an amount; see below)
 *   l3 requires l1                   l3 starts when l1 has completed
 *   l3 irequires l2                  l3 starts when l2 has started
 *   }
 *   // a line comment; block comments run from slash-star to star-slash
 *
 * One statement per line; labels are [A-Za-z][A-Za-z0-9_]* and local to their rank; an
 * operation's label is optional; `cpu N` / `nic N` are accepted and ignored. Messages
 * match by (source, destination, tag) in posting order, as MPI and LogGOPSim match them;
 * wildcards (`from -1`, `tag -1`) are rejected.
 *
 * Export (goal_write). Steps become dependency layers: every send / recv of step s
 * requires the end of step s-1; the step's local ops (reduce, copy: `calc <bytes>`) run
 * one after another once all its messages completed; the end of a step is its last
 * local op, its only message, or a join `calc 0` requiring all its messages. Tags are
 * the message's index on its (source, destination) pair, so LogGOPSim's (source, tag)
 * matching equals collsim's. GOAL has no data blocks: collsim writes them, and what
 * makes a round trip exact, in comment lines LogGOPSim ignores:
 *
 *   // collsim-goal v1 collective=allreduce P=4 bytes=1048576 root=0 dst=0 nblocks=4
 *   //   row_len=4 row_bytes=1048576 blocks_per_rank=1 pair_blocks=1 blocks=yes
 *   //   algorithm=recursive_doubling                     (one line in the file)
 *   //@ 3 combine 0:2,5:6      annotates the next op: step 3, combining receive, blocks
 *                              [0,2) and [5,6) (half-open ranges)
 *   //@ 3 reduce | //@ 3 copy  the next `calc` is a reduce / copy of step 3
 *   //@ 3 join                 the next `calc 0` only joins step 3 (no op of its own)
 *
 * Annotated operations come in step order without gaps (0, 1, 2, ...; an empty step is a
 * join), so a file cannot make the reader create steps it has no operation for.
 *
 * blocks=no (a layout with per-block sizes, i.e. alltoallv) writes the steps but no
 * blocks: such a file imports byte-only (below).
 *
 * A rank with dependencies or tags (schedule.h) is written op by op instead: each op's
 * own requires / irequires lines (the step rule's edges for an op without OPF_DEPS), its
 * own tags (header tags=yes), a calc in ns as `calc <ns>` (annotations `deps`, `time`).
 *
 * Import (goal_read). With the collsim header and annotations the schedule is rebuilt
 * exactly (steps, op order, flags, blocks, layout); the dependency lines of ops annotated
 * `deps` are kept, the others only checked for undefined labels. Without them (a file
 * from Schedgen, ATLAHS or a hand), the import is byte-only and follows LogGOPSim:
 *   - every op keeps its dependencies (OPF_DEPS: it starts when what it requires has
 *     completed and what it irequires has started); steps are only labels, the
 *     dependency layers: a send/recv's step is the largest number of send/recv ops on a
 *     `requires` chain before it (`irequires` adds none); a calc follows the messages of
 *     the layer before it (a calc before any message opens a leading step);
 *   - tags are kept; `num_ranks 1` and messages to oneself are accepted;
 *   - a calc takes that many nanoseconds (OPF_TIME), or with calc_bytes copies that many
 *     bytes;
 *   - every message must have its match (goal_match.c), else file:line;
 *   - the layout has no blocks (nblocks = 0): the verifier then checks matching, bytes,
 *     peers and deadlock freedom, while the collective's data semantics is vacuous. The
 *     collective and vector size come from goal_read_options.
 *
 * Errors name "file:line: what is wrong (what is allowed)".
 */
#ifndef COLLSIM_GOAL_H
#define COLLSIM_GOAL_H

#include <stdint.h>
#include <stdio.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

/* A whole schedule held in memory: what a file holds. */
typedef struct sched_file {
    sched_layout layout;
    int has_deps;        /* some op has explicit dependencies or a tag (ALG_DEPS) */
    int has_blocks;      /* 1: blocks known (exact); 0: byte-only (layout.nblocks = 0) */
    int annotated;       /* 1: steps from collsim annotations, 0: from dependency layers */
    int64_t bytes;       /* the collective's vector size */
    char algorithm[64];  /* the algorithm named in the header, or "" */
    rank_sched *ranks;   /* layout.P materialized ranks */
} sched_file;

void sched_file_free(sched_file *f);

/* Export options. */
typedef struct goal_write_options {
    int annotate; /* 1 (default): collsim header and op annotations; 0: plain GOAL */
} goal_write_options;

void goal_write_options_default(goal_write_options *o);

/* Writes the prepared run, rank by rank (one rank in memory at a time). */
int goal_write(FILE *f, const alg_run *run, const goal_write_options *opt, cs_error *err);

/* Import options: what a file without the collsim header does not say. */
typedef struct goal_read_options {
    coll_kind coll; /* default COLL_ALLREDUCE */
    int64_t bytes;  /* vector size; <= 0: the largest number of bytes a rank sends */
    int32_t root, dst;
    int calc_bytes; /* 0 (default): a plain file's `calc N` takes N nanoseconds (Schedgen,
                       LogGOPSim); 1: it copies N bytes (at the copy rate) */
} goal_read_options;

void goal_read_options_default(goal_read_options *o);

/* The most ranks a file may declare: an imported schedule is held in memory. */
#define GOAL_MAX_RANKS (1 << 22)
#define GOAL_MAX_RANKS_TEXT "4194304"

/* Reads a GOAL file (`name` is used in messages). */
int goal_read(FILE *in, const char *name, const goal_read_options *opt, sched_file *out,
              cs_error *err);
int goal_read_path(const char *path, const goal_read_options *opt, sched_file *out,
                   cs_error *err);

#endif
