/* calibrate.h - `collsim calibrate`: measured point-to-point tables in, endpoint parameters
 * out (docs/calibrate.md).
 *
 * A table is one benchmark's output: osu_latency, osu_bw, osu_bibw, osu_mbw_mr (their text
 * output) or a plain CSV "bytes,seconds[,messages]". Every table becomes points
 * (bytes, seconds) of one of two kinds:
 *   CAL_LATENCY  one-way time of one message (osu_latency, CSV without messages > 1);
 *   CAL_STREAM   time per message of a window of back-to-back messages (osu_bw: s / bw;
 *                osu_bibw: 2 s / bw, both directions at once; osu_mbw_mr: 1 / rate of all
 *                pairs; CSV with messages = n: seconds / n).
 * The fit (cal_fit) recovers the endpoint model the simulator uses (one message alone on a
 * route: o_s + L + (bytes + envelope) / bw + o_r, plus 2 (L + envelope / bw) when bytes >
 * eager_limit) and reports each parameter with how it was determined.
 */
#ifndef COLLSIM_CALIBRATE_H
#define COLLSIM_CALIBRATE_H

#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

typedef enum { CAL_LATENCY, CAL_STREAM } cal_kind;

/* Which benchmark a table came from (what its values mean). */
typedef enum { CAL_OSU_LATENCY, CAL_OSU_BW, CAL_OSU_BIBW, CAL_OSU_MBW_MR, CAL_CSV } cal_source;

typedef struct cal_point {
    double bytes;
    double seconds; /* CAL_LATENCY: one-way time; CAL_STREAM: time per message */
    int line;       /* line of the file it came from */
} cal_point;

typedef struct cal_table {
    char path[512];
    cal_source source;
    cal_kind kind;
    int bidir;  /* osu_bibw: both directions stream at once (each rank sends and receives) */
    int pairs;  /* osu_mbw_mr: sender/receiver pairs sharing the two nodes (1 otherwise) */
    int window; /* messages in flight per window (osu: 64; CSV: its messages column) */
    size_t n;
    cal_point *pts;
} cal_table;

/* Reads one file; detects the format from its first lines. Errors name file:line. */
int cal_read_table(const char *path, int osu_window, cal_table *t, cs_error *err);
/* A file's lines (NUL-terminated, without their newline), for the readers. */
typedef struct cal_lines {
    char *text;
    char **line;
    size_t n;
} cal_lines;
/* The readers behind cal_read_table (read_osu.c, read_csv.c); t->path is set. */
int cal_read_osu(const cal_lines *l, int osu_window, cal_table *t, cs_error *err);
int cal_read_csv(const cal_lines *l, cal_table *t, cs_error *err);
/* Common checks of a table's points (sizes strictly increasing, times > 0, >= 2 points). */
int cal_check_points(const cal_table *t, cs_error *err);
/* Appends a point (grows t->pts). */
void cal_add_point(cal_table *t, double bytes, double seconds, int line);
void cal_table_free(cal_table *t);
const char *cal_source_name(cal_source s);

/* SimGrid's SMPI network model: the default smpi/lat-factor and smpi/bw-factor tables
 * (smpi_factors.c). With factors, the fit recovers the platform's link latency and
 * bandwidth that SMPI turns into the measured times. */
typedef enum { CAL_FACTORS_NONE, CAL_FACTORS_SMPI } cal_factors;
double cal_lat_factor(cal_factors f, double bytes);
double cal_bw_factor(cal_factors f, double bytes);

/* The endpoint model's parameters (seconds, bytes, bytes per second). */
typedef struct cal_params {
    double latency;       /* L: the route's whole latency (all hops), seconds */
    double bandwidth;     /* bw: bytes per second of the route's bottleneck */
    double send_overhead; /* o_s */
    double recv_overhead; /* o_r */
    double msg_gap;       /* g */
    double envelope;      /* bytes added to every message */
    double eager_limit;   /* largest eager message, bytes; < 0: no rendezvous seen */
} cal_params;

enum { CAL_NPARAMS = 7 };
/* How each parameter was determined (a short sentence), indexed like cal_param_names. */
typedef struct cal_fit {
    cal_params p;
    char how[CAL_NPARAMS][160];
    char warnings[4][200];
    int nwarnings;
} cal_fit;
extern const char *const cal_param_names[CAL_NPARAMS];

typedef struct cal_options {
    cal_factors factors;
    double send_share;  /* o_s / (o_s + o_r) when the tables cannot split them (0.5) */
    int slower_recv;    /* the stream is limited by the receiver, not the sender */
} cal_options;

/* Fits the parameters from the tables (at least one CAL_LATENCY table). */
int cal_fit_tables(const cal_table *tables, size_t n, const cal_options *o, cal_fit *out,
                   cs_error *err);
/* The model's value for a point of table t (seconds, as the table's points). */
double cal_predict(const cal_params *p, cal_factors f, const cal_table *t, double bytes);

/* Prints the parameters and the residual per size of every table. */
void cal_report(FILE *out, const cal_fit *fit, cal_factors f, const cal_table *tables,
                size_t n);
/* Writes the preset fragment (YAML) to path atomically. */
int cal_write_fragment(const char *path, const cal_fit *fit, cal_factors f,
                       const char *const *inputs, size_t ninputs, cs_error *err);

#endif
