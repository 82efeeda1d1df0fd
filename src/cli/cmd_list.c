/* cmd_list.c - `collsim list [--long] [COLLECTIVE]`: one line per algorithm, at most 100
 * columns (constraints and summary cut with "..."); --long: the whole line,
 *
 *   <collective> <algorithm> <constraints> [parameters] - <summary>
 *
 * `collsim list --aliases [COLLECTIVE]`: one line per alias (aliases.h):
 *
 *   <collective> <alias> <algorithm> [params] <status> [<source>: --long]
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "algorithms/aliases.h"
#include "algorithms/registry.h"
#include "cli/cli.h"

static void print_params(const alg_desc *a, char *buf, size_t n)
{
    buf[0] = '\0';
    for (const alg_param_desc *p = a->params; p && p->name; p++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "; params: ", p->name, p->def);
        if (p->choices) {
            len = strlen(buf);
            snprintf(buf + len, n - len, " (%s)", p->choices);
        }
    }
}

/* The widest line of the short listing (an 100-column terminal). */
enum { LIST_COLUMNS = 100 };

/* `line` as is (long), or cut to LIST_COLUMNS with "..." at the end. */
static void print_line(const char *line, int long_form)
{
    size_t n = strlen(line);
    if (long_form || n <= LIST_COLUMNS)
        printf("%s\n", line);
    else
        printf("%.*s...\n", LIST_COLUMNS - 3, line);
}

/* The alias table; `missing` where the target is not in this build; the source with
 * --long. */
static void print_aliases(coll_kind only, int long_form)
{
    const char *fmt = long_form ? "%-15s %-34s %-45s %-7s %s\n" : "%-10s %-34s %-45s %s\n";
    printf(fmt, "# collective", "alias", "collsim algorithm", "status", "source");
    for (size_t i = 0; i < alias_count(); i++) {
        const alg_alias *a = alias_at(i);
        if (only != COLL__COUNT && a->desc.coll != only)
            continue;
        char target[128];
        snprintf(target, sizeof target, "%s%s%s", a->algorithm, a->params[0] ? " " : "",
                 a->params);
        cs_error err;
        const char *status = alias_check(a, &err) < 0 ? "missing" : "ok";
        if (long_form) {
            printf(fmt, coll_name(a->desc.coll), a->desc.name, target, status, a->source);
            continue;
        }
        char line[512]; /* aligned; single-spaced where long names would pass 100 columns */
        snprintf(line, sizeof line, "%-10s %-34s %-45s %s", coll_name(a->desc.coll),
                 a->desc.name, target, status);
        if (strlen(line) > LIST_COLUMNS)
            snprintf(line, sizeof line, "%s %s %s %s", coll_name(a->desc.coll), a->desc.name,
                     target, status);
        print_line(line, 0);
    }
}

static const char list_usage[] =
    "usage: collsim list [--long] [--aliases] [COLLECTIVE]\n"
    "prints: <collective> <algorithm> <constraints>[; params: name=default (range)] - "
    "<summary>\n"
    "        cut to 100 columns; --long: whole lines\n"
    "--aliases: <collective> <alias> <collsim algorithm [params]> <ok|missing>"
    " [<source>: --long]\n";

static void print_algorithms(coll_kind only, int long_form)
{
    for (int c = 0; c < COLL__COUNT; c++) {
        if (only != COLL__COUNT && c != (int)only)
            continue;
        size_t n = registry_builtin_count();
        for (size_t i = 0; i < n; i++) {
            const alg_desc *a = registry_builtin_at(i);
            if ((int)a->coll != c)
                continue;
            char params[512], line[2048];
            print_params(a, params, sizeof params);
            snprintf(line, sizeof line, "%-*s %-26s %s%s - %s", long_form ? 15 : 14,
                     coll_name(a->coll), a->name, a->constraints, params, a->summary);
            print_line(line, long_form);
        }
    }
    if (!long_form && isatty(STDOUT_FILENO))
        fprintf(stderr, "(lines cut to %d columns; collsim list --long prints them whole)\n",
                LIST_COLUMNS);
}

int cmd_list(int argc, char **argv)
{
    coll_kind only = COLL__COUNT;
    int aliases = 0, long_form = 0;
    for (int i = 1; i < argc; i++) {
        cs_error err;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(list_usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--aliases") == 0 && !aliases)
            aliases = 1;
        else if (strcmp(argv[i], "--long") == 0 && !long_form)
            long_form = 1;
        else if (only != COLL__COUNT || argv[i][0] == '-')
            return cli_usage_error("list", "unexpected argument '%s'\n%s", argv[i], list_usage);
        else if (coll_from_name(argv[i], &only, &err) < 0)
            return cli_usage_error("list", "%s", err.msg);
    }
    if (aliases)
        print_aliases(only, long_form);
    else
        print_algorithms(only, long_form);
    return 0;
}
