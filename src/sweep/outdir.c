/* outdir.c - claiming the output directory of `collsim run` (sweep.h: outdir_claim): one
 * run at a time (flock(2) on DIR/.collsim.lock, which holds the PID of the run that has
 * it), and no silent overwrite: the results of an earlier run there are refused unless
 * the run resumes them (--resume) or moves them aside (--overwrite) into
 * DIR/previous-<UTC time>/. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/json.h"
#include "common/util.h"
#include "sweep/sweep_internal.h"

/* The files a run writes (plots aside: every *.png). */
static const char *const run_files[] = {"results.csv", "manifest.json", "timings.csv",
                                        "results.foreign.csv"};
#define NRUN_FILES (sizeof run_files / sizeof run_files[0])

static int is_plot(const char *name)
{
    size_t len = strlen(name);
    return len > 4 && strcmp(name + len - 4, ".png") == 0;
}

/* Takes the lock, or names the PID of the run that holds it. */
static int take_lock(const char *dir, outdir_lock *lock, cs_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/.collsim.lock", dir);
    lock->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lock->fd < 0)
        return cs_fail(err, "cannot open %s: %s", path, strerror(errno));
    if (flock(lock->fd, LOCK_EX | LOCK_NB) < 0) {
        char pid[32] = "";
        ssize_t n = pread(lock->fd, pid, sizeof pid - 1, 0);
        pid[n > 0 ? n : 0] = '\0';
        pid[strcspn(pid, "\n")] = '\0';
        int busy = errno == EWOULDBLOCK;
        close(lock->fd);
        lock->fd = -1;
        if (!busy)
            return cs_fail(err, "cannot lock %s: %s", path, strerror(errno));
        return cs_fail(err, "%s is in use by another collsim run (PID %s, lock %s): one run "
                            "per output directory; wait for it to end or give another -o DIR",
                       dir, pid[0] ? pid : "unknown", path);
    }
    char pid[32];
    int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
    if (ftruncate(lock->fd, 0) < 0 || pwrite(lock->fd, pid, (size_t)n, 0) != n)
        return cs_fail(err, "cannot write %s: %s", path, strerror(errno));
    return 0;
}

static int exists(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return access(path, F_OK) == 0;
}

/* "24 rows in DIR/results.csv, scenario small.lua, state complete" (what is known). */
static void describe(const char *dir, char *buf, size_t n)
{
    char path[4200], v[256];
    size_t len, rows = 0, at;
    cs_error ignored;
    snprintf(path, sizeof path, "%s/results.csv", dir);
    char *text = access(path, F_OK) == 0 ? sweep_read_text(path, &len, &ignored) : NULL;
    for (size_t i = 0; text && i < len; i++)
        rows += text[i] == '\n';
    if (text)
        snprintf(buf, n, "%zu row%s in %s", rows ? rows - 1 : 0, rows == 2 ? "" : "s", path);
    else
        snprintf(buf, n, "no results.csv");
    free(text);
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    text = access(path, F_OK) == 0 ? sweep_read_text(path, &len, &ignored) : NULL;
    if (text && json_top_member(text, len, "scenario", v, sizeof v, NULL) == 1 && v[0]) {
        at = strlen(buf);
        snprintf(buf + at, n - at, ", scenario %s", v);
    }
    if (text && json_top_member(text, len, "state", v, sizeof v, NULL) == 1 && v[0]) {
        at = strlen(buf);
        snprintf(buf + at, n - at, ", state %s", v);
    }
    free(text);
}

/* Moves the run's files and plots into a new DIR/previous-<time>[-k]/ named in moved. */
static int move_aside(const char *dir, char *moved, size_t n, cs_error *err)
{
    char stamp[32], sub[4200], from[4200], to[8400];
    utc_now(stamp, sizeof stamp); /* 2026-11-27T05:20:00Z -> 20261127T052000Z */
    char compact[32];
    size_t k = 0;
    for (const char *c = stamp; *c && k + 1 < sizeof compact; c++)
        if (*c != ':' && *c != '-')
            compact[k++] = *c;
    compact[k] = '\0';
    int made = -1;
    for (int i = 1; i < 100 && made < 0; i++) {
        if (i == 1)
            snprintf(sub, sizeof sub, "%s/previous-%s", dir, compact);
        else
            snprintf(sub, sizeof sub, "%s/previous-%s-%d", dir, compact, i);
        made = mkdir(sub, 0777);
        if (made < 0 && errno != EEXIST)
            return cs_fail(err, "--overwrite: cannot create %s: %s", sub, strerror(errno));
    }
    if (made < 0)
        return cs_fail(err, "--overwrite: cannot create %s: too many of them", sub);
    DIR *d = opendir(dir);
    if (!d)
        return cs_fail(err, "cannot read the directory %s: %s", dir, strerror(errno));
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        int ours = is_plot(e->d_name);
        for (size_t i = 0; i < NRUN_FILES; i++)
            ours |= strcmp(e->d_name, run_files[i]) == 0;
        snprintf(from, sizeof from, "%s/%s", dir, e->d_name);
        snprintf(to, sizeof to, "%s/%s", sub, e->d_name);
        if (ours && rename(from, to) < 0)
            rc = cs_fail(err, "--overwrite: cannot move %s to %s: %s", from, sub,
                         strerror(errno));
    }
    closedir(d);
    snprintf(moved, n, "%s", sub);
    return rc;
}

int outdir_claim(const char *dir, outdir_mode mode, outdir_lock *lock, char *moved, size_t n,
                 cs_error *err)
{
    lock->fd = -1;
    moved[0] = '\0';
    struct stat st;
    lock->created = stat(dir, &st) < 0 && errno == ENOENT;
    if (make_dirs(dir, err) < 0)
        return -1;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        return cs_fail(err, "-o %s: not a directory (the output of a run is a directory of "
                            "results.csv, manifest.json, ...)", dir);
    if (take_lock(dir, lock, err) < 0) {
        outdir_release(lock);
        return -1;
    }
    int held = 0;
    for (size_t i = 0; i < NRUN_FILES; i++)
        held |= exists(dir, run_files[i]);
    if (!held || mode == OUTDIR_RESUME)
        return 0;
    int rc;
    if (mode == OUTDIR_OVERWRITE) {
        rc = move_aside(dir, moved, n, err);
    } else {
        char what[4600];
        describe(dir, what, sizeof what);
        rc = cs_fail(err, "%s already holds the results of a run (%s). Give --overwrite to "
                          "move them aside into %s/previous-<time>/ first, another output "
                          "directory, or (collsim run) --resume to keep them and run only the "
                          "missing points", dir, what, dir);
    }
    if (rc < 0)
        outdir_release(lock);
    return rc;
}

void outdir_release(outdir_lock *lock)
{
    if (lock->fd >= 0)
        close(lock->fd);
    lock->fd = -1;
}

void outdir_abandon(const char *dir, outdir_lock *lock)
{
    outdir_release(lock);
    if (!lock->created)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/.collsim.lock", dir);
    unlink(path);
    rmdir(dir); /* fails, and keeps it, if the scenario wrote something there */
}
