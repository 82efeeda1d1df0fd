/* cli_import.c - `--import FILE.goal`: a schedule file as the algorithm of a subcommand
 * (dump, verify, sim, check); see cli.h. */
#include <string.h>

#include "cli/cli.h"
#include "common/units.h"

int cli_parse_calc(const char *text, int *calc_bytes, cs_error *err)
{
    if (strcmp(text, "ns") != 0 && strcmp(text, "bytes") != 0)
        return cs_fail(err, "--calc '%s' (allowed: ns, the default: `calc N` takes N "
                            "nanoseconds; bytes: it copies N bytes)", text);
    *calc_bytes = text[0] == 'b';
    return 0;
}

int cli_parse_eager_limit(const char *text, int64_t *out, cs_error *err)
{
    if (strcmp(text, "none") == 0) {
        *out = -1;
        return 0;
    }
    if (parse_size(text, out, err) < 0) {
        cs_error_prefix(err, "--eager-limit (allowed: a size such as 0, 65535 or 64KiB, or "
                             "none)");
        return -1;
    }
    return 0;
}

int cli_import(const char *path, const coll_spec *given, int have_coll, int have_size,
               int calc_bytes, file_alg **out, coll_spec *spec, cs_error *err)
{
    goal_read_options ro;
    goal_read_options_default(&ro);
    ro.calc_bytes = calc_bytes;
    if (have_coll)
        ro.coll = given->coll;
    if (have_size)
        ro.bytes = given->bytes;
    ro.root = given->root;
    ro.dst = given->dst;
    if (file_alg_load(path, &ro, out, err) < 0)
        return -1;
    if (have_coll && (*out)->sched.annotated && (*out)->desc.coll != given->coll) {
        cs_fail(err, "%s holds a %s schedule, not %s", path, coll_name((*out)->desc.coll),
                coll_name(given->coll));
        file_alg_free(*out);
        return -1;
    }
    /* the file fixes collective, P, root and size; the rest (dims, Q) comes from options */
    coll_spec file;
    file_alg_spec(*out, &file);
    *spec = *given;
    spec->coll = file.coll;
    spec->P = file.P;
    spec->root = file.root;
    spec->dst = file.dst;
    spec->bytes = file.bytes;
    return 0;
}
