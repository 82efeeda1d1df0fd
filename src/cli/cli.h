/* cli.h - the collsim command: one function per subcommand, shared option helpers.
 *
 * Every subcommand returns the process exit status: 0 success, 1 a check failed (a
 * schedule did not verify, a test case failed), 2 bad usage or bad input (the message
 * names the option or file and the allowed values).
 */
#ifndef COLLSIM_CLI_H
#define COLLSIM_CLI_H

#include <stdint.h>

#include "algorithms/registry.h"
#include "common/error.h"
#include "schedio/file_alg.h"
#include "traffic/workload.h"

enum { EXIT_CHECK_FAILED = 1, EXIT_USAGE = 2 };

int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_traffic(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);

struct sweep_plan;
/* `collsim run --dry-run` (run_dry.c): prints the plan, reports the points whose dims
 * contradict their rank-to-node mapping; 0, or EXIT_USAGE when some would fail. */
int run_dry(const struct sweep_plan *plan);

/* Prints "collsim <cmd>: <message>" on stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct option;
/* The long name of the getopt_long option whose value is `val` ("?" if none). */
const char *cli_option_name(const struct option *opts, int val);

/* Before a command's options are parsed: an option that needs a value given without one
 * (last on the line, or followed by another --option), or one given twice (--ranks 8
 * --ranks 16; only --param, and check's --topology, may be repeated), is a usage error
 * ("collsim <cmd>: --ranks given twice ('8' and '16'): give it once" printed, EXIT_USAGE
 * returned); 0 otherwise. cli_parse_options calls it. */
int cli_check_options(const char *cmd, int argc, char **argv, const char *shortopts,
                      const struct option *opts);

/* One option of a command: returns 0, 1 for --help, or -1 with err. */
typedef int (*cli_option_fn)(int c, void *ctx, cs_error *err);
/* Every command's getopt_long loop: calls fn for each option of argv. Returns 0 when all
 * options are parsed (optind is then the first operand), -1 after printing usage on stdout
 * (--help), or EXIT_USAGE after printing "collsim <cmd>: ..." for an unknown or incomplete
 * option or an option fn refused. */
int cli_parse_options(const char *cmd, int argc, char **argv, const char *shortopts,
                      const struct option *opts, const char *usage, cli_option_fn fn,
                      void *ctx);

/* --point-timeout: seconds as a bare number ("30", "0.5") or a time with its unit
 * ("500ms"); 0 = no limit. */
int cli_parse_timeout(const char *text, double *out, cs_error *err);

/* A comma-separated list (--algorithm ring,rabenseifner): -1 with err for an empty item
 * (",ring", "ring,,rabenseifner", "ring,"), which would otherwise be skipped unseen. */
int cli_check_list(const char *text, cs_error *err);

/* "8x8x8" into spec->dims / ndims. */
int cli_parse_dims(const char *text, coll_spec *spec, cs_error *err);
/* "name=value" into a spec parameter. */
int cli_parse_param(const char *text, coll_spec *spec, cs_error *err);

/* --workload W (verify, sim): alltoallv block sizes, parsed once, made for each P. */
struct workload;
typedef struct cli_workload {
    int given;
    workload_params params;
} cli_workload;
/* Parses the option's text ("uniform:S=1KiB:seed=1", workload_parse). */
int cli_workload_parse(cli_workload *w, const char *text, cs_error *err);
/* After the options: a workload for another collective than alltoallv is a usage error
 * ("collsim <cmd>: --workload: ..." printed, EXIT_USAGE returned); 0 otherwise. */
int cli_workload_check(const cli_workload *w, const char *cmd, coll_kind coll);
/* The workload for spec->P ranks (sizes cached in a table up to 64 MiB, i.e. P <= 4096)
 * into spec->workload, *out to workload_free after the run; nothing without --workload. */
int cli_workload_bind(const cli_workload *w, coll_spec *spec, struct workload **out,
                      cs_error *err);

/* --import FILE (cli_import.c): loads a GOAL schedule file as an algorithm. `given` holds
 * the options so far: its collective (if have_coll) and size (if have_size) apply to a
 * byte-only file, and a collsim file must match the collective. *spec becomes `given`
 * with the file's collective, P, root, dst and size. */
int cli_import(const char *path, const coll_spec *given, int have_coll, int have_size,
               int calc_bytes, file_alg **out, coll_spec *spec, cs_error *err);
/* --calc ns|bytes: what a plain GOAL file's `calc N` means (goal_read_options). */
int cli_parse_calc(const char *text, int *calc_bytes, cs_error *err);
/* --eager-limit SIZE|none: sends of at most SIZE bytes are eager (sim_config). */
int cli_parse_eager_limit(const char *text, int64_t *out, cs_error *err);

/* --lua FILE (cli_lua.c): runs a Lua file, under the limits lim, for its
 * collsim.define_algorithm calls (its
 * sweeps and pictures are not made); *algs are the algorithms it defined, alive until
 * cli_lua_free(*plan). A Lua error is "file:line: message"; a file that defines no
 * algorithm is an error too. */
struct sweep_plan;
/* --lua-timeout S and --lua-memory SIZE of the commands that take --lua FILE: the limits
 * of `collsim run` (sweep.h: 60 s per call, 1GiB; 0 = none) on the file's evaluation and
 * on every call of its algorithms' Lua code. All zero (memset) means the defaults. */
typedef struct cli_lua_limits {
    double timeout_s;
    int64_t memory;
    int have_timeout, have_memory;
} cli_lua_limits;
enum { CLI_OPT_LUA_TIMEOUT = 0x1100, CLI_OPT_LUA_MEMORY };
#define CLI_LUA_LIMIT_OPTIONS                                         \
    {"lua-timeout", required_argument, 0, CLI_OPT_LUA_TIMEOUT},       \
    {"lua-memory", required_argument, 0, CLI_OPT_LUA_MEMORY}
#define CLI_LUA_LIMIT_USAGE                                                                   \
    "  --lua-timeout S       wall-time limit of the --lua file's evaluation and of each call\n" \
    "                        of its Lua code, in seconds (default 60; 0 = none)\n"             \
    "  --lua-memory SIZE     memory limit of the --lua file's Lua state (default 1GiB;\n"     \
    "                        0 = none)\n"
/* The option c (CLI_OPT_LUA_TIMEOUT or CLI_OPT_LUA_MEMORY) with its text into lim. */
int cli_lua_limit_option(int c, const char *arg, cli_lua_limits *lim, cs_error *err);

int cli_lua_load(const char *path, const cli_lua_limits *lim, struct sweep_plan **plan,
                 const alg_registry **algs, cs_error *err);
void cli_lua_free(struct sweep_plan *plan);

/* --fail-links SPEC, --degrade-links SPEC:FACTOR, --fault-seed S (cli_faults.c): added to
 * the topology spec as its keys fail_links, degrade_links, fault_seed
 * (topologies/faults.h, docs/topologies.md "Faults"). */
typedef struct cli_faults {
    const char *fail, *degrade, *seed;
} cli_faults;
enum { CLI_OPT_FAIL_LINKS = 0x1200, CLI_OPT_DEGRADE_LINKS, CLI_OPT_FAULT_SEED };
#define CLI_FAULT_OPTIONS                                             \
    {"fail-links", required_argument, 0, CLI_OPT_FAIL_LINKS},         \
    {"degrade-links", required_argument, 0, CLI_OPT_DEGRADE_LINKS},   \
    {"fault-seed", required_argument, 0, CLI_OPT_FAULT_SEED}
#define CLI_FAULT_USAGE                                                                        \
    "  --fail-links SPEC     remove links: l<id>, A-B, CLASS:N or CLASS:N% (host, local,\n"    \
    "                        global, random), comma-separated (docs/topologies.md \"Faults\")\n" \
    "  --degrade-links SPEC:FACTOR  multiply those links' bandwidth by FACTOR in (0, 1]\n"    \
    "  --fault-seed S        seed of the random link choices (default 1)\n"
/* 1 if c is one of the fault options (then stored in f), 0 if not. */
int cli_fault_option(int c, const char *arg, cli_faults *f);
/* Appends the given fault options to the topology spec (an error for an external
 * platform, or a key the spec already has). */
int cli_faults_apply(const cli_faults *f, char *topology, size_t n, cs_error *err);

/* `collsim sim --job` (cmd_sim_jobs.c): the options check (a usage error unless the
 * topology is given and no single-point option is), and the run; format "csv", "json" or
 * "text"; lua: --lua FILE or NULL. */
struct sim_config;
int cli_sim_jobs_check(int njobs, int have_topology, int point_options);
int cmd_sim_jobs(const struct sim_config *base, const char *const *specs, int n, int alone,
                 const char *format, int no_header, const char *lua,
                 const cli_lua_limits *lim);

#endif
