#!/bin/sh
# common.sh - shared by the benchmark scripts: build once, time a command.
#   . scripts/bench/common.sh ; bench_build ; bench_time LABEL command...
# bench_time prints "LABEL: wall=<s> cpu=<s> peak_rss=<MiB>" and the command's last output
# line; with BENCH_RUNS=n it repeats and prints the median wall and CPU (user + sys) times.
# It leaves the figures in BENCH_WALL, BENCH_CPU (seconds) and BENCH_RSS_MIB.
# BENCH_NO_BUILD=1: use build/collsim as it is (bench_build builds every target).
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
COLLSIM="$ROOT/build/collsim"

bench_build() {
    [ -z "${BENCH_NO_BUILD:-}" ] || return 0
    (cd "$ROOT" && make -s build >/dev/null)
}

bench_time() {
    label=$1
    shift
    runs=${BENCH_RUNS:-1}
    walls=""
    cpus=""
    rss=0
    out=""
    i=0
    while [ "$i" -lt "$runs" ]; do
        tmp=$(mktemp)
        out=$(/usr/bin/time -f "%e %M %U %S" -o "$tmp" "$@" 2>&1 | tail -n 2 | head -n 1)
        read -r w m u s < "$tmp"
        rm -f "$tmp"
        walls="$walls $w"
        cpus="$cpus $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')"
        [ "$m" -gt "$rss" ] && rss=$m
        i=$((i + 1))
    done
    median=$(printf '%s\n' $walls | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    BENCH_WALL=$median
    BENCH_CPU=$(printf '%s\n' $cpus | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    BENCH_RSS_MIB=$((rss / 1024))
    printf '%-58s wall=%6.2fs cpu=%6.2fs (median of %d)  peak_rss=%5d MiB\n    %s\n' "$label" \
        "$median" "$BENCH_CPU" "$runs" $((rss / 1024)) "$out"
}

# golden_start MODEL_OPTIONS: for the *_golden.sh scripts (outputs compared before and after
# a speed change): a fresh platform cache removed on exit, and golden_point NAME OPTIONS...,
# which prints "== NAME" and collsim sim's CSV row under MODEL_OPTIONS (e.g. "--model
# packet"), the columns measured on the run (sim_wall_s, sim_peak_rss_kb: 20 and 21)
# blanked, or its error and exit status. $bin is the binary.
golden_start() {
    GOLDEN_MODEL=$1
    COLLSIM_CACHE_DIR=$(mktemp -d)
    export COLLSIM_CACHE_DIR
    trap 'rm -rf "$COLLSIM_CACHE_DIR"' EXIT
}

golden_point() {
    name=$1
    shift
    printf '== %s\n' "$name"
    # shellcheck disable=SC2086 # GOLDEN_MODEL is several words
    "$bin" sim $GOLDEN_MODEL --format csv --no-header "$@" 2>&1 |
        awk -F, -v OFS=, 'NF >= 21 { $20 = ""; $21 = "" } { print }' || echo "exit $?"
}
