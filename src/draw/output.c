/* output.c - pictures and link tables to files, atomically (output.h). */
#include "draw/output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "draw/render.h"

int output_format(const char *path, out_format *fmt, cs_error *err)
{
    const char *dot = strrchr(path, '.');
    const char *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash)) {
        if (strcmp(dot, ".svg") == 0) { *fmt = OUT_SVG; return 0; }
        if (strcmp(dot, ".png") == 0) { *fmt = OUT_PNG; return 0; }
        if (strcmp(dot, ".json") == 0) { *fmt = OUT_JSON; return 0; }
    }
    return cs_fail(err, "'%s': unknown picture format (allowed extensions: .svg, .png, .json)",
                   path);
}

void output_name(const char *path, const char *suffix, const char *ext, char *buf, size_t n)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
    snprintf(buf, n, "%.*s%s%s", (int)stem, path, suffix, ext ? ext : path + stem);
}

/* Temporary name next to the target: "<path>.tmp<pid>". */
static void temp_name(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "%s.tmp%ld", path, (long)getpid());
}

static int finish_file(FILE *f, int rc, const char *tmp, const char *path, cs_error *err)
{
    if (fclose(f) != 0)
        rc = -1;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1;
    if (rc < 0) {
        int e = errno;
        remove(tmp);
        return cs_fail(err, "cannot write '%s': %s", path, e ? strerror(e) : "write error");
    }
    return 0;
}

static FILE *open_temp(const char *path, char *tmp, size_t n, cs_error *err)
{
    temp_name(path, tmp, n);
    FILE *f = fopen(tmp, "w");
    if (!f)
        cs_fail(err, "cannot write '%s': %s", path, strerror(errno));
    return f;
}

static const char *python(void)
{
    const char *env = getenv("COLLSIM_PYTHON");
    if (env && *env)
        return env;
    return access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : "python3";
}

/* The signals that end collsim draw (Ctrl-C, kill, a closed terminal). */
static void stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

/* Holds the stop signals while a file is written under its temporary name: a signal
 * that comes meanwhile ends collsim at release, once the temporary file is renamed into
 * place or removed. */
static void hold_signals(sigset_t *old)
{
    sigset_t set;
    stop_signals(&set);
    sigprocmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
    sigprocmask(SIG_SETMASK, old, NULL);
}

/* Waits for the renderer `pid`, or for a stop signal while it runs: then the renderer is
 * ended, `*sig` says which signal came (0: none) and the renderer's status is ignored.
 * SIGCHLD and the stop signals are blocked by the caller. */
static int wait_renderer(pid_t pid, int *sig)
{
    sigset_t wake;
    stop_signals(&wake);
    sigaddset(&wake, SIGCHLD);
    *sig = 0;
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid)
            return status;
        if (w < 0 && errno != EINTR)
            return -1;
        int got = sigwaitinfo(&wake, NULL);
        if (got > 0 && got != SIGCHLD) {
            *sig = got;
            kill(pid, SIGTERM);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            return -1;
        }
    }
}

/* Renders the JSON scene `json` to `png` with scripts/render_scene.py. The stop signals
 * are held while the renderer runs: one of them ends the renderer, removes both
 * temporary files and then ends collsim as the signal would have (128 + signal). */
static int render_png(const char *json, const char *png, cs_error *err)
{
    const char *py = python();
    const char *script = COLLSIM_SOURCE_DIR "/scripts/render_scene.py";
    sigset_t block, old;
    stop_signals(&block);
    sigaddset(&block, SIGCHLD);
    fflush(NULL);
    sigprocmask(SIG_BLOCK, &block, &old);
    pid_t pid = fork();
    if (pid < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        return cs_fail(err, "cannot start %s: %s", py, strerror(errno));
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        execlp(py, py, script, json, png, (char *)NULL);
        fprintf(stderr, "collsim: cannot run %s: %s\n", py, strerror(errno));
        _exit(127);
    }
    int sig;
    int status = wait_renderer(pid, &sig);
    if (sig) {
        remove(json);
        remove(png);
        signal(sig, SIG_DFL);
        raise(sig); /* pending until the mask is restored */
    }
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cs_fail(err, "rendering '%s' failed: %s %s (python3 with matplotlib is needed "
                            "for PNG; set COLLSIM_PYTHON, or write .svg)",
                       png, py, script);
    return 0;
}

int output_check_writable(const char *path, const char *what, cs_error *err)
{
    char tmp[1200];
    temp_name(path, tmp, sizeof tmp);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return cs_fail(err, "%s: cannot write '%s': %s", what, path, strerror(errno));
    fclose(f);
    remove(tmp);
    return 0;
}

static int scene_to_file(const scene *s, const char *path, cs_error *err)
{
    out_format fmt;
    if (output_format(path, &fmt, err) < 0)
        return -1;
    char tmp[1200];
    if (fmt == OUT_PNG) {
        char json[1200], png_tmp[1200];
        output_name(path, "", ".json", json, sizeof json);
        temp_name(json, tmp, sizeof tmp);
        FILE *f = fopen(tmp, "w");
        if (!f)
            return cs_fail(err, "cannot write '%s': %s", tmp, strerror(errno));
        int rc = scene_write_json(s, f);
        rc = fclose(f) != 0 || rc < 0 ? cs_fail(err, "cannot write '%s'", tmp) : 0;
        snprintf(png_tmp, sizeof png_tmp, "%s.tmp%ld.png", path, (long)getpid());
        if (rc == 0)
            rc = render_png(tmp, png_tmp, err);
        remove(tmp);
        if (rc == 0 && rename(png_tmp, path) != 0)
            rc = cs_fail(err, "cannot write '%s': %s", path, strerror(errno));
        if (rc < 0)
            remove(png_tmp);
        return rc;
    }
    FILE *f = open_temp(path, tmp, sizeof tmp, err);
    if (!f)
        return -1;
    int rc = fmt == OUT_SVG ? scene_write_svg(s, f) : scene_write_json(s, f);
    return finish_file(f, rc, tmp, path, err);
}

int output_scene(const scene *s, const char *path, cs_error *err)
{
    sigset_t old;
    hold_signals(&old);
    int rc = scene_to_file(s, path, err);
    release_signals(&old);
    return rc;
}

int output_animation(const scene *frames, int nframes, double seconds, const char *path,
                     cs_error *err)
{
    char tmp[1200];
    sigset_t old;
    hold_signals(&old);
    FILE *f = open_temp(path, tmp, sizeof tmp, err);
    int rc = f ? scene_write_svg_animated(frames, nframes, seconds, f) : -1;
    if (f)
        rc = finish_file(f, rc, tmp, path, err);
    release_signals(&old);
    return rc;
}

static void csv_rows(FILE *f, const topology *t, const draw_loads *l, const char *name,
                     int32_t step)
{
    char a[16], b[16], stepname[16];
    if (step == DRAW_TOTAL)
        snprintf(stepname, sizeof stepname, "all");
    else
        snprintf(stepname, sizeof stepname, "%d", step);
    for (int64_t id = 0; id < t->nlinks; id++) {
        const topo_link *k = &t->links[id];
        draw_node_name(t, k->a, a, sizeof a);
        draw_node_name(t, k->b, b, sizeof b);
        const char *cls = link_class_name((link_class)k->cls);
        fprintf(f, "%s,%s,%lld,%s,%s,%s,%lld\n", name, stepname, (long long)id, cls, a, b,
                (long long)draw_loads_bytes(l, step, 2 * id));
        if (k->sharing == LINK_FULL_DUPLEX)
            fprintf(f, "%s,%s,%lld,%s,%s,%s,%lld\n", name, stepname, (long long)id, cls, b, a,
                    (long long)draw_loads_bytes(l, step, 2 * id + 1));
    }
}

int output_link_csv(const char *path, const topology *t, const draw_loads *const *loads,
                    const char *const *names, int n, cs_error *err)
{
    char tmp[1200];
    sigset_t old;
    hold_signals(&old);
    FILE *f = open_temp(path, tmp, sizeof tmp, err);
    if (!f) {
        release_signals(&old);
        return -1;
    }
    fprintf(f, "algorithm,step,link,class,from,to,bytes\n");
    for (int i = 0; i < n; i++) {
        for (int32_t k = 0; k < loads[i]->nsteps; k++)
            csv_rows(f, t, loads[i], names[i], k);
        csv_rows(f, t, loads[i], names[i], DRAW_TOTAL);
    }
    int rc = finish_file(f, ferror(f) ? -1 : 0, tmp, path, err);
    release_signals(&old);
    return rc;
}
