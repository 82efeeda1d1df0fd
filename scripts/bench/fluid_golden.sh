#!/bin/sh
# fluid_golden.sh - loop flow engine points (`--flow-engine loop`, docs/simulator.md "Flow
# engines") whose whole output (CSV row with per-rank finish times) must not change when
# the engine, the rank side or the event loop is made faster: run it with the binary
# before and after a change and compare the two outputs (`cmp`). It checks nothing itself
# (the expected output is whatever the earlier binary printed); packet_golden.sh is the
# same for the packet model, which shares the loop, the ranks and the event heap.
# The points: every family the speed work targets (ring and Rabenseifner allreduce,
# pairwise alltoall, Bine allreduce) at P = 64, 256 and 1,024 on the 16x16 HyperX with 4
# hosts per switch and on a Dragonfly, plus several ranks per host (the loopback),
# endpoint costs with an eager limit, a schedule with dependencies, a barrier, local
# reduce costs and two jobs (--job); then every built-in algorithm (`collsim list`) at
# P = 12 on a small Dragonfly, without and with endpoint costs, and at P = 16 with dims 4x4
# (as tests/test_fluid_equal.c's battery; points an algorithm refuses print their error,
# which must not change either).
# The columns sim_wall_s and sim_peak_rss_kb (20 and 21, measurements of the run) are
# blanked.
# usage: scripts/bench/fluid_golden.sh [PATH/TO/collsim] > out.txt
#   default binary build/collsim; the platform cache goes to a fresh temporary directory
set -eu
bin=${1:-build/collsim}
. "$(dirname "$0")/common.sh"
golden_start "--flow-engine loop"
HX="hyperx dims=16x16 T=4"
DF="dragonfly p=4 a=8 h=4"
for P in 64 256 1024; do
    for ca in "allreduce ring" "allreduce rabenseifner" "alltoall pairwise" \
        "allreduce bine_bandwidth"; do
        set -- $ca
        golden_point "$1 $2 P=$P hyperx" --topology "$HX" --collective "$1" --algorithm "$2" \
            --ranks "$P" --size 1MiB --per-rank
    done
done
golden_point "ring P=256 dragonfly" --topology "$DF" --collective allreduce --algorithm ring \
    --ranks 256 --size 256KiB --per-rank
golden_point "pairwise P=256 dragonfly" --topology "$DF" --collective alltoall --algorithm pairwise \
    --ranks 256 --size 256KiB --per-rank
golden_point "four ranks per host" --topology "hyperx dims=4x4 T=2" --collective allreduce \
    --algorithm ring --ranks 128 --ranks-per-node 4 --size 1MiB --per-rank
golden_point "endpoint costs, eager limit" --topology "$DF" --collective allreduce \
    --algorithm recursive_doubling --ranks 256 --size 64KiB --send-overhead 1us \
    --recv-overhead 500ns --msg-gap 100ns --envelope 64B --eager-limit 4KiB --per-rank
golden_point "dependencies (ring_recv_ahead)" --topology "$DF" --collective allreduce \
    --algorithm ring_recv_ahead --ranks 64 --size 1MiB --per-rank
golden_point "barrier, reduce rate" --topology "$HX" --collective allreduce \
    --algorithm rabenseifner --ranks 256 --size 4MiB --barrier --reduce-rate 5GBps --per-rank
golden_point "two jobs" --topology "$DF" \
    --job 'name=a,coll=allreduce,alg=rabenseifner,ranks=256,hosts=0-255,size=1MiB' \
    --job 'name=b,coll=alltoall,alg=pairwise,ranks=64,hosts=512-575,size=256KiB'
for ca in $("$bin" list | awk 'NF >= 2 { print $1 ":" $2 }'); do
    coll=${ca%%:*} alg=${ca#*:}
    golden_point "$coll $alg P=12" --topology "dragonfly p=1 a=4 h=2" --collective "$coll" \
        --algorithm "$alg" --ranks 12 --size 64KiB --per-rank
    golden_point "$coll $alg P=12 endpoint" --topology "dragonfly p=1 a=4 h=2" --collective "$coll" \
        --algorithm "$alg" --ranks 12 --size 64KiB --send-overhead 1us --eager-limit 4KiB \
        --envelope 64B --per-rank
    golden_point "$coll $alg P=16 dims=4x4" --topology "dragonfly p=1 a=4 h=2" --collective "$coll" \
        --algorithm "$alg" --ranks 16 --dims 4x4 --size 64KiB --per-rank
done
