#!/bin/sh
# CLI test: scripts/slurm-array.sh with a fake `sbatch` on PATH that logs its arguments
# and runs the --wrap command itself (as the array task k, or as the merge job): the
# generated commands are checked, and running them gives the unsharded run's CSV.
# usage: slurm.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
use_tmp
mkdir -p "$tmp/bin"
cat > "$tmp/bin/sbatch" <<'SH'
#!/bin/sh
# fake sbatch: log the arguments, run the wrapped command for every array task
printf '%s\n' "$*" >> "$SBATCH_LOG"
array="" wrap=""
for a in "$@"; do
    case $a in
        --array=*) array=${a#--array=} ;;
        --wrap=*) wrap=${a#--wrap=} ;;
    esac
done
if [ -n "$array" ]; then
    k=1
    while [ $k -le "${array#1-}" ]; do
        SLURM_ARRAY_TASK_ID=$k sh -c "$wrap" || exit 1
        k=$((k + 1))
    done
    echo "4242;cluster"
else
    sh -c "$wrap" || exit 1
    echo 4243
fi
SH
chmod +x "$tmp/bin/sbatch"
export SBATCH_LOG="$tmp/sbatch.log"
cat > "$tmp/tiny.lua" <<'LUA'
collsim.sweep{topology = collsim.topology.torus{dims = "4x2"}, collective = "allreduce",
              ranks = 8, algorithms = {"ring", "recursive_doubling"},
              sizes = collsim.sizes.geometric("1KiB", "64KiB", 4), model = "traffic"}
LUA
check "submit" 0 "array job 4242 (3 tasks), merge job 4243" -- \
    env PATH="$tmp/bin:$PATH" COLLSIM="$bin" OUT="$tmp/out" \
    sh "$root/scripts/slurm-array.sh" "$tmp/tiny.lua" 3 --partition=small --time=10
check "array job command" 0 "^--parsable --job-name=collsim-tiny --array=1-3 --output=$tmp/out/slurm-%A_%a.out --partition=small --time=10 --wrap=.* run '$tmp/tiny.lua' -o '$tmp/out'/shard-\$SLURM_ARRAY_TASK_ID --shard \$SLURM_ARRAY_TASK_ID/3 " -- \
    sed -n 1p "$SBATCH_LOG"
check "merge job depends on the array" 0 "^--parsable --job-name=collsim-tiny-merge --dependency=afterok:4242 .*--partition=small --time=10 --wrap=.* merge '$tmp/out' '$tmp/out/shard-1' '$tmp/out/shard-2' '$tmp/out/shard-3'$" -- \
    sed -n 2p "$SBATCH_LOG"
"$bin" run "$tmp/tiny.lua" -o "$tmp/whole" -q --no-plot 2>/dev/null
if cmp -s "$tmp/whole/results.csv" "$tmp/out/results.csv" && [ "$(wc -l < "$tmp/out/results.csv")" -eq 9 ]; then
    echo "ok   array + merge = the whole run"
else
    echo "FAIL array + merge differs from the whole run"; fail=1
fi
mkdir -p "$tmp/empty"
check "no sbatch: says so" 2 "sbatch not found: this script submits a Slurm job array" -- \
    env PATH="$tmp/empty" OUT="$tmp/nosb" /bin/sh "$root/scripts/slurm-array.sh" "$tmp/tiny.lua" 3
if [ -e "$tmp/nosb" ]; then echo "FAIL no sbatch: $tmp/nosb was created"; fail=1; fi
check "bad N" 2 "N must be a positive integer" -- sh "$root/scripts/slurm-array.sh" "$tmp/tiny.lua" x
check "missing scenario" 2 "cannot read" -- sh "$root/scripts/slurm-array.sh" "$tmp/nope.lua" 2
rm -rf "$tmp"
exit $fail
