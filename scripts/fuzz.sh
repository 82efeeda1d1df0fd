#!/bin/sh
# fuzz.sh - build the libFuzzer harnesses of tests/fuzz/ and run each for a while.
#
#   scripts/fuzz.sh [--seconds N] [--jobs-dir DIR] [harness...]
#
# Harnesses: units rankspec cli topo_spec preset hostfile (default: all), each run for N
# seconds (default 60) on one core, one after the other. The build goes to build-fuzz/
# (clang, -DCOLLSIM_FUZZ=ON); the growing corpus of each harness is kept in
# build-fuzz/corpus/<harness>/ (seeded from tests/fuzz-corpus/<harness>/) so that later
# runs continue where earlier ones stopped. Crashes, leaks and UB reports are copied into
# tests/fuzz-corpus/<harness>/crash-* (commit them with the fix: ctest replays that
# directory in every build). Timeouts and out-of-memory inputs (legal but huge machines,
# see docs/robustness.md) go to build-fuzz/slow/<harness>/ and do not stop the run.
# Prints one line per harness: executions, corpus size, crashes, slow inputs; exit 1 when
# any harness crashed.
set -eu
cd "$(dirname "$0")/.."
seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
harnesses="${*:-units rankspec cli topo_spec preset hostfile}"

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLLSIM_FUZZ=ON \
    -DCOLLSIM_WERROR=OFF >/dev/null
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build build-fuzz -j 2 --target $targets >/dev/null

status=0
for h in $harnesses; do
    bin=build-fuzz/fuzz_$h
    corpus=build-fuzz/corpus/$h
    crashes=build-fuzz/crashes/$h
    slow=build-fuzz/slow/$h
    log=build-fuzz/logs/$h.log
    mkdir -p "$corpus" "$crashes" "$slow" build-fuzz/logs
    # -fork=1: a child process fuzzes; with -ignore_timeouts / -ignore_ooms the parent
    # keeps going after a slow input (saved for inspection), but stops at a crash.
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    "$bin" -fork=1 -ignore_timeouts=1 -ignore_ooms=1 -ignore_crashes=0 \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -malloc_limit_mb=512 \
        -max_len=4096 -artifact_prefix="$crashes/" \
        "$corpus" "tests/fuzz-corpus/$h" >"$log" 2>&1 || true
    # fork mode prints "#N: cov: ... exec/s: ..." lines; the last one has the totals
    execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    ncrash=0
    for f in "$crashes"/*; do
        [ -f "$f" ] || continue
        case "$(basename "$f")" in
        timeout-*|oom-*|slow-unit-*) mv "$f" "$slow/" ;;
        *) cp "$f" "tests/fuzz-corpus/$h/"; ncrash=$((ncrash + 1)); rm "$f" ;;
        esac
    done
    nslow=$(find "$slow" -type f | wc -l)
    ncorpus=$(find "$corpus" -type f | wc -l)
    echo "$h: ${execs:-0} executions in ${seconds}s, corpus $ncorpus, crashes $ncrash, slow inputs $nslow (log $log)"
    [ "$ncrash" -eq 0 ] || status=1
done
exit $status
