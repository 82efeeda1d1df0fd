/* plot.c - drawing a run's plots with scripts/plot.py when a Python with matplotlib is
 * there (sweep.h). The script is looked up next to the collsim binary's source tree
 * ($COLLSIM_PLOT_SCRIPT, else scripts/plot.py under the current directory, else under
 * COLLSIM_SOURCE_DIR), so `make run` and a run from the checkout both find it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep/sweep.h"

/* Runs argv, waits; returns its exit status (127 if it could not run). */
static int run_quiet(char *const argv[], int quiet)
{
    pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        if (quiet) {
            FILE *devnull = freopen("/dev/null", "w", stderr);
            (void)devnull;
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st))
        return 127;
    return WEXITSTATUS(st);
}

static const char *find_python(void)
{
    static const char *const candidates[] = {"python3", "/usr/bin/python3"};
    const char *env = getenv("COLLSIM_PYTHON");
    if (env && *env) {
        char *argv[] = {(char *)env, "-c", "import matplotlib", NULL};
        return run_quiet(argv, 1) == 0 ? env : NULL;
    }
    for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
        char *argv[] = {(char *)candidates[i], "-c", "import matplotlib", NULL};
        if (run_quiet(argv, 1) == 0)
            return candidates[i];
    }
    return NULL;
}

static int find_script(char *buf, size_t n)
{
    const char *env = getenv("COLLSIM_PLOT_SCRIPT");
    if (env && *env) {
        snprintf(buf, n, "%s", env);
        return access(buf, R_OK) == 0;
    }
    snprintf(buf, n, "scripts/plot.py");
    if (access(buf, R_OK) == 0)
        return 1;
    snprintf(buf, n, "%s/scripts/plot.py", COLLSIM_SOURCE_DIR);
    return access(buf, R_OK) == 0;
}

int sweep_plot(const char *outdir, const char *baseline, int quiet, cs_error *err)
{
    char script[4200], csv[4200];
    if (!find_script(script, sizeof script)) {
        if (!quiet)
            fprintf(stderr, "collsim run: no scripts/plot.py found: no plots drawn\n");
        return 1;
    }
    const char *python = find_python();
    if (!python) {
        if (!quiet)
            fprintf(stderr, "collsim run: no Python with matplotlib: no plots drawn "
                        "(apt-get install python3-matplotlib)\n");
        return 1;
    }
    snprintf(csv, sizeof csv, "%s/results.csv", outdir);
    char *argv[8] = {(char *)python, script, csv, "-o", (char *)outdir, NULL, NULL, NULL};
    if (baseline && *baseline) {
        argv[5] = "--baseline";
        argv[6] = (char *)baseline;
    }
    int st = run_quiet(argv, quiet);
    if (st != 0)
        return cs_fail(err, "%s failed (exit status %d)", script, st);
    return 0;
}
