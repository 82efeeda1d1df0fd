#!/bin/sh
# CLI test: `collsim sim --model packet` and its options, and the same from a Lua scenario
# (docs/packet-model.md).
# usage: packet.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
LINE="torus dims=4 local_bw=1GBps local_lat=1us"
# 2 links, 4 packets of 4 KiB: 2 x 1 us + (4 + 2 - 1) x 4096 B / 1 GB/s = 22.48 us (the
# loop engine adds the times exactly; SimGrid's sleeps, under the actors engine, may round
# up in the last digits)
check "packet p2p closed form" 0 ",packet routing=minimal mtu=4096 buffer=65536,2.248[01]*e-05," -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --dst 2 \
    --size 16KiB --model packet --mtu 4KiB --buffer 64KiB --no-header
check "adaptive routing" 0 ",packet routing=adaptive mtu=4096 buffer=65536," -- \
    "$bin" sim --topology "torus dims=4x4" --collective allreduce --algorithm recursive_doubling \
    --ranks 16 --size 256KiB --model packet --routing adaptive --no-header
check "ugal on a torus" 2 "ugal needs a dragonfly" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --routing ugal
check "bad routing" 2 "allowed: minimal, adaptive, ugal" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --routing valiant
check "buffer below mtu" 2 "must hold one packet" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --mtu 8KiB --buffer 4KiB
# the simulator's own packet-hop count: 4 packets x 2 links
check "verbose: packet hops" 0 "sim_cpu_s=[0-9.]* sim_peak_rss_kb=[1-9][0-9]* packet_hops=8 packet_events=[1-9][0-9]* packet_setup_cpu_s=[0-9.]* packet_engine_cpu_s=[0-9.]* packet_ranks_cpu_s=[0-9.]* packet_teardown_cpu_s=[0-9.]*$" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --dst 2 \
    --size 16KiB --model packet --verbose --no-header
# setup, event loop, ranks and teardown split the run's CPU seconds: they add up to
# sim_cpu_s (each printed to 1e-6 s)
"$bin" sim --topology "torus dims=8x8" --collective allreduce --algorithm rabenseifner \
    --ranks 64 --size 1MiB --model packet --verbose --no-header 2>"$tmp/verbose.txt" >/dev/null
if awk '/^collsim sim: / { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
        d = v["packet_setup_cpu_s"] + v["packet_engine_cpu_s"] + v["packet_ranks_cpu_s"]
        d += v["packet_teardown_cpu_s"] - v["sim_cpu_s"]
        ok = v["sim_cpu_s"] > 0 && v["packet_engine_cpu_s"] > 0 && d < 5e-6 && d > -5e-6 }
    END { exit !ok }' "$tmp/verbose.txt"; then
    echo "ok   verbose: the CPU split adds up"
else
    echo "FAIL verbose: the CPU split does not add up"; cat "$tmp/verbose.txt"; fail=1
fi
check "mtu without the packet model" 2 "collsim sim: --mtu applies to --model packet only (the model is cm02)" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --mtu 8KiB --model cm02
check "routing without the packet model" 2 "collsim sim: --routing applies to --model packet only (the model is traffic)" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --routing minimal --model traffic

# ---- Lua: model = "packet" with routing, mtu and buffer as sweep keys ------------------------
cat > "$tmp/pk.lua" <<'LUA'
assert(collsim.models[5] == "packet")
collsim.sweep{topology = "torus dims=4x4", collective = "p2p", ranks = 16, dst = 5,
  algorithm = "direct", size = "256KiB", models = {"cm02", "packet"},
  routings = {"minimal", "adaptive"}, mtu = {"4KiB", "8KiB"}, buffer = "128KiB",
  filter = function(pt) return pt.model ~= "packet" or pt.routing == "adaptive" or pt.mtu == 4096 end}
LUA
# cm02 once (routing and mtu are packet options), packet: 2 routings x 2 mtus less 1 filtered
check "lua packet sweep" 0 "4 points (0 resumed): 4 ok" -- "$bin" run "$tmp/pk.lua" -o "$tmp/pk" --no-plot
check "lua packet rows" 0 "^cm02 packet routing=adaptive mtu=4096 buffer=131072 packet routing=adaptive mtu=8192 buffer=131072 packet routing=minimal mtu=4096 buffer=131072 $" -- \
    sh -c "tail -n +2 '$tmp/pk/results.csv' | cut -d, -f14 | sort | tr '\n' ' '"
check "lua packet manifest" 0 '"model": "packet", "routing": "adaptive", "mtu": 8192, "buffer": 131072' -- \
    cat "$tmp/pk/manifest.json"
cli=$("$bin" sim --topology "torus dims=4x4" --collective p2p --algorithm direct --ranks 16 --dst 5 \
    --size 256KiB --model packet --routing adaptive --mtu 8KiB --buffer 128KiB --no-header | cut -d, -f9-19)
check "lua packet row = collsim sim row" 0 "$cli" -- \
    sh -c "grep 'routing=adaptive mtu=8192' '$tmp/pk/results.csv' | cut -d, -f14,21-30"
printf 'collsim.sweep{topology = "torus dims=4", collective = "p2p", ranks = 4,\n  algorithm = "direct", mtu = "8KiB"}\n' > "$tmp/nopk.lua"
check "lua mtu without the packet model" 2 "nopk.lua:1: collsim.sweep: mtu applies to model = \"packet\" only (the sweep's models: cm02, the default)" -- \
    "$bin" run "$tmp/nopk.lua" -o "$tmp/nopk"
printf 'collsim.sweep{topology = "torus dims=4", collective = "p2p", ranks = 4, model = "packet",\n  algorithm = "direct", routing = "valiant"}\n' > "$tmp/badrt.lua"
check "lua bad routing" 2 "badrt.lua:1: collsim.sweep: routing: unknown routing 'valiant' (allowed: minimal, adaptive, ugal, ecmp)" -- \
    "$bin" run "$tmp/badrt.lua" -o "$tmp/badrt"
rm -rf "$tmp"
exit $fail
