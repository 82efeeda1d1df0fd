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
 * warnings) is copied to the parent's. A job (sim.h: sim_job) is the same child seen
 * from a caller that runs several at once and polls their pipes. With a wall-time limit
 * (sim_config.point_timeout_s), sim_run_isolated kills a child that runs past it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/util.h"
#include "sim/sim_internal.h"

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

/* The child's work for a point: its row, CPU time, packet model figures and per-rank
 * finish times as one payload. */
#define HEAD_LEN (sizeof(sim_row) + 5 * sizeof(double) + 3 * sizeof(int64_t))

/* The measurements after the row, in this order, to (dir 0) or from (dir 1) the payload. */
static void copy_measurements(char *at, sim_result *res, int dir)
{
    void *f[] = {&res->cpu_s, &res->packet_hops, &res->packet_events,
                 &res->packet_event_digest, &res->packet_engine_cpu_s,
                 &res->packet_setup_cpu_s, &res->packet_ranks_cpu_s,
                 &res->packet_teardown_cpu_s};
    size_t z[] = {sizeof res->cpu_s, sizeof res->packet_hops, sizeof res->packet_events,
                  sizeof res->packet_event_digest,
                  sizeof res->packet_engine_cpu_s, sizeof res->packet_setup_cpu_s,
                  sizeof res->packet_ranks_cpu_s, sizeof res->packet_teardown_cpu_s};
    for (size_t i = 0; i < sizeof z / sizeof z[0]; at += z[i], i++)
        memcpy(dir ? f[i] : at, dir ? at : f[i], z[i]);
}
static int run_point(const void *arg, void **payload, size_t *len, cs_error *err)
{
    const sim_config *c = arg;
    sim_result res;
    if (sim_run(c, &res, err) < 0)
        return -1;
    size_t nfinish = res.rank_finish_s ? (size_t)c->spec.P : 0;
    *len = HEAD_LEN + nfinish * sizeof(double);
    *payload = xmalloc(*len);
    char *at = *payload;
    memcpy(at, &res.row, sizeof res.row);
    copy_measurements(at + sizeof res.row, &res, 0);
    if (nfinish)
        memcpy(at + HEAD_LEN, res.rank_finish_s, nfinish * sizeof(double));
    sim_result_free(&res);
    return 0;
}

static void child_main(int out_fd, sim_child_work work, const void *arg)
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

/* ---- jobs ------------------------------------------------------------------------------ */

/* In the child, before the work: take the default signal mask (the parent may block
 * SIGINT / SIGTERM to read them from a signalfd) and die with the parent. */
static void child_setup(pid_t parent)
{
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) /* the parent died before prctl */
        _exit(5);
}

/* Forks a child that runs work(arg) and answers on a pipe the job reads. */
int sim_job_start_work(sim_child_work work, const void *arg, sim_job *job, cs_error *err)
{
    int fds[2];
    memset(job, 0, sizeof *job);
    job->fd = -1;
    job->errf = tmpfile();
    if (!job->errf || pipe(fds) < 0) {
        if (job->errf)
            fclose(job->errf);
        return cs_fail(err, "cannot set up the simulation process: %s", strerror(errno));
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        fclose(job->errf);
        return cs_fail(err, "cannot start the simulation process: %s", strerror(errno));
    }
    if (pid == 0) {
        close(fds[0]);
        dup2(fileno(job->errf), STDERR_FILENO);
        child_setup(parent);
        child_main(fds[1], work, arg);
    }
    close(fds[1]);
    job->pid = pid;
    job->fd = fds[0];
    job->cap = 4096;
    job->answer = xmalloc(job->cap);
    return 0;
}

int sim_job_start(const sim_config *c, sim_job *job, cs_error *err)
{
    return sim_job_start_work(run_point, c, job, err);
}

int sim_job_read(sim_job *job)
{
    if (job->len == job->cap)
        job->answer = xrealloc(job->answer, job->cap *= 2);
    ssize_t r;
    while ((r = read(job->fd, job->answer + job->len, job->cap - job->len)) < 0 && errno == EINTR)
        ;
    if (r <= 0)
        return 1;
    job->len += (size_t)r;
    return 0;
}

void sim_job_signal(const sim_job *job, int sig)
{
    if (job->pid > 0)
        kill(job->pid, sig);
}

int sim_job_was_stopped(const sim_job *job)
{
    if (!WIFSIGNALED(job->wstatus))
        return 0;
    int sig = WTERMSIG(job->wstatus);
    return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/* Decodes a finished job's answer: 0 with the result, or -1 with the error. */
static int job_result(const sim_job *job, sim_result *res, cs_error *err)
{
    void *payload = NULL;
    size_t len = 0;
    if (decode_answer(job->answer, job->len, job->wstatus, job->errf, &payload, &len, err) < 0)
        return -1;
    if (len < HEAD_LEN) {
        free(payload);
        return cs_fail(err, "internal: short answer from the simulation process");
    }
    char *at = payload;
    memcpy(&res->row, at, sizeof res->row);
    copy_measurements(at + sizeof res->row, res, 1);
    size_t nfinish = (len - HEAD_LEN) / sizeof(double);
    if (nfinish > 0) {
        res->rank_finish_s = xmalloc(nfinish * sizeof(double));
        memcpy(res->rank_finish_s, at + HEAD_LEN, nfinish * sizeof(double));
    }
    free(payload);
    return 0;
}

/* Waits for a job's child (its answer fully read). */
static void job_wait(sim_job *job)
{
    close(job->fd);
    job->fd = -1;
    while (waitpid(job->pid, &job->wstatus, 0) < 0 && errno == EINTR)
        ;
    job->pid = 0;
}

/* Passes on what a successful child printed, and frees the job's buffers. */
static int job_release(sim_job *job, int rc)
{
    if (rc == 0)
        copy_stream(job->errf, stderr);
    free(job->answer);
    job->answer = NULL;
    fclose(job->errf);
    job->errf = NULL;
    return rc;
}

int sim_job_finish(sim_job *job, sim_result *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    job_wait(job);
    return job_release(job, job_result(job, res, err));
}

int sim_job_finish_payload(sim_job *job, void **payload, size_t *len, cs_error *err)
{
    job_wait(job);
    return job_release(job, decode_answer(job->answer, job->len, job->wstatus, job->errf,
                                          payload, len, err));
}

int sim_run_in_child(sim_child_work work, const void *arg, void **payload, size_t *len,
                     cs_error *err)
{
    sim_job job;
    if (sim_job_start_work(work, arg, &job, err) < 0)
        return -1;
    while (!sim_job_read(&job))
        ;
    return sim_job_finish_payload(&job, payload, len, err);
}

/* Waits until the job's pipe has input or the deadline (wall_seconds() clock) passes;
 * returns 0 when it has input, 1 when the deadline passed. */
static int job_wait_input(const sim_job *job, double deadline)
{
    for (;;) {
        double left = deadline - wall_seconds();
        if (left <= 0)
            return 1;
        struct pollfd pfd = {.fd = job->fd, .events = POLLIN};
        int ready = poll(&pfd, 1, (int)(left * 1000) + 1);
        if (ready > 0)
            return 0;
        /* ready == 0 or EINTR: the loop head looks at the deadline again */
    }
}

int sim_run_isolated(const sim_config *c, sim_result *res, cs_error *err)
{
    memset(res, 0, sizeof *res);
    sim_job job;
    if (sim_job_start(c, &job, err) < 0)
        return -1;
    double deadline = c->point_timeout_s > 0 ? wall_seconds() + c->point_timeout_s : 0;
    for (;;) {
        if (deadline > 0 && job_wait_input(&job, deadline)) {
            sim_job_signal(&job, SIGKILL);
            cs_error ignored;
            if (sim_job_finish(&job, res, &ignored) == 0)
                sim_result_free(res);
            memset(res, 0, sizeof *res);
            res->timed_out = 1;
            return cs_fail(err, "timeout: the point ran longer than %g s (--point-timeout); "
                                "its simulation process was killed", c->point_timeout_s);
        }
        if (sim_job_read(&job))
            break;
    }
    return sim_job_finish(&job, res, err);
}

int sim_run_in_child_timed(sim_child_work work, const void *arg, double timeout_s,
                           void **payload, size_t *len, int *timed_out, cs_error *err)
{
    sim_job job;
    *timed_out = 0;
    if (sim_job_start_work(work, arg, &job, err) < 0)
        return -1;
    double deadline = wall_seconds() + timeout_s;
    for (;;) {
        if (job_wait_input(&job, deadline)) {
            sim_job_signal(&job, SIGKILL);
            void *ignored = NULL;
            size_t n;
            cs_error e;
            if (sim_job_finish_payload(&job, &ignored, &n, &e) == 0)
                free(ignored);
            *timed_out = 1;
            return cs_fail(err, "timeout: the point ran longer than %g s (--point-timeout); "
                                "its simulation process was killed", timeout_s);
        }
        if (sim_job_read(&job))
            break;
    }
    return sim_job_finish_payload(&job, payload, len, err);
}
