#!/bin/sh
# shared_dragonfly.sh - issue 29's first study: on a Dragonfly, an allreduce "victim" shares
# the routers, local and global links of its groups with an alltoall "bully" (every other
# host of groups 0-7 each); the victim runs Bine (bine_bandwidth), Rabenseifner or ring.
# Each run is one `collsim sim --job victim --job bully` (flow model cm02): the victim's and
# the bully's rows, each with its time alone on the same hosts and its slowdown. Prints the
# CSV results/shared-dragonfly/shared_dragonfly.csv (collsim's job rows, one header), of
# which scripts/shared_dragonfly_table.py prints the table of the README:
#   scripts/bench/shared_dragonfly.sh > results/shared-dragonfly/shared_dragonfly.csv
# NO_BUILD=1: use the binary as it is; COLLSIM_BIN=PATH: another binary.
set -eu
. "$(dirname "$0")/common.sh"
[ "${NO_BUILD:-0}" = 1 ] || bench_build
COLLSIM=${COLLSIM_BIN:-$COLLSIM}
DF="dragonfly p=2 a=4 h=2"         # 9 groups of 4 routers x 2 hosts, one global link per pair
EVEN=$(seq -s, 0 2 63)              # the victim: host 0 of every router of groups 0-7
ODD=$(seq -s, 1 2 63)               # the bully: host 1 of the same routers
header=1
for load in 0.5 1; do
    for size in 256KiB 1MiB 4MiB; do
        for alg in bine_bandwidth rabenseifner ring; do
            "$COLLSIM" sim --topology "$DF" --format csv \
                --job "name=victim,coll=allreduce,alg=$alg,ranks=32,hosts=[$EVEN],size=$size,start=100us" \
                --job "name=bully,pattern=alltoall,ranks=32,hosts=[$ODD],size=16KiB,load=$load,duration=3ms" |
                if [ $header = 1 ]; then cat; else tail -n +2; fi
            header=0
        done
    done
done
