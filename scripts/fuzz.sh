#!/bin/sh
# fuzz.sh - build the libFuzzer harnesses of tests/fuzz/ and run each for a while.
#
#   scripts/fuzz.sh [--seconds N] [--parallel K] [--install] [harness...]
#
# Harnesses: every tests/fuzz/fuzz_<name>.c (default: all of them), each run for N seconds
# (default 60) on one core, K at a time (default 1; run the script under `nice` on a shared
# machine). Needs clang and its libFuzzer runtime (Debian: clang libclang-rt-14-dev; not
# part of `make test`): --install installs them with apt-get (sudo when not root).
# The build goes to build-fuzz/ (clang, -DCOLLSIM_FUZZ=ON); the growing corpus of each
# harness is kept in build-fuzz/corpus/<harness>/ (seeded from tests/fuzz-corpus/<harness>/)
# so that later runs continue where earlier ones stopped.
# Findings: crashes (memory errors, leaks, UB, failed checks), hangs (an input running
# longer than -timeout, 10 s) and out-of-memory inputs (over -rss_limit_mb/-malloc_limit_mb)
# are all defects: the harnesses bound legal-but-huge inputs themselves (docs/robustness.md).
# Each is copied into tests/fuzz-corpus/<harness>/ (crash-*, timeout-*, oom-*, ...): commit
# it with the fix, ctest replays that directory in every build.
# Prints one line per harness: executions, corpus size, crashes, hangs, ooms; exits 1 when
# any harness had a finding, 2 when clang or libFuzzer is missing.
set -eu
cd "$(dirname "$0")/.."
seconds=60
parallel=1
install=0
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --parallel) parallel="$2"; shift 2 ;;
    --install) install=1; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    --) shift; break ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
all=$(for f in tests/fuzz/fuzz_*.c; do basename "$f" .c | sed 's/^fuzz_//'; done | tr '\n' ' ')
harnesses="${*:-$all}"
for h in $harnesses; do
    [ -f "tests/fuzz/fuzz_$h.c" ] || { echo "fuzz.sh: no harness '$h' (have: $all)" >&2; exit 2; }
done

# clang and libFuzzer: a one-line program linked with -fsanitize=fuzzer
have_libfuzzer() {
    command -v clang >/dev/null 2>&1 || return 1
    probe=$(mktemp -d)
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
    clang -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1
    ok=$?
    rm -rf "$probe"
    return $ok
}
if ! have_libfuzzer; then
    pkgs="clang libclang-rt-14-dev"
    if [ "$install" -eq 0 ]; then
        echo "fuzz.sh: needs clang with libFuzzer (Debian packages: $pkgs);" >&2
        echo "  install them (sudo apt-get install $pkgs) or run scripts/fuzz.sh --install" >&2
        exit 2
    fi
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get install -y -q --no-install-recommends $pkgs || {
        $SUDO apt-get update -q && $SUDO apt-get install -y -q --no-install-recommends $pkgs; }
    have_libfuzzer || { echo "fuzz.sh: clang still cannot link libFuzzer" >&2; exit 2; }
fi

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCOLLSIM_FUZZ=ON \
    -DCOLLSIM_WERROR=OFF >/dev/null
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build build-fuzz -j 2 --target $targets >/dev/null

# Runs one harness; writes its summary line to build-fuzz/logs/<h>.summary.
fuzz_one() {
    h=$1
    bin=build-fuzz/fuzz_$h
    corpus=build-fuzz/corpus/$h
    found=build-fuzz/found/$h
    log=build-fuzz/logs/$h.log
    rm -rf "$found"
    mkdir -p "$corpus" "$found" build-fuzz/logs
    # -fork=1: a child process fuzzes and the parent goes on after a timeout or an OOM
    # (-ignore_timeouts/-ignore_ooms), saving the input; both are counted below. Standard
    # output and error of the code under test are closed (-close_fd_mask=3: the Lua
    # scenarios print); setsid: no controlling terminal that an input could open and wait on.
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=1 \
    UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    setsid -w "$bin" -fork=1 -ignore_timeouts=1 -ignore_ooms=1 -ignore_crashes=0 \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=3072 -malloc_limit_mb=512 \
        -max_len=4096 -close_fd_mask=3 -artifact_prefix="$found/" \
        "$corpus" "tests/fuzz-corpus/$h" </dev/null >"$log" 2>&1 || true
    # fork mode prints "#N: cov: .. exec/s: .. oom/timeout/crash: a/b/c time: ..": the
    # last one has the totals; the artifacts tell what each finding was
    last=$(grep '^#[0-9]*: cov' "$log" | tail -1)
    execs=$(printf '%s' "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
    counts=$(printf '%s' "$last" | sed -n 's|.*oom/timeout/crash: \([0-9]*/[0-9]*/[0-9]*\).*|\1|p')
    ooms=$(echo "${counts:-0/0/0}" | cut -d/ -f1)
    hangs=$(echo "${counts:-0/0/0}" | cut -d/ -f2)
    crashes=$(echo "${counts:-0/0/0}" | cut -d/ -f3)
    for f in "$found"/*; do
        [ -f "$f" ] || continue
        case "$(basename "$f")" in
        timeout-*|slow-unit-*) [ "$hangs" -gt 0 ] || hangs=1 ;;
        oom-*) [ "$ooms" -gt 0 ] || ooms=1 ;;
        *) [ "$crashes" -gt 0 ] || crashes=1 ;;
        esac
        cp "$f" "tests/fuzz-corpus/$h/"
    done
    ncorpus=$(find "$corpus" -type f | wc -l)
    echo "$h: ${execs:-0} executions in ${seconds}s, corpus $ncorpus, crashes $crashes, hangs $hangs, ooms $ooms (log $log)" \
        >"build-fuzz/logs/$h.summary"
}

status=0
set -- $harnesses
while [ $# -gt 0 ]; do
    batch=""
    i=0
    while [ $# -gt 0 ] && [ "$i" -lt "$parallel" ]; do
        fuzz_one "$1" &
        batch="$batch $1"
        i=$((i + 1))
        shift
    done
    wait
    for h in $batch; do
        cat "build-fuzz/logs/$h.summary"
        grep -q "crashes 0, hangs 0, ooms 0" "build-fuzz/logs/$h.summary" || status=1
    done
done
exit $status
