/* fuzz_argv.c - fuzz harness: command lines, through the getopt loop every command uses
 * (cli_parse_options, src/cli/cli_common.c) and the value parsers its options call.
 *
 * The input is split at newlines (and NULs) into argv[1..], at most 64 words. The option
 * table holds one option of each kind the commands have (long and short forms, with and
 * without a value, optional operands after them), and the callback hands each value to
 * the parser the commands use for it: ranks, sizes, dims, parameters, timeouts,
 * placements, models, collectives, bandwidths, rank lists, workloads. Checks beyond "no
 * crash": parsing the same argv twice (getopt keeps state between calls; the commands
 * parse argv more than once) gives the same result and the same status, and operands
 * after the options are within argv.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "common/rankspec.h"
#include "common/units.h"
#include "fuzz_input.h"
#include "sim/sim.h"
#include "traffic/workload.h"

#define FUZZ_MAX_ARGS 64

static const char usage[] = "usage: collsim fuzz [options]\n";

static const struct option opts[] = {
    {"ranks", required_argument, 0, 'n'},     {"size", required_argument, 0, 's'},
    {"dims", required_argument, 0, 'd'},      {"param", required_argument, 0, 'p'},
    {"point-timeout", required_argument, 0, 't'}, {"placement", required_argument, 0, 'P'},
    {"model", required_argument, 0, 'm'},     {"collective", required_argument, 0, 'c'},
    {"max-memory", required_argument, 0, 'M'}, {"reduce-rate", required_argument, 0, 'b'},
    {"rank-list", required_argument, 0, 'r'}, {"workload", required_argument, 0, 'w'},
    {"output", required_argument, 0, 'o'},    {"jobs", required_argument, 0, 'j'},
    {"quiet", no_argument, 0, 'q'},           {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

/* What the options set (compared between the two parses). */
typedef struct parsed {
    coll_spec spec;
    placement_spec placement;
    workload_params workload;
    sim_model model;
    int64_t ranks, jobs, max_memory;
    double timeout, rate;
    size_t nranks;
    int quiet, outputs;
} parsed;

static int on_option(int c, void *arg, cs_error *err)
{
    parsed *v = arg;
    switch (c) {
    case 'n': return parse_int_in(optarg, 2, INT32_MAX, "ranks", &v->ranks, err);
    case 's': return parse_size(optarg, &v->spec.bytes, err);
    case 'd': return cli_parse_dims(optarg, &v->spec, err);
    case 'p': return cli_parse_param(optarg, &v->spec, err);
    case 't': return cli_parse_timeout(optarg, &v->timeout, err);
    case 'P': return placement_parse(optarg, &v->placement, err);
    case 'm': return sim_model_parse(optarg, &v->model, err);
    case 'c': return coll_from_name(optarg, &v->spec.coll, err);
    case 'M': return parse_size(optarg, &v->max_memory, err);
    case 'b': return parse_bandwidth(optarg, &v->rate, err);
    case 'r': {
        int64_t *values = NULL;
        int rc = rankspec_parse(optarg, 2, INT32_MAX, &values, &v->nranks, err);
        free(values);
        return rc;
    }
    case 'w': return workload_parse(optarg, &v->workload, err);
    case 'o': v->outputs++; return 0; /* a path: never opened here */
    case 'j': return parse_int_in(optarg, 1, 1024, "jobs", &v->jobs, err);
    case 'q': v->quiet = 1; return 0;
    default: return 1; /* --help */
    }
}

/* What the options set, as text (struct padding may differ between two equal parses). */
static char *fingerprint(const parsed *v)
{
    char *text = NULL, place[1200] = "", work[600] = "";
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        abort();
    placement_format(&v->placement, place, sizeof place);
    workload_format(&v->workload, work, sizeof work);
    fprintf(f, "%d %lld %d %lld %lld %lld %.17g %.17g %zu %d %d %d [%s] [%s]",
            (int)v->spec.coll, (long long)v->spec.bytes, v->spec.ndims, (long long)v->ranks,
            (long long)v->jobs, (long long)v->max_memory, v->timeout, v->rate, v->nranks,
            v->quiet, v->outputs, (int)v->model, place, work);
    for (int i = 0; i < v->spec.ndims; i++)
        fprintf(f, " %d", v->spec.dims[i]);
    for (int i = 0; i < v->spec.nparams; i++)
        fprintf(f, " %s=%s", v->spec.params[i].name, v->spec.params[i].value);
    fclose(f);
    return text;
}

/* Parses argv into *v (zeroed first); returns cli_parse_options' status and the first
 * operand's index. */
static int parse(int argc, char **argv, parsed *v, int *first_operand)
{
    memset(v, 0, sizeof *v);
    coll_spec_init(&v->spec, COLL_ALLREDUCE, 2, 1 << 20);
    int rc = cli_parse_options("fuzz", argc, argv, "o:j:q", opts, usage, on_option, v);
    *first_operand = optind;
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = fuzz_cstr(data, size);
    char *argv[FUZZ_MAX_ARGS + 2], *save = NULL;
    int argc = 0;
    argv[argc++] = "collsim-fuzz";
    for (char *w = strtok_r(text, "\n", &save); w && argc <= FUZZ_MAX_ARGS;
         w = strtok_r(NULL, "\n", &save))
        argv[argc++] = w;
    argv[argc] = NULL;
    /* getopt_long permutes argv (operands go last): both parses see the permuted order,
     * as a command's second parse does */
    parsed a, b;
    int first_a, first_b;
    int rc_a = parse(argc, argv, &a, &first_a);
    int rc_b = parse(argc, argv, &b, &first_b);
    char *fa = fingerprint(&a), *fb = fingerprint(&b);
    if (rc_a != rc_b || (rc_a == 0 && (first_a != first_b || first_a > argc)) || strcmp(fa, fb))
        abort();
    free(fa);
    free(fb);
    free(text);
    return 0;
}
