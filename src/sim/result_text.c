/* result_text.c - one simulation row as a short labelled summary with units, for a
 * person at a terminal (`collsim sim` prints it when stdout is a terminal; CSV and JSON
 * are for programs: result.c). */
#include <math.h>
#include <stdio.h>

#include "sim/result.h"

/* 12582912 -> "12.0 MiB"; under 1 KiB: "512 B". */
static void human_bytes(double b, char *buf, size_t n)
{
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, n, "%.0f B", b);
    else
        snprintf(buf, n, "%.3g %s", b, unit[u]);
}

/* 0.000123 -> "123 us". */
static void human_time(double s, char *buf, size_t n)
{
    if (s >= 1)
        snprintf(buf, n, "%.4g s", s);
    else if (s >= 1e-3)
        snprintf(buf, n, "%.4g ms", s * 1e3);
    else if (s >= 1e-6)
        snprintf(buf, n, "%.4g us", s * 1e6);
    else
        snprintf(buf, n, "%.4g ns", s * 1e9);
}

static void bytes_line(FILE *f, const char *label, int64_t bytes, const char *what)
{
    char h[32];
    human_bytes((double)bytes, h, sizeof h);
    fprintf(f, "  %-13s %-12s %s\n", label, h, what);
}

/* 13.6e9 -> "13.6 GB/s" (decimal, as NCCL-tests and the papers give them). */
static void human_rate(double Bps, char *buf, size_t n)
{
    if (Bps >= 1e9)
        snprintf(buf, n, "%.4g GB/s", Bps / 1e9);
    else if (Bps >= 1e6)
        snprintf(buf, n, "%.4g MB/s", Bps / 1e6);
    else
        snprintf(buf, n, "%.4g kB/s", Bps / 1e3);
}

static void timed_lines(FILE *f, const sim_row *r)
{
    char h[32];
    if (isnan(r->time_s)) {
        fprintf(f, "  %-13s - (this model counts bytes only)\n", "time");
        return;
    }
    human_time(r->time_s, h, sizeof h);
    fprintf(f, "  %-13s %-12s completion time, slowest rank\n", "time", h);
    human_rate(r->algbw_Bps, h, sizeof h);
    fprintf(f, "  %-13s %-12s size / time\n", "algbw", h);
    human_rate(r->busbw_Bps, h, sizeof h);
    fprintf(f, "  %-13s %-12s algbw x the NCCL-tests factor of %s\n", "busbw", h,
            r->collective);
}

void sim_row_text(FILE *f, const sim_row *r)
{
    char size[32];
    human_bytes((double)r->size_bytes, size, sizeof size);
    fprintf(f, "%s %s%s%s: %d ranks (%d per node), %s\n", r->collective, r->algorithm,
            r->params[0] ? " " : "", r->params, r->ranks, r->ranks_per_node, size);
    fprintf(f, "  %-13s %s\n", "topology", r->topology);
    fprintf(f, "  %-13s %s\n", "placement", r->placement);
    fprintf(f, "  %-13s %s\n", "model", r->model);
    timed_lines(f, r);
    bytes_line(f, "global bytes", r->bytes_global, "bytes x global links crossed");
    bytes_line(f, "local bytes", r->bytes_local, "bytes x local links crossed");
    bytes_line(f, "max link", r->max_link_bytes, "the busiest link direction");
    fprintf(f, "  %-13s %lld in %d steps\n", "messages", (long long)r->messages, r->steps);
    fprintf(f, "(CSV with --format csv or through a pipe; columns: docs/results.md)\n");
}
