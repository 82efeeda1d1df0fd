/* placement.h - which host each rank runs on.
 *
 * A job of P ranks with Q ranks per node needs N = ceil(P / Q) nodes. A placement picks
 * an ordered list of N distinct hosts (the job's "node list"); rank r runs on node r / Q,
 * so ranks r*Q .. r*Q+Q-1 share a host (the block layout coll_spec.ranks_per_node
 * assumes). The kinds, as users write them:
 *
 *   linear              hosts 0 .. N-1 (Slurm's block distribution on an empty machine)
 *   roundrobin          one host per group in turn: host 0 of every group, then host 1 of
 *                       every group, ... (hosts without a group form one group; on a
 *                       topology without groups this is linear)
 *   random:SEED         N hosts drawn uniformly without replacement, in random order
 *   fragmented:K:SEED   K contiguous chunks of random sizes (each >= 1 host) at random
 *                       positions with at least one free host between chunks, filled in
 *                       host order: what real allocations on a busy machine look like
 *   file:PATH           one host name per rank and line, in rank order (`--hostfile`);
 *                       blank lines and '#' comments are skipped, lines after the P-th
 *                       ignored. A host named on several lines runs several ranks (at most
 *                       Q). Names: "h<id>", a preset's `hostnames:` names, or an external
 *                       platform's own names (topology.h: topo_host_lookup).
 *   alloc:A             an allocation as a scheduler prints it (alloc.h): a hostlist
 *                       expression, a node list or PICO CSV file, or `env` (the hostlist in
 *                       $SLURM_JOB_NODELIST, read by placement_parse)
 *
 * Rank order (`order`, text suffix " order=cyclic"): the kinds that make a node list
 * (all but file and an allocation CSV) put rank r on node r / Q (block, the default) or
 * on node r mod N (cyclic).
 *
 * The same kind, seed and topology always give the same placement (the generator is a
 * splitmix64 stream seeded with SEED, independent of the platform and the C library).
 */
#ifndef COLLSIM_PLACEMENT_H
#define COLLSIM_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "sim/alloc.h"
#include "topologies/topology.h"

typedef enum {
    PLACE_LINEAR,
    PLACE_ROUNDROBIN,
    PLACE_RANDOM,
    PLACE_FRAGMENTED,
    PLACE_FILE,
    PLACE_ALLOC
} placement_kind;

typedef struct placement_spec {
    placement_kind kind;
    uint64_t seed;   /* random, fragmented */
    int64_t chunks;  /* fragmented: K */
    char path[1024]; /* file; alloc: the allocation (a hostlist, or a file path) */
    alloc_order order; /* node lists: block (default) or cyclic */
} placement_spec;

/* "linear" (also the default), "roundrobin", "random:SEED", "fragmented:K:SEED",
 * "file:PATH", "alloc:A", each optionally followed by " order=block|cyclic"; the error lists
 * the allowed forms. */
int placement_parse(const char *text, placement_spec *out, cs_error *err);
/* The canonical text of a placement (parse(format(p)) == p). */
void placement_format(const placement_spec *p, char *buf, size_t n);

/* Fills host_of_rank[0..P-1]. Errors: P > hosts x Q, K out of range or too many chunks
 * for the free hosts, an unreadable file, an unknown host name or a host given more than
 * Q ranks (naming file:line), a file with fewer than P ranks, an allocation error (alloc.h),
 * a cyclic order on a per-rank list. */
int placement_compute(const placement_spec *p, const topology *t, int32_t P, int32_t Q,
                      int32_t *host_of_rank, cs_error *err);

/* A host file (file:PATH) names a host on several lines to run several ranks there: the
 * most ranks any host gets from the first P rank lines, into *q (`collsim sim --hostfile`
 * takes it as the ranks per node when --ranks-per-node is not given). Errors: an
 * unreadable file. */
int placement_file_ranks_per_host(const char *path, int32_t P, int32_t *q, cs_error *err);

#endif
