/* jsonl.h - a schedule as JSON lines, for diffing schedules in code review.
 *
 * The first line describes the schedule, every further line is one operation, in a
 * stable order (rank, then step, then the op's position in its step):
 *
 *   {"collective":"allreduce","algorithm":"recursive_doubling","P":4,"bytes":1024,
 *    "nblocks":1,"blocks_per_rank":1,"pair_blocks":1,"root":0}
 *   {"rank":0,"step":0,"op":"send","peer":1,"bytes":1024,"blocks":[[0,1]]}
 *   {"rank":0,"step":0,"op":"recv","peer":1,"bytes":1024,"blocks":[[0,1]],"combine":true}
 *   {"rank":0,"step":0,"op":"reduce","bytes":1024}
 *
 * (each object on one line). `blocks` lists half-open [lo, hi) ranges; messages without
 * blocks have "blocks":[]. A rank's empty step has one line {"rank":R,"step":S,"op":"none"}
 * so that step numbers stay visible in a diff.
 *
 * A rank with dependencies or tags (schedule.h) adds to each op its "index" in the rank,
 * a non-zero "tag", "unit":"ns" for a calc in nanoseconds, and for an op that runs by
 * its dependencies "after" (ops it waits for) and "after_start" (ops whose start it
 * waits for): {"rank":1,"step":1,"op":"send",...,"index":2,"after":[1],"after_start":[]}.
 */
#ifndef COLLSIM_JSONL_H
#define COLLSIM_JSONL_H

#include <stdio.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

/* Writes the prepared run, one rank in memory at a time. */
int jsonl_write(FILE *f, const alg_run *run, cs_error *err);

#endif
