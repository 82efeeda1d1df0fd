/* atomic_file.c - all-or-nothing output files (see atomic_file.h). */
#include "common/atomic_file.h"

int atomic_file_open(atomic_file *a, const char *path, cs_error *err)
{
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp", path);
    a->f = fopen(a->tmp, "w");
    return a->f ? 0 : cs_fail(err, "cannot write %s", a->tmp);
}

int atomic_file_commit(atomic_file *a, int ok, cs_error *err)
{
    int failed = ferror(a->f);
    failed |= fclose(a->f) != 0;
    a->f = NULL;
    if (ok && !failed && rename(a->tmp, a->path) == 0)
        return 0;
    remove(a->tmp);
    return ok ? cs_fail(err, "cannot write %s", a->path) : -1;
}
