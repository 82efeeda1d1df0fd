/* cmd_merge.c - `collsim merge OUT SHARD_DIR...`: the outputs of `collsim run --shard k/N`
 * runs combined into one (src/sweep/sweep.h: sweep_merge, docs/scenarios.md). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "sweep/sweep.h"

static const char usage[] =
    "usage: collsim merge [--overwrite] OUTDIR SHARD_DIR...\n"
    "  combines the output directories of `collsim run --shard K/N` runs of one scenario\n"
    "  into OUTDIR: results.csv and timings.csv in point order, manifest.json.\n"
    "  Exit 0 when every point of the sweep has a row, 1 when some are missing.\n"
    "  An OUTDIR that holds results is refused; --overwrite moves them into\n"
    "  OUTDIR/previous-<time>/ first.\n";

int cmd_merge(int argc, char **argv)
{
    char *dirs[argc + 1];
    int n = 0, overwrite = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        if (strcmp(argv[i], "--overwrite") == 0)
            overwrite = 1;
        else if (argv[i][0] == '-')
            return cli_usage_error("merge", "unknown option '%s'\n%s", argv[i], usage);
        else
            dirs[n++] = argv[i];
    }
    if (n < 2)
        return cli_usage_error("merge", "expected an output directory and shard directories\n%s",
                               usage);
    sweep_merge_outcome out;
    cs_error err;
    char moved[4200];
    if (sweep_merge(dirs[0], dirs + 1, (size_t)(n - 1), overwrite ? OUTDIR_OVERWRITE : OUTDIR_NEW,
                    moved, sizeof moved, &out, &err) < 0) {
        fprintf(stderr, "collsim merge: %s\n", err.msg);
        return EXIT_USAGE;
    }
    if (moved[0])
        fprintf(stderr, "collsim merge: --overwrite: the earlier results moved to %s/\n", moved);
    fprintf(stderr, "collsim merge: %zu of %zu points -> %s/results.csv\n", out.rows, out.total,
            dirs[0]);
    if (out.rows != out.total) {
        fprintf(stderr, "collsim merge: %zu points have no row (a shard missing or unfinished); "
                        "manifest state \"incomplete\"\n", out.total - out.rows);
        return EXIT_CHECK_FAILED;
    }
    return 0;
}
