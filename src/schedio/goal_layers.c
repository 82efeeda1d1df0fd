/* goal_layers.c - steps of a byte-only GOAL rank from its dependency graph (goal.h).
 *
 * The layer of an operation is the largest number of send/recv operations on a chain of
 * dependencies before it, where `a requires b` adds b (if b is a message) and
 * `a irequires b` adds nothing (a may start with b). Messages of layer d form step d;
 * a calc of layer d >= 1 runs after the messages of layer d-1, as a local op of step
 * d-1. Calcs of layer 0 (before any message) open a leading step of their own, and
 * every message step then moves one up.
 */
#include <stdlib.h>
#include <string.h>

#include "schedio/goal_internal.h"

/* Kahn's algorithm over the edges b -> a; fills depth[]; -1 on a cycle. */
static int longest_layers(goal_reader *g, int64_t *depth)
{
    size_t n = g->nops;
    uint32_t *indeg = xcalloc(n ? n : 1, sizeof *indeg);
    size_t *first = xcalloc(n + 1, sizeof *first);
    uint32_t *edge = xmalloc((g->ndeps ? g->ndeps : 1) * sizeof *edge); /* dep index */
    for (size_t e = 0; e < g->ndeps; e++) {
        first[g->deps[e].b + 1]++;
        indeg[g->deps[e].a]++;
    }
    for (size_t i = 0; i < n; i++)
        first[i + 1] += first[i];
    size_t *fill = xmalloc((n ? n : 1) * sizeof *fill);
    memcpy(fill, first, n * sizeof *fill);
    for (size_t e = 0; e < g->ndeps; e++)
        edge[fill[g->deps[e].b]++] = (uint32_t)e;
    uint32_t *queue = xmalloc((n ? n : 1) * sizeof *queue);
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++) {
        depth[i] = 0;
        if (indeg[i] == 0)
            queue[tail++] = (uint32_t)i;
    }
    while (head < tail) {
        uint32_t b = queue[head++];
        int64_t add = op_is_comm(&(sched_op){.kind = g->ops[b].kind}) ? 1 : 0;
        for (size_t k = first[b]; k < first[b + 1]; k++) {
            const goal_dep *d = &g->deps[edge[k]];
            int64_t cand = depth[b] + (d->start_only ? 0 : add);
            if (cand > depth[d->a])
                depth[d->a] = cand;
            if (--indeg[d->a] == 0)
                queue[tail++] = d->a;
        }
    }
    int rc = 0;
    if (tail < n) { /* the ops left all lie on or after a cycle: name one dependency line */
        int line = g->line;
        for (size_t e = 0; e < g->ndeps; e++)
            if (indeg[g->deps[e].a] > 0 && indeg[g->deps[e].b] > 0) {
                line = g->deps[e].line;
                break;
            }
        rc = cs_fail(g->err, "%s:%d: rank %d's dependencies form a cycle", g->name, line,
                     g->rank);
    }
    free(indeg);
    free(first);
    free(edge);
    free(fill);
    free(queue);
    return rc;
}

int goal_assign_layers(goal_reader *g)
{
    int64_t *depth = xmalloc((g->nops ? g->nops : 1) * sizeof *depth);
    if (longest_layers(g, depth) < 0) {
        free(depth);
        return -1;
    }
    int lead = 0; /* a calc before any message: a leading step */
    for (size_t i = 0; i < g->nops; i++)
        if (g->ops[i].kind == OP_COPY && depth[i] == 0)
            lead = 1;
    for (size_t i = 0; i < g->nops; i++) {
        int calc = g->ops[i].kind == OP_COPY;
        g->ops[i].step = calc ? (depth[i] == 0 ? 0 : depth[i] - 1 + lead) : depth[i] + lead;
    }
    free(depth);
    return 0;
}
