/* replay.c - runs a fuzz harness over saved inputs, without libFuzzer.
 *
 *   fuzz_replay_<harness> DIR|FILE...
 *
 * Calls the harness's LLVMFuzzerTestOneInput once per regular file (directories are read
 * one level deep, in name order). ctest runs it on tests/fuzz-corpus/<harness>/ in every
 * build, so an input that once crashed a parser stays a regression test; the sanitizer
 * build turns any memory error or undefined behaviour into a failure. Exit 0 when every
 * input ran (the harnesses abort on a violated check), 2 on an unreadable argument.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_input.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = xmalloc(cap);
    while ((r = fread(buf + n, 1, cap - n, f)) > 0)
        if ((n += r) == cap)
            buf = xrealloc(buf, cap *= 2);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        VEC_RESERVE(names, cap, n + 1);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_names);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            rc |= run_file(path);
            ++*count;
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int count = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 2;
        }
        if (S_ISDIR(st.st_mode))
            rc |= run_dir(argv[i], &count);
        else if (run_file(argv[i]) == 0)
            count++;
        else
            rc = -1;
    }
    printf("replayed %d input(s)\n", count);
    return rc < 0 ? 2 : 0;
}
