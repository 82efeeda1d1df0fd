#!/bin/sh
# CLI test: built-in algorithms written with dependencies (issue 27): they verify (full
# engine) and their times follow from the pattern on an uncongested ring of 200 Gb/s,
# 100 ns links: one message of s bytes between neighbours takes 100 ns + s / 25 GB/s.
# usage: deps_algorithms.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
check "ring_recv_ahead verifies" 0 "11 ok, 0 failed" -- \
    "$bin" verify --collective allreduce --algorithm ring_recv_ahead --ranks 2..12 --size 1000B
check "chain_pipelined verifies" 0 "11 ok, 0 failed" -- \
    "$bin" verify --collective bcast --algorithm chain_pipelined --ranks 2..12 --size 1000B --param segment=100B
check "chain_pipelined, other root" 0 "1 ok, 0 failed" -- \
    "$bin" verify --collective bcast --algorithm chain_pipelined --ranks 7 --root 3 --size 1MiB
check "bad segment" 2 "segment must be at least 1 byte" -- \
    "$bin" verify --collective bcast --algorithm chain_pipelined --ranks 4 --param segment=0
# a pipelined chain of n segments takes n + P - 2 segment times (each segment one hop
# behind the one before, a segment time = 100 ns + 65536 B / 25 GB/s = 2721.44 ns)
for P in 2 4 8; do
    t=$("$bin" sim --topology "torus dims=$P" --collective bcast --algorithm chain_pipelined \
        --ranks $P --size 1MiB --param segment=64KiB --no-header | cut -d, -f10)
    check "chain P=$P: (16 + P - 2) segment times" 0 "^ok$" -- awk -v t="$t" -v p=$P \
        'BEGIN { e = (16 + p - 2) * 2721.44e-9; d = (t - e) / e; print (d < 1e-6 && d > -1e-6) ? "ok" : "bad " t " vs " e }'
done
# the ring with receives posted ahead takes the ring's 2 (P - 1) message times plus its
# P - 1 reduces (1 MiB / P bytes each at 10 GB/s): the posted receive changes nothing
for P in 4 8; do
    t=$("$bin" sim --topology "torus dims=$P" --collective allreduce --algorithm ring_recv_ahead \
        --ranks $P --size 1MiB --no-header | cut -d, -f10)
    check "ring_recv_ahead P=$P: 2 (P-1) messages + (P-1) reduces" 0 "^ok$" -- awk -v t="$t" -v p=$P \
        'BEGIN { s = 1048576 / p; e = 2 * (p - 1) * (100e-9 + s / 25e9) + (p - 1) * s / 10e9; d = (t - e) / e; print (d < 1e-6 && d > -1e-6) ? "ok" : "bad " t " vs " e }'
done
# the packet model runs it too, in the ring's time: a message moves once both ends are
# posted, so the receive posted ahead changes nothing there either
pk() { "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm "$1" --ranks 4 \
    --model packet --no-header | cut -d, -f10; }
ring=$(pk ring)
check "packet model: ring_recv_ahead in the ring's time" 0 "^$ring\$" -- pk ring_recv_ahead
exit $fail
