#!/bin/sh
# slurm-array.sh - runs a collsim sweep as a Slurm job array: N array tasks, task k runs
# `collsim run SCENARIO --shard k/N` into OUT/shard-k, then a job that depends on all of
# them (afterok) runs `collsim merge OUT OUT/shard-1 .. OUT/shard-N` (docs/scenarios.md).
#
# usage: scripts/slurm-array.sh SCENARIO.lua N [sbatch options...]
# Tested on a real one-node Slurm by tests/cli/slurm_cluster.sh.
#   environment: COLLSIM  the collsim binary (default: collsim on PATH, else build/collsim)
#                OUT      the output directory (default results/<scenario name>)
#                JOBS     points each array task runs at once (collsim run -j, default 1)
# Prints the two job ids. The sbatch options go to both jobs (partition, account, time).
# Without sbatch on PATH it says so and exits 2 before creating anything.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 SCENARIO.lua N [sbatch options...]" >&2
    exit 2
fi
scenario=$1 n=$2
shift 2
case $n in
    '' | *[!0-9]* | 0) echo "$0: N must be a positive integer, not '$n'" >&2; exit 2 ;;
esac
[ -r "$scenario" ] || { echo "$0: cannot read $scenario" >&2; exit 2; }
if ! command -v sbatch >/dev/null 2>&1; then
    echo "$0: sbatch not found: this script submits a Slurm job array and needs a Slurm" \
        "client (run it on a login node); nothing was submitted or created. Without Slurm," \
        "run the shards yourself: collsim run $scenario -o OUT/shard-K --shard K/$n" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${COLLSIM:-}" ]; then
    COLLSIM=$(command -v collsim || echo "$here/build/collsim")
fi
name=$(basename "$scenario" .lua)
out=${OUT:-results/$name}
mkdir -p "$out"
# Absolute paths: the jobs may start in another directory.
scenario=$(cd "$(dirname "$scenario")" && pwd)/$(basename "$scenario")
out=$(cd "$out" && pwd)

# $SLURM_ARRAY_TASK_ID stays literal here: the array task expands it.
run_cmd="'$COLLSIM' run '$scenario' -o '$out'/shard-\$SLURM_ARRAY_TASK_ID --shard \$SLURM_ARRAY_TASK_ID/$n -j ${JOBS:-1} -q --no-plot --resume"
array=$(sbatch --parsable --job-name="collsim-$name" --array="1-$n" \
    --output="$out/slurm-%A_%a.out" "$@" --wrap="$run_cmd")
array=${array%%;*} # --parsable prints "jobid" or "jobid;cluster"

shards=""
k=1
while [ "$k" -le "$n" ]; do
    shards="$shards '$out/shard-$k'"
    k=$((k + 1))
done
merge=$(sbatch --parsable --job-name="collsim-$name-merge" --dependency="afterok:$array" \
    --output="$out/slurm-merge-%j.out" "$@" --wrap="'$COLLSIM' merge '$out'$shards")
merge=${merge%%;*}
echo "array job $array ($n tasks), merge job $merge -> $out/results.csv"
