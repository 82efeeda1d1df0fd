#!/bin/sh
# packet_vs_flow.sh - the packet model (minimal, adaptive / ugal routing) against the flow
# model (cm02) on small cases; prints the CSV results/packet-vs-flow/packet_vs_flow.csv, of
# which scripts/packet_vs_flow_table.py prints the table of results/packet-vs-flow/README.md:
#   scripts/bench/packet_vs_flow.sh > results/packet-vs-flow/packet_vs_flow.csv
# The packet model runs under its default engine (loop). NO_BUILD=1: use the binary as it
# is; COLLSIM_BIN=PATH: another binary. SMALL_ONLY=1: only the P <= 64 rows.
set -eu
. "$(dirname "$0")/common.sh"
[ "${NO_BUILD:-0}" = 1 ] || bench_build
COLLSIM=${COLLSIM_BIN:-$COLLSIM}
t() { # topology collective algorithm P size placement model [routing] -> time_s
    "$COLLSIM" sim --topology "$1" --collective "$2" --algorithm "$3" --ranks "$4" --size "$5" \
        --placement "$6" --model "$7" ${8:+--routing "$8"} --no-header | cut -d, -f10
}
row() { # topology collective algorithm P size placement second-routing
    f=$(t "$1" "$2" "$3" "$4" "$5" "$6" cm02)
    m=$(t "$1" "$2" "$3" "$4" "$5" "$6" packet minimal)
    a=$(t "$1" "$2" "$3" "$4" "$5" "$6" packet "$7")
    echo "\"$1\",$2,$3,$4,$5,$6,$7,$f,$m,$a"
}
echo "topology,collective,algorithm,ranks,size,placement,routing2,flow_s,packet_minimal_s,packet_routing2_s"
for s in 1MiB 16MiB; do
    row "torus dims=16" allreduce ring 16 $s linear adaptive
done
for s in 1MiB 16MiB; do
    row "torus dims=8x8" allreduce recursive_doubling 64 $s linear adaptive
    row "torus dims=8x8" allreduce rabenseifner 64 $s linear adaptive
done
for s in 1MiB 16MiB; do
    row "dragonfly p=1 a=4 h=2" allreduce recursive_doubling 32 $s linear ugal
    row "dragonfly p=1 a=4 h=2" allgather ring 36 $s roundrobin ugal
done
[ "${SMALL_ONLY:-0}" = 1 ] && exit 0
# at scale: balanced Dragonflies of 1,056 and 5,256 hosts, and a two-level fat tree of
# 1,024 hosts with per-flow ECMP as the second routing
for P in 1024 4096; do
    if [ "$P" = 1024 ]; then df="dragonfly p=4 a=8 h=4"; else df="dragonfly p=6 a=12 h=6"; fi
    row "$df" allreduce rabenseifner $P 1MiB linear ugal
    row "$df" alltoall pairwise $P 64KiB linear ugal
done
row "fattree leaves=32 hosts_per_leaf=32 spines=32" allreduce rabenseifner 1024 1MiB linear ecmp
row "fattree leaves=32 hosts_per_leaf=32 spines=32" alltoall pairwise 1024 1MiB linear ecmp
