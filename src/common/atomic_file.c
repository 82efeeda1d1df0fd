/* atomic_file.c - all-or-nothing output files (see atomic_file.h).
 *
 * Where the file system allows it (Linux: ext4, xfs, btrfs, tmpfs), the data goes to an
 * unnamed file (O_TMPFILE) in the target's directory, which is given a name only when it
 * is complete: it is linked as "<path>.tmp.<pid>" (through /proc/self/fd, which needs no
 * privilege) and renamed over <path>. An interrupted or killed process (SIGINT, SIGTERM,
 * even SIGKILL or the OOM killer) therefore leaves nothing behind: the kernel frees an
 * unnamed file when its last descriptor closes. Elsewhere the data goes to the named
 * "<path>.tmp.<pid>" from the start, removed on any error (but not on a signal).
 */
#define _GNU_SOURCE
#include "common/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An unnamed file in path's directory, as a stream; NULL when unsupported. */
static FILE *open_unnamed(const char *path)
{
#ifdef O_TMPFILE
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    int fd = open(dirname(dir), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666); /* less the umask */
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "w");
    if (!f)
        close(fd);
    return f;
#else
    (void)path;
    return NULL;
#endif
}

int atomic_file_open(atomic_file *a, const char *path, cs_error *err)
{
    snprintf(a->path, sizeof a->path, "%s", path);
    snprintf(a->tmp, sizeof a->tmp, "%s.tmp.%ld", path, (long)getpid());
    a->f = open_unnamed(path);
    a->unnamed = a->f != NULL;
    if (!a->f)
        a->f = fopen(a->tmp, "w");
    return a->f ? 0 : cs_fail(err, "cannot write %s: %s", a->path, strerror(errno));
}

/* Gives the unnamed file its temporary name (before fclose: it needs the descriptor). */
static int link_unnamed(atomic_file *a)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fileno(a->f));
    unlink(a->tmp); /* a stale one of an earlier process with our pid */
    return linkat(AT_FDCWD, proc, AT_FDCWD, a->tmp, AT_SYMLINK_FOLLOW);
}

int atomic_file_commit(atomic_file *a, int ok, cs_error *err)
{
    /* on disk before the rename, so that a crash never leaves an empty <path> */
    int failed = fflush(a->f) != 0 || ferror(a->f) || (ok && fsync(fileno(a->f)) != 0);
    int named = !a->unnamed || (ok && !failed && link_unnamed(a) == 0);
    failed |= fclose(a->f) != 0;
    a->f = NULL;
    if (ok && !failed && named && rename(a->tmp, a->path) == 0)
        return 0;
    int e = errno; /* of the step that failed: e.g. EISDIR, a directory at path */
    if (named)
        remove(a->tmp);
    return ok ? cs_fail(err, "cannot write %s: %s", a->path, e ? strerror(e) : "write error")
              : -1;
}
