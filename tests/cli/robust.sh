#!/bin/sh
# CLI test: refusal before work (--max-memory, estimates), numeric overflows caught with
# clear errors, --point-timeout (docs/robustness.md).
# usage: robust.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
AR="--collective allreduce --algorithm ring"
# an impossible 10^9-rank flow run: refused at once, with the estimate and the limit
# (timed against the start-up of `collsim list`, which a loaded machine slows down too)
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(now_ms); "$bin" list >/dev/null 2>&1; t1=$(now_ms); startup=$((t1 - t0))
check "refuse 1e9 ranks" 2 "refused before starting: the run needs about 18.4TiB of memory (1000000000 ranks.*67108864 nodes" -- \
    "$bin" sim --topology "torus dims=1024x1024x64" $AR --ranks 1000000000 --ranks-per-node 16 --model flow
t2=$(now_ms)
extra=$(( (t2 - t1) - (t1 - t0) ))
if [ "$extra" -ge 1000 ]; then echo "FAIL refusal took $extra ms more than start-up"; fail=1
else echo "ok   refusal: $((t2 - t1)) ms, start-up $((t1 - t0)) ms"; fi
check "refuse 1e9 ranks verify" 2 "refused allreduce ring P=1000000000: refused before starting.*streaming verifier: 1000000000 ranks" -- \
    "$bin" verify $AR --ranks 1000000000
check "verify: refused in the summary" 2 "1 ok, 0 failed, 0 unsupported, 1 refused" -- \
    "$bin" verify $AR --ranks 4,1000000000
check "check: a refused case fails" 1 "FAIL verify .*P=1000000000 .*refused before starting" -- \
    "$bin" check $AR --ranks 4,1000000000 --quiet
check "sim: small P, huge topology" 2 "refused before starting: .*16 ranks.*67108864 nodes, 201326592 links" -- \
    "$bin" sim --topology "torus dims=1024x1024x64" $AR --ranks 16

# ---- collsim run: the same refusals, before building the topology or expanding the sweep ----
cat > "$tmp/huge.lua" <<'LUA'
collsim.sweep{
  topology = collsim.topology.torus{dims = "1024x1024x64"},
  collective = "allreduce", algorithm = "ring", ranks = 1000000000, ranks_per_node = 16,
}
LUA
t0=$(now_ms)
check "run: huge topology refused at load" 2 'huge.lua:2: topology "torus dims=1024x1024x64": refused before starting.*building the topology: 67108864 nodes, 201326592 links' -- \
    "$bin" run "$tmp/huge.lua" -o "$tmp/huge" -q --no-plot
t3=$(now_ms)
cat > "$tmp/point.lua" <<'LUA'
collsim.sweep{
  topology = collsim.topology.torus{dims = "4x4"},
  collective = "allreduce", algorithm = "ring", ranks = 1000000000,
}
LUA
check "run: 1e9-rank point refused" 0 "1 points (0 resumed): 0 ok, 1 error" -- \
    "$bin" run "$tmp/point.lua" -o "$tmp/point" --no-plot
t4=$(now_ms)
check "run: the point's row" 0 "^0,[0-9a-f]*,error,.*refused before starting: the run needs about 17.7TiB" -- \
    cat "$tmp/point/results.csv"
for what in "load:$((t3 - t0))" "point:$((t4 - t3))"; do
    ms=${what#*:}
    if [ $(( ms - startup )) -ge 1000 ]; then echo "FAIL run refusal (${what%%:*}) took $ms ms"; fail=1
    else echo "ok   run refusal (${what%%:*}): $ms ms, start-up $startup ms"; fi
done
check "run: --max-memory" 2 "point.lua:2: topology \"torus dims=4x4\": refused before starting.*more than the limit of 1.0MiB" -- \
    "$bin" run "$tmp/point.lua" -o "$tmp/point2" -q --no-plot --max-memory 1MiB
printf 'collsim.sweep{topology = "torus dims=4x4", collective = "allreduce", algorithm = "ring",\n  ranks = collsim.ranks.range(2, 16), sizes = collsim.sizes.linear(1, 1000000, 1)}\n' > "$tmp/product.lua"
check "run: sweep too large to expand" 2 "product.lua:1: collsim.sweep: refused before starting.*up to 1.5e+07 combinations" -- \
    "$bin" run "$tmp/product.lua" -o "$tmp/product" -q --no-plot --max-memory 1GiB

# ---- other commands: topo, draw, traffic, dump ----------------------------------------------
check "topo refused" 2 "collsim topo: refused before starting: .*building the topology: 67108864 nodes, 134217728 links), more than the limit of 1.0GiB" -- \
    "$bin" topo torus dims=8192x8192 --max-memory 1GiB
check "topo refused by default" 2 "refused before starting: .*building the topology: 67108864 nodes, 549688705024 links" -- \
    "$bin" topo hyperx dims=8192x8192 T=0
check "topo --check counts SimGrid" 2 "refused before starting: .*SimGrid actor; 65536 nodes" -- \
    "$bin" topo torus dims=256x256 --check 10 --max-memory 64MiB
check "draw refused before building" 2 "torus dims=8192x8192 has 67108864 nodes and 134217728 links: too many to draw" -- \
    "$bin" draw "torus dims=8192x8192" --out "$tmp/x.svg"
check "draw: ranks past the hosts" 2 "more than the topology's 16 hosts" -- \
    "$bin" draw "torus dims=4x4" --ranks-per-node 2147483647 --out "$tmp/x.svg"
check "traffic --topology refused" 2 "refused before starting: .*building the topology" -- \
    "$bin" traffic --alloc 'h[0-3]' --topology "hyperx dims=8192x8192 T=0" --collective allreduce --algorithms ring
mkdir -p "$tmp/dump"
t0=$(now_ms)
check "dump refused" 2 "refused before starting: the dump would write about 145.5TiB (1000000 ranks x 1999998 operations per rank" -- \
    "$bin" dump --collective alltoall --algorithm linear --ranks 1000000 --output "$tmp/dump/a.jsonl"
t1=$(now_ms)
echo "ok   dump refusal: $((t1 - t0)) ms"
check "dump --max-output" 2 "more than 1.0KiB (--max-output" -- \
    "$bin" dump $AR --ranks 8 --max-output 1KiB
check "dump --max-output 0 = no limit" 0 '"op":"send"' -- "$bin" dump $AR --ranks 8 --max-output 0
# an interrupted dump leaves no file and no temporary file behind
for sig in INT TERM KILL; do
    # (a background job of a script ignores SIGINT: env restores the default action)
    env --default-signal=INT "$bin" dump --collective alltoall --algorithm linear --ranks 2048 \
        --output "$tmp/dump/a.jsonl" &
    pid=$!
    sleep 0.3
    kill -s $sig $pid 2>/dev/null
    wait $pid 2>/dev/null
    left=$(ls -A "$tmp/dump")
    if [ -z "$left" ]; then echo "ok   dump killed by SIG$sig leaves nothing"
    else echo "FAIL dump killed by SIG$sig left: $left"; fail=1; rm -f "$tmp/dump"/*; fi
done
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
check "rank list too long" 2 "range 2..2147483647: more than 1048576 values" -- \
    "$bin" verify $AR --ranks 2..2147483647
check "rank list past 2^63" 2 "cannot read" -- \
    "$bin" verify $AR --ranks 99999999999999999999
check "dims product" 2 "multiply to more than 2^31-1" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --dims 65536x65536
check "topology dims product" 2 "more than 2^26 nodes" -- \
    "$bin" sim --topology "torus dims=16777216x16777216" $AR --ranks 4
check "dragonfly+ switches" 2 "switches: more than 2^26" -- \
    "$bin" topo dragonflyplus p=1 leaves=1 spines=4096 h=15
# --point-timeout: the point is killed, exit 1, "timeout". A Lua algorithm that never ends
# (--lua-timeout 0): no bound on the machine's speed
cat > "$tmp/endless.lua" <<'EOF'
collsim.define_algorithm{name = "endless", collective = "allreduce", summary = "never ends",
  units = function(P) return P end,
  rank = function(r, P, size, params) while true do end end}
EOF
check "point timeout" 1 "timeout: the point ran longer than 0.2 s" -- \
    "$bin" sim --lua "$tmp/endless.lua" --lua-timeout 0 --topology "torus dims=4" \
    --collective allreduce --algorithm endless --ranks 4 --point-timeout 0.2
check "bad timeout" 2 "invalid timeout" -- \
    "$bin" sim --topology "torus dims=4" $AR --ranks 4 --point-timeout -3
rm -rf "$tmp"
exit $fail
