#!/bin/sh
# shared_dragonfly.sh - issue 29's first study: on a Dragonfly, an allreduce "victim" shares
# the routers, local and global links of its groups with an alltoall "bully" (every other
# host of groups 0-7 each); the victim runs Bine (bine_bandwidth), Rabenseifner or ring.
# Each run is one `collsim sim --job victim --job bully` (flow model cm02): the victim's and
# the bully's rows, each with its time alone on the same hosts and its slowdown. Prints the
# CSV results/shared-dragonfly/shared_dragonfly.csv (collsim's job rows, one header), of
# which scripts/shared_dragonfly_table.py prints the table of the README:
#   scripts/bench/shared_dragonfly.sh > results/shared-dragonfly/shared_dragonfly.csv
# SECTIONS (default "shared control packet"): shared = the bully on the victim's routers,
# loads 0.5 and 1, victim sizes 256KiB, 1MiB, 4MiB; control = the bully alone in group 8,
# which no minimal route of the victim crosses (slowdown 1 expected), 1MiB; packet = the
# shared case at load 1 and 1MiB under the packet model, minimal and UGAL-L routing.
# NO_BUILD=1: use the binary as it is; COLLSIM_BIN=PATH: another binary.
set -eu
. "$(dirname "$0")/common.sh"
[ "${NO_BUILD:-0}" = 1 ] || bench_build
COLLSIM=${COLLSIM_BIN:-$COLLSIM}
DF="dragonfly p=2 a=4 h=2"         # 9 groups of 4 routers x 2 hosts, one global link per pair
EVEN=$(seq -s, 0 2 63)              # the victim: host 0 of every router of groups 0-7
ODD=$(seq -s, 1 2 63)               # the bully: host 1 of the same routers
header=1
run() { # algorithm size bully-hosts bully-ranks load [model options]
    "$COLLSIM" sim --topology "$DF" --format csv ${6:-} \
        --job "name=victim,coll=allreduce,alg=$1,ranks=32,hosts=[$EVEN],size=$2,start=100us" \
        --job "name=bully,pattern=alltoall,ranks=$4,hosts=[$3],size=16KiB,load=$5,duration=3ms" |
        if [ $header = 1 ]; then cat; else tail -n +2; fi
    header=0
}
for section in ${SECTIONS:-shared control packet}; do
    case $section in
    shared)
        for load in 0.5 1; do
            for size in 256KiB 1MiB 4MiB; do
                for alg in bine_bandwidth rabenseifner ring; do
                    run $alg $size "$ODD" 32 $load
                done
            done
        done ;;
    control)
        for alg in bine_bandwidth rabenseifner ring; do
            run $alg 1MiB 64-71 8 1
        done ;;
    packet)
        for routing in minimal ugal; do
            for alg in bine_bandwidth rabenseifner ring; do
                run $alg 1MiB "$ODD" 32 1 "--model packet --routing $routing"
            done
        done ;;
    *) echo "unknown section '$section' (allowed: shared control packet)" >&2; exit 2 ;;
    esac
done
