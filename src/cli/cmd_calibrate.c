/* cmd_calibrate.c - `collsim calibrate FILE...`: endpoint parameters fitted from measured
 * point-to-point tables (src/calibrate/calibrate.h, docs/calibrate.md). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "cli/cli.h"
#include "common/units.h"

static const char usage[] =
    "usage: collsim calibrate FILE... [options]\n"
    "  FILE: osu_latency, osu_bw, osu_bibw or osu_mbw_mr text output, or a CSV\n"
    "  bytes,seconds[,messages]; at least one one-way time table (osu_latency or a CSV\n"
    "  without messages > 1). Prints each parameter and the residual per size.\n"
    "  --output FILE         write the preset fragment (YAML) to FILE\n"
    "  --factors none|smpi   the tables include SMPI's default latency/bandwidth factors\n"
    "                        (measured under smpirun): fit the links under them (default none)\n"
    "  --window N            OSU window when the output does not print it (default 64)\n"
    "  --slower-side send|recv  which side limits a one-pair stream (default send)\n"
    "  --send-share F        o_s / (o_s + o_r) when the tables cannot split them (default 0.5)\n"
    "  --quiet               print the parameters only, no residuals\n";

typedef struct calib_cli {
    const char *output;
    int window, quiet;
    cal_options o;
} calib_cli;

static int parse_option(int c, void *arg, cs_error *err)
{
    calib_cli *v = arg;
    int64_t x;
    switch (c) {
    case 'o': v->output = optarg; return 0;
    case 'q': v->quiet = 1; return 0;
    case 'h': return 1;
    case 'w':
        if (parse_int_in(optarg, 1, 1 << 20, "window", &x, err) < 0)
            return -1;
        v->window = (int)x;
        return 0;
    case 'f':
        if (strcmp(optarg, "none") == 0 || strcmp(optarg, "smpi") == 0) {
            v->o.factors = optarg[0] == 's' ? CAL_FACTORS_SMPI : CAL_FACTORS_NONE;
            return 0;
        }
        return cs_fail(err, "unknown factors '%s' (allowed: none, smpi)", optarg);
    case 's':
        if (strcmp(optarg, "send") == 0 || strcmp(optarg, "recv") == 0) {
            v->o.slower_recv = optarg[0] == 'r';
            return 0;
        }
        return cs_fail(err, "unknown side '%s' (allowed: send, recv)", optarg);
    case 'S': {
        char *end;
        double f = strtod(optarg, &end);
        if (end == optarg || *end || !(f >= 0 && f <= 1))
            return cs_fail(err, "'%s' is not a share (allowed: a number from 0 to 1)", optarg);
        v->o.send_share = f;
        return 0;
    }
    }
    return cs_fail(err, "unhandled option");
}

static int run(calib_cli *v, char **files, int nfiles)
{
    cal_table *t = calloc((size_t)nfiles, sizeof *t);
    int rc = 0, nlat = 0, nread = 0;
    cs_error err;
    for (int i = 0; i < nfiles && rc == 0; i++, nread++) {
        if (cal_read_table(files[i], v->window, &t[i], &err) < 0)
            rc = cli_usage_error("calibrate", "%s", err.msg);
        else
            nlat += t[i].kind == CAL_LATENCY;
    }
    if (rc == 0 && nlat == 0)
        rc = cli_usage_error("calibrate", "no one-way time table among the files (give an "
                             "osu_latency output or a CSV bytes,seconds)");
    cal_fit fit;
    if (rc == 0 && cal_fit_tables(t, (size_t)nfiles, &v->o, &fit, &err) < 0)
        rc = cli_usage_error("calibrate", "%s", err.msg);
    if (rc == 0) {
        cal_report(stdout, &fit, v->o.factors, t, v->quiet ? 0 : (size_t)nfiles);
        if (v->output && cal_write_fragment(v->output, &fit, v->o.factors,
                                            (const char *const *)files, (size_t)nfiles, &err) < 0)
            rc = cli_usage_error("calibrate", "--output: %s", err.msg);
    }
    for (int i = 0; i < nread; i++)
        cal_table_free(&t[i]);
    free(t);
    return rc;
}

int cmd_calibrate(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},     {"factors", required_argument, NULL, 'f'},
        {"window", required_argument, NULL, 'w'},     {"slower-side", required_argument, NULL, 's'},
        {"send-share", required_argument, NULL, 'S'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},             {NULL, 0, NULL, 0}};
    calib_cli v = {.window = 64, .o = {.factors = CAL_FACTORS_NONE, .send_share = 0.5}};
    int prc = cli_parse_options("calibrate", argc, argv, "", opts, usage, parse_option, &v);
    if (prc != 0)
        return prc < 0 ? 0 : prc;
    if (optind >= argc)
        return cli_usage_error("calibrate", "expected one or more table files\n%s", usage);
    return run(&v, argv + optind, argc - optind);
}
