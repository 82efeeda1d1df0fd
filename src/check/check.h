/* check.h - `collsim check`: a CI check of one algorithm over many cases.
 *
 * A check spec names one algorithm (built-in, defined in a Lua file, or a GOAL file) and
 * the cases to run:
 *
 *   verify cases     every (size, P) of `sizes` x `ranks`: the full verification engine
 *                    (exact semantics) up to P = full_up_to, the streaming engine above
 *   simulate cases   every (topology, size, P) of `topologies` x `sizes` x `sim_ranks`:
 *                    `collsim sim` with `model` (default traffic), giving time_s and
 *                    bytes_global; with a baseline, each is compared with the stored value
 *
 * Each case ends ok, FAIL (with a message; a verification failure names rank, step and
 * block) or skip (the algorithm's constraints exclude that P). The spec comes from a small
 * YAML file (check_spec_load) and/or command-line options; docs/check.md has both.
 */
#ifndef COLLSIM_CHECK_H
#define COLLSIM_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "algorithms/algorithm.h"
#include "common/error.h"

#define CHECK_MAX_SIZES 16
#define CHECK_MAX_TOPOS 8
#define CHECK_MAX_SIM_RANKS 16

typedef struct check_spec {
    coll_spec base;           /* collective, root, dst, params, dims, ranks per node */
    int have_coll, have_size;
    char algorithm[64];       /* a built-in name, or "" with import */
    char import[1024];        /* a GOAL file, or "" */
    char lua[1024];           /* a Lua file defining algorithms (--lua), or "" */
    char ranks[1024];         /* rank spec (rankspec.h); with import: the file's P */
    int64_t sizes[CHECK_MAX_SIZES];
    int nsizes;               /* 0: the default 1MiB (with import: the file's size) */
    int64_t full_up_to;       /* default 65536 */
    char topologies[CHECK_MAX_TOPOS][1024];
    int ntopologies;
    int64_t sim_ranks[CHECK_MAX_SIM_RANKS];
    int nsim_ranks;
    char model[16];           /* default "traffic" */
    int threads;              /* stream engine threads, 0 = all CPUs */
} check_spec;

void check_spec_init(check_spec *s);

/* Reads a YAML spec (keys: collective, algorithm, import, lua, ranks, sizes, full_up_to,
 * params, dims, root, dst, ranks_per_node, topologies, sim_ranks, model); what the file
 * sets replaces the defaults, command-line options given later replace both. Errors name
 * path:line:column. */
int check_spec_load(const char *path, check_spec *s, cs_error *err);

typedef enum { CASE_OK, CASE_FAIL, CASE_SKIP } case_status;

typedef struct check_case {
    char kind[16];        /* "verify" or "simulate" */
    char name[1200];      /* e.g. "P=64 size=1MiB" or "torus dims=8x8 P=64 size=1MiB" */
    case_status status;
    char message[CS_ERROR_MAX];
    double wall_s;
    /* simulate cases: the figures compared with the baseline (NAN when not produced) */
    double time_s;
    double bytes_global;
} check_case;

typedef struct check_report {
    check_case *cases;
    size_t n, cap;
    char suite[160]; /* "allreduce recursive_doubling" */
} check_report;

void check_report_free(check_report *r);
check_case *check_report_add(check_report *r);

/* JUnit XML (one testsuite per case kind, one testcase per case). */
int check_write_junit(const check_report *r, const char *path, cs_error *err);

/* Baselines: CSV "case,time_s,bytes_global" keyed by the simulate case's name.
 * check_baseline_compare marks a simulate case FAIL when a figure differs from the
 * baseline by more than `tolerance` (a fraction, 0.05 = 5%) either way, or when the case
 * is missing from the baseline. */
int check_baseline_write(const check_report *r, const char *path, cs_error *err);
int check_baseline_compare(check_report *r, const char *path, double tolerance, cs_error *err);

#endif
