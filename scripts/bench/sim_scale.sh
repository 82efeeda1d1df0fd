#!/bin/sh
# sim_scale.sh - wall time, CPU time and peak memory of the SimGrid simulator at scale, and
# SMPI (smpirun) running MPI code on the same platform side by side.
#
# Target (issue #4): a 16,384-rank Rabenseifner allreduce of 1 MiB on a ~16K-host
# Dragonfly under 60 s and 4 GiB on a 2-core machine. Default topology: dragonfly p=8
# a=16 h=8 (g = a*h+1 = 129 groups, 16,512 hosts, 8 per router, 16 routers per group;
# minimal routes local-global-local); SIM_SCALE_TOPOLOGY overrides it.
#
# Side by side (issue 28): scripts/smpi/rabenseifner.c, collsim's allreduce rabenseifner
# (order=farthest) written as MPI point-to-point code and built with smpicc, under smpirun
# (computation not simulated, SMPI_SHARED_MALLOC buffers) against collsim --model smpi
# rabenseifner (free local ops) on the same platform file: a 16x16 HyperX with 4 hosts
# per switch (SIM_SCALE_SMPI_TOPOLOGY), P = SMPI_PS (default 1024), each P as long as
# SMPI's estimated memory (2.8 MB per rank, measured) fits in SMPI_MAX_MEM_GB (default 8)
# and the machine's available memory. Both print the simulated time, so the two runs can
# be seen to simulate the same thing.
#
# Flow path (issue 28): the fixed cost of a point (bcast of 4 bytes) and the many-step
# algorithms (ring allreduce, pairwise alltoall, 1 MiB) at FLOW_PS (default 1024) on the
# same HyperX (grown to 32x32 for P > 1024). Part "floor" (not run by default): the ring's
# messages in a plain SimGrid program (scripts/bench/sg_ring_floor.c), what SimGrid alone
# costs under collsim's ring allreduce.
#
# Flow engines (issue 28): FLOW_ENGINES (default "simgrid loop") runs the flow part under
# each engine of the cm02 model (--flow-engine: SimGrid's network model, or collsim's own
# fluid network in the loop engine, rows of model "cm02 loop"), and the side by side adds
# collsim --model cm02 --flow-engine loop (the loop engine reproduces cm02, not smpi's
# factors: its simulated time differs from smpirun's by SMPI's latency and bandwidth
# factors and cross-traffic).
#
# Also: the traffic model (no SimGrid, streaming) at 2^20 ranks on a 2^20-host fat tree
# (4096 leaves of 256 hosts, 16:1 tapered, 16 spines).
#
# With SIM_SCALE_CSV=FILE every measured run is also a row of FILE (case, tool, P,
# topology, model, simulated_s, wall_s, cpu_s, peak_rss_mib); scripts/sim_scale_table.py
# makes results/sim-scale/README.md's table from it. SIM_SCALE_PARTS (default "big flow
# smpi traffic") chooses the parts to run.
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
SMPI_PS=${SMPI_PS:-1024}
SMPI_TOPO=${SIM_SCALE_SMPI_TOPOLOGY:-"hyperx dims=16x16 T=4"}
FLOW_PS=${FLOW_PS:-1024}
PARTS=${SIM_SCALE_PARTS:-"big flow smpi traffic"}
FLOW_ENGINES=${FLOW_ENGINES:-"simgrid loop"}
CSV=${SIM_SCALE_CSV:-}
BIG=1048576; BIG_TOPO="fattree radix=4096 leaves=4096 hosts_per_leaf=256 oversub=16:1 spines=16"
if [ "${1:-}" = "--quick" ]; then
    P=4096; TOPO=${SIM_SCALE_TOPOLOGY:-"dragonfly p=8 a=8 h=8"}
    BIG=65536; BIG_TOPO="fattree radix=512 leaves=256 hosts_per_leaf=256 oversub=16:1 spines=16"
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLLSIM_CACHE_DIR=${COLLSIM_CACHE_DIR:-$WORK/cache}   # platforms emitted fresh
[ -z "$CSV" ] || [ -s "$CSV" ] ||
    echo "case,tool,P,topology,model,simulated_s,wall_s,cpu_s,peak_rss_mib" > "$CSV"
bench_build
echo "sim_scale: $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg), git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"

has_part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

# row CASE TOOL P TOPOLOGY MODEL SIMULATED: the last bench_time's figures as a CSV row.
row() {
    [ -n "$CSV" ] || return 0
    printf '%s,%s,%s,"%s",%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$BENCH_WALL" \
        "$BENCH_CPU" "$BENCH_RSS_MIB" >> "$CSV"
}

# collsim_point CASE COLLECTIVE ALGORITHM P SIZE TOPOLOGY MODEL [options...]
collsim_point() {
    c=$1 coll=$2 alg=$3 p=$4 size=$5 topo=$6 model=$7
    shift 7
    bench_time "collsim $coll $alg $size P=$p ($topo, $model)" \
        nice "$COLLSIM" sim --topology "$topo" --collective "$coll" --algorithm "$alg" \
        --ranks "$p" --size "$size" --model "$model" --format csv --no-header "$@"
    row "$c" collsim "$p" "$topo" "${ROW_MODEL:-$model}" "$(echo "$out" | cut -d, -f10)"
}

# flow_point CASE COLLECTIVE ALGORITHM P SIZE TOPOLOGY ENGINE [options...]: cm02 under ENGINE
flow_point() {
    fc=$1 fcoll=$2 falg=$3 fp=$4 fsize=$5 ftopo=$6 fe=$7
    shift 7
    if [ "$fe" = simgrid ]; then
        collsim_point "$fc" "$fcoll" "$falg" "$fp" "$fsize" "$ftopo" cm02 "$@"
    else
        ROW_MODEL="cm02 $fe" collsim_point "$fc" "$fcoll" "$falg" "$fp" "$fsize" "$ftopo" cm02 \
            --flow-engine "$fe" "$@"
    fi
}

if has_part big; then
    collsim_point big allreduce rabenseifner "$P" 1MiB "$TOPO" cm02
fi

if has_part flow; then
    for p in $FLOW_PS; do
        topo="hyperx dims=16x16 T=4"
        [ "$p" -gt 1024 ] && topo="hyperx dims=32x32 T=4"
        for e in $FLOW_ENGINES; do
            flow_point fixed bcast binomial_halving "$p" 4B "$topo" "$e"
            flow_point ring allreduce ring "$p" 1MiB "$topo" "$e"
            flow_point pairwise alltoall pairwise "$p" 1MiB "$topo" "$e"
        done
    done
fi

if has_part floor; then # SimGrid alone, the ring's messages without collsim (sg_ring_floor.c)
    cc -O2 "$ROOT/scripts/bench/sg_ring_floor.c" -o "$WORK/sg_ring_floor" -lsimgrid
    for p in $FLOW_PS; do
        topo="hyperx dims=16x16 T=4"
        [ "$p" -gt 1024 ] && topo="hyperx dims=32x32 T=4"
        "$COLLSIM" sim --topology "$topo" --collective bcast --algorithm linear --ranks 2 \
            --model traffic --emit-platform "$WORK/floor.xml" >/dev/null
        bench_time "SimGrid alone: ring of 1MiB/P, 2(P-1) steps, P=$p ($topo)" \
            nice "$WORK/sg_ring_floor" "$WORK/floor.xml" "$p" $((2 * (p - 1))) $((1048576 / p))
        row ring_floor simgrid "$p" "$topo" cm02 "$(echo "$out" | awk '{print $2}')"
    done
fi

if has_part smpi && command -v smpirun >/dev/null; then
    smpicc -O2 "$ROOT/scripts/smpi/rabenseifner.c" -o "$WORK/rabenseifner" 2>/dev/null
    max_mb=$(( ${SMPI_MAX_MEM_GB:-8} * 1024 ))
    "$COLLSIM" sim --topology "$SMPI_TOPO" --collective bcast --algorithm linear --ranks 2 \
        --model traffic --emit-platform "$WORK/platform.xml" >/dev/null
    for p in $SMPI_PS; do
        need_mb=$(( p * 28 / 10 ))
        avail_mb=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
        if [ "$need_mb" -gt "$max_mb" ] || [ "$need_mb" -gt $((avail_mb * 3 / 4)) ]; then
            echo "SMPI P=$p skipped: needs ~${need_mb} MiB (cap ${max_mb} MiB, ${avail_mb} MiB available)"
            break
        fi
        i=0; : > "$WORK/hosts"
        while [ $i -lt "$p" ]; do echo "h$i" >> "$WORK/hosts"; i=$((i + 1)); done
        bench_time "smpirun rabenseifner.c 1MiB P=$p ($SMPI_TOPO)" \
            nice smpirun -np "$p" -platform "$WORK/platform.xml" -hostfile "$WORK/hosts" \
            --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:0 \
            --log=root.thres:critical "$WORK/rabenseifner" 1048576
        row side_by_side smpirun "$p" "$SMPI_TOPO" smpi "$(echo "$out" | awk '{print $2}')"
        smpi_wall=$BENCH_WALL smpi_cpu=$BENCH_CPU smpi_rss=$BENCH_RSS_MIB
        collsim_point side_by_side allreduce rabenseifner "$p" 1MiB "$SMPI_TOPO" smpi \
            --reduce-rate free --copy-rate free
        awk -v p="$p" -v sw="$smpi_wall" -v sc="$smpi_cpu" -v sr="$smpi_rss" -v cw="$BENCH_WALL" \
            -v cc="$BENCH_CPU" -v cr="$BENCH_RSS_MIB" 'BEGIN {
            printf "    P=%d  smpirun / collsim: wall x%.1f, cpu x%.1f, memory x%.1f\n", p,
                   sw / cw, sc / cc, sr / cr }'
        case " $FLOW_ENGINES " in *" loop "*)
            flow_point side_by_side allreduce rabenseifner "$p" 1MiB "$SMPI_TOPO" loop \
                --reduce-rate free --copy-rate free
            awk -v p="$p" -v sw="$smpi_wall" -v sc="$smpi_cpu" -v sr="$smpi_rss" -v cw="$BENCH_WALL" \
                -v cc="$BENCH_CPU" -v cr="$BENCH_RSS_MIB" 'BEGIN {
                printf "    P=%d  smpirun / collsim cm02 loop: wall x%.1f, cpu x%.1f, memory x%.1f\n",
                       p, sw / cw, sc / cc, sr / cr }' ;;
        esac
    done
elif has_part smpi; then
    echo "smpirun not found: no side-by-side run"
fi

if has_part traffic; then
    collsim_point traffic allreduce rabenseifner "$BIG" 1MiB "$BIG_TOPO" traffic
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
