#!/bin/sh
# common.sh - shared by the benchmark scripts: build once, time a command.
#   . scripts/bench/common.sh ; bench_build ; bench_time LABEL command...
# bench_time prints "LABEL: wall=<s> cpu=<s> peak_rss=<MiB>" and the command's last output
# line; with BENCH_RUNS=n it repeats and prints the median wall time (and the CPU time of
# that run). cpu = user + system seconds of all threads: on a machine shared with other
# work, cpu / threads is what the wall time would be on idle CPUs.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COLLSIM="$ROOT/build/collsim"

bench_build() {
    (cd "$ROOT" && make -s build >/dev/null)
}

bench_time() {
    label=$1
    shift
    runs=${BENCH_RUNS:-1}
    runs_out=""
    rss=0
    out=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        tmp=$(mktemp)
        out=$(/usr/bin/time -f "%e %M %U %S" -o "$tmp" "$@" 2>&1 | tail -n 2 | head -n 1)
        read -r w m u s < "$tmp"
        rm -f "$tmp"
        runs_out="$runs_out$w $(awk "BEGIN {print $u + $s}")
"
        [ "$m" -gt "$rss" ] && rss=$m
        i=$((i + 1))
    done
    median=$(printf '%s' "$runs_out" | sort -n | awk '{w[NR]=$1; c[NR]=$2} END {k=int((NR+1)/2); print w[k], c[k]}')
    printf '%-58s wall=%6.2fs cpu=%7.2fs (median of %d)  peak_rss=%5d MiB\n    %s\n' "$label" \
        ${median% *} ${median#* } "$runs" $((rss / 1024)) "$out"
}
