/* groupmap.c - group maps: parsing, lookups, group ids (see groupmap.h). */
#include "topologies/groupmap.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hostlist.h"
#include "common/strmap.h"
#include "common/util.h"
#include "topologies/groupmap_pico.h"
#include "topologies/preset_extras.h"

typedef struct table_range {
    int64_t lo, hi;
    char *group;
} table_range;

typedef struct regex_rule {
    int line;
    regex_t re;
    char *expr;         /* NULL for a table */
    table_range *ranges;
    int nranges;
    size_t cap_ranges;
} regex_rule;

struct group_map {
    char origin[512];
    strmap hosts;       /* host name -> index into host_group */
    strmap short_hosts; /* a.b.c -> a for the map's names with a domain suffix (-1: two
                           such names of different groups share a) */
    char **host_group;
    size_t nhost_group, cap_host_group;
    regex_rule *rules;
    int nrules;
    size_t cap_rules;
};

/* ---- integer expressions in n ----------------------------------------------------------- */

typedef struct expr_ctx {
    const char *s;
    size_t pos;
    int64_t n;
    int evaluate;     /* 0: syntax check only (no division-by-zero errors) */
    char msg[128];
} expr_ctx;

static int expr_sum(expr_ctx *x, int64_t *v);

static void skip_space(expr_ctx *x)
{
    while (isspace((unsigned char)x->s[x->pos]))
        x->pos++;
}

static int expr_fail(expr_ctx *x, const char *what)
{
    if (!x->msg[0])
        snprintf(x->msg, sizeof x->msg, "%s at column %zu of '%s'", what, x->pos + 1, x->s);
    return -1;
}

static int expr_atom(expr_ctx *x, int64_t *v)
{
    skip_space(x);
    char c = x->s[x->pos];
    if (c == '(') {
        x->pos++;
        if (expr_sum(x, v) < 0)
            return -1;
        skip_space(x);
        if (x->s[x->pos] != ')')
            return expr_fail(x, "expected ')'");
        x->pos++;
        return 0;
    }
    if (c == '-') {
        x->pos++;
        if (expr_atom(x, v) < 0)
            return -1;
        *v = -*v;
        return 0;
    }
    if (c == 'n' && !isalnum((unsigned char)x->s[x->pos + 1])) {
        x->pos++;
        *v = x->n;
        return 0;
    }
    if (isdigit((unsigned char)c)) {
        errno = 0;
        char *end;
        long long value = strtoll(x->s + x->pos, &end, 10);
        if (errno)
            return expr_fail(x, "number too large");
        x->pos = (size_t)(end - x->s);
        *v = value;
        return 0;
    }
    return expr_fail(x, "expected a number, n or '('");
}

/* Division and remainder rounding down (Python's // and %), as maps usually assume. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static int expr_product(expr_ctx *x, int64_t *v)
{
    if (expr_atom(x, v) < 0)
        return -1;
    for (;;) {
        skip_space(x);
        char op = x->s[x->pos];
        if (op != '*' && op != '/' && op != '%')
            return 0;
        x->pos++;
        int64_t r;
        if (expr_atom(x, &r) < 0)
            return -1;
        if (op == '*') {
            *v *= r;
        } else if (r == 0) {
            if (x->evaluate)
                return expr_fail(x, "division by zero");
            *v = 0;
        } else {
            int64_t q = floor_div(*v, r);
            *v = op == '/' ? q : *v - q * r;
        }
    }
}

static int expr_sum(expr_ctx *x, int64_t *v)
{
    if (expr_product(x, v) < 0)
        return -1;
    for (;;) {
        skip_space(x);
        char op = x->s[x->pos];
        if (op != '+' && op != '-')
            return 0;
        x->pos++;
        int64_t r;
        if (expr_product(x, &r) < 0)
            return -1;
        *v = op == '+' ? *v + r : *v - r;
    }
}

static int expr_eval(const char *s, int64_t n, int evaluate, int64_t *out, char *msg, size_t cap)
{
    expr_ctx x = {.s = s, .n = n, .evaluate = evaluate};
    int rc = expr_sum(&x, out);
    skip_space(&x);
    if (rc == 0 && x.s[x.pos])
        rc = expr_fail(&x, "unexpected text");
    if (rc < 0)
        snprintf(msg, cap, "%s", x.msg);
    return rc;
}

/* ---- parsing ------------------------------------------------------------------------- */

/* "\d" -> "[0-9]", "\w" -> "[A-Za-z0-9_]", anchored on the whole name: "^(RE)$". */
static char *posix_regex(const char *re)
{
    size_t cap = strlen(re) * 12 + 8, len = 0;
    char *out = xmalloc(cap);
    len += (size_t)snprintf(out, cap, "^(");
    for (const char *p = re; *p; p++) {
        if (p[0] == '\\' && (p[1] == 'd' || p[1] == 'w')) {
            len += (size_t)snprintf(out + len, cap - len, "%s", p[1] == 'd' ? "[0-9]"
                                                                             : "[A-Za-z0-9_]");
            p++;
        } else {
            out[len++] = *p;
        }
    }
    snprintf(out + len, cap - len, ")$");
    return out;
}

static int map_fail(const group_map *m, int line, cs_error *err, const char *fmt, const char *a,
                    const char *b)
{
    char msg[CS_ERROR_MAX];
    snprintf(msg, sizeof msg, fmt, a, b);
    return cs_fail(err, "%s:%d: %s", m->origin, line, msg);
}

static size_t add_group_name(group_map *m, const char *group)
{
    VEC_RESERVE(m->host_group, m->cap_host_group, m->nhost_group + 1);
    m->host_group[m->nhost_group] = xstrdup(group);
    return m->nhost_group++;
}

/* The part of a name before its first '.' (the whole name when it has no domain suffix). */
static void short_name(const char *name, char *out, size_t n)
{
    size_t len = strcspn(name, ".");
    snprintf(out, n, "%.*s", (int)len, name);
}

/* A map name with a domain suffix also stands for its short name (unless two of them of
 * different groups share it: then the short name matches neither). */
static void add_short_name(group_map *m, const char *name, size_t gi)
{
    const char *dot = strchr(name, '.');
    if (!dot || dot == name)
        return;
    char s[256];
    short_name(name, s, sizeof s);
    int64_t old;
    if (strmap_get(&m->short_hosts, s, &old) && old >= 0 &&
        strcmp(m->host_group[old], m->host_group[gi]) != 0)
        strmap_put(&m->short_hosts, s, -1);
    else if (!strmap_get(&m->short_hosts, s, &old))
        strmap_put(&m->short_hosts, s, (int64_t)gi);
}

static int parse_hosts_line(group_map *m, int line, const char *hosts, const char *group,
                            cs_error *err)
{
    hostlist hl;
    hostlist_init(&hl);
    if (hostlist_expand(hosts, &hl, err) < 0) {
        hostlist_free(&hl);
        return map_fail(m, line, err, "'%s': %s", hosts, err->msg);
    }
    size_t gi = add_group_name(m, group);
    int rc = 0;
    for (int64_t i = 0; i < hl.n && rc == 0; i++) {
        int64_t old;
        if (strmap_get(&m->hosts, hl.names[i], &old) && strcmp(m->host_group[old], group) != 0)
            rc = map_fail(m, line, err, "host %s is already in group %s", hl.names[i],
                          m->host_group[old]);
        else
            strmap_put(&m->hosts, hl.names[i], (int64_t)gi);
        add_short_name(m, hl.names[i], gi);
    }
    hostlist_free(&hl);
    return rc;
}

static int parse_regex_line(group_map *m, int line, const char *re, const char *rest,
                            cs_error *err)
{
    if (!re[0] || !rest[0])
        return map_fail(m, line, err, "expected 'regex RE EXPR' or 'regex RE table'%s%s", "",
                        "");
    VEC_RESERVE(m->rules, m->cap_rules, (size_t)m->nrules + 1);
    regex_rule *r = &m->rules[m->nrules];
    memset(r, 0, sizeof *r);
    r->line = line;
    char *posix = posix_regex(re);
    int rc = regcomp(&r->re, posix, REG_EXTENDED);
    free(posix);
    if (rc != 0) {
        char msg[256];
        regerror(rc, &r->re, msg, sizeof msg);
        return map_fail(m, line, err, "bad regular expression '%s': %s", re, msg);
    }
    m->nrules++; /* from here on, group_map_free releases it */
    if (r->re.re_nsub < 2 && (strcmp(rest, "table") == 0 || strchr(rest, 'n')))
        return map_fail(m, line, err, "'%s' needs a parenthesised group: the number n%s", re, "");
    if (strcmp(rest, "table") == 0)
        return 0;
    int64_t v;
    char msg[256];
    if (expr_eval(rest, 0, 0, &v, msg, sizeof msg) < 0)
        return map_fail(m, line, err, "%s (allowed: integers, n, + - * / %% and parentheses)",
                        msg, "");
    r->expr = xstrdup(rest);
    return 0;
}

static int parse_range_line(group_map *m, int line, const char *range, const char *group,
                            cs_error *err)
{
    regex_rule *r = m->nrules ? &m->rules[m->nrules - 1] : NULL;
    if (!r || r->expr)
        return map_fail(m, line, err, "'range' must follow a 'regex RE table' line%s%s", "", "");
    if (!group[0] || strchr(group, ' ') || strchr(group, '\t'))
        return map_fail(m, line, err, "expected 'range LO[-HI] GROUP'%s%s", "", "");
    table_range tr;
    char *end;
    errno = 0;
    tr.lo = strtoll(range, &end, 10);
    tr.hi = tr.lo;
    if (*end == '-' && end > range)
        tr.hi = strtoll(end + 1, &end, 10);
    if (errno || *end || end == range || tr.hi < tr.lo)
        return map_fail(m, line, err, "bad range '%s' (expected LO or LO-HI, LO <= HI)", range,
                        "");
    tr.group = xstrdup(group);
    VEC_RESERVE(r->ranges, r->cap_ranges, (size_t)r->nranges + 1);
    r->ranges[r->nranges++] = tr;
    return 0;
}

/* Splits off the first word of *s (trimmed); *s moves past it and following spaces. */
static char *next_word(char **s)
{
    while (isspace((unsigned char)**s))
        (*s)++;
    char *w = *s;
    while (**s && !isspace((unsigned char)**s))
        (*s)++;
    if (**s)
        *(*s)++ = '\0';
    while (isspace((unsigned char)**s))
        (*s)++;
    return w;
}

static int parse_line(group_map *m, int line, char *text, cs_error *err)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    size_t len = strlen(text);
    while (len > 0 && isspace((unsigned char)text[len - 1]))
        text[--len] = '\0';
    char *rest = text;
    char *first = next_word(&rest);
    if (!first[0])
        return 0;
    if (strcmp(first, "regex") == 0) {
        char *re = next_word(&rest);
        return parse_regex_line(m, line, re, rest, err);
    }
    if (strcmp(first, "range") == 0) {
        char *range = next_word(&rest);
        return parse_range_line(m, line, range, rest, err);
    }
    char *group = next_word(&rest);
    if (!group[0] || rest[0])
        return map_fail(m, line, err, "expected 'HOSTS GROUP', 'regex RE EXPR', 'regex RE "
                                      "table' or 'range LO-HI GROUP', got '%s'%s", first, "");
    return parse_hosts_line(m, line, first, group, err);
}

static int parse_rules(const char *text, const char *origin, int first_line, group_map **out,
                       cs_error *err)
{
    group_map *m = xcalloc(1, sizeof *m);
    snprintf(m->origin, sizeof m->origin, "%s", origin);
    strmap_init(&m->hosts);
    strmap_init(&m->short_hosts);
    char *copy = xstrdup(text);
    int rc = 0, line = first_line;
    for (char *s = copy; s && rc == 0; line++) {
        char *nl = strchr(s, '\n');
        if (nl)
            *nl = '\0';
        rc = parse_line(m, line, s, err);
        s = nl ? nl + 1 : NULL;
    }
    for (int i = 0; i < m->nrules && rc == 0; i++)
        if (!m->rules[i].expr && m->rules[i].nranges == 0)
            rc = map_fail(m, m->rules[i].line, err, "'regex ... table' without 'range' lines%s%s",
                          "", "");
    free(copy);
    if (rc < 0) {
        group_map_free(m);
        return -1;
    }
    *out = m;
    return 0;
}

int group_map_parse(const char *text, const char *origin, int first_line, group_map **out,
                    cs_error *err)
{
    if (!pico_map_detect(text))
        return parse_rules(text, origin, first_line, out, err);
    char *rules;
    if (pico_map_rules(text, origin, first_line, &rules, err) < 0)
        return -1;
    int rc = parse_rules(rules, origin, first_line, out, err);
    free(rules);
    return rc;
}

static char *read_file(const char *path, cs_error *err)
{
    FILE *f = fopen_input(path, "rb");
    if (!f) {
        cs_fail(err, "%s: cannot open the group map: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0, got;
    char *buf = xmalloc(cap);
    while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len < 2) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    buf[len] = '\0';
    fclose(f);
    return buf;
}

int group_map_load(const char *path, group_map **out, cs_error *err)
{
    size_t n = strlen(path);
    int yaml = (n > 5 && strcmp(path + n - 5, ".yaml") == 0) ||
               (n > 4 && strcmp(path + n - 4, ".yml") == 0);
    if (yaml) {
        preset_extras px;
        if (topo_preset_read_extras(path, &px, err) < 0)
            return -1;
        int rc = px.groups ? group_map_parse(px.groups, path, px.groups_line, out, err)
                           : cs_fail(err, "%s: the preset has no 'groups:' map", path);
        preset_extras_free(&px);
        return rc;
    }
    char *text = read_file(path, err);
    if (!text)
        return -1;
    int rc = group_map_parse(text, path, 1, out, err);
    free(text);
    return rc;
}

void group_map_free(group_map *m)
{
    if (!m)
        return;
    strmap_free(&m->hosts);
    strmap_free(&m->short_hosts);
    for (size_t i = 0; i < m->nhost_group; i++)
        free(m->host_group[i]);
    free(m->host_group);
    for (int i = 0; i < m->nrules; i++) {
        regfree(&m->rules[i].re);
        free(m->rules[i].expr);
        for (int k = 0; k < m->rules[i].nranges; k++)
            free(m->rules[i].ranges[k].group);
        free(m->rules[i].ranges);
    }
    free(m->rules);
    free(m);
}

/* ---- lookups ------------------------------------------------------------------------------ */

/* 1 when rule r gives host a group (written to group), 0 when it does not apply. */
static int apply_rule(const group_map *m, const regex_rule *r, const char *host, char *group,
                      size_t n, cs_error *err)
{
    regmatch_t g[3]; /* 0: the name, 1: our "^(...)$" wrapper, 2: the user's group */
    if (regexec(&r->re, host, 3, g, 0) != 0)
        return 0;
    int64_t num = 0;
    if (r->re.re_nsub >= 2) {
        if (g[2].rm_so < 0)
            return 0; /* the group took no part in the match */
        char digits[32];
        size_t len = (size_t)(g[2].rm_eo - g[2].rm_so);
        if (len >= sizeof digits)
            len = sizeof digits - 1;
        memcpy(digits, host + g[2].rm_so, len);
        digits[len] = '\0';
        char *end;
        errno = 0;
        num = strtoll(digits, &end, 10);
        if (len == 0 || *end || errno)
            return map_fail(m, r->line, err, "the group of '%s' matched '%s', not a number",
                            host, digits);
    }
    if (r->expr) {
        int64_t v;
        char msg[256];
        if (expr_eval(r->expr, num, 1, &v, msg, sizeof msg) < 0)
            return map_fail(m, r->line, err, "host %s: %s", host, msg);
        snprintf(group, n, "%" PRId64, v);
        return 1;
    }
    for (int k = 0; k < r->nranges; k++)
        if (num >= r->ranges[k].lo && num <= r->ranges[k].hi) {
            snprintf(group, n, "%s", r->ranges[k].group);
            return 1;
        }
    return 0;
}

/* Explicit host lines: the name as given, then without its domain suffix; a name without
 * one also matches a map name with one (lrdn0155 = lrdn0155.leonardo.local). */
static int lookup_explicit(const group_map *m, const char *host, const char *short_host,
                           char *group, size_t n)
{
    int64_t gi = -1;
    if (strmap_get(&m->hosts, host, &gi) || strmap_get(&m->hosts, short_host, &gi) ||
        (strcmp(host, short_host) == 0 && strmap_get(&m->short_hosts, host, &gi) && gi >= 0)) {
        snprintf(group, n, "%s", m->host_group[gi]);
        return 1;
    }
    return 0;
}

int group_map_lookup(const group_map *m, const char *host, char *group, size_t n,
                     cs_error *err)
{
    char short_host[256];
    short_name(host, short_host, sizeof short_host);
    if (!short_host[0])
        snprintf(short_host, sizeof short_host, "%s", host);
    if (lookup_explicit(m, host, short_host, group, n))
        return 1;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && strcmp(host, short_host) == 0)
            break;
        for (int i = 0; i < m->nrules; i++) {
            int rc = apply_rule(m, &m->rules[i], pass ? short_host : host, group, n, err);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

const char *group_map_origin(const group_map *m) { return m->origin; }

/* ---- group ids ------------------------------------------------------------------------------ */

struct group_ids {
    strmap ids;
    char **names;
    size_t n, cap;
};

group_ids *group_ids_new(void)
{
    group_ids *g = xcalloc(1, sizeof *g);
    strmap_init(&g->ids);
    return g;
}

void group_ids_free(group_ids *g)
{
    if (!g)
        return;
    strmap_free(&g->ids);
    for (size_t i = 0; i < g->n; i++)
        free(g->names[i]);
    free(g->names);
    free(g);
}

int32_t group_ids_get(group_ids *g, const char *name)
{
    int64_t id;
    if (strmap_get(&g->ids, name, &id))
        return (int32_t)id;
    VEC_RESERVE(g->names, g->cap, g->n + 1);
    g->names[g->n] = xstrdup(name);
    strmap_put(&g->ids, name, (int64_t)g->n);
    return (int32_t)g->n++;
}

int32_t group_ids_count(const group_ids *g) { return (int32_t)g->n; }

const char *group_ids_name(const group_ids *g, int32_t id)
{
    return id >= 0 && (size_t)id < g->n ? g->names[id] : NULL;
}

int group_map_assign(const group_map *m, const char *const *hosts, int64_t n, group_ids *ids,
                     int32_t *group_of_host, cs_error *err)
{
    for (int64_t i = 0; i < n; i++) {
        char group[256];
        int rc = group_map_lookup(m, hosts[i], group, sizeof group, err);
        if (rc < 0)
            return -1;
        group_of_host[i] = rc ? group_ids_get(ids, group) : -1;
    }
    return 0;
}
