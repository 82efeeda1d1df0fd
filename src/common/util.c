/* util.c - allocation, growable arrays, clocks and memory figures, mkdir -p (see util.h). */
#include "common/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void out_of_memory(size_t n)
{
    fprintf(stderr, "collsim: out of memory (allocating %zu bytes)\n", n);
    exit(3);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        out_of_memory(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void vec_reserve(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *p = xrealloc(*p, c * elem);
    *cap = c;
}

double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    long kb = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kb;
}

int ilog2_floor(uint64_t x)
{
    int l = -1;
    while (x) {
        x >>= 1;
        l++;
    }
    return l;
}

int ilog2_ceil(uint64_t x)
{
    int l = ilog2_floor(x);
    return ((uint64_t)1 << l) == x ? l : l + 1;
}

int make_dirs(const char *path, cs_error *err)
{
    char buf[4096];
    if (strlen(path) >= sizeof buf)
        return cs_fail(err, "directory path too long: %s", path);
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return cs_fail(err, "cannot create the directory %s: %s", buf, strerror(errno));
            *p = c;
            if (c == '\0')
                break;
        }
    }
    return 0;
}

FILE *fopen_input(const char *path, const char *mode)
{
    FILE *f = fopen(path, mode);
    struct stat st;
    if (f && fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        errno = EISDIR;
        return NULL;
    }
    return f;
}

const char *printable(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (const unsigned char *s = (const unsigned char *)in; *s; s++) {
        char piece[8];
        int len = *s >= 0x20 && *s < 0x7f ? snprintf(piece, sizeof piece, "%c", *s)
                                           : snprintf(piece, sizeof piece, "\\x%02x", *s);
        if (k + (size_t)len + 4 > n) {
            snprintf(out + k, n - k, "...");
            return out;
        }
        memcpy(out + k, piece, (size_t)len);
        k += (size_t)len;
    }
    out[k] = '\0';
    return out;
}
