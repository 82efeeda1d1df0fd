/* multitree.h - MULTITREE (Huang et al., ISCA 2021; thesis Sec. 2.2.3 and 3.1) over any
 * directed graph: one spanning tree rooted at every vertex, built together so that every
 * link carries at most one tree edge per step, and the collectives those trees give.
 *
 * Construction. Steps s = 0, 1, ...; in each step every link of the graph is available
 * once. The trees take turns (tree 0, 1, ..., n-1, then again from tree 0): an incomplete
 * tree t takes one edge p -> c such that p was in the tree before step s (so p holds the
 * tree's data at the start of the step), c is not in the tree and the link p -> c has not
 * been taken in step s. Within a tree, p is searched in the order vertices joined it and
 * c in p's adjacency order. When a whole round adds no edge, the next step starts with
 * every link available again. So the trees are contention-free by construction and the
 * step count is at least ceil((n-1) / max out-degree); on K(2,2) it is 3.
 *
 * Collectives (rank r's part; chunk t = blocks [t*unit, (t+1)*unit), the data of tree t's
 * root):
 *   allgather       out-trees: at step s, for every tree edge p -> c of step s, p sends
 *                   chunk t to c (one block-chunk per link per step)
 *   alltoall        out-trees: the edge p -> c of tree t carries the blocks t -> x for every
 *                   x in c's subtree (pair_blocks parts each)
 *   reduce-scatter  in-trees: trees built on the transposed graph, run backwards in time:
 *                   step s of the construction is step nsteps-1-s of the schedule, where
 *                   every child sends its partial chunk t to its parent, which combines it
 * Each emits exactly nsteps steps for every rank.
 */
#ifndef COLLSIM_MULTITREE_H
#define COLLSIM_MULTITREE_H

#include <stdint.h>

#include "algorithms/lgraph.h"
#include "algorithms/schedule.h"
#include "common/error.h"

/* The largest graph the family files accept (the trees take O(n^2) memory and the
 * construction O(n^3) time in the worst case: about 1 s at n = 1056). */
#define MT_MAX_VERTICES 2048

/* A tree edge seen from its parent. */
typedef struct mt_edge {
    int32_t tree, child, step;
} mt_edge;

typedef struct multitree {
    int32_t n;
    int nsteps;
    int32_t *parent; /* [t*n + v]: v's parent in tree t (-1 for v = t) */
    int32_t *step;   /* [t*n + v]: step at which v joins tree t (-1 for v = t) */
    int64_t *send_first; /* vertex p's edges as parent: sends[send_first[p] .. [p+1]), */
    mt_edge *sends;      /* sorted by (step, tree) */
    int32_t *kid_first;  /* [t*(n+1) + v]: v's children in tree t are              */
    int32_t *kids;       /* kids[t*n + kid_first[..v] .. t*n + kid_first[..v+1])      */
} multitree;

/* Builds the trees. Fails (graph not strongly connected) when some tree cannot grow. */
int multitree_build(const lgraph *g, multitree *mt, cs_error *err);
void multitree_free(multitree *mt);

/* Link uses (tree edges) of step s, for tests: every step uses each link at most once. */
int64_t multitree_edges_at(const multitree *mt, int s);

void mt_allgather(sched_builder *b, const multitree *out, int64_t unit, int32_t r);
void mt_alltoall(sched_builder *b, const multitree *out, int32_t r);
void mt_reduce_scatter(sched_builder *b, const multitree *in, int64_t unit, int32_t r);

/* A MULTITREE collective on a family's graph, ready to generate: allgather, alltoall,
 * reduce_scatter, or allreduce = reduce_scatter + allgather over P chunks. */
typedef struct mt_plan {
    multitree out; /* out-trees: allgather, alltoall, allreduce */
    multitree in;  /* in-trees (built on the reversed graph): reduce_scatter, allreduce */
    int64_t unit;  /* blocks per chunk */
} mt_plan;

/* Checks P <= MT_MAX_VERTICES, cuts an allreduce vector into P chunks and builds the
 * trees the collective needs on g. */
int mt_plan_prepare(mt_plan *p, const lgraph *g, const coll_spec *s, sched_layout *l,
                    cs_error *err);
void mt_plan_gen(const mt_plan *p, coll_kind c, int32_t r, sched_builder *b);
void mt_plan_free(mt_plan *p);

#endif
