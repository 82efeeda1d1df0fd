#!/bin/sh
# CLI test: `collsim list` and `collsim verify` exit codes and messages.
# usage: verify.sh PATH/TO/collsim
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
check "list" 0 "allreduce       rabenseifner" -- "$bin" list
check "list one collective" 0 "alltoall        xor" -- "$bin" list alltoall
check "list bad collective" 2 "allowed: bcast" -- "$bin" list allreducee
check "verify ok" 0 "4 ok, 0 failed" -- "$bin" verify --collective allreduce --algorithm rabenseifner,ring --ranks 6,8
check "verify all" 0 "0 failed" -- "$bin" verify --collective alltoall --algorithm all --ranks 2..9 --quiet
check "ranks: one number" 0 "1 ok, 0 failed" -- "$bin" verify --collective allgather --algorithm ring --ranks 16
check "ranks: pow2 range" 0 "6 ok, 0 failed, 0 unsupported" -- "$bin" verify --collective alltoall --algorithm xor --ranks pow2:2..64 --quiet
check "ranks: mixed spec" 0 "5 case(s): 5 ok" -- "$bin" verify --collective reduce --algorithm binomial --ranks 2..4,pow2:8..16 --quiet
check "unsupported P skipped" 0 "skip xor P=3: alltoall xor: requires P to be a power of two (got P=3)" -- "$bin" verify --collective alltoall --algorithm xor --ranks 2..4
check "missing options" 2 "are required" -- "$bin" verify --collective bcast
check "unknown algorithm" 2 "allowed: recursive_doubling" -- "$bin" verify --collective allreduce --algorithm rd --ranks 4
check "unsupported P" 2 "requires P to be a power of two (got P=6)" -- "$bin" verify --collective alltoall --algorithm xor --ranks 6
check "bad ranks" 2 "--ranks" -- "$bin" verify --collective bcast --algorithm linear --ranks 4..x
check "bad size" 2 "allowed units" -- "$bin" verify --collective bcast --algorithm linear --ranks 4 --size 3parsecs
check "bad param" 2 "unknown parameter 'radixx' (allowed: radix)" -- "$bin" verify --collective allgather --algorithm bruck_kport --ranks 9 --param radixx=3
check "param" 0 "1 ok" -- "$bin" verify --collective allgather --algorithm bruck_kport --ranks 27 --param radix=3
check "bad engine" 2 "allowed: auto, full, stream" -- "$bin" verify --collective bcast --algorithm linear --ranks 4 --engine fast
check "unknown command" 2 "unknown command" -- "$bin" frobnicate
exit $fail
