/* goal_read.c - importing a GOAL text file into the schedule IR (see goal.h).
 *
 * The file is read line by line. Each rank block collects its operations (with their
 * annotation, if any) and dependency edges; at its closing brace the rank is turned into
 * a rank_sched, either from the annotations (exact) or from the dependency layers
 * (goal_layers.c), and the per-rank tables are reset.
 */
#include <errno.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "schedio/goal_internal.h"

void goal_read_options_default(goal_read_options *o)
{
    memset(o, 0, sizeof *o);
    o->coll = COLL_ALLREDUCE;
    o->dst = 1;
}

void sched_file_free(sched_file *f)
{
    if (f->ranks)
        for (int32_t r = 0; r < f->layout.P; r++)
            rank_sched_free(&f->ranks[r]);
    free(f->ranks);
    f->ranks = NULL;
}

/* ---- tokens ------------------------------------------------------------------------ */

#define MAX_TOKENS 16

typedef struct line_tokens {
    char *tok[MAX_TOKENS];
    int n;
} line_tokens;

/* Splits at white space; a ':' ends a token and is a token of its own. */
static int tokenize(char *s, line_tokens *t)
{
    t->n = 0;
    while (*s) {
        while (isspace((unsigned char)*s))
            *s++ = '\0';
        if (!*s)
            break;
        if (t->n == MAX_TOKENS)
            return -1;
        if (*s == ':') {
            t->tok[t->n++] = ":";
            *s++ = '\0';
            continue;
        }
        t->tok[t->n++] = s;
        while (*s && !isspace((unsigned char)*s) && *s != ':')
            s++;
        if (*s == ':') {
            if (t->n == MAX_TOKENS) /* "l1:" as the 16th word: its ':' is one too many */
                return -1;
            t->tok[t->n++] = ":";
            *s++ = '\0';
        }
    }
    return 0;
}

static int is_ident(const char *s)
{
    if (!isalpha((unsigned char)*s))
        return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

static int parse_u64(const char *s, int64_t max, int64_t *out)
{
    if (!*s)
        return -1;
    int64_t v = 0;
    for (; *s; s++) {
        if (!isdigit((unsigned char)*s) || v > (max - (*s - '0')) / 10)
            return -1;
        v = v * 10 + (*s - '0');
    }
    *out = v;
    return 0;
}

/* ---- the reader ---------------------------------------------------------------------- */

static int fail_at(goal_reader *g, const char *fmt, const char *what)
{
    return cs_fail(g->err, "%s:%d: %s%s", g->name, g->line, fmt, what ? what : "");
}

/* "512b" or "512" "b": the byte count of a send/recv at tokens [*i..]. */
static int parse_msg_bytes(goal_reader *g, line_tokens *t, int *i, int64_t *bytes)
{
    char *s = t->tok[*i];
    size_t len = strlen(s);
    if (len > 1 && s[len - 1] == 'b') {
        s[len - 1] = '\0';
        (*i)++;
    } else if (*i + 1 < t->n && strcmp(t->tok[*i + 1], "b") == 0) {
        *i += 2;
    } else {
        return fail_at(g, "expected a size like 512b, got ", s);
    }
    if (parse_u64(s, INT64_MAX, bytes) < 0)
        return fail_at(g, "invalid byte count ", s);
    return 0;
}

/* `tag T`, `cpu C`, `nic N` after an operation (the tag into *tag); wildcards are
 * rejected. */
static int parse_op_options(goal_reader *g, line_tokens *t, int i, int allow_tag, int32_t *tag)
{
    while (i < t->n) {
        const char *key = t->tok[i];
        int known = strcmp(key, "cpu") == 0 || strcmp(key, "nic") == 0 ||
                    (allow_tag && strcmp(key, "tag") == 0);
        if (!known)
            return fail_at(g, allow_tag ? "unexpected text (allowed after a message: tag N, "
                                          "cpu N, nic N): "
                                        : "unexpected text (allowed after calc: cpu N): ",
                           key);
        if (i + 1 >= t->n)
            return fail_at(g, "missing number after ", key);
        int64_t v;
        if (strcmp(t->tok[i + 1], "-1") == 0)
            return fail_at(g, "wildcard -1 is not supported (collsim matches messages per "
                              "source, destination and tag in posting order): ", key);
        if (parse_u64(t->tok[i + 1], key[0] == 't' ? INT32_MAX : INT64_MAX, &v) < 0)
            return fail_at(g, key[0] == 't' ? "invalid tag (allowed: 0..2147483647) after "
                                            : "invalid number after ", key);
        if (key[0] == 't')
            *tag = (int32_t)v;
        i += 2;
    }
    return 0;
}

/* An operation statement: tokens from i on are `send ...`, `recv ...` or `calc ...`. */
static int parse_op(goal_reader *g, line_tokens *t, int i, const char *label)
{
    goal_op op;
    memset(&op, 0, sizeof op);
    op.line = g->line;
    op.peer = -1;
    const char *verb = t->tok[i++];
    if (strcmp(verb, "calc") == 0) {
        op.kind = OP_COPY;
        if (!g->has_header && !g->opt.calc_bytes)
            op.flags = OPF_TIME; /* nanoseconds, as Schedgen and LogGOPSim mean it */
        if (i >= t->n || parse_u64(t->tok[i], INT64_MAX, &op.bytes) < 0)
            return fail_at(g, "calc needs an amount (a non-negative integer)", NULL);
        if (parse_op_options(g, t, i + 1, 0, &op.tag) < 0)
            return -1;
    } else if (strcmp(verb, "send") == 0 || strcmp(verb, "recv") == 0) {
        int send = verb[0] == 's';
        op.kind = send ? OP_SEND : OP_RECV;
        if (i >= t->n)
            return fail_at(g, "missing size after ", verb);
        if (parse_msg_bytes(g, t, &i, &op.bytes) < 0)
            return -1;
        const char *dir = send ? "to" : "from";
        if (i + 1 >= t->n || strcmp(t->tok[i], dir) != 0)
            return fail_at(g, send ? "expected: send <N>b to <rank>"
                                   : "expected: recv <N>b from <rank>", NULL);
        if (strcmp(t->tok[i + 1], "-1") == 0)
            return fail_at(g, "any-source receives (from -1) are not supported", NULL);
        int64_t peer;
        if (parse_u64(t->tok[i + 1], INT32_MAX, &peer) < 0 || peer >= g->P)
            return cs_fail(g->err, "%s:%d: peer '%s' is not a rank (allowed: 0..%d)", g->name,
                           g->line, t->tok[i + 1], g->P - 1);
        if (peer == g->rank && g->has_header) /* collsim's own files never do */
            return cs_fail(g->err, "%s:%d: rank %d sends or receives to itself", g->name,
                           g->line, g->rank);
        op.peer = (int32_t)peer;
        if (parse_op_options(g, t, i + 2, 1, &op.tag) < 0)
            return -1;
    } else {
        return fail_at(g, "unknown operation (allowed: send, recv, calc): ", verb);
    }
    return goal_reader_add_op(g, &op, label);
}

static int parse_rank_open(goal_reader *g, line_tokens *t)
{
    int64_t r;
    if (g->P <= 0)
        return fail_at(g, "'num_ranks N' must come before the first rank block", NULL);
    if (g->rank >= 0)
        return fail_at(g, "rank block inside a rank block (missing '}')", NULL);
    if (t->n != 3 || strcmp(t->tok[2], "{") != 0)
        return fail_at(g, "expected: rank <R> {", NULL);
    if (parse_u64(t->tok[1], INT32_MAX, &r) < 0 || r >= g->P)
        return cs_fail(g->err, "%s:%d: rank '%s' is not in 0..%d (num_ranks %d)", g->name,
                       g->line, t->tok[1], g->P - 1, g->P);
    if (g->seen[r])
        return cs_fail(g->err, "%s:%d: rank %" PRId64 " has a second block", g->name, g->line, r);
    g->seen[r] = 1;
    g->rank = (int32_t)r;
    g->rank_line = g->line;
    return 0;
}

static int parse_statement(goal_reader *g, line_tokens *t)
{
    const char *w0 = t->tok[0];
    if (strcmp(w0, "num_ranks") == 0) {
        int64_t n;
        if (g->P > 0)
            return fail_at(g, "num_ranks given twice", NULL);
        if (t->n != 2 || parse_u64(t->tok[1], INT32_MAX, &n) < 0 || n < 1 ||
            n > GOAL_MAX_RANKS)
            return fail_at(g, "expected: num_ranks <N> with 1 <= N <= " GOAL_MAX_RANKS_TEXT, NULL);
        return goal_reader_set_ranks(g, (int32_t)n);
    }
    if (strcmp(w0, "rank") == 0)
        return parse_rank_open(g, t);
    if (strcmp(w0, "}") == 0) {
        if (g->rank < 0 || t->n != 1)
            return fail_at(g, "unexpected '}'", NULL);
        return goal_reader_end_rank(g);
    }
    if (g->rank < 0)
        return fail_at(g, "statement outside a rank block: ", w0);
    if (t->n >= 2 && strcmp(t->tok[1], ":") == 0) {
        if (!is_ident(w0))
            return fail_at(g, "invalid label (allowed: a letter, then letters, digits, _): ", w0);
        if (t->n < 3)
            return fail_at(g, "missing operation after label ", w0);
        return parse_op(g, t, 2, w0);
    }
    if (t->n == 3 && (strcmp(t->tok[1], "requires") == 0 || strcmp(t->tok[1], "irequires") == 0))
        return goal_reader_add_dep(g, w0, t->tok[2], t->tok[1][0] == 'i');
    return parse_op(g, t, 0, NULL);
}

/* Removes block comments (which may span lines) and line comments from `s`; hands
 * collsim's header and annotation comments to their parsers. */
static int strip_comments(goal_reader *g, char *s)
{
    char *w = s;
    for (char *p = s; *p;) {
        if (g->in_block_comment) {
            if (p[0] == '*' && p[1] == '/') {
                g->in_block_comment = 0;
                p += 2;
            } else {
                p++;
            }
        } else if (p[0] == '/' && p[1] == '*') {
            g->in_block_comment = 1;
            *w++ = ' ';
            p += 2;
        } else if (p[0] == '/' && p[1] == '/') {
            /* w may equal p: look at the comment before cutting the line there */
            int rc = 0;
            if (strncmp(p, "//@", 3) == 0)
                rc = goal_reader_annotation(g, p + 3);
            else if (strncmp(p, "// collsim-goal ", 16) == 0)
                rc = goal_reader_header(g, p + 16);
            *w = '\0';
            return rc;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return 0;
}

static int read_line(goal_reader *g, char *line)
{
    if (strip_comments(g, line) < 0)
        return -1;
    line_tokens t;
    if (tokenize(line, &t) < 0)
        return fail_at(g, "too many words on one line (one statement per line)", NULL);
    if (t.n == 0)
        return 0;
    return parse_statement(g, &t);
}

int goal_read(FILE *in, const char *name, const goal_read_options *opt, sched_file *out,
              cs_error *err)
{
    goal_reader g;
    goal_reader_init(&g, name, opt, err);
    char *line = NULL;
    size_t cap = 0;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, in) >= 0) {
        g.line++;
        rc = read_line(&g, line);
    }
    free(line);
    if (rc == 0)
        rc = goal_reader_finish(&g, out);
    goal_reader_free(&g);
    return rc;
}

int goal_read_path(const char *path, const goal_read_options *opt, sched_file *out,
                   cs_error *err)
{
    FILE *f = fopen_input(path, "r");
    if (!f)
        return cs_fail(err, "%s: cannot open the schedule file: %s", path, strerror(errno));
    int rc = goal_read(f, path, opt, out, err);
    fclose(f);
    return rc;
}
