/* cmd_merge.c - `collsim merge OUT SHARD_DIR...`: the outputs of `collsim run --shard k/N`
 * runs combined into one (src/sweep/sweep.h: sweep_merge, docs/scenarios.md). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "sweep/sweep.h"

static const char usage[] =
    "usage: collsim merge OUTDIR SHARD_DIR...\n"
    "  combines the output directories of `collsim run --shard K/N` runs of one scenario\n"
    "  into OUTDIR: results.csv and timings.csv in point order, manifest.json.\n"
    "  Exit 0 when every point of the sweep has a row, 1 when some are missing.\n";

int cmd_merge(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc < 3)
        return cli_usage_error("merge", "expected an output directory and shard directories\n%s",
                               usage);
    sweep_merge_outcome out;
    cs_error err;
    if (sweep_merge(argv[1], argv + 2, (size_t)(argc - 2), &out, &err) < 0) {
        fprintf(stderr, "collsim merge: %s\n", err.msg);
        return EXIT_USAGE;
    }
    fprintf(stderr, "collsim merge: %zu of %zu points -> %s/results.csv\n", out.rows, out.total,
            argv[1]);
    if (out.rows != out.total) {
        fprintf(stderr, "collsim merge: %zu points have no row (a shard missing or unfinished); "
                        "manifest state \"incomplete\"\n", out.total - out.rows);
        return EXIT_CHECK_FAILED;
    }
    return 0;
}
