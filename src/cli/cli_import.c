/* cli_import.c - `--import FILE.goal`: a schedule file as the algorithm of a subcommand
 * (dump, verify, sim, check); see cli.h. */
#include <string.h>

#include "cli/cli.h"

int cli_import(const char *path, const coll_spec *given, int have_coll, int have_size,
               file_alg **out, coll_spec *spec, cs_error *err)
{
    goal_read_options ro;
    goal_read_options_default(&ro);
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
