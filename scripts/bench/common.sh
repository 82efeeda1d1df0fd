#!/bin/sh
# common.sh - shared by the benchmark scripts: build once, time a command.
#   . scripts/bench/common.sh ; bench_build ; bench_time LABEL command...
# bench_time prints "LABEL: wall=<s> peak_rss=<MiB>" and the command's last output line;
# with BENCH_RUNS=n it repeats and prints the median wall time.
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
    walls=""
    rss=0
    out=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        tmp=$(mktemp)
        out=$(/usr/bin/time -f "%e %M" -o "$tmp" "$@" 2>&1 | tail -n 2 | head -n 1)
        read -r w m < "$tmp"
        rm -f "$tmp"
        walls="$walls $w"
        [ "$m" -gt "$rss" ] && rss=$m
        i=$((i + 1))
    done
    median=$(printf '%s\n' $walls | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%-58s wall=%6.2fs (median of %d)  peak_rss=%5d MiB\n    %s\n' "$label" "$median" "$runs" \
        $((rss / 1024)) "$out"
}
