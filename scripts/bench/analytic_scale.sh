#!/bin/sh
# analytic_scale.sh - speed and memory of the analytic model (--model analytic):
# Rabenseifner allreduce of 1 MiB on a Dragonfly of 1,048,576 hosts (p=32 a=64 h=16 g=512:
# 512 groups of 64 routers, 2 global links per group pair), P = 2^10 .. 2^20 ranks placed
# linearly. Prints the simulating process's wall and CPU seconds and peak RSS
# (`collsim sim --verbose`) and the estimated time, as CSV; a loaded machine shows in
# wall_s, not in cpu_s (load1: the 1-minute load average when the point started; the
# machine has `nproc` cores). The issue's target: P = 2^20 under 60 s and 4 GiB.
# Usage: scripts/bench/analytic_scale.sh [MIN_EXP] [MAX_EXP]   (10 20)
set -eu
. "$(dirname "$0")/common.sh"
[ -x "$COLLSIM" ] || bench_build
LO=${1:-10}
HI=${2:-20}
TOPO="dragonfly p=32 a=64 h=16 g=512"
echo "ranks,wall_s,cpu_s,peak_rss_mib,time_s,steps,load1"
e=$LO
while [ "$e" -le "$HI" ]; do
    P=$(awk -v e="$e" 'BEGIN { printf "%d", 2 ^ e }')
    load=$(cut -d' ' -f1 /proc/loadavg)
    "$COLLSIM" sim --topology "$TOPO" --collective allreduce --algorithm rabenseifner \
        --ranks "$P" --size 1MiB --model analytic --verbose --no-header 2>&1 |
        awk -F, -v P="$P" -v load="$load" '
            /^collsim sim: sim_wall_s=/ {
                n = split($0, w, " ")
                for (i = 3; i <= n; i++) { split(w[i], kv, "="); v[kv[1]] = kv[2] }
                next }
            NF > 19 { t = $10; steps = $19; next }
            { other = other $0 "\n" }
            END { if (!("sim_wall_s" in v)) { printf "analytic_scale.sh: P=%d: no figures from collsim sim:\n%s", P, other > "/dev/stderr"; exit 1 }
                  printf "%d,%.2f,%.2f,%.1f,%.6g,%d,%s\n", P, v["sim_wall_s"], v["sim_cpu_s"],
                         v["sim_peak_rss_kb"] / 1024, t, steps, load }'
    e=$((e + 1))
done
