#!/bin/sh
# sim_scale.sh - wall time, CPU time and peak memory of the SimGrid simulator at scale, and
# SMPI (smpirun) on the same platforms side by side.
#
# Target (issue #4): a 16,384-rank Rabenseifner allreduce of 1 MiB on a ~16K-host
# Dragonfly under 60 s and 4 GiB on a 2-core machine. Default topology: dragonfly p=8
# a=16 h=8 (g = a*h+1 = 129 groups, 16,512 hosts, 8 per router, 16 routers per group;
# minimal routes local-global-local); SIM_SCALE_TOPOLOGY overrides it.
#
# Side by side: smpirun (SMPI's MPICH Rabenseifner, smpi/allreduce:rab_rdb, computation
# not simulated, SMPI_SHARED_MALLOC buffers) against collsim --model smpi (rabenseifner,
# free local ops) on the same platform, a Dragonfly p=4 a=8 with h chosen so that it has
# at least P hosts, for P = 1024, 2048, ... as long as SMPI's estimated memory (2.8 MB per
# rank, measured) fits in SMPI_MAX_MEM_GB (default 8) and the machine's available memory.
#
# Also: the traffic model (no SimGrid, streaming) at 2^20 ranks on a 2^20-host fat tree
# (4096 leaves of 256 hosts, 16:1 tapered, 16 spines).
#
# The machine may be shared: the load average is printed before and after, and CPU time
# (user + system) is the figure that does not depend on the other jobs.
#
# usage: scripts/bench/sim_scale.sh [--quick]   (--quick: P = 4096 on a 4,160-host
#                                                Dragonfly, traffic at 2^16, SMPI at 1024)
#        BENCH_RUNS=3 for medians.
. "$(dirname "$0")/common.sh"
P=16384
TOPO=${SIM_SCALE_TOPOLOGY:-"dragonfly p=8 a=16 h=8"}
SMPI_PS="1024 2048 4096 8192 16384"
BIG=1048576; BIG_TOPO="fattree radix=4096 leaves=4096 hosts_per_leaf=256 oversub=16:1 spines=16"
if [ "${1:-}" = "--quick" ]; then
    P=4096; TOPO=${SIM_SCALE_TOPOLOGY:-"dragonfly p=8 a=8 h=8"}; SMPI_PS=1024
    BIG=65536; BIG_TOPO="fattree radix=512 leaves=256 hosts_per_leaf=256 oversub=16:1 spines=16"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLLSIM_CACHE_DIR=${COLLSIM_CACHE_DIR:-$WORK/cache}   # platforms emitted fresh
bench_build
echo "sim_scale: $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg), git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
bench_time "collsim allreduce rabenseifner 1MiB P=$P ($TOPO, cm02)" \
    "$COLLSIM" sim --topology "$TOPO" --collective allreduce --algorithm rabenseifner \
    --ranks "$P" --size 1MiB --no-header
bench_time "collsim allreduce rabenseifner 1MiB P=$BIG (traffic model)" \
    "$COLLSIM" sim --topology "$BIG_TOPO" --collective allreduce --algorithm rabenseifner \
    --ranks "$BIG" --size 1MiB --model traffic --no-header

command -v smpirun >/dev/null || { echo "smpirun not found: no side-by-side run"; exit 0; }
smpicc -O2 "$ROOT/scripts/smpi/coll_time.c" -o "$WORK/coll_time" 2>/dev/null
max_mb=$(( ${SMPI_MAX_MEM_GB:-8} * 1024 ))
for p in $SMPI_PS; do
    need_mb=$(( p * 28 / 10 ))
    avail_mb=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
    if [ "$need_mb" -gt "$max_mb" ] || [ "$need_mb" -gt $((avail_mb * 3 / 4)) ]; then
        echo "SMPI P=$p skipped: needs ~${need_mb} MiB (cap ${max_mb} MiB, ${avail_mb} MiB available)"
        break
    fi
    topo="dragonfly p=4 a=8 h=$(( (p / 32 + 6) / 8 ))"   # 32 (8h + 1) >= p hosts
    i=0; : > "$WORK/hosts"
    while [ $i -lt "$p" ]; do echo "h$i" >> "$WORK/hosts"; i=$((i + 1)); done
    "$COLLSIM" sim --topology "$topo" --collective bcast --algorithm linear --ranks 2 \
        --model traffic --emit-platform "$WORK/platform.xml" >/dev/null
    bench_time "smpirun allreduce rab_rdb 1MiB P=$p ($topo)" \
        smpirun -np "$p" -platform "$WORK/platform.xml" -hostfile "$WORK/hosts" \
        --cfg=smpi/allreduce:rab_rdb --cfg=smpi/simulate-computation:no \
        --cfg=smpi/privatization:0 --log=root.thres:critical "$WORK/coll_time" allreduce 1048576
    smpi_wall=$BENCH_WALL smpi_cpu=$BENCH_CPU smpi_rss=$BENCH_RSS_MIB
    bench_time "collsim allreduce rabenseifner 1MiB P=$p ($topo, smpi)" \
        "$COLLSIM" sim --topology "$topo" --collective allreduce --algorithm rabenseifner \
        --ranks "$p" --size 1MiB --model smpi --reduce-rate free --copy-rate free --no-header
    awk -v p="$p" -v sw="$smpi_wall" -v sc="$smpi_cpu" -v sr="$smpi_rss" -v cw="$BENCH_WALL" \
        -v cc="$BENCH_CPU" -v cr="$BENCH_RSS_MIB" 'BEGIN {
        printf "    P=%d  smpirun / collsim: wall x%.1f, cpu x%.1f, memory x%.1f\n", p, sw / cw,
               sc / cc, sr / cr }'
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
