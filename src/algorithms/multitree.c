/* multitree.c - MULTITREE construction and its collectives (see multitree.h). */
#include "algorithms/multitree.h"

#include <stdlib.h>
#include <string.h>

#include "algorithms/blocks.h"
#include "common/util.h"

enum { NOT_IN_TREE = -2 };

/* The state of the construction. */
typedef struct builder {
    const lgraph *g;
    multitree *mt;
    int32_t *members;  /* [t*n + i]: the i-th vertex to join tree t */
    int32_t *count;    /* vertices in tree t */
    int32_t *avail;    /* vertices of tree t present at the start of the current step */
    int32_t *start;    /* members before start[t] have all their out-neighbours in tree t */
    int32_t *cur_i, *cur_k; /* where tree t's search for an edge resumes in this step */
    int32_t *taken;    /* [edge]: the step the link was last taken in */
} builder;

static int saturated(const builder *B, int32_t t, int32_t p)
{
    const lgraph *g = B->g;
    int32_t n = g->n;
    for (int32_t e = g->out_first[p]; e < g->out_first[p + 1]; e++)
        if (B->mt->step[(int64_t)t * n + g->out[e]] == NOT_IN_TREE)
            return 0;
    return 1;
}

/* Tree t takes one edge in step s if it can; the search resumes where it stopped, since
 * an edge rejected in this step (link taken, child already in the tree) stays rejected. */
static int take_edge(builder *B, int32_t t, int32_t s)
{
    const lgraph *g = B->g;
    int32_t n = g->n;
    int64_t base = (int64_t)t * n;
    for (int32_t i = B->cur_i[t]; i < B->avail[t]; i++) {
        int32_t p = B->members[base + i];
        int32_t k0 = i == B->cur_i[t] ? B->cur_k[t] : 0;
        for (int32_t k = k0; k < g->out_first[p + 1] - g->out_first[p]; k++) {
            int32_t e = g->out_first[p] + k;
            int32_t c = g->out[e];
            if (B->taken[e] == s || B->mt->step[base + c] != NOT_IN_TREE)
                continue;
            B->taken[e] = s;
            B->mt->parent[base + c] = p;
            B->mt->step[base + c] = s;
            B->members[base + B->count[t]++] = c;
            B->cur_i[t] = i;
            B->cur_k[t] = k + 1;
            return 1;
        }
    }
    B->cur_i[t] = B->avail[t];
    return 0;
}

/* One step: rounds over the trees until a round adds nothing. Returns the edges added. */
static int64_t build_step(builder *B, int32_t s)
{
    int32_t n = B->g->n;
    for (int32_t t = 0; t < n; t++) {
        while (B->start[t] < B->count[t] &&
               saturated(B, t, B->members[(int64_t)t * n + B->start[t]]))
            B->start[t]++;
        B->avail[t] = B->count[t];
        B->cur_i[t] = B->start[t];
        B->cur_k[t] = 0;
    }
    int64_t added = 0, round;
    do {
        round = 0;
        for (int32_t t = 0; t < n; t++)
            if (B->count[t] < n)
                round += take_edge(B, t, s);
        added += round;
    } while (round > 0);
    return added;
}

static int cmp_edge(const void *a, const void *b)
{
    const mt_edge *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    return (x->tree > y->tree) - (x->tree < y->tree);
}

/* The per-parent edge lists and the per-tree children lists. */
static void index_edges(multitree *mt)
{
    int32_t n = mt->n;
    mt->send_first = xcalloc((size_t)n + 1, sizeof *mt->send_first);
    for (int64_t i = 0; i < (int64_t)n * n; i++)
        if (mt->parent[i] >= 0)
            mt->send_first[mt->parent[i] + 1]++;
    for (int32_t v = 0; v < n; v++)
        mt->send_first[v + 1] += mt->send_first[v];
    mt->sends = xmalloc((size_t)(mt->send_first[n] ? mt->send_first[n] : 1) * sizeof *mt->sends);
    int64_t *pos = xmalloc((size_t)n * sizeof *pos);
    memcpy(pos, mt->send_first, (size_t)n * sizeof *pos);
    mt->kid_first = xcalloc((size_t)n * (n + 1), sizeof *mt->kid_first);
    mt->kids = xmalloc((size_t)n * n * sizeof *mt->kids);
    for (int32_t t = 0; t < n; t++) {
        int32_t *first = mt->kid_first + (int64_t)t * (n + 1);
        for (int32_t v = 0; v < n; v++) {
            int32_t p = mt->parent[(int64_t)t * n + v];
            if (p < 0)
                continue;
            mt->sends[pos[p]++] = (mt_edge){t, v, mt->step[(int64_t)t * n + v]};
            first[p + 1]++;
        }
        for (int32_t v = 0; v < n; v++)
            first[v + 1] += first[v];
        int32_t *fill = xmalloc((size_t)n * sizeof *fill);
        memcpy(fill, first, (size_t)n * sizeof *fill);
        for (int32_t v = 0; v < n; v++) {
            int32_t p = mt->parent[(int64_t)t * n + v];
            if (p >= 0)
                mt->kids[(int64_t)t * n + fill[p]++] = v;
        }
        free(fill);
    }
    free(pos);
    for (int32_t v = 0; v < n; v++)
        qsort(mt->sends + mt->send_first[v], (size_t)(mt->send_first[v + 1] - mt->send_first[v]),
              sizeof *mt->sends, cmp_edge);
}

int multitree_build(const lgraph *g, multitree *mt, cs_error *err)
{
    int32_t n = g->n;
    memset(mt, 0, sizeof *mt);
    mt->n = n;
    size_t nn = (size_t)n * n;
    mt->parent = xmalloc(nn * sizeof *mt->parent);
    mt->step = xmalloc(nn * sizeof *mt->step);
    builder B = {g, mt, xmalloc(nn * sizeof(int32_t)), xcalloc((size_t)n, sizeof(int32_t)),
                 xmalloc((size_t)n * sizeof(int32_t)), xcalloc((size_t)n, sizeof(int32_t)),
                 xmalloc((size_t)n * sizeof(int32_t)), xmalloc((size_t)n * sizeof(int32_t)),
                 xmalloc((size_t)(g->out_first[n] ? g->out_first[n] : 1) * sizeof(int32_t))};
    for (size_t i = 0; i < nn; i++) {
        mt->parent[i] = -1;
        mt->step[i] = NOT_IN_TREE;
    }
    for (int32_t t = 0; t < n; t++) {
        mt->step[(int64_t)t * n + t] = -1;
        B.members[(int64_t)t * n] = t;
        B.count[t] = 1;
    }
    for (int32_t e = 0; e < g->out_first[n]; e++)
        B.taken[e] = -1;
    int64_t remaining = (int64_t)n * (n - 1);
    int rc = 0;
    int32_t s = 0;
    for (; remaining > 0; s++) {
        int64_t added = build_step(&B, s);
        if (added == 0) {
            rc = cs_fail(err, "MULTITREE: the graph is not strongly connected");
            break;
        }
        remaining -= added;
    }
    mt->nsteps = s;
    free(B.members);
    free(B.count);
    free(B.avail);
    free(B.start);
    free(B.cur_i);
    free(B.cur_k);
    free(B.taken);
    if (rc < 0) {
        multitree_free(mt);
        return -1;
    }
    index_edges(mt);
    return 0;
}

void multitree_free(multitree *mt)
{
    free(mt->parent);
    free(mt->step);
    free(mt->send_first);
    free(mt->sends);
    free(mt->kid_first);
    free(mt->kids);
    memset(mt, 0, sizeof *mt);
}

int64_t multitree_edges_at(const multitree *mt, int s)
{
    int64_t k = 0;
    for (int64_t i = 0; i < (int64_t)mt->n * mt->n; i++)
        k += mt->step[i] == s;
    return k;
}

/* ---- collectives ---------------------------------------------------------------------- */

/* Rank r's tree memberships (tree t != r, parent, step) bucketed by step. */
typedef struct joins {
    int32_t *first; /* nsteps + 1 */
    int32_t *tree;
} joins;

static void joins_of(const multitree *mt, int32_t r, joins *j)
{
    int32_t n = mt->n;
    j->first = xcalloc((size_t)mt->nsteps + 1, sizeof *j->first);
    j->tree = xmalloc((size_t)n * sizeof *j->tree);
    for (int32_t t = 0; t < n; t++)
        if (t != r)
            j->first[mt->step[(int64_t)t * n + r] + 1]++;
    for (int s = 0; s < mt->nsteps; s++)
        j->first[s + 1] += j->first[s];
    int32_t *pos = xmalloc(((size_t)mt->nsteps + 1) * sizeof *pos);
    memcpy(pos, j->first, ((size_t)mt->nsteps + 1) * sizeof *pos);
    for (int32_t t = 0; t < n; t++)
        if (t != r)
            j->tree[pos[mt->step[(int64_t)t * n + r]]++] = t;
    free(pos);
}

static void joins_free(joins *j)
{
    free(j->first);
    free(j->tree);
}

static inline int32_t parent_of(const multitree *mt, int32_t t, int32_t v)
{
    return mt->parent[(int64_t)t * mt->n + v];
}

void mt_allgather(sched_builder *b, const multitree *out, int64_t unit, int32_t r)
{
    joins j;
    joins_of(out, r, &j);
    int64_t e = out->send_first[r];
    for (int s = 0; s < out->nsteps; s++) {
        sb_step(b);
        for (; e < out->send_first[r + 1] && out->sends[e].step == s; e++) {
            int64_t t = out->sends[e].tree;
            sb_send_blocks(b, out->sends[e].child, t * unit, (t + 1) * unit);
        }
        for (int32_t i = j.first[s]; i < j.first[s + 1]; i++) {
            int64_t t = j.tree[i];
            sb_recv_blocks(b, parent_of(out, (int32_t)t, r), t * unit, (t + 1) * unit, 0);
        }
    }
    joins_free(&j);
}

/* The blocks t -> x for every x in the subtree of v in tree t. */
static void subtree_pairs(const multitree *mt, int32_t t, int32_t v, int64_t u, int32_t *stack,
                          range_list *out)
{
    int32_t n = mt->n;
    const int32_t *first = mt->kid_first + (int64_t)t * (n + 1);
    const int32_t *kids = mt->kids + (int64_t)t * n;
    size_t top = 0;
    rl_clear(out);
    stack[top++] = v;
    while (top > 0) {
        int32_t x = stack[--top];
        int64_t pair = (int64_t)t * n + x;
        rl_push(out, pair * u, (pair + 1) * u);
        for (int32_t k = first[x]; k < first[x + 1]; k++)
            stack[top++] = kids[k];
    }
    rl_normalize(out);
}

void mt_alltoall(sched_builder *b, const multitree *out, int32_t r)
{
    int64_t u = b->layout->pair_blocks;
    joins j;
    joins_of(out, r, &j);
    int32_t *stack = xmalloc((size_t)out->n * sizeof *stack);
    range_list blocks = {0};
    int64_t e = out->send_first[r];
    for (int s = 0; s < out->nsteps; s++) {
        sb_step(b);
        for (; e < out->send_first[r + 1] && out->sends[e].step == s; e++) {
            subtree_pairs(out, out->sends[e].tree, out->sends[e].child, u, stack, &blocks);
            sb_send(b, out->sends[e].child, blocks.r, (uint32_t)blocks.n);
        }
        for (int32_t i = j.first[s]; i < j.first[s + 1]; i++) {
            subtree_pairs(out, j.tree[i], r, u, stack, &blocks);
            sb_recv(b, parent_of(out, j.tree[i], r), blocks.r, (uint32_t)blocks.n, 0);
        }
    }
    rl_free(&blocks);
    free(stack);
    joins_free(&j);
}

void mt_reduce_scatter(sched_builder *b, const multitree *in, int64_t unit, int32_t r)
{
    joins j;
    joins_of(in, r, &j);
    int64_t e_end = in->send_first[r + 1];
    for (int tau = 0; tau < in->nsteps; tau++) {
        int s = in->nsteps - 1 - tau; /* the construction step this step mirrors */
        sb_step(b);
        for (int32_t i = j.first[s]; i < j.first[s + 1]; i++) {
            int64_t t = j.tree[i];
            sb_send_blocks(b, parent_of(in, (int32_t)t, r), t * unit, (t + 1) * unit);
        }
        /* edges of step s as parent (the list is sorted by step: walk it backwards) */
        int64_t e = e_end;
        while (e > in->send_first[r] && in->sends[e - 1].step >= s)
            e--;
        for (int64_t k = e; k < e_end; k++) {
            int64_t t = in->sends[k].tree;
            sb_recv_blocks(b, in->sends[k].child, t * unit, (t + 1) * unit, OPF_COMBINE);
            sb_reduce(b, layout_range_bytes(b->layout, t * unit, (t + 1) * unit));
        }
        e_end = e;
    }
    joins_free(&j);
}

/* ---- plans ------------------------------------------------------------------------------- */

int mt_plan_prepare(mt_plan *p, const lgraph *g, const coll_spec *s, sched_layout *l,
                    cs_error *err)
{
    memset(p, 0, sizeof *p);
    if (s->P > MT_MAX_VERTICES)
        return cs_fail(err, "MULTITREE is limited to P <= %d (got P=%d)", MT_MAX_VERTICES, s->P);
    if (s->coll == COLL_ALLREDUCE)
        layout_init(l, s->coll, s->P, s->root, s->bytes, s->P);
    p->unit = s->coll == COLL_ALLREDUCE ? 1 : l->blocks_per_rank;
    int rc = 0;
    if (s->coll != COLL_REDUCE_SCATTER)
        rc = multitree_build(g, &p->out, err);
    if (rc == 0 && (s->coll == COLL_REDUCE_SCATTER || s->coll == COLL_ALLREDUCE)) {
        lgraph reversed = lgraph_transposed(g);
        rc = multitree_build(&reversed, &p->in, err);
    }
    if (rc < 0)
        mt_plan_free(p);
    return rc;
}

void mt_plan_gen(const mt_plan *p, coll_kind c, int32_t r, sched_builder *b)
{
    if (c == COLL_ALLTOALL) {
        mt_alltoall(b, &p->out, r);
        return;
    }
    if (c == COLL_REDUCE_SCATTER || c == COLL_ALLREDUCE)
        mt_reduce_scatter(b, &p->in, p->unit, r);
    if (c == COLL_ALLGATHER || c == COLL_ALLREDUCE)
        mt_allgather(b, &p->out, p->unit, r);
}

void mt_plan_free(mt_plan *p)
{
    multitree_free(&p->out);
    multitree_free(&p->in);
}
