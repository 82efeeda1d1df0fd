/* verify.h - symbolic verification of a schedule: is it a correct collective?
 *
 * The verifier runs a schedule on symbols instead of data and checks, for every rank:
 *
 *   matching     every send is received: the k-th send from a to b and the k-th receive
 *                at b from a exist and agree on bytes and blocks;
 *   well-formed  peers are ranks other than oneself, an op's block ranges lie inside the
 *                layout and do not overlap, a data message's bytes equal its blocks'
 *                bytes, combining receives appear only in reductions and each step
 *                reduces as many bytes as it combines;
 *   holding      no rank sends a block it does not hold at the start of that step;
 *   deadlock     the steps can all complete (a send waits for the matching receive to be
 *                posted, the conservative rendezvous assumption; in a schedule with
 *                dependencies, sends up to verify_options.eager_limit do not wait);
 *   semantics    bcast / scatter: every rank ends with the root's (its own) blocks;
 *                gather: the root ends with every block; allgather: every rank with
 *                every block; alltoall(v): rank d holds block s->d for every s;
 *                reduce / allreduce / reduce_scatter: each required block is the
 *                reduction of all P contributions, each exactly once (double counting
 *                and missing contributions are errors).
 *
 * Two engines share these rules:
 *
 *   full    materializes every rank, matches messages exactly, runs an event-driven
 *           progress simulation (deadlock) carrying each message's contents (semantics,
 *           including exactly-once reductions). Memory grows with the total size of
 *           the schedule; used up to ~10^5 ranks for log-step algorithms.
 *   stream  generates one rank at a time (several threads), never holding the whole
 *           schedule: matching by per-channel hashes of (src, dst, k, step, bytes,
 *           blocks), deadlock freedom from step alignment (every matched pair in the
 *           same step index), holding and final semantics for non-reductions exactly,
 *           reductions structurally only (exactly-once needs the full engine). Used for
 *           10^5..10^6 ranks. A mismatch is re-examined on the few ranks involved so
 *           that the error still names rank, step and block.
 *
 * Every error message names the rank, the step and, where there is one, the block.
 */
#ifndef COLLSIM_VERIFY_H
#define COLLSIM_VERIFY_H

#include <stdint.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

typedef enum { VERIFY_AUTO, VERIFY_FULL, VERIFY_STREAM } verify_mode;

typedef struct verify_options {
    verify_mode mode;
    int threads;            /* stream engine; 0 = number of online CPUs */
    int64_t max_memory;     /* bytes the full engine may use (AUTO picks stream above it) */
    int64_t eager_limit;    /* schedules with dependencies: sends of at most this many
                               bytes complete at once (eager); -1 (default): none, every
                               send waits for its receive (rendezvous) */
} verify_options;

typedef struct verify_result {
    int ok;                   /* 1: no problem found */
    char error[CS_ERROR_MAX]; /* first problem (rank, step, block) when !ok */
    verify_mode engine;       /* VERIFY_FULL or VERIFY_STREAM */
    int semantics_checked;    /* 0 when the stream engine skipped exactly-once reductions */
    int deadlock_checked;     /* 0 when a stream run found the schedule not step-aligned */
    int64_t messages;         /* sends */
    int64_t bytes;            /* bytes of all sends */
    int32_t steps;            /* steps of the longest rank */
    double wall_s;
    long peak_rss_kb;
} verify_result;

void verify_options_default(verify_options *o);

/* Verifies a prepared algorithm. Returns 0 when the verification ran (res->ok tells the
 * verdict), -1 when it could not run (err). */
int verify_run(const alg_run *run, const verify_options *opt, verify_result *res,
               cs_error *err);

const char *verify_mode_name(verify_mode m);

#endif
