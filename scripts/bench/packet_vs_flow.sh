#!/bin/sh
# packet_vs_flow.sh - the packet model (minimal, adaptive / ugal routing) against the flow
# model (cm02) on small cases; prints the CSV results/packet-vs-flow/packet_vs_flow.csv, of
# which scripts/packet_vs_flow_table.py prints the table of results/packet-vs-flow/README.md:
#   scripts/bench/packet_vs_flow.sh > results/packet-vs-flow/packet_vs_flow.csv
# The packet model runs under its default engine (loop). NO_BUILD=1: use the binary as it
# is; COLLSIM_BIN=PATH: another binary. SECTIONS: which rows (default "small scale
# fattree fattree4096": P <= 64; Dragonflies at P = 1,024 and 4,096; the non-blocking fat
# trees of 1,024 and 4,096 hosts with ECMP). NO_HEADER=1: no header line, to append the
# rows of a section to an existing CSV:
#   SECTIONS=fattree4096 NO_HEADER=1 scripts/bench/packet_vs_flow.sh >> results/packet-vs-flow/packet_vs_flow.csv
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
SECTIONS=${SECTIONS:-"small scale fattree fattree4096"}
[ "${NO_HEADER:-0}" = 1 ] || echo "topology,collective,algorithm,ranks,size,placement,routing2,flow_s,packet_minimal_s,packet_routing2_s"
for section in $SECTIONS; do
    case $section in
    small)
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
        done ;;
    scale) # balanced Dragonflies of 1,056 and 5,256 hosts
        for P in 1024 4096; do
            if [ "$P" = 1024 ]; then df="dragonfly p=4 a=8 h=4"; else df="dragonfly p=6 a=12 h=6"; fi
            row "$df" allreduce rabenseifner $P 1MiB linear ugal
            row "$df" alltoall pairwise $P 64KiB linear ugal
        done ;;
    fattree) # a two-level fat tree of 1,024 hosts, per-flow ECMP as the second routing
        ft="fattree leaves=32 hosts_per_leaf=32 spines=32 radix=64"
        row "$ft" allreduce rabenseifner 1024 1MiB linear ecmp
        row "$ft" alltoall pairwise 1024 1MiB linear ecmp ;;
    fattree4096) # non-blocking two-level fat tree of 4,096 hosts: 64 leaves of 64 hosts, 64
        # spines (every leaf has one uplink to every spine), per-flow ECMP as the second routing
        ft="fattree leaves=64 hosts_per_leaf=64 spines=64 radix=128"
        row "$ft" allreduce rabenseifner 4096 1MiB linear ecmp
        row "$ft" alltoall pairwise 4096 1MiB linear ecmp ;;
    *) echo "packet_vs_flow.sh: unknown section '$section' (small, scale, fattree, fattree4096)" >&2; exit 2 ;;
    esac
done
