/* goal_rank.c - the GOAL reader's per-rank state: labels, annotations, dependencies, and
 * turning a finished rank block into a rank_sched (see goal.h for the rules). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedio/goal_internal.h"

/* ---- labels: an open-addressing table from name to op index, reset per rank -------- */

typedef struct label_table {
    char **names;
    uint32_t *op;
    size_t cap, n; /* cap is a power of two */
} label_table;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static void labels_clear(label_table *t)
{
    for (size_t i = 0; i < t->cap; i++) {
        free(t->names[i]);
        t->names[i] = NULL;
    }
    t->n = 0;
}

static size_t labels_slot(const label_table *t, const char *name)
{
    size_t i = hash_str(name) & (t->cap - 1);
    while (t->names[i] && strcmp(t->names[i], name) != 0)
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void labels_grow(label_table *t)
{
    label_table old = *t;
    t->cap = old.cap ? old.cap * 2 : 64;
    t->names = xcalloc(t->cap, sizeof *t->names);
    t->op = xcalloc(t->cap, sizeof *t->op);
    for (size_t i = 0; i < old.cap; i++)
        if (old.names[i]) {
            size_t j = labels_slot(t, old.names[i]);
            t->names[j] = old.names[i];
            t->op[j] = old.op[i];
        }
    free(old.names);
    free(old.op);
}

/* Adds name -> op; returns -1 when the name is taken. */
static int labels_add(label_table *t, const char *name, uint32_t op)
{
    if (2 * (t->n + 1) > t->cap)
        labels_grow(t);
    size_t i = labels_slot(t, name);
    if (t->names[i])
        return -1;
    t->names[i] = xstrdup(name);
    t->op[i] = op;
    t->n++;
    return 0;
}

static int labels_find(const label_table *t, const char *name, uint32_t *op)
{
    if (t->cap == 0)
        return -1;
    size_t i = labels_slot(t, name);
    if (!t->names[i])
        return -1;
    *op = t->op[i];
    return 0;
}

/* ---- reader state ------------------------------------------------------------------- */

void goal_reader_init(goal_reader *g, const char *name, const goal_read_options *opt,
                      cs_error *err)
{
    memset(g, 0, sizeof *g);
    g->name = name;
    g->err = err;
    g->opt = *opt;
    g->rank = -1;
    g->labels = xcalloc(1, sizeof *g->labels);
}

void goal_reader_free(goal_reader *g)
{
    if (g->ranks)
        for (int32_t r = 0; r < g->P; r++)
            rank_sched_free(&g->ranks[r]);
    free(g->ranks);
    if (g->op_lines)
        for (int32_t r = 0; r < g->P; r++)
            free(g->op_lines[r]);
    free(g->op_lines);
    free(g->seen);
    free(g->ops);
    free(g->ranges);
    free(g->deps);
    labels_clear(g->labels);
    free(g->labels->names);
    free(g->labels->op);
    free(g->labels);
}

int goal_reader_set_ranks(goal_reader *g, int32_t P)
{
    if (g->has_header && g->layout.P != P)
        return cs_fail(g->err, "%s:%d: num_ranks %d differs from the collsim header's P=%d",
                       g->name, g->line, P, g->layout.P);
    g->P = P;
    g->seen = xcalloc((size_t)P, 1);
    g->ranks = xcalloc((size_t)P, sizeof *g->ranks);
    g->op_lines = xcalloc((size_t)P, sizeof *g->op_lines);
    for (int32_t r = 0; r < P; r++)
        rank_sched_init(&g->ranks[r]);
    return 0;
}

/* ---- the collsim header and annotations ------------------------------------------------ */

typedef struct header_fields {
    int64_t P, bytes, root, dst, nblocks, row_len, row_bytes, blocks_per_rank, pair_blocks;
} header_fields;

static int header_field(goal_reader *g, header_fields *h, const char *key, const char *val,
                        int *coll_seen, int *blocks)
{
    struct { const char *name; int64_t *dst; } ints[] = {
        {"P", &h->P}, {"bytes", &h->bytes}, {"root", &h->root}, {"dst", &h->dst},
        {"nblocks", &h->nblocks}, {"row_len", &h->row_len}, {"row_bytes", &h->row_bytes},
        {"blocks_per_rank", &h->blocks_per_rank}, {"pair_blocks", &h->pair_blocks}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (strcmp(key, ints[i].name) == 0) {
            char *end;
            *ints[i].dst = strtoll(val, &end, 10);
            if (!*val || *end || *ints[i].dst < 0)
                return cs_fail(g->err, "%s:%d: collsim header: %s=%s is not a non-negative "
                               "integer", g->name, g->line, key, val);
            return 0;
        }
    if (strcmp(key, "collective") == 0) {
        *coll_seen = 1;
        if (coll_from_name(val, &g->layout.coll, g->err) < 0) {
            cs_error_prefix(g->err, "%s:%d: collsim header", g->name, g->line);
            return -1;
        }
    } else if (strcmp(key, "blocks") == 0) {
        if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0)
            return cs_fail(g->err, "%s:%d: collsim header: blocks=%s (allowed: yes, no)",
                           g->name, g->line, val);
        *blocks = val[0] == 'y';
    } else if (strcmp(key, "tags") == 0) {
        if (strcmp(val, "yes") != 0 && strcmp(val, "no") != 0)
            return cs_fail(g->err, "%s:%d: collsim header: tags=%s (allowed: yes, no)",
                           g->name, g->line, val);
        g->header_tags = val[0] == 'y';
    } else if (strcmp(key, "algorithm") == 0) {
        snprintf(g->algorithm, sizeof g->algorithm, "%s", val);
    } else {
        return cs_fail(g->err, "%s:%d: collsim header: unknown key '%s' (allowed: collective, "
                       "P, bytes, root, dst, nblocks, row_len, row_bytes, blocks_per_rank, "
                       "pair_blocks, blocks, tags, algorithm)", g->name, g->line, key);
    }
    return 0;
}

int goal_reader_header(goal_reader *g, const char *text)
{
    if (g->has_header || g->P > 0)
        return cs_fail(g->err, "%s:%d: the collsim header must come once, before num_ranks",
                       g->name, g->line);
    header_fields h = {.pair_blocks = 1, .row_len = 1, .blocks_per_rank = 1};
    int coll_seen = 0, blocks = 1;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save, *tok = strtok_r(buf, " \t\r\n", &save); tok;
         tok = strtok_r(NULL, " \t\r\n", &save)) {
        if (strcmp(tok, "v1") == 0)
            continue;
        char *eq = strchr(tok, '=');
        if (!eq)
            return cs_fail(g->err, "%s:%d: collsim header: expected key=value, got '%s'",
                           g->name, g->line, tok);
        *eq = '\0';
        if (header_field(g, &h, tok, eq + 1, &coll_seen, &blocks) < 0)
            return -1;
    }
    if (!coll_seen || h.P < 2 || h.P > INT32_MAX || h.row_len < 1)
        return cs_fail(g->err, "%s:%d: collsim header needs collective=, P= (>= 2) and "
                       "row_len= (>= 1)", g->name, g->line);
    coll_kind c = g->layout.coll;
    layout_init(&g->layout, c, (int32_t)h.P, (int32_t)h.root, h.bytes, 1);
    g->layout.dst = (int32_t)h.dst;
    g->layout.nblocks = blocks ? h.nblocks : 0;
    g->layout.blocks_per_rank = blocks ? h.blocks_per_rank : 0;
    g->layout.pair_blocks = blocks ? h.pair_blocks : 0;
    layout_set_rows(&g->layout, blocks ? h.row_len : 1, blocks ? h.row_bytes : 0);
    g->has_header = 1;
    g->has_blocks = blocks;
    g->bytes = h.bytes;
    return 0;
}

/* "<step> [deps] [combine] [lo:hi,lo:hi | -]" or "<step> [deps] reduce|copy|time|join". */
int goal_reader_annotation(goal_reader *g, const char *text)
{
    if (!g->has_header)
        return cs_fail(g->err, "%s:%d: //@ annotation without the collsim header line",
                       g->name, g->line);
    if (g->have_note)
        return cs_fail(g->err, "%s:%d: two //@ annotations in a row (each annotates the next "
                       "operation)", g->name, g->line);
    memset(&g->note, 0, sizeof g->note);
    g->note.range_first = (uint32_t)g->nranges;
    const char *p = text;
    char *end;
    g->note.step = strtoll(p, &end, 10);
    if (end == p || g->note.step < 0 || g->note.step > UINT32_MAX - 2)
        return cs_fail(g->err, "%s:%d: //@ annotation must start with a step number", g->name,
                       g->line);
    char buf[64];
    for (p = end;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '\n' || *p == '\r')
            break;
        int len = 0;
        while (p[len] && p[len] != ' ' && p[len] != '\t' && p[len] != '\n' && p[len] != '\r')
            len++;
        if (sscanf(p, "%63s", buf) != 1)
            break;
        if (strcmp(buf, "combine") == 0) g->note.flags |= OPF_COMBINE;
        else if (strcmp(buf, "reduce") == 0) g->note.kind = OP_REDUCE;
        else if (strcmp(buf, "copy") == 0) g->note.kind = OP_COPY;
        else if (strcmp(buf, "join") == 0) g->note.join = 1;
        else if (strcmp(buf, "time") == 0) { g->note.kind = OP_COPY; g->note.flags |= OPF_TIME; }
        else if (strcmp(buf, "deps") == 0) g->note.deps = 1;
        else if (strcmp(buf, "-") == 0) { /* a message without blocks */ }
        else { /* block ranges lo:hi,lo:hi */
            for (const char *q = p; q < p + len;) {
                blk_range r;
                int used;
                if (sscanf(q, "%" SCNd64 ":%" SCNd64 "%n", &r.lo, &r.hi, &used) != 2 ||
                    r.hi < r.lo)
                    return cs_fail(g->err, "%s:%d: //@ annotation: invalid block ranges '%.*s' "
                                   "(expected lo:hi,lo:hi with lo <= hi)", g->name, g->line,
                                   len, p);
                VEC_RESERVE(g->ranges, g->cap_ranges, g->nranges + 1);
                g->ranges[g->nranges++] = r;
                g->note.nranges++;
                q += used;
                if (*q == ',')
                    q++;
            }
        }
        p += len;
    }
    g->have_note = 1;
    g->note_line = g->line;
    return 0;
}

/* ---- operations and dependencies ------------------------------------------------------ */

int goal_reader_add_op(goal_reader *g, const goal_op *op, const char *label)
{
    goal_op o = *op;
    if (g->has_header) {
        if (!g->have_note)
            return cs_fail(g->err, "%s:%d: operation without its //@ annotation (the file has "
                           "the collsim header: every operation is annotated)", g->name, g->line);
        int is_calc = o.kind == OP_COPY;
        if (is_calc != (g->note.kind == OP_REDUCE || g->note.kind == OP_COPY || g->note.join))
            return cs_fail(g->err, "%s:%d: the //@ annotation on line %d does not fit this "
                           "operation (messages: step [deps] [combine] blocks; calc: step "
                           "[deps] reduce|copy|time|join)", g->name, g->line, g->note_line);
        if (is_calc)
            o.kind = g->note.join ? OP_COPY : g->note.kind;
        o.flags = g->note.flags;
        o.join = g->note.join;
        o.deps = g->note.deps;
        if (!g->header_tags)
            o.tag = 0; /* collsim's step files number messages per pair: not a tag */
        o.step = g->note.step;
        o.range_first = g->note.range_first;
        o.nranges = g->note.nranges;
        int64_t last = g->nops > 0 ? g->ops[g->nops - 1].step : -1;
        if (o.step < last || o.step > last + 1)
            return cs_fail(g->err, "%s:%d: step %" PRId64 " after step %" PRId64 " (annotated "
                           "operations come in step order 0, 1, 2, ... without gaps; an empty "
                           "step is a '//@ S join' calc 0)", g->name, g->line, o.step, last);
        g->have_note = 0;
    } else {
        o.deps = 1; /* a plain file: every op runs by its requires lines */
    }
    if (o.deps || o.tag)
        g->has_deps = 1;
    if (label && labels_add(g->labels, label, (uint32_t)g->nops) < 0)
        return cs_fail(g->err, "%s:%d: label '%s' defined twice in rank %d", g->name, g->line,
                       label, g->rank);
    VEC_RESERVE(g->ops, g->cap_ops, g->nops + 1);
    g->ops[g->nops++] = o;
    return 0;
}

int goal_reader_add_dep(goal_reader *g, const char *a, const char *b, int start_only)
{
    goal_dep d = {.start_only = start_only, .line = g->line};
    const char *bad = labels_find(g->labels, a, &d.a) < 0 ? a
                      : labels_find(g->labels, b, &d.b) < 0 ? b : NULL;
    if (bad)
        return cs_fail(g->err, "%s:%d: dependency on label '%s', which rank %d has not defined "
                       "(labels must be defined before use)", g->name, g->line, bad, g->rank);
    VEC_RESERVE(g->deps, g->cap_deps, g->ndeps + 1);
    g->deps[g->ndeps++] = d;
    return 0;
}

/* ---- building the rank ----------------------------------------------------------------- */

/* The explicit dependencies of the ops that keep them (o->deps), as lists per op:
 * first[i] .. first[i + 1] index into *list (dependency entries by file op index). */
static uint32_t *deps_by_op(const goal_reader *g, uint32_t **list)
{
    uint32_t *first = xcalloc(g->nops + 1, sizeof *first);
    *list = xmalloc((g->ndeps ? g->ndeps : 1) * sizeof **list);
    for (size_t e = 0; e < g->ndeps; e++)
        first[g->deps[e].a + 1]++;
    for (size_t i = 0; i < g->nops; i++)
        first[i + 1] += first[i];
    uint32_t *fill = xmalloc((g->nops ? g->nops : 1) * sizeof *fill);
    memcpy(fill, first, g->nops * sizeof *fill);
    for (size_t e = 0; e < g->ndeps; e++)
        (*list)[fill[g->deps[e].a]++] = g->deps[e].b | (g->deps[e].start_only ? SCHED_DEP_START : 0);
    free(fill);
    return first;
}

static void add_op(sched_builder *b, const goal_reader *g, const goal_op *o)
{
    /* byte-only ops have no ranges (g->ranges may be NULL: no offset on it) */
    const blk_range *r = o->nranges ? g->ranges + o->range_first : NULL;
    switch ((op_kind)o->kind) {
    case OP_SEND: sb_send_bytes(b, o->peer, o->bytes, r, o->nranges); break;
    case OP_RECV: sb_recv_bytes(b, o->peer, o->bytes, r, o->nranges, o->flags); break;
    case OP_REDUCE: sb_reduce(b, o->bytes); break;
    case OP_COPY: sb_copy(b, o->bytes); break;
    }
    if (o->flags & OPF_TIME)
        b->rs.ops[b->rs.nops - 1].flags |= OPF_TIME;
}

/* Builds the rank in `order` (file indices by step); ops that keep their dependencies
 * get them, renumbered to the rank's op order (a dependency on a dropped join is
 * dropped: the join only stood for its step). Records each op's file line. */
static void build_rank(goal_reader *g, sched_builder *b, const uint32_t *order)
{
    uint32_t *list, *first = deps_by_op(g, &list);
    uint32_t *index = xmalloc((g->nops ? g->nops : 1) * sizeof *index); /* file -> IR */
    for (size_t k = 0, n = 0; k < g->nops; k++) {
        uint32_t i = order ? order[k] : (uint32_t)k;
        index[i] = g->ops[i].join ? UINT32_MAX : (uint32_t)n++;
    }
    int32_t *lines = xmalloc((g->nops ? g->nops : 1) * sizeof *lines);
    sb_begin_rank(b, g->rank);
    if (g->has_deps)
        sb_hold_rank(b);
    int64_t step = -1;
    for (size_t k = 0; k < g->nops; k++) {
        uint32_t i = order ? order[k] : (uint32_t)k;
        const goal_op *o = &g->ops[i];
        while (step < o->step) {
            sb_step(b);
            step++;
        }
        if (o->join)
            continue;
        add_op(b, g, o);
        lines[b->rs.nops - 1] = o->line;
        if (o->tag)
            sb_tag(b, o->tag);
        if (!o->deps)
            continue;
        sb_dep(b, UINT32_MAX, 0);
        for (uint32_t e = first[i]; e < first[i + 1]; e++)
            if (index[SCHED_DEP_OP(list[e])] != UINT32_MAX)
                sb_dep(b, index[SCHED_DEP_OP(list[e])], (list[e] & SCHED_DEP_START) != 0);
    }
    sb_end_rank(b);
    g->op_lines[g->rank] = lines;
    free(first);
    free(list);
    free(index);
}

/* Orders the ops by step, keeping file order inside a step (a counting sort). */
static uint32_t *order_by_step(const goal_reader *g)
{
    int64_t nsteps = 0;
    for (size_t i = 0; i < g->nops; i++)
        if (g->ops[i].step + 1 > nsteps)
            nsteps = g->ops[i].step + 1;
    size_t *start = xcalloc((size_t)nsteps + 1, sizeof *start);
    for (size_t i = 0; i < g->nops; i++)
        start[g->ops[i].step + 1]++;
    for (int64_t s = 0; s < nsteps; s++)
        start[s + 1] += start[s];
    uint32_t *order = xmalloc((g->nops ? g->nops : 1) * sizeof *order);
    for (size_t i = 0; i < g->nops; i++)
        order[start[g->ops[i].step]++] = (uint32_t)i;
    free(start);
    return order;
}

int goal_reader_end_rank(goal_reader *g)
{
    if (g->have_note)
        return cs_fail(g->err, "%s:%d: //@ annotation on line %d is not followed by an "
                       "operation", g->name, g->line, g->note_line);
    uint32_t *order = NULL;
    if (!g->has_header) {
        if (goal_assign_layers(g) < 0)
            return -1;
        order = order_by_step(g);
    }
    sched_builder b;
    sb_init(&b, &g->layout);
    rank_sched_free(&b.rs); /* build into the rank's own arrays */
    b.rs = g->ranks[g->rank];
    build_rank(g, &b, order);
    g->ranks[g->rank] = b.rs; /* the builder's arrays now belong to the rank */
    free(order);
    g->nops = g->nranges = g->ndeps = 0;
    labels_clear(g->labels);
    g->rank = -1;
    return 0;
}

/* Byte-only files: the layout from the options, without blocks. */
static void byte_only_layout(goal_reader *g)
{
    int64_t bytes = g->opt.bytes;
    if (bytes <= 0)
        for (int32_t r = 0; r < g->P; r++) {
            int64_t sent = 0;
            for (uint32_t i = 0; i < g->ranks[r].nops; i++)
                if (g->ranks[r].ops[i].kind == OP_SEND)
                    sent += g->ranks[r].ops[i].bytes;
            bytes = sent > bytes ? sent : bytes;
        }
    layout_init(&g->layout, g->opt.coll, g->P, g->opt.root, bytes, 1);
    g->layout.dst = g->opt.dst;
    g->layout.nblocks = g->layout.blocks_per_rank = g->layout.pair_blocks = 0;
    layout_set_rows(&g->layout, 1, 0);
    g->bytes = bytes;
}

/* The root (and a p2p's destination) must be ranks of the file, whether they come from
 * the collsim header or, for a plain file, from the options (--root, --dst): found by
 * fuzz_goal, a plain 2-rank file imported with --root 2 was accepted and failed later. */
static int check_endpoints(const goal_reader *g)
{
    const sched_layout *l = &g->layout;
    const char *from = g->has_header ? "the collsim header's" : "the";
    if (l->root < 0 || l->root >= l->P)
        return cs_fail(g->err, "%s: %s root %d is not a rank of the schedule (allowed: 0..%d)%s",
                       g->name, from, l->root, l->P - 1, g->has_header ? "" : " (--root)");
    if (l->coll == COLL_P2P && (l->dst < 0 || l->dst >= l->P))
        return cs_fail(g->err, "%s: %s destination %d is not a rank of the schedule (allowed: "
                       "0..%d)%s", g->name, from, l->dst, l->P - 1, g->has_header ? "" : " (--dst)");
    return 0;
}

int goal_reader_finish(goal_reader *g, sched_file *out)
{
    if (g->in_block_comment)
        return cs_fail(g->err, "%s:%d: unterminated block comment", g->name, g->line);
    if (g->rank >= 0)
        return cs_fail(g->err, "%s:%d: rank %d's block (line %d) is not closed by '}'", g->name,
                       g->line, g->rank, g->rank_line);
    if (g->P <= 0)
        return cs_fail(g->err, "%s:%d: no 'num_ranks N' line", g->name, g->line);
    for (int32_t r = 0; r < g->P; r++)
        if (!g->seen[r])
            return cs_fail(g->err, "%s:%d: rank %d has no 'rank %d { ... }' block (num_ranks %d)",
                           g->name, g->line, r, r, g->P);
    if (!g->has_header)
        byte_only_layout(g);
    if (check_endpoints(g) < 0 || goal_check_matching(g) < 0)
        return -1;
    memset(out, 0, sizeof *out);
    out->has_deps = g->has_deps;
    out->layout = g->layout;
    out->has_blocks = g->has_header && g->has_blocks;
    out->annotated = g->has_header;
    out->bytes = g->bytes;
    snprintf(out->algorithm, sizeof out->algorithm, "%s", g->algorithm);
    out->ranks = g->ranks;
    g->ranks = NULL;
    return 0;
}
