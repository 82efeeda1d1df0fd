#!/bin/sh
# CLI test: `collsim sim --model packet` and its options (docs/packet-model.md).
# usage: packet.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
export COLLSIM_CACHE_DIR="$tmp/cache"
LINE="torus dims=4 local_bw=1GBps local_lat=1us"
# 2 links, 4 packets of 4 KiB: 2 x 1 us + (4 + 2 - 1) x 4096 B / 1 GB/s = 22.48 us
check "packet p2p closed form" 0 ",packet,2.248[01]e-05," -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --dst 2 \
    --size 16KiB --model packet --mtu 4KiB --buffer 64KiB --no-header
check "adaptive routing" 0 ",packet," -- \
    "$bin" sim --topology "torus dims=4x4" --collective allreduce --algorithm recursive_doubling \
    --ranks 16 --size 256KiB --model packet --routing adaptive --no-header
check "ugal on a torus" 2 "ugal needs a dragonfly" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --routing ugal
check "bad routing" 2 "allowed: minimal, adaptive, ugal" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --routing valiant
check "buffer below mtu" 2 "must hold one packet" -- \
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 4 --model packet --mtu 8KiB --buffer 4KiB
rm -rf "$tmp"
exit $fail
