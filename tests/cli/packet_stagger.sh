#!/bin/sh
# CLI test: why the packet model with minimal routing can finish a butterfly sooner than
# the flow model (docs/packet-model.md, "Packet vs flow: staggered completions"), pinned
# by closed forms. Default links: 200 Gb/s (bw = 25e9 B/s), 100 ns; 4 KiB packets
# (s / bw = 163.84 ns).
#   1. k flows sharing a link: the flow model ends them together, at H lat + k N s / bw;
#      the packet model serves them a packet each in turn, so the i-th (0-based) ends at
#      H lat + (k N - (k - 1 - i) + H - 1) s / bw: staggered by one packet.
#   2. Butterfly steps that reuse the same links: no step can overlap another's
#      bottleneck, and both models give the sum over steps of 16 x bytes / bw + H lat.
#   3. The same steps, each on other links (fat-tree routing picks spine (l1 + l2) mod
#      spines, so each step has its own uplinks): the flow model still gives that sum
#      (all flows of a step end together); the packet model's first finishers start the
#      next step alone on its idle links and keep their lead, so steps of different
#      ranks overlap and the last rank ends sooner (more than 1 % here).
# usage: packet_stagger.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
lua="$(dirname "$0")/../data/packet_stagger.lua"
use_tmp
# the per-rank finish times (last column, ';'-separated), one per line
finish() { "$bin" sim "$@" --no-header --per-rank | awk -F, '{ print $NF }' | tr ';' '\n'; }
# GOT within REL of WANT? prints both; exits 0 if so
near() { awk -v got="$1" -v want="$2" -v rel="$3" 'BEGIN { d = got / want - 1;
    printf "%.9g vs %.9g\n", got, want; if (d < 0) d = -d; exit !(d <= rel) }'; }
below() { awk -v got="$1" -v bound="$2" 'BEGIN { printf "%.9g < %.9g\n", got, bound;
    exit !(got < bound) }'; }
check "comparison refuses a planted 1e-6 error" 1 "vs" -- near 1.000001 1 1e-7
check "bound refuses a planted equal value" 1 "<" -- below 2 2

# 1. bcast linear, 4 ranks on one leaf: the root's 3 messages of N = 16 packets share
#    its host link; H = 2 links
one="fattree leaves=1 hosts_per_leaf=4 spines=1 radix=8"
s=1.6384e-7 lat=1e-7
finish --topology "$one" --collective bcast --algorithm linear --ranks 4 --size 64KiB \
    --model cm02 > "$tmp/flow"
finish --topology "$one" --collective bcast --algorithm linear --ranks 4 --size 64KiB \
    --model packet > "$tmp/packet"
for r in 1 2 3; do
    want=$(awk -v s=$s -v lat=$lat 'BEGIN { printf "%.12g", 2 * lat + 3 * 16 * s }')
    check "flow: rank $r ends with the others" 0 "vs" -- \
        near "$(sed -n "$((r + 1))p" "$tmp/flow")" "$want" 1e-9
    want=$(awk -v s=$s -v lat=$lat -v i=$((r - 1)) \
        'BEGIN { printf "%.12g", 2 * lat + (3 * 16 - (2 - i) + 1) * s }')
    check "packet: rank $r's message ends one packet after the previous" 0 "vs" -- \
        near "$(sed -n "$((r + 1))p" "$tmp/packet")" "$want" 1e-9
done

# 2 and 3. 128 ranks on 8 leaves of 16, 3 exchanges of 512, 256, 128 KiB between leaves
#    (16 flows per uplink and step; H = 4 links)
ft="fattree leaves=8 hosts_per_leaf=16 spines=16 radix=32"
sum=$(awk -v lat=$lat 'BEGIN { printf "%.12g", 16 * (524288 + 262144 + 131072) / 25e9 + 3 * 4 * lat }')
for same in 1 0; do
    for model in cm02 packet; do
        finish --lua "$lua" --topology "$ft" --collective bcast --algorithm stagger \
            --ranks 128 --size 1MiB --param same=$same --model $model | sort -g > "$tmp/$model"
    done
    check "same=$same: flow model = sum of the steps' bottlenecks" 0 "vs" -- \
        near "$(tail -n 1 "$tmp/cm02")" "$sum" 1e-9
    if [ $same = 1 ]; then
        check "same links every step: packet model's last rank = that sum (0.5 %)" 0 "vs" -- \
            near "$(tail -n 1 "$tmp/packet")" "$sum" 0.005
    else
        check "other links every step: packet model's last rank > 1 % sooner" 0 "<" -- \
            below "$(tail -n 1 "$tmp/packet")" "$(awk -v t="$sum" 'BEGIN { print 0.99 * t }')"
    fi
done
rm -rf "$tmp"
exit $fail
