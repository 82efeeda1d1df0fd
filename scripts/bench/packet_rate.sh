#!/bin/sh
# packet_rate.sh - speed of the packet model (--model packet): simulated packet-hops per
# wall second and peak memory, ring and recursive-doubling allreduce on a 64-node torus
# (8x8), minimal and adaptive routing. Packet-hops = bytes on links / mtu (every message
# here is a multiple of the mtu). Usage: scripts/bench/packet_rate.sh [SIZE] (64MiB).
set -eu
. "$(dirname "$0")/common.sh"
bench_build
SIZE=${1:-64MiB}
printf '%-20s %-9s %12s %9s %14s %9s\n' algorithm routing packet_hops wall_s hops_per_s rss_MiB
for alg in ring recursive_doubling; do
    for routing in minimal adaptive; do
        "$COLLSIM" sim --topology "torus dims=8x8" --collective allreduce --algorithm "$alg" \
            --ranks 64 --size "$SIZE" --model packet --routing "$routing" --no-header |
            awk -F, -v alg="$alg" -v r="$routing" '{
                hops = ($13 + $14 + $15) / 4096
                printf "%-20s %-9s %12d %9.2f %14.0f %9.1f\n", alg, r, hops, $20, hops / $20, $21 / 1024 }'
    done
done
