#!/bin/sh
# CLI test: the graph-aware algorithms (Kautz K(d,2), 2dfc) and p2p through `collsim verify`:
# --dims, --dst, --param and the constraint messages.
# usage: graphs.sh PATH/TO/collsim
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
check "kautz ok" 0 "6 ok, 0 failed" -- "$bin" verify --collective alltoall --algorithm kautz_c,kautz_m --ranks 6,12,20
check "kautz steps" 0 "steps=2" -- "$bin" verify --collective allgather --algorithm kautz_c --ranks 72
check "kautz P" 2 "requires P = d(d+1)" -- "$bin" verify --collective allgather --algorithm kautz_c --ranks 16
check "2dfc ok" 0 "steps=2" -- "$bin" verify --collective alltoall --algorithm 2dfc_md --dims 8x4 --ranks 32 --param split=half
check "2dfc dims" 2 "requires the 2dfc shape" -- "$bin" verify --collective alltoall --algorithm 2dfc_do --ranks 16
check "2dfc split" 2 "allowed: m2|m1|half" -- "$bin" verify --collective allgather --algorithm 2dfc_md --dims 4x4 --ranks 16 --param split=third
check "p2p multipath" 0 "messages=46 steps=3" -- "$bin" verify --collective p2p --algorithm kautz_multipath --ranks 272 --root 7 --dst 128
check "p2p dst" 2 "other than the source 3" -- "$bin" verify --collective p2p --algorithm direct --ranks 8 --root 3 --dst 3
check "p2p bad dst" 2 "--dst" -- "$bin" verify --collective p2p --algorithm direct --ranks 8 --dst x
exit $fail
