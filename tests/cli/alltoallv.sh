#!/bin/sh
# CLI test: `collsim verify` of alltoallv with --workload (docs/workloads.md).
# usage: alltoallv.sh PATH/TO/collsim
set -u
bin=$1
fail=0
check() { # check NAME EXPECTED_STATUS PATTERN -- command...
    name=$1 want=$2 pattern=$3
    shift 4
    out=$("$@" 2>&1)
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $name: exit $got, expected $want"; echo "$out"; fail=1; return
    fi
    if ! printf '%s' "$out" | grep -q -- "$pattern"; then
        echo "FAIL $name: output lacks '$pattern'"; echo "$out"; fail=1; return
    fi
    echo "ok   $name"
}
v() { "$bin" verify --collective alltoallv "$@"; }
check "all algorithms, uniform" 0 "0 failed" -- v --algorithm all --ranks 2..17 --workload uniform:S=1KiB:seed=1 --quiet
check "all algorithms, all-zero" 0 "0 failed" -- v --algorithm all --ranks 8,9 --workload constant:S=0 --quiet
check "workload in the ok line" 0 "workload=fft2:block=512B:last=128B" -- v --algorithm pairwise --ranks 8 --workload fft2
check "parlogna radix" 0 "3 ok" -- v --algorithm parlogna --param radix=5 --ranks 5,6,30 --workload powerlaw:max=1KiB:x=0.9
check "parlinna" 0 "2 ok" -- v --algorithm parlinna_coalesced,parlinna_staggered --ranks-per-node 4 --ranks 12 --param batch_size=2 --workload normal:mean=100:sd=30:max=128
check "parlinna radix above Q" 2 "radix 5 is outside 2..4" -- v --algorithm parlinna_staggered --ranks-per-node 4 --ranks 12 --param radix=5
check "parlinna needs Q" 2 "Q >= 2" -- v --algorithm parlinna_coalesced --ranks 12
check "parlogna radix above P" 2 "radix 9 is outside 2..8" -- v --algorithm parlogna --ranks 8 --param radix=9
check "bad workload kind" 2 "allowed: constant, uniform, normal, powerlaw, fft1, fft2" -- v --algorithm linear --ranks 4 --workload gauss:S=1
check "bad workload key" 2 "unknown key 'mean' (allowed: S, seed, unit)" -- v --algorithm linear --ranks 4 --workload uniform:S=1KiB:mean=3
check "workload needs alltoallv" 2 "alltoallv only" -- "$bin" verify --collective alltoall --algorithm linear --ranks 4 --workload uniform:S=1KiB
exit $fail
