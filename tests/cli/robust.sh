#!/bin/sh
# CLI test: refusal before work (--max-memory, estimates), numeric overflows caught with
# clear errors, --point-timeout (docs/robustness.md).
# usage: robust.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
export COLLSIM_CACHE_DIR="$tmp/cache"
AR="--collective allreduce --algorithm ring"
# an impossible 10^9-rank flow run: refused at once, with the estimate and the limit
# (timed against the start-up of `collsim list`, which a loaded machine slows down too)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms); "$bin" list >/dev/null 2>&1; t1=$(now_ms)
check "refuse 1e9 ranks" 2 "refused before starting: the run needs about 18.1TiB of memory (1000000000 ranks" -- \
    "$bin" sim --topology "torus dims=1024x1024x64" $AR --ranks 1000000000 --ranks-per-node 16 --model flow
t2=$(now_ms)
extra=$(( (t2 - t1) - (t1 - t0) ))
if [ "$extra" -ge 1000 ]; then echo "FAIL refusal took $extra ms more than start-up"; fail=1
else echo "ok   refusal: $((t2 - t1)) ms, start-up $((t1 - t0)) ms"; fi
check "refuse 1e9 ranks verify" 1 "refused before starting.*streaming verifier: 1000000000 ranks" -- \
    "$bin" verify $AR --ranks 1000000000
check "max-memory after prepare" 2 "in flight.*more than the limit of 16.0MiB" -- \
    "$bin" sim --topology "torus dims=8x8" --collective alltoall --algorithm linear --ranks 64 --size 64KiB --max-memory 16MiB
check "max-memory 0 = no limit" 0 "^torus dims=4,allreduce" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --no-header --max-memory 0
check "bad max-memory" 2 "unknown unit 'parsecs'" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --max-memory 3parsecs
# overflows: sizes past 2^63, P past 2^31, products of dimensions
check "size past 2^63" 2 "too large (the limit is 2^63-1 bytes)" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --size 9223372036854775808
check "size unit past 2^63" 2 "too large" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --size 16777216TiB
check "P past 2^31" 2 "out of range (allowed: 2..2147483647)" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 2147483648
check "rank list past 2^31" 2 "values must lie in 2..2147483647" -- \
    "$bin" verify $AR --ranks pow2:2..4294967296
check "rank list past 2^63" 2 "cannot read" -- \
    "$bin" verify $AR --ranks 99999999999999999999
check "dims product" 2 "multiply to more than 2^31-1" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --dims 65536x65536
check "topology dims product" 2 "more than 2^26 nodes" -- \
    "$bin" sim --topology "torus dims=16777216x16777216" $AR --ranks 4
check "dragonfly+ switches" 2 "switches: more than 2^26" -- \
    "$bin" topo dragonflyplus p=1 leaves=1 spines=4096 h=15
# --point-timeout: the point is killed, exit 1, "timeout"
check "point timeout" 1 "timeout: the point ran longer than 0.2 s" -- \
    "$bin" sim --topology "torus dims=16x16" $AR --ranks 256 --point-timeout 0.2
check "bad timeout" 2 "invalid timeout" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --point-timeout -3
rm -rf "$tmp"
exit $fail
