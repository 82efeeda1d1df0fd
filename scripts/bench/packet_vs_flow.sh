#!/bin/sh
# packet_vs_flow.sh - the packet model (minimal, adaptive / ugal routing) against the flow
# model (cm02) on small cases; prints the CSV results/packet-vs-flow/packet_vs_flow.csv, of
# which scripts/packet_vs_flow_table.py prints the table of results/packet-vs-flow/README.md:
#   scripts/bench/packet_vs_flow.sh > results/packet-vs-flow/packet_vs_flow.csv
set -eu
. "$(dirname "$0")/common.sh"
bench_build
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
