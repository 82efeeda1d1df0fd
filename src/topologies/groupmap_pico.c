/* groupmap_pico.c - PICO's node map format turned into collsim map rules (groupmap_pico.h). */
#include "topologies/groupmap_pico.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strmap.h"
#include "common/util.h"

/* A host is <letters><digits>: its number is n (the first parenthesised group). */
#define PICO_HOST_REGEX "[A-Za-z][A-Za-z_-]*([0-9]+)"

typedef struct pico_node {
    int64_t node;
    char *cell;
    int line;
} pico_node;

typedef struct pico_parse {
    const char *origin;
    pico_node *nodes;
    size_t n, cap;
    strmap seen; /* node number (text) -> index into nodes */
    int significant; /* lines other than blank / comment seen so far */
} pico_parse;

#define MAX_WORDS 64

/* Splits line (modified) into words; returns their count (at most MAX_WORDS). */
static int split_words(char *line, char **w)
{
    int n = 0;
    char *save = NULL;
    for (char *s = strtok_r(line, " \t\r", &save); s && n < MAX_WORDS;
         s = strtok_r(NULL, " \t\r", &save))
        w[n++] = s;
    return n;
}

static int find_word(char **w, int n, const char *key)
{
    for (int i = 0; i < n; i++)
        if (strcmp(w[i], key) == 0)
            return i;
    return -1;
}

/* A header: column names only (no word holds a digit), NODE and CELL among them. */
static int is_header(char **w, int n)
{
    for (int i = 0; i < n; i++)
        for (const char *c = w[i]; *c; c++)
            if (isdigit((unsigned char)*c))
                return 0;
    return find_word(w, n, "NODE") >= 0 && find_word(w, n, "CELL") >= 0;
}

static int parse_node_line(pico_parse *p, int line, char **w, int n, cs_error *err)
{
    int ni = find_word(w, n, "NODE"), ci = find_word(w, n, "CELL");
    if (ni < 0 || ci < 0 || ni + 1 >= n || ci + 1 >= n)
        return cs_fail(err, "%s:%d: a PICO map line needs 'NODE <number>' and 'CELL <group>' "
                            "(as in 'NODE 0001 RACK 1 CELL 1 ROW 1')", p->origin, line);
    const char *num = w[ni + 1];
    char *end;
    errno = 0;
    long long node = strtoll(num, &end, 10);
    if (errno || *end || end == num || node < 0)
        return cs_fail(err, "%s:%d: NODE '%s' is not a node number (digits, e.g. 0001)",
                       p->origin, line, num);
    char key[32];
    snprintf(key, sizeof key, "%lld", node);
    int64_t old;
    if (strmap_get(&p->seen, key, &old)) {
        if (strcmp(p->nodes[old].cell, w[ci + 1]) != 0)
            return cs_fail(err, "%s:%d: node %s is already in cell %s (line %d)", p->origin,
                           line, num, p->nodes[old].cell, p->nodes[old].line);
        return 0;
    }
    VEC_RESERVE(p->nodes, p->cap, p->n + 1);
    p->nodes[p->n] = (pico_node){node, xstrdup(w[ci + 1]), line};
    strmap_put(&p->seen, key, (int64_t)p->n++);
    return 0;
}

static int parse_line(pico_parse *p, int line, char *text, cs_error *err)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    char *w[MAX_WORDS];
    int n = split_words(text, w);
    if (n == 0)
        return 0;
    if (p->significant++ == 0 && is_header(w, n))
        return 0;
    if (n >= MAX_WORDS)
        return cs_fail(err, "%s:%d: more than %d words on a PICO map line", p->origin, line,
                       MAX_WORDS - 1);
    return parse_node_line(p, line, w, n, err);
}

static int by_node(const void *a, const void *b)
{
    int64_t x = ((const pico_node *)a)->node, y = ((const pico_node *)b)->node;
    return (x > y) - (x < y);
}

/* The rules text: runs of consecutive node numbers in one cell become one range. */
static char *rules_text(pico_parse *p)
{
    qsort(p->nodes, p->n, sizeof *p->nodes, by_node);
    size_t cap = 128 + p->n * 48, len = 0;
    char *out = xmalloc(cap);
    len += (size_t)snprintf(out, cap, "regex %s table\n", PICO_HOST_REGEX);
    for (size_t i = 0; i < p->n;) {
        size_t j = i;
        while (j + 1 < p->n && p->nodes[j + 1].node == p->nodes[j].node + 1 &&
               strcmp(p->nodes[j + 1].cell, p->nodes[i].cell) == 0)
            j++;
        size_t need = strlen(p->nodes[i].cell) + 64;
        if (cap - len < need) {
            cap = 2 * cap + need;
            out = xrealloc(out, cap);
        }
        len += (size_t)snprintf(out + len, cap - len, "range %" PRId64 "-%" PRId64 " %s\n",
                                p->nodes[i].node, p->nodes[j].node, p->nodes[i].cell);
        i = j + 1;
    }
    return out;
}

int pico_map_detect(const char *text)
{
    for (const char *s = text; *s;) {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (*s == '#') {
            s += strcspn(s, "\n");
            continue;
        }
        return strncmp(s, "NODE", 4) == 0 && (s[4] == ' ' || s[4] == '\t');
    }
    return 0;
}

int pico_map_rules(const char *text, const char *origin, int first_line, char **out,
                   cs_error *err)
{
    pico_parse p = {.origin = origin};
    strmap_init(&p.seen);
    char *copy = xstrdup(text);
    int rc = 0, line = first_line;
    for (char *s = copy; s && rc == 0; line++) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        rc = parse_line(&p, line, s, err);
        s = nl ? nl + 1 : NULL;
    }
    if (rc == 0 && p.n == 0)
        rc = cs_fail(err, "%s: a PICO map without NODE lines", origin);
    if (rc == 0)
        *out = rules_text(&p);
    for (size_t i = 0; i < p.n; i++)
        free(p.nodes[i].cell);
    free(p.nodes);
    free(copy);
    strmap_free(&p.seen);
    return rc;
}
