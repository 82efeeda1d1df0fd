/* cli_common.c - helpers shared by the subcommands (see cli.h). */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/units.h"
#include "common/util.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "collsim %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

const char *cli_option_name(const struct option *opts, int val)
{
    for (const struct option *o = opts; o->name; o++)
        if (o->val == val)
            return o->name;
    return "?";
}

/* Options a command takes several times: --param (each adds a parameter), check's
 * --topology (each adds a topology), sim's --job (each adds a job). */
static int repeatable(const char *cmd, const char *name)
{
    return strcmp(name, "param") == 0 || (strcmp(cmd, "check") == 0 && strcmp(name, "topology") == 0) ||
           (strcmp(cmd, "sim") == 0 && strcmp(name, "job") == 0);
}

static const struct option *option_of(const struct option *opts, int val)
{
    for (const struct option *o = opts; o->name; o++)
        if (o->val == val)
            return o;
    return NULL;
}

int cli_check_options(const char *cmd, int argc, char **argv, const char *shortopts,
                      const struct option *opts)
{
    size_t nopts = 0;
    while (opts[nopts].name)
        nopts++;
    const char **first = xcalloc(nopts + 1, sizeof *first);
    optind = 0;
    opterr = 0;
    int c, rc = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        const struct option *o = option_of(opts, c == '?' || c == ':' ? optopt : c);
        if (!o)
            continue; /* an unknown option: the parse itself reports it */
        if ((c == '?' || c == ':') && o->has_arg == required_argument) {
            rc = cli_usage_error(cmd, "--%s needs a value (see collsim %s --help)", o->name, cmd);
        } else if (c == '?' || c == ':') {
            continue;
        } else if (o->has_arg == required_argument && optarg[0] == '-' && optarg[1] == '-' &&
                   optarg[2] != '\0') {
            rc = cli_usage_error(cmd, "--%s needs a value, got the option '%s' (see collsim %s "
                                      "--help)", o->name, optarg, cmd);
        } else if (o->has_arg == required_argument && !repeatable(cmd, o->name)) {
            size_t i = (size_t)(o - opts);
            if (first[i])
                rc = cli_usage_error(cmd, "--%s given twice ('%s' and '%s'): give it once",
                                     o->name, first[i], optarg);
            first[i] = optarg;
        }
    }
    free(first);
    optind = 0;
    return rc;
}

int cli_parse_options(const char *cmd, int argc, char **argv, const char *shortopts,
                      const struct option *opts, const char *usage, cli_option_fn fn,
                      void *ctx)
{
    int rc0 = cli_check_options(cmd, argc, argv, shortopts, opts);
    if (rc0 != 0)
        return rc0;
    optind = 0; /* 0, not 1: getopt re-initialises (commands may parse argv twice) */
    opterr = 0; /* our own message below names the command */
    int c;
    while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return cli_usage_error(cmd, "unknown or incomplete option '%s'\n%s",
                                   argv[optind - 1], usage);
        cs_error err;
        cs_error_clear(&err);
        int rc = fn(c, ctx, &err);
        if (rc == 1) {
            fputs(usage, stdout);
            return -1;
        }
        if (rc < 0)
            return cli_usage_error(cmd, "--%s: %s", cli_option_name(opts, c), err.msg);
    }
    return 0;
}

int cli_parse_dims(const char *text, coll_spec *spec, cs_error *err)
{
    int n = 0;
    const char *s = text;
    int64_t prod = 1;
    while (*s) {
        char buf[32];
        const char *x = strchr(s, 'x');
        size_t len = x ? (size_t)(x - s) : strlen(s);
        if (len == 0 || len >= sizeof buf || n >= SPEC_MAX_DIMS)
            return cs_fail(err, "invalid dimensions '%s' (expected AxBx... with at most %d sizes)",
                           text, SPEC_MAX_DIMS);
        memcpy(buf, s, len);
        buf[len] = '\0';
        int64_t d;
        if (parse_int_in(buf, 1, 1 << 24, "dimension size", &d, err) < 0)
            return -1;
        prod *= d;
        if (prod > INT32_MAX)
            return cs_fail(err, "dimensions '%s' multiply to more than 2^31-1 ranks", text);
        spec->dims[n++] = (int32_t)d;
        s = x ? x + 1 : s + len;
        if (x && !*s)
            return cs_fail(err, "invalid dimensions '%s' (ends in 'x': expected AxBx... with a "
                                "size after every x)", text);
    }
    if (n == 0)
        return cs_fail(err, "empty dimensions (expected AxBx...)");
    spec->ndims = n;
    return 0;
}

int cli_parse_param(const char *text, coll_spec *spec, cs_error *err)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return cs_fail(err, "invalid parameter '%s' (expected name=value)", text);
    char name[SPEC_PARAM_LEN];
    size_t len = (size_t)(eq - text);
    if (len >= sizeof name)
        return cs_fail(err, "parameter name in '%s' is too long", text);
    memcpy(name, text, len);
    name[len] = '\0';
    return coll_spec_set_param(spec, name, eq + 1, err);
}

/* Seconds, as a bare number ("30", "0.5") or a time with its unit ("500ms"). */
int cli_parse_timeout(const char *text, double *out, cs_error *err)
{
    char *end;
    double v = strtod(text, &end);
    if (end == text || *end != '\0') {
        if (parse_time(text, &v, err) < 0)
            return -1;
    }
    if (!(v >= 0) || v > 1e9)
        return cs_fail(err, "invalid timeout '%s' (expected seconds in 0..1e9, 0 = none)", text);
    *out = v;
    return 0;
}

int cli_workload_parse(cli_workload *w, const char *text, cs_error *err)
{
    w->given = 1;
    return workload_parse(text, &w->params, err);
}

int cli_workload_check(const cli_workload *w, const char *cmd, coll_kind coll)
{
    if (w->given && coll != COLL_ALLTOALLV)
        return cli_usage_error(cmd, "--workload: block sizes per source and destination are "
                                    "for --collective alltoallv only (got %s)", coll_name(coll));
    return 0;
}

/* Sizes are cached in a table up to this size (P <= 4096), computed on demand above. */
#define CLI_WORKLOAD_TABLE_MAX ((int64_t)64 << 20)

int cli_workload_bind(const cli_workload *w, coll_spec *spec, workload **out, cs_error *err)
{
    *out = NULL;
    if (!w->given)
        return 0;
    if (workload_create(&w->params, spec->P, out, err) < 0)
        return -1;
    workload_materialize(*out, CLI_WORKLOAD_TABLE_MAX);
    spec->workload = *out;
    return 0;
}

int cli_check_list(const char *text, cs_error *err)
{
    size_t len = strlen(text);
    if (len == 0 || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,"))
        return cs_fail(err, "empty item in the list '%s' (expected names separated by single "
                            "commas, e.g. ring,rabenseifner or 1KiB,1MiB)", text);
    return 0;
}
