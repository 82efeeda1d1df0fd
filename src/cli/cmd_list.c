/* cmd_list.c - `collsim list [COLLECTIVE]`: one line per algorithm.
 *
 *   <collective> <algorithm> <constraints> [parameters] - <summary>
 */
#include <stdio.h>
#include <string.h>

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

int cmd_list(int argc, char **argv)
{
    coll_kind only = COLL__COUNT;
    if (argc > 2)
        return cli_usage_error("list", "usage: collsim list [COLLECTIVE]");
    if (argc == 2) {
        cs_error err;
        if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
            printf("usage: collsim list [COLLECTIVE]\n"
                   "prints: <collective> <algorithm> <constraints>[; params: name=default "
                   "(range)] - <summary>\n");
            return 0;
        }
        if (coll_from_name(argv[1], &only, &err) < 0)
            return cli_usage_error("list", "%s", err.msg);
    }
    for (int c = 0; c < COLL__COUNT; c++) {
        if (only != COLL__COUNT && c != (int)only)
            continue;
        size_t n = registry_builtin_count();
        for (size_t i = 0; i < n; i++) {
            const alg_desc *a = registry_builtin_at(i);
            if ((int)a->coll != c)
                continue;
            char params[512];
            print_params(a, params, sizeof params);
            printf("%-15s %-26s %s%s - %s\n", coll_name(a->coll), a->name, a->constraints, params,
                   a->summary);
        }
    }
    return 0;
}
