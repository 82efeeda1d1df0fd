#!/bin/sh
# packet_scale.sh - speed and memory of the packet model's engines at scale: Rabenseifner
# allreduce (64 KiB, 16 MiB) and pairwise alltoall (64 KiB) on balanced Dragonflies
# (a = 2p = 2h) at P = 256, 1,024, 4,096 and 16,384, minimal and UGAL routing, under the
# loop engine (the default) and, where it finishes within ACTORS_TIMEOUT seconds, the
# actors engine it replaced (--packet-engine actors). Prints one CSV row per run:
#   P,topology,collective,algorithm,size,routing,engine,status,packet_hops,cpu_s,
#   hops_per_cpu_s,peak_rss_mib,sim_time_s,setup_cpu_s,engine_cpu_s,engine_hops_per_cpu_s
# The figures are the simulator's own (`collsim sim --verbose`: packet_hops counted by the
# model, CPU seconds and peak RSS of the simulating process; under the loop engine also
# the CPU seconds before its first event, setup_cpu_s, and inside its event loop,
# engine_cpu_s, empty under the actors engine), so a loaded machine shows in wall time
# but hardly in the per-CPU-second rate (other jobs' cache pressure still inflates it). status: ok, or timeout / error (figures
# empty). Run it under nice; the largest points take minutes.
# usage: scripts/bench/packet_scale.sh [> results/packet-scale/packet_scale.csv]
#   PS="256 1024"  the rank counts (default: 256 1024 4096 16384)
#   CASES="rab64k rab16m a2a64k"  (default: all three)
#   ROUTINGS="minimal ugal"  ENGINES="loop actors"
#   LOOP_TIMEOUT=1800 ACTORS_TIMEOUT=600  seconds of wall time per run (--point-timeout)
#   ACTORS_MAX_P=4096  the actors engine only up to this P (it hits the kernel's limit of
#   memory mappings past about 32K actors: /work/shared/SIMGRID-NOTES.md)
#   NO_BUILD=1  use build/collsim as it is (default: build it first, common.sh);
#   COLLSIM_BIN=PATH  another binary (a copy, so that rebuilding does not change it midway)
set -eu
. "$(dirname "$0")/common.sh"
[ "${NO_BUILD:-0}" = 1 ] || bench_build
COLLSIM=${COLLSIM_BIN:-$COLLSIM}
PS=${PS:-"256 1024 4096 16384"}
CASES=${CASES:-"rab64k rab16m a2a64k"}
ROUTINGS=${ROUTINGS:-"minimal ugal"}
ENGINES=${ENGINES:-"loop actors"}
LOOP_TIMEOUT=${LOOP_TIMEOUT:-1800}
ACTORS_TIMEOUT=${ACTORS_TIMEOUT:-600}
ACTORS_MAX_P=${ACTORS_MAX_P:-4096}

topology_of() { # P -> the smallest balanced Dragonfly with at least P hosts
    case $1 in
    256) echo "dragonfly p=3 a=6 h=3" ;;      # 342 hosts
    1024) echo "dragonfly p=4 a=8 h=4" ;;     # 1,056 hosts
    4096) echo "dragonfly p=6 a=12 h=6" ;;    # 5,256 hosts
    16384) echo "dragonfly p=8 a=16 h=8" ;;   # 16,512 hosts
    *) echo "packet_scale.sh: no Dragonfly for P=$1 (256, 1024, 4096, 16384)" >&2; exit 2 ;;
    esac
}

echo "P,topology,collective,algorithm,size,routing,engine,status,packet_hops,cpu_s,hops_per_cpu_s,peak_rss_mib,sim_time_s,setup_cpu_s,engine_cpu_s,engine_hops_per_cpu_s"
for P in $PS; do
    topo=$(topology_of "$P")
    for case in $CASES; do
        case $case in
        rab64k) coll=allreduce alg=rabenseifner size=64KiB ;;
        rab16m) coll=allreduce alg=rabenseifner size=16MiB ;;
        a2a64k) coll=alltoall alg=pairwise size=64KiB ;;
        *) echo "packet_scale.sh: unknown case '$case' (rab64k, rab16m, a2a64k)" >&2; exit 2 ;;
        esac
        for routing in $ROUTINGS; do
            for engine in $ENGINES; do
                timeout=$LOOP_TIMEOUT
                if [ "$engine" = actors ]; then
                    timeout=$ACTORS_TIMEOUT
                    [ "$P" -le "$ACTORS_MAX_P" ] || continue
                fi
                out=$("$COLLSIM" sim --topology "$topo" --collective "$coll" --algorithm "$alg" \
                    --ranks "$P" --size "$size" --model packet --routing "$routing" \
                    --packet-engine "$engine" --point-timeout "$timeout" --verbose \
                    --no-header 2>&1) || true
                printf '%s\n' "$out" | awk -v P="$P" -v topo="$topo" -v coll="$coll" \
                    -v alg="$alg" -v size="$size" -v r="$routing" -v e="$engine" '
                    /^collsim sim: sim_wall_s=/ {
                        for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
                        figures = 1; next }
                    /^dragonfly/ { n = split($0, f, ","); t = f[10] }
                    /--point-timeout/ { status = "timeout" }
                    END {
                        if (figures && t != "") {
                            printf "%s,\"%s\",%s,%s,%s,%s,%s,ok,%d,%.2f,%.0f,%.0f,%s", P, topo,
                                coll, alg, size, r, e, v["packet_hops"], v["sim_cpu_s"],
                                v["packet_hops"] / v["sim_cpu_s"], v["sim_peak_rss_kb"] / 1024, t
                            if (v["packet_engine_cpu_s"] > 0)
                                printf ",%.2f,%.2f,%.0f\n", v["packet_setup_cpu_s"],
                                    v["packet_engine_cpu_s"],
                                    v["packet_hops"] / v["packet_engine_cpu_s"]
                            else
                                printf ",,,\n"
                        } else
                            printf "%s,\"%s\",%s,%s,%s,%s,%s,%s,,,,,,,,\n", P, topo, coll, alg,
                                size, r, e, status ? status : "error" }'
            done
        done
    done
done
