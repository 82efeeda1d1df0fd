/* progress.c - telling the user how a sweep goes, on stderr (sweep_internal.h).
 *
 * On a terminal: one status line, rewritten in place, with the points done / total, the
 * ETA and the points in flight (the one running longest, how long it has run, "+k more"
 * with -j N); a point that fails also gets a line of its own, so its error stays on the
 * screen. Otherwise (a log file, a pipe): one line per finished point.
 *
 * The ETA comes from the points' time estimates (point_cost.c), not from the points done
 * so far: before any point finishes it is their sum (over the jobs); then each estimate
 * is scaled by the ratio measured / estimated of the points finished ok. A point expected
 * to take long (collsim run --announce-over) is announced on a line of its own before it
 * starts, in every mode but quiet.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "common/util.h"
#include "sweep/sweep_internal.h"

/* Redraws closer together than this are skipped (fast points would flood the terminal). */
#define REDRAW_S 0.1

void progress_init(progress *pr, progress_mode mode, size_t total, size_t done, double est_left,
                   int jobs)
{
    memset(pr, 0, sizeof *pr);
    pr->mode = mode;
    pr->total = total;
    pr->done = done;
    pr->done_at_start = done;
    pr->jobs = jobs > 0 ? jobs : 1;
    pr->est_left = est_left;
    pr->last_draw = -1;
}

double progress_ratio(const progress *pr)
{
    return pr->est_done > 0 && pr->wall_done > 0 ? pr->wall_done / pr->est_done : 1.0;
}

double progress_eta(const progress *pr, double ran)
{
    size_t left = pr->total > pr->done ? pr->total - pr->done : 0;
    if (left == 0)
        return 0;
    double work = pr->est_left * progress_ratio(pr) - ran;
    size_t jobs = (size_t)pr->jobs < left ? (size_t)pr->jobs : left;
    return work > 0 ? work / (double)jobs : 0;
}

void progress_format_rough(double s, char *buf, size_t n)
{
    if (s < 1)
        snprintf(buf, n, "<1 s");
    else if (s < 90)
        snprintf(buf, n, "~%.0f s", s);
    else if (s < 90 * 60)
        snprintf(buf, n, "~%.0f min", s / 60);
    else if (s < 1000 * 3600.0)
        snprintf(buf, n, "~%.1f h", s / 3600);
    else
        snprintf(buf, n, "over 1000 h");
}

/* "42 s", "3m20s", "2h05m". */
static void format_duration(double s, char *buf, size_t n)
{
    long t = (long)(s + 0.5);
    if (t < 100)
        snprintf(buf, n, "%ld s", t);
    else if (t < 3600)
        snprintf(buf, n, "%ldm%02lds", t / 60, t % 60);
    else
        snprintf(buf, n, "%ldh%02ldm", t / 3600, t % 3600 / 60);
}

void progress_format(const progress_status *st, int width, char *buf, size_t n)
{
    char eta[32] = "?", ran[32], head[96], tail[96];
    if (st->eta_s >= 0)
        format_duration(st->eta_s, eta, sizeof eta);
    snprintf(head, sizeof head, "[%zu/%zu] ETA %s", st->done, st->total, eta);
    if (!st->running) {
        snprintf(buf, n, "%s", head);
        return;
    }
    format_duration(st->running_s, ran, sizeof ran);
    if (st->more)
        snprintf(tail, sizeof tail, " (%s) +%zu more", ran, st->more);
    else
        snprintf(tail, sizeof tail, " (%s)", ran);
    /* the label gives way when the line is too wide: it is cut, with "..." */
    int room = width - 1 - (int)strlen(head) - (int)strlen(" | running ") - (int)strlen(tail);
    int len = (int)strlen(st->running);
    if (len <= room)
        snprintf(buf, n, "%s | running %s%s", head, st->running, tail);
    else
        snprintf(buf, n, "%s | running %.*s...%s", head, room > 3 ? room - 3 : 0, st->running,
                 tail);
}

static int terminal_width(void)
{
    struct winsize ws;
    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
        return ws.ws_col;
    return 80;
}

void progress_show(progress *pr, const char *running, double running_s, size_t nrunning,
                   double ran)
{
    double now = wall_seconds();
    if (pr->mode != PROGRESS_TTY || (pr->last_draw >= 0 && now - pr->last_draw < REDRAW_S))
        return;
    pr->last_draw = now;
    progress_status st = {.done = pr->done, .total = pr->total, .running = running,
                          .running_s = running_s, .more = nrunning ? nrunning - 1 : 0,
                          .eta_s = progress_eta(pr, ran)};
    char line[1024];
    progress_format(&st, terminal_width(), line, sizeof line);
    fprintf(stderr, "\r\033[K%s", line);
    fflush(stderr);
    pr->shown = 1;
}

/* Clears the status line before a line of its own, which it then follows. */
static void clear_status(progress *pr)
{
    if (pr->mode != PROGRESS_TTY)
        return;
    fputs("\r\033[K", stderr);
    pr->last_draw = -1; /* the status line is drawn again at once */
}

void progress_point(progress *pr, const char *label, const char *status, double wall_s,
                    double est_s)
{
    pr->done++;
    pr->est_left = pr->est_left > est_s ? pr->est_left - est_s : 0;
    int failed = strcmp(status, "ok") != 0;
    if (!failed && wall_s > 0 && est_s > 0) {
        pr->est_done += est_s;
        pr->wall_done += wall_s;
    }
    if (pr->mode == PROGRESS_QUIET || (pr->mode == PROGRESS_TTY && !failed))
        return;
    clear_status(pr);
    fprintf(stderr, "collsim run: [%zu/%zu] %s: %s (%.2f s)\n", pr->done, pr->total, label,
            status, wall_s);
    fflush(stderr);
}

void progress_announce(progress *pr, size_t number, const char *label, double expect_s)
{
    if (pr->mode == PROGRESS_QUIET)
        return;
    char rough[32];
    progress_format_rough(expect_s, rough, sizeof rough);
    clear_status(pr);
    fprintf(stderr, "collsim run: point %zu/%zu: %s, expect %s\n", number, pr->total, label,
            rough);
    fflush(stderr);
}

void progress_end(progress *pr)
{
    if (pr->mode == PROGRESS_TTY && pr->shown)
        fputs("\r\033[K", stderr); /* the summary line follows */
}
