/* goal_match.c - the import's matching check: every send of a file has its receive and
 * every receive its send, by (source, destination, tag) in posting order (the k-th send
 * from a to b with tag t meets the k-th receive at b from a with tag t), as MPI and
 * LogGOPSim match; the first message without a partner is named by file:line. */
#include <stdlib.h>
#include <string.h>

#include "schedio/goal_internal.h"

typedef struct match_rec {
    int32_t src, dst, tag;
    uint32_t k;     /* index among the messages of (src, dst, tag) on its side */
    int32_t line;
    uint8_t send;
    int64_t bytes;
} match_rec;

static int cmp_match(const void *a, const void *b)
{
    const match_rec *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    if (x->k != y->k)
        return x->k < y->k ? -1 : 1;
    return (int)y->send - (int)x->send; /* the send before its receive */
}

/* Counts k per (peer, tag) of one rank and side by sorting that rank's records. */
static int cmp_local(const void *a, const void *b)
{
    const match_rec *x = a, *y = b;
    int32_t px = x->send ? x->dst : x->src, py = y->send ? y->dst : y->src;
    if (x->send != y->send)
        return x->send < y->send ? -1 : 1;
    if (px != py)
        return px < py ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k); /* k holds the op index here */
}

static void number_rank(match_rec *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_local);
    for (size_t i = 0; i < n; i++) {
        int same = i > 0 && v[i].send == v[i - 1].send && v[i].src == v[i - 1].src &&
                   v[i].dst == v[i - 1].dst && v[i].tag == v[i - 1].tag;
        v[i].k = same ? v[i - 1].k + 1 : 0;
    }
}

static size_t collect(const goal_reader *g, match_rec **out)
{
    size_t n = 0, cap = 0;
    match_rec *v = NULL;
    for (int32_t r = 0; r < g->P; r++) {
        const rank_sched *rs = &g->ranks[r];
        size_t first = n;
        for (uint32_t i = 0; i < rs->nops; i++) {
            const sched_op *o = &rs->ops[i];
            if (!op_is_comm(o))
                continue;
            VEC_RESERVE(v, cap, n + 1);
            int send = o->kind == OP_SEND;
            v[n++] = (match_rec){send ? r : o->peer, send ? o->peer : r, rs_op_tag(rs, i), i,
                                 g->op_lines[r] ? g->op_lines[r][i] : 0, (uint8_t)send,
                                 o->bytes};
        }
        number_rank(v + first, n - first);
    }
    *out = v;
    return n;
}

static int report(const goal_reader *g, const match_rec *m)
{
    return cs_fail(g->err, "%s:%d: rank %d's %s %s %d (tag %d, %lld bytes) has no matching %s "
                   "(messages match by source, destination and tag in posting order: this is "
                   "number %u of its kind)", g->name, m->line, m->send ? m->src : m->dst,
                   m->send ? "send" : "recv", m->send ? "to" : "from",
                   m->send ? m->dst : m->src, m->tag, (long long)m->bytes,
                   m->send ? "recv" : "send", m->k + 1);
}

int goal_check_matching(goal_reader *g)
{
    match_rec *v;
    size_t n = collect(g, &v);
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_match);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0;) {
        int paired = i + 1 < n && v[i].send && !v[i + 1].send && v[i].src == v[i + 1].src &&
                     v[i].dst == v[i + 1].dst && v[i].tag == v[i + 1].tag && v[i].k == v[i + 1].k;
        if (!paired)
            rc = report(g, &v[i]);
        i += 2;
    }
    free(v);
    return rc;
}
