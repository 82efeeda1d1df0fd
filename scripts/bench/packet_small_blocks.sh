#!/bin/sh
# packet_small_blocks.sh - the packet model on an all-to-all of small blocks, where ports
# hold thousands of packets waiting for credits (src/sim/packet_queue.c says why this was
# once quadratic): spread-out alltoallv on Polaris, 32 ranks per node, block sizes uniform
# on [0, S], every message posted at once. Prints the simulator's own figures
# (`collsim sim --verbose`): packet-hops, wall and CPU seconds, hops per CPU second, peak
# memory. Polaris without its endpoint costs (endpoint=none: the packet model takes no
# eager limit yet). Usage: scripts/bench/packet_small_blocks.sh [P...] (512 1024; the paper's 2048
# takes 2-5 minutes a point).
set -eu
. "$(dirname "$0")/common.sh"
bench_build
[ $# -gt 0 ] || set -- 512 1024
printf '%-6s %-6s %12s %9s %9s %14s %9s\n' P S packet_hops wall_s cpu_s hops_per_cpu_s rss_MiB
for P in "$@"; do
    for S in 16B 1KiB; do
        "$COLLSIM" sim --topology "$ROOT/platforms/polaris.yaml endpoint=none" --collective alltoallv \
            --algorithm spread_out --ranks "$P" --ranks-per-node 32 \
            --workload "uniform:S=$S:seed=1" --model packet --verbose --no-header 2>&1 >/dev/null |
            awk -v P="$P" -v S="$S" '
                /^collsim sim: sim_wall_s=/ {
                    for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                    printf "%-6s %-6s %12d %9.2f %9.2f %14.0f %9.1f\n", P, S, v["packet_hops"],
                           v["sim_wall_s"], v["sim_cpu_s"], v["packet_hops"] / v["sim_cpu_s"],
                           v["sim_peak_rss_kb"] / 1024
                    found = 1 }
                END { if (!found) { print "packet_small_blocks.sh: no figures from collsim sim" > "/dev/stderr"; exit 1 } }'
    done
done
