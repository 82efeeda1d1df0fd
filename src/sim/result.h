/* result.h - one simulation point as a result row: the columns of `collsim sim` and of the
 * sweep runner's CSV, their CSV / JSON writers and the derived metrics.
 *
 * Every column is documented in docs/results.md. Columns, in order:
 *
 *   topology collective algorithm params ranks ranks_per_node size_bytes placement model
 *   time_s algbw_Bps busbw_Bps bytes_host bytes_local bytes_global bytes_intergroup_msgs
 *   max_link_bytes messages steps sim_wall_s sim_peak_rss_kb
 *
 * plus `rank_finish_s` when per-rank finish times were requested. A metric the model does
 * not produce (time under the traffic model) is NAN in the struct, an empty CSV field and
 * null in JSON.
 *
 * Sweep rows (`collsim run`, results.csv) wrap a sim_row with the sweep's own fields
 * (sweep_fields): the point's index, id, status, repetition and seed, the parameters a
 * sim_row does not show (root, dst, dims, workload, local rates) and the error message.
 * Columns, in order:
 *
 *   point id status rep seed  topology .. model  root dst dims workload reduce_Bps
 *   copy_Bps  time_s .. steps  error
 *
 * Every column is a pure function of the scenario and its seed: the measurements of a
 * run (sim_wall_s, sim_peak_rss_kb) are left out, so that two runs of the same scenario
 * give byte-identical files (the sweep runner keeps them in timings.csv).
 * A row never holds a line break (sweep_row_csv
 * replaces control characters in the error message by spaces), so one line is one row.
 */
#ifndef COLLSIM_RESULT_H
#define COLLSIM_RESULT_H

#include <stdint.h>
#include <stdio.h>

#include "algorithms/schedule.h"
#include "traffic/traffic.h"

typedef struct sim_row {
    /* the point */
    char topology[1024];
    char collective[32];
    char algorithm[64];
    char params[512];     /* "name=value name=value", in the order given */
    int32_t ranks;
    int32_t ranks_per_node;
    int64_t size_bytes;
    char placement[1100];
    char model[256];      /* "cm02", ...; packet: "packet routing=R mtu=B buffer=B"; endpoint
                             costs: " send_overhead=1200ns ..." (sim/endpoint.h) */
    /* metrics */
    double time_s;        /* NAN: not simulated */
    double algbw_Bps;
    double busbw_Bps;
    int64_t bytes_host, bytes_local, bytes_global;
    int64_t bytes_intergroup_msgs;
    int64_t max_link_bytes;
    int64_t messages;
    int32_t steps;
    double sim_wall_s;
    long sim_peak_rss_kb;
} sim_row;

/* NCCL-tests bus bandwidth factor: allreduce 2(P-1)/P; allgather, reduce_scatter,
 * alltoall(v), gather, scatter (P-1)/P; bcast, reduce 1; p2p 1 (one message of n bytes:
 * bus bandwidth = algorithm bandwidth, as NCCL-tests' sendrecv). */
double busbw_factor(coll_kind c, int32_t P);

/* Fills the traffic columns from counts, and time_s, algbw_Bps = algbw_bytes / time,
 * busbw_Bps = algbw x busbw_factor (all NAN when time_s is NAN). algbw_bytes is the row's
 * size_bytes, except for an alltoallv with a workload: the mean bytes one rank sends,
 * i.e. the workload's total over P (sim_run; docs/results.md). */
void sim_row_set_metrics(sim_row *r, coll_kind c, const traffic_counts *tc, double time_s,
                         double algbw_bytes);

/* Header line and one row; rank_finish (n values, may be NULL) adds the rank_finish_s
 * column: the finish times separated by ';'. */
void sim_row_csv_header(FILE *f, int with_rank_finish);
void sim_row_csv(FILE *f, const sim_row *r, const double *rank_finish, int32_t n);
/* The columns alone (no line end), for rows with more columns (jobs.h). */
void sim_row_csv_header_fields(FILE *f);
void sim_row_csv_fields(FILE *f, const sim_row *r);
/* One JSON object on one line (JSON Lines); rank_finish_s is an array. */
void sim_row_json(FILE *f, const sim_row *r, const double *rank_finish, int32_t n);
/* The members "name":value,... of the columns, without braces. */
void sim_row_json_fields(FILE *f, const sim_row *r);
/* A short labelled summary with units, for a terminal (result_text.c). */
void sim_row_text(FILE *f, const sim_row *r);

/* ---- sweep rows ---------------------------------------------------------------------- */

#define SWEEP_ID_LEN 16 /* hex digits of a point id */

typedef struct sweep_fields {
    int64_t point;             /* index in the scenario's expanded point list */
    char id[SWEEP_ID_LEN + 1]; /* stable id: hash of the point's canonical parameters */
    char status[8];            /* "ok", or "error" (the metric columns are then empty) */
    int32_t rep;               /* repetition 0 .. repeat-1 */
    uint64_t seed;             /* the point's seed (random placements and workloads) */
    int32_t root, dst;         /* rooted collectives; p2p source and destination */
    char dims[64];             /* logical shape "8x8", or "" */
    char workload[160];        /* alltoallv: canonical workload text, or "" */
    double reduce_Bps, copy_Bps; /* local operation rates, 0 = free */
    char error[512];           /* status error: the message */
} sweep_fields;

/* The header line of a sweep CSV, and one row. */
void sweep_row_csv_header(FILE *f);
void sweep_row_csv(FILE *f, const sweep_fields *s, const sim_row *r);
/* Number of columns of a sweep row, and the index of a named column (-1: none). */
int sweep_csv_ncolumns(void);
int sweep_csv_column(const char *name);
/* What a column is: the point's parameters, a metric (empty in a failed point's row), or
 * the error message. */
typedef enum { SWEEP_COL_POINT, SWEEP_COL_METRIC, SWEEP_COL_ERROR } sweep_col_role;
/* Name of column i (NULL past the end); is_text and role may be NULL. */
const char *sweep_csv_column_name(int i, int *is_text, sweep_col_role *role);

#endif
