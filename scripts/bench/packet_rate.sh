#!/bin/sh
# packet_rate.sh - speed of the packet model (--model packet): simulated packet-hops per
# wall second and per CPU second, and peak memory, ring and recursive-doubling allreduce
# on a 64-node torus (8x8), minimal and adaptive routing. The figures are the simulator's
# own (`collsim sim --verbose`: packet_hops counted by the model, the simulating process's
# wall and CPU seconds and peak RSS), so a loaded machine shows in wall_s but not in the
# per-CPU-second rate. Usage: scripts/bench/packet_rate.sh [SIZE] (64MiB).
set -eu
. "$(dirname "$0")/common.sh"
bench_build
SIZE=${1:-64MiB}
printf '%-20s %-9s %12s %9s %9s %14s %14s %9s\n' algorithm routing packet_hops wall_s cpu_s \
    hops_per_wall_s hops_per_cpu_s rss_MiB
for alg in ring recursive_doubling; do
    for routing in minimal adaptive; do
        "$COLLSIM" sim --topology "torus dims=8x8" --collective allreduce --algorithm "$alg" \
            --ranks 64 --size "$SIZE" --model packet --routing "$routing" --verbose \
            --no-header 2>&1 >/dev/null |
            awk -v alg="$alg" -v r="$routing" '
                /^collsim sim: sim_wall_s=/ {
                    for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                    printf "%-20s %-9s %12d %9.2f %9.2f %14.0f %14.0f %9.1f\n", alg, r,
                           v["packet_hops"], v["sim_wall_s"], v["sim_cpu_s"],
                           v["packet_hops"] / v["sim_wall_s"], v["packet_hops"] / v["sim_cpu_s"],
                           v["sim_peak_rss_kb"] / 1024
                    found = 1 }
                END { if (!found) { print "packet_rate.sh: no figures from collsim sim" > "/dev/stderr"; exit 1 } }'
    done
done
