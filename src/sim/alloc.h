/* alloc.h - job allocations as schedulers print them (docs/interop.md).
 *
 * An allocation (`--alloc A`, placement `alloc:A`) is one of:
 *
 *   env            the hostlist in $SLURM_JOB_NODELIST (placement_parse reads it once)
 *   a file         an existing file, either
 *                    - a PICO allocation CSV: a header line naming the columns MPI_Rank and
 *                      allocation (others, such as LUMI's xname, are ignored), then one row
 *                      per rank: its rank and its host. Every rank 0..P-1 once, in any order;
 *                      a host on several rows runs several ranks;
 *                    - a node list: every line a hostlist expression (hostlist.h) or a host
 *                      name, e.g. the output of `scontrol show hostnames`; '#' comments
 *   otherwise      a hostlist expression: lrdn[0001-0004,0010],lrdn0100
 *
 * A node list names each node once, in the order given. Ranks go to its N nodes in block
 * order (rank r on node r / Q: Slurm's block distribution, the default) or cyclic order
 * (rank r on node r mod N: Slurm's cyclic distribution), Q ranks per node; with P ranks
 * the first ceil(P / Q) nodes are used (block) or every node gets ranks in turn (cyclic).
 * A CSV fixes every rank's host, so no order applies.
 */
#ifndef COLLSIM_ALLOC_H
#define COLLSIM_ALLOC_H

#include <stdint.h>

#include "common/error.h"
#include "common/hostlist.h"

typedef enum { ALLOC_ORDER_BLOCK, ALLOC_ORDER_CYCLIC } alloc_order;

/* "block" or "cyclic". */
int alloc_order_parse(const char *text, alloc_order *out, cs_error *err);
const char *alloc_order_name(alloc_order o);

typedef struct allocation {
    hostlist hosts; /* the nodes, or (per_rank) the host of every rank */
    int per_rank;   /* a PICO CSV */
} allocation;

/* Reads an allocation (not "env": see placement_parse). Errors name the file and line, or
 * the column of the hostlist expression; a node named twice in a node list is an error. */
int alloc_read(const char *spec, allocation *a, cs_error *err);
void alloc_free(allocation *a);

/* The ranks a whole allocation holds: N x Q for a node list, the rows of a CSV. */
int64_t alloc_default_ranks(const allocation *a, int32_t Q);
/* The most ranks any host runs in a CSV (1 for a node list). */
int32_t alloc_ranks_per_host(const allocation *a);

/* The host of every rank, as an index into a->hosts. Errors: more ranks than the
 * allocation holds (naming N, Q and P), a CSV with another number of ranks. */
int alloc_place(const allocation *a, int32_t P, int32_t Q, alloc_order order,
                int32_t *host_of_rank, cs_error *err);

#endif
