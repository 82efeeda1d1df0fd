/* tree.h - one engine for tree collectives: bcast, reduce, gather, scatter over any tree.
 *
 * A tree is given in broadcast order over n participants numbered relative to the root
 * (participant 0 is the root; see chunk_map in blocks.h for how participants map to
 * ranks and blocks): the step at which each participant receives from its parent, and
 * the child it sends to at each later step. Binomial trees (both orders), Bine trees and
 * user-given trees are all such patterns.
 *
 *   bcast    step t: a participant that received before t sends the vector to child(v, t)
 *   scatter  same order; each child gets the chunks of its subtree
 *   reduce   the broadcast run backwards: step t of the reduce is step nsteps-1-t of the
 *            broadcast; children send their partial results, parents combine them
 *   gather   the same backwards order; each child sends the chunks of its subtree
 *
 * Every participant emits exactly nsteps steps (empty when idle), so schedules stay
 * step-aligned.
 *
 * Multi-port trees (a node sends to several children in one step, e.g. a BFS tree where
 * each level is one step) give `children` instead of `child`: all the children v sends to
 * at step t. In the reduce and the gather a parent then receives from all of them in the
 * mirrored step (and reduces each combined receive in that step).
 */
#ifndef COLLSIM_TREE_H
#define COLLSIM_TREE_H

#include "algorithms/blocks.h"
#include "algorithms/schedule.h"

typedef struct tree_pattern {
    int32_t n;  /* participants */
    int nsteps; /* broadcast steps */
    /* step at which v receives from its parent in the broadcast; -1 for the root */
    int (*recv_step)(const void *ctx, int32_t v);
    int32_t (*parent)(const void *ctx, int32_t v);
    /* the child v sends to at broadcast step t, or -1 (single-port trees) */
    int32_t (*child)(const void *ctx, int32_t v, int t);
    /* appends v's subtree as participant ranges [a, b) (b may exceed n: wraps) */
    void (*subtree)(const void *ctx, int32_t v, range_list *out);
    const void *ctx;
    /* multi-port trees (NULL otherwise; then `child` may be NULL): writes the children v
     * sends to at broadcast step t into out[0..max) and returns how many there are */
    int (*children)(const void *ctx, int32_t v, int t, int32_t *out, int max);
} tree_pattern;

/* Emit rank r's part of a tree collective (empty steps if r is folded out of m). */
void tree_bcast(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r);
void tree_reduce(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r);
void tree_gather(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r);
void tree_scatter(sched_builder *b, const tree_pattern *t, const chunk_map *m, int32_t r);
/* The one of the four for coll (COLL_BCAST, COLL_REDUCE, COLL_GATHER, COLL_SCATTER; any
 * other is a bcast). */
void tree_collective(coll_kind coll, sched_builder *b, const tree_pattern *t, const chunk_map *m,
                     int32_t r);

/* Binomial trees over n participants (any n), ceil(log2 n) steps.
 * Distance-halving (MPICH): the root first sends to 2^(L-1); subtrees are contiguous.
 * Distance-doubling (Open MPI): the root first sends to 1; v receives from v - 2^floor(log2 v). */
typedef struct binomial_tree {
    int32_t n;
    int L;
} binomial_tree;
void binomial_tree_init(binomial_tree *bt, int32_t n);
void binomial_halving_pattern(tree_pattern *t, const binomial_tree *bt);
void binomial_doubling_pattern(tree_pattern *t, const binomial_tree *bt);

#endif
