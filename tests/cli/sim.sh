#!/bin/sh
# CLI test: `collsim sim` output rows and error messages.
# usage: sim.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
FT="fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1"
check "csv header" 0 "^topology,collective,algorithm,params,ranks,ranks_per_node,size_bytes,placement,model,time_s" -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm binomial_halving --ranks 8
# Bine Fig. 1: 3n inter-group bytes, 6n on global links, 7 messages x 2 host links (n = 1 MiB)
check "bine fig1 halving" 0 ",traffic,,,,14680064,0,6291456,3145728," -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm binomial_halving --ranks 8 --model traffic --no-header
check "json" 0 '"bytes_intergroup_msgs":6291456' -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm binomial_doubling --ranks 8 --format json
check "per rank" 0 '"rank_finish_s":\[' -- \
    "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm ring --ranks 4 --format json --per-rank
check "topology column" 0 "^torus dims=4,allreduce" -- \
    "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm ring --ranks 4 --no-header
check "missing options" 2 "are required" -- "$bin" sim --topology "$FT" --collective bcast
check "bad placement" 2 "allowed: linear, roundrobin" -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm linear --ranks 4 --placement block
check "bad model" 2 "allowed: cm02" -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm linear --ranks 4 --model ns3
check "too many ranks" 2 "need 16 hosts, the topology has 8" -- \
    "$bin" sim --topology "$FT" --collective bcast --algorithm linear --ranks 16
check "unknown family" 2 "unknown topology family 'ring'" -- \
    "$bin" sim --topology "ring n=4" --collective bcast --algorithm linear --ranks 4
# machine presets, with overrides; the topology column keeps the argument as given
check "yaml preset" 0 "^platforms/lumi.yaml,allreduce,rabenseifner,,64,1,1048576,roundrobin,traffic" -- \
    "$bin" sim --topology platforms/lumi.yaml --collective allreduce --algorithm rabenseifner \
    --ranks 64 --placement roundrobin --model traffic --no-header
check "yaml preset override" 0 "^platforms/fugaku.yaml dims=4x4x4,allreduce,ring" -- \
    "$bin" sim --topology "platforms/fugaku.yaml dims=4x4x4" --collective allreduce \
    --algorithm ring --ranks 64 --no-header
check "yaml preset missing" 2 "platforms/nope.yaml" -- \
    "$bin" sim --topology platforms/nope.yaml --collective bcast --algorithm linear --ranks 4
# one dimension convention (docs/topologies.md "Dimension order"): a topology-aware
# algorithm takes the topology's shape as default dims, and dims written in another order
# (the old Fugaku mistake: 32x256 read slowest-first) are refused naming both shapes
check "dims mismatch" 2 "dims=256x32 do not match the rank-to-node mapping.*as a 32x256 grid" -- \
    "$bin" sim --topology "platforms/fugaku.yaml dims=32x256" --collective allreduce \
    --algorithm swing_bandwidth --ranks 8192 --dims 256x32 --model traffic
T48="torus dims=4x8"
with=$("$bin" sim --topology "$T48" --collective allreduce --algorithm bucket --ranks 32 \
    --model traffic --dims 4x8 --no-header | cut -d, -f13-19)
without=$("$bin" sim --topology "$T48" --collective allreduce --algorithm bucket --ranks 32 \
    --model traffic --no-header | cut -d, -f13-19)
if [ -z "$with" ] || [ "$with" != "$without" ]; then
    echo "FAIL default dims: with --dims 4x8 '$with', without '$without'"; fail=1
fi
# p2p: h0 -> h2 on a 4-ring is two links; busbw = algbw
check "p2p" 0 ",p2p,direct,,4,1,1000000,linear,traffic,,,,0,2000000,0,0,1000000,1," -- \
    "$bin" sim --topology "torus dims=4" --collective p2p --algorithm direct --ranks 4 \
    --root 0 --dst 2 --size 1000000 --model traffic --no-header
check "p2p bad dst" 2 "p2p destination" -- \
    "$bin" sim --topology "torus dims=4" --collective p2p --algorithm direct --ranks 4 --dst 0
check "unknown algorithm" 2 "allowed: recursive_doubling" -- \
    "$bin" sim --topology "$FT" --collective allreduce --algorithm rd --ranks 4
check "bad rate" 2 "--reduce-rate" -- \
    "$bin" sim --topology "$FT" --collective allreduce --algorithm ring --ranks 4 --reduce-rate fast
check "missing allocation file" 2 "cannot open the allocation file" -- \
    "$bin" sim --topology "$FT" --collective allreduce --algorithm ring --ranks 4 --placement file:/nonexistent
# --barrier: 8 ranks on an 8-ring of 1 us links; the 0-byte rounds to r+1, r+2, r+4 cross
# 1 + 2 + 4 links: time_s grows by 7 us, messages by 8 x 3, bytes not at all
R8="torus dims=8 local_bw=25GBps local_lat=1us"
plain=$("$bin" sim --topology "$R8" --collective allreduce --algorithm ring --ranks 8 --no-header)
barrier=$("$bin" sim --topology "$R8" --collective allreduce --algorithm ring --ranks 8 --no-header --barrier)
check "barrier model column" 0 ",linear,cm02 barrier=true," -- echo "$barrier"
delta=$(printf '%s\n%s\n' "$plain" "$barrier" |
        awk -F, 'NR == 1 {t = $10; b = $14; m = $18; s = $19}
                 NR == 2 {printf "%.4e %d %d %d\n", $10 - t, $14 - b, $18 - m, $19 - s}')
check "barrier adds 7 us, no bytes, 24 messages, 3 steps" 0 "^7.0000e-06 0 24 3$" -- echo "$delta"
# --workload (alltoallv block sizes, the same text as verify's): blocks uniform on
# [0, 4 KiB] instead of --size 8KiB split evenly (1 KiB blocks) change time and bytes;
# algbw_Bps is then the mean bytes a rank sends per second
A2AV="--collective alltoallv --algorithm pairwise --ranks 8 --size 8KiB --no-header"
even=$("$bin" sim --topology "$R8" $A2AV)
uneven=$("$bin" sim --topology "$R8" $A2AV --workload uniform:S=4KiB:seed=1)
constant=$("$bin" sim --topology "$R8" $A2AV --workload constant:S=1KiB)
# "same" / "differ" per column (time_s, algbw_Bps, bytes_local) of two rows
compare() {
    printf '%s\n%s\n' "$1" "$2" | awk -F, 'NR == 1 {t = $10; a = $11; b = $14}
        NR == 2 {print ($10 == t ? "same" : "differ"), ($11 == a ? "same" : "differ"),
                       ($14 == b ? "same" : "differ")}'
}
check "workload changes time and bytes" 0 "^differ differ differ$" -- compare "$even" "$uneven"
check "workload constant:S=1KiB = --size 8KiB" 0 "^same same same$" -- compare "$even" "$constant"
check "bad workload" 2 "collsim sim: --workload: unknown workload 'bogus' (allowed: constant, uniform" -- \
    "$bin" sim --topology "$R8" $A2AV --workload bogus:S=1KiB
check "workload missing key" 2 "collsim sim: --workload: workload uniform: missing S" -- \
    "$bin" sim --topology "$R8" $A2AV --workload uniform:seed=1
check "workload not alltoallv" 2 "for --collective alltoallv only (got allreduce)" -- \
    "$bin" sim --topology "$R8" --collective allreduce --algorithm ring --ranks 8 --workload uniform:S=1KiB

# ---- the labelled summary: --format text, the default on a terminal (CSV through a pipe) ----
# Bine Fig. 1 again: 6n on global links (n = 1 MiB), a binomial tree on 8 ranks sends 7
# messages in log2(8) = 3 steps.
simsum() {
    "$bin" sim --topology "$FT" --collective bcast --algorithm binomial_halving --ranks 8 \
        --size 1MiB "$@"
}
check "text: global bytes" 0 "^  global bytes  6 MiB " -- simsum --format text
check "text: messages and steps" 0 "^  messages      7 in 3 steps" -- simsum --format text
check "text: model" 0 "^  model         cm02" -- simsum --format text
# the time and algbw lines say what the CSV row says, with units
csv_t=$(simsum --no-header | awk -F, '{printf "%.4g us", $10 * 1e6}')
check "text: time as the CSV's time_s" 0 "^  time          $csv_t " -- simsum --format text
csv_bw=$(simsum --no-header | awk -F, '{printf "%.4g GB/s", $11 / 1e9}')
check "text: algbw as the CSV's" 0 "^  algbw         $csv_bw " -- simsum --format text
check "text: traffic model has no time" 0 "^  time          - (this model counts bytes only)" -- \
    simsum --model traffic --format text
check "text with per-rank" 2 "--per-rank goes with --format csv or json, not text" -- \
    simsum --format text --per-rank
check "bad format" 2 "unknown format 'xml' (allowed: text, csv, json)" -- simsum --format xml
if command -v script >/dev/null 2>&1; then
    SUM="'$bin' sim --topology '$FT' --collective bcast --algorithm binomial_halving --ranks 8"
    script -qc "$SUM" /dev/null > "$tmp/tty.txt" 2>&1
    check "terminal: the summary" 0 "^  busbw " -- cat "$tmp/tty.txt"
    script -qc "$SUM --format csv" /dev/null > "$tmp/tty.txt" 2>&1
    check "terminal with --format csv: CSV" 0 "^topology,collective," -- cat "$tmp/tty.txt"
else
    echo "skip terminal summary (no script(1))"
fi
rm -rf "$tmp"
exit $fail
