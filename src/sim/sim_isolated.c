/* sim_isolated.c - running SimGrid work in a child process (see sim.h).
 *
 * SimGrid initialises once per process and aborts on some errors, so each point runs in
 * a fork()ed child. The child's stderr goes to an anonymous temporary file; its answer
 * comes back through a pipe as
 *
 *     int status | (status 0) size_t length, `length` bytes of payload
 *                | (status -1) the error message
 *
 * If the child dies (a signal, an abort, exit without an answer), the parent reports it
 * with the first line the child wrote on stderr; on success the child's stderr (SimGrid
 * warnings) is copied to the parent's. With a wall-time limit (sim_config.point_timeout_s),
 * the parent waits for the answer with poll() and kills the child when the limit passes.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "sim/sim_internal.h"

/* Work done in the child: fills a malloc'ed payload, or fails. */
typedef int (*child_work)(const void *arg, void **payload, size_t *len, cs_error *err);

static int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static void child_main(int out_fd, child_work work, const void *arg)
{
    void *payload = NULL;
    size_t len = 0;
    cs_error err;
    cs_error_clear(&err);
    int status = work(arg, &payload, &len, &err);
    fflush(stdout);
    fflush(stderr);
    int ok = write_all(out_fd, &status, sizeof status) == 0;
    if (ok && status == 0)
        ok = write_all(out_fd, &len, sizeof len) == 0 && write_all(out_fd, payload, len) == 0;
    else if (ok)
        ok = write_all(out_fd, err.msg, strlen(err.msg) + 1) == 0;
    _exit(ok ? 0 : 4);
}

/* Reads everything until EOF into a malloc'ed buffer. */
static char *read_all(int fd, size_t *n)
{
    size_t cap = 4096;
    char *buf = xmalloc(cap);
    *n = 0;
    for (;;) {
        if (*n == cap)
            buf = xrealloc(buf, cap *= 2);
        ssize_t r = read(fd, buf + *n, cap - *n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        *n += (size_t)r;
    }
    return buf;
}

/* read_all with a deadline (wall_seconds() clock; <= 0: none). Sets *expired and stops
 * reading when the deadline passes before EOF. */
static char *read_all_until(int fd, size_t *n, double deadline, int *expired)
{
    *expired = 0;
    if (deadline <= 0)
        return read_all(fd, n);
    size_t cap = 4096;
    char *buf = xmalloc(cap);
    *n = 0;
    for (;;) {
        double left = deadline - wall_seconds();
        if (left <= 0) {
            *expired = 1;
            break;
        }
        struct pollfd pfd = {.fd = fd, .events = POLLIN};
        int ready = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0)
            continue; /* the loop head sees the deadline */
        if (*n == cap)
            buf = xrealloc(buf, cap *= 2);
        ssize_t r = read(fd, buf + *n, cap - *n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        *n += (size_t)r;
    }
    return buf;
}

/* The first non-empty line of the child's stderr (what SimGrid says before aborting). */
static void first_line(FILE *f, char *line, size_t n)
{
    line[0] = '\0';
    rewind(f);
    while (fgets(line, (int)n, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0])
            return;
    }
    line[0] = '\0';
}

static void copy_stream(FILE *from, FILE *to)
{
    char buf[4096];
    size_t r;
    rewind(from);
    while ((r = fread(buf, 1, sizeof buf, from)) > 0)
        fwrite(buf, 1, r, to);
}

/* Why a child ended without an answer. */
static int child_failure(int wstatus, FILE *errf, cs_error *err)
{
    char line[512];
    first_line(errf, line, sizeof line);
    const char *said = line[0] ? line : "(it printed nothing)";
    if (WIFSIGNALED(wstatus))
        return cs_fail(err, "the simulation process died (signal %d, %s): %s",
                       WTERMSIG(wstatus), strsignal(WTERMSIG(wstatus)), said);
    return cs_fail(err, "the simulation process exited with status %d without a result: %s",
                   WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, said);
}

/* The child's answer (see the file comment): 0 with its payload, or -1 with its error. */
static int decode_answer(const char *answer, size_t n, int wstatus, FILE *errf, void **payload,
                         size_t *len, cs_error *err)
{
    int status;
    size_t plen;
    if (n < sizeof status)
        return child_failure(wstatus, errf, err);
    memcpy(&status, answer, sizeof status);
    if (status != 0)
        return cs_fail(err, "%.*s", (int)(n - sizeof status), answer + sizeof status);
    if (n < sizeof status + sizeof plen)
        return child_failure(wstatus, errf, err);
    memcpy(&plen, answer + sizeof status, sizeof plen);
    if (n != sizeof status + sizeof plen + plen)
        return child_failure(wstatus, errf, err);
    *payload = xmalloc(plen ? plen : 1);
    memcpy(*payload, answer + sizeof status + sizeof plen, plen);
    *len = plen;
    return 0;
}

/* Runs work(arg) in a child; on success *payload (malloc'ed) and *len hold its answer.
 * timeout_s > 0: the child is killed after that much wall time (-1, *timed_out = 1). */
static int run_in_child_timed(child_work work, const void *arg, double timeout_s,
                              int *timed_out, void **payload, size_t *len, cs_error *err)
{
    double deadline = timeout_s > 0 ? wall_seconds() + timeout_s : 0;
    int fds[2];
    FILE *errf = tmpfile();
    if (!errf || pipe(fds) < 0) {
        if (errf)
            fclose(errf);
        return cs_fail(err, "cannot set up the simulation process: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        fclose(errf);
        return cs_fail(err, "cannot start the simulation process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fileno(errf), STDERR_FILENO);
        child_main(fds[1], work, arg);
    }
    close(fds[1]);
    size_t n;
    int expired;
    char *answer = read_all_until(fds[0], &n, deadline, &expired);
    close(fds[0]);
    if (expired)
        kill(pid, SIGKILL);
    int wstatus;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
        ;
    int rc;
    if (expired) {
        *timed_out = 1;
        rc = cs_fail(err, "timeout: the point ran longer than %g s (--point-timeout); its "
                          "simulation process was killed", timeout_s);
    } else {
        rc = decode_answer(answer, n, wstatus, errf, payload, len, err);
    }
    if (rc == 0)
        copy_stream(errf, stderr);
    free(answer);
    fclose(errf);
    return rc;
}

/* Without a time limit: for other work run in a child (kept for callers outside sim_run). */
__attribute__((unused)) static int run_in_child(child_work work, const void *arg,
                                                void **payload, size_t *len, cs_error *err)
{
    int timed_out = 0;
    return run_in_child_timed(work, arg, 0, &timed_out, payload, len, err);
}

/* ---- sim_run --------------------------------------------------------------------------- */

static int run_point(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const sim_config *c = arg;
    sim_result res;
    if (sim_run(c, &res, err) < 0)
        return -1;
    size_t nfinish = res.rank_finish_s ? (size_t)c->spec.P : 0;
    *len = sizeof res.row + nfinish * sizeof(double);
    *payload = xmalloc(*len);
    memcpy(*payload, &res.row, sizeof res.row);
    if (nfinish)
        memcpy((char *)*payload + sizeof res.row, res.rank_finish_s, nfinish * sizeof(double));
    sim_result_free(&res);
    return 0;
}

int sim_run_isolated(const sim_config *c, sim_result *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    void *payload = NULL;
    size_t len = 0;
    if (run_in_child_timed(run_point, c, c->point_timeout_s, &res->timed_out, &payload, &len,
                           err) < 0)
        return -1;
    if (len < sizeof res->row) {
        free(payload);
        return cs_fail(err, "internal: short answer from the simulation process");
    }
    memcpy(&res->row, payload, sizeof res->row);
    size_t nfinish = (len - sizeof res->row) / sizeof(double);
    if (nfinish > 0) {
        res->rank_finish_s = xmalloc(nfinish * sizeof(double));
        memcpy(res->rank_finish_s, (char *)payload + sizeof res->row, nfinish * sizeof(double));
    }
    free(payload);
    return 0;
}
