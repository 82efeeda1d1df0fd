#!/bin/sh
# packet_golden.sh - ten packet-model points whose whole output (CSV row with per-rank
# finish times) must not change when the model's setup or rank side is made faster: run
# it with the binary before and after a change and compare the two outputs (`cmp`). It
# checks nothing itself (the expected output is whatever the earlier binary printed).
# The points cover minimal, UGAL, adaptive and ECMP routing, small buffers, the actors
# engine, endpoint costs with an eager limit (rendezvous), a schedule with dependencies,
# several ranks per host, a barrier, and several jobs (--job).
# The columns sim_wall_s and sim_peak_rss_kb (20 and 21, measurements of the run) are
# blanked.
# usage: scripts/bench/packet_golden.sh [PATH/TO/collsim] > out.txt
#   default binary build/collsim; the platform cache goes to a fresh temporary directory
set -eu
bin=${1:-build/collsim}
. "$(dirname "$0")/common.sh"
golden_start "--model packet"
DF="dragonfly p=4 a=8 h=4"
golden_point "1 rabenseifner 64KiB minimal P=1024" --topology "$DF" --collective allreduce \
    --algorithm rabenseifner --ranks 1024 --size 64KiB --per-rank
golden_point "2 rabenseifner 1MiB ugal P=1024" --topology "$DF" --collective allreduce \
    --algorithm rabenseifner --ranks 1024 --size 1MiB --routing ugal --per-rank
golden_point "3 torus adaptive" --topology "torus dims=8x8" --collective allreduce \
    --algorithm rabenseifner --ranks 64 --size 1MiB --routing adaptive --per-rank
golden_point "4 fat tree ecmp alltoall" --topology "fattree levels=2 radix=8" --collective alltoall \
    --algorithm pairwise --ranks 32 --size 256KiB --routing ecmp --per-rank
golden_point "5 small buffers, round robin" --topology "dragonfly p=1 a=4 h=2" \
    --collective allgather --algorithm ring --ranks 9 --size 1MiB --placement roundrobin \
    --mtu 1KiB --buffer 2KiB --per-rank
golden_point "6 actors engine" --topology "torus dims=4x4" --collective allreduce \
    --algorithm rabenseifner --ranks 16 --size 256KiB --packet-engine actors --per-rank
golden_point "7 endpoint costs, eager limit" --topology "$DF" --collective allreduce \
    --algorithm recursive_doubling --ranks 256 --size 64KiB --send-overhead 1us \
    --recv-overhead 500ns --msg-gap 100ns --envelope 64B --eager-limit 4KiB --per-rank
golden_point "8 dependencies (ring_recv_ahead)" --topology "$DF" --collective allreduce \
    --algorithm ring_recv_ahead --ranks 64 --size 1MiB --per-rank
golden_point "9 four ranks per host, barrier" --topology "hyperx dims=4x4 T=2" \
    --collective allreduce --algorithm recursive_doubling --ranks 128 --ranks-per-node 4 \
    --size 256KiB --routing adaptive --barrier --per-rank
golden_point "10 two jobs" --topology "$DF" \
    --job 'name=a,coll=allreduce,alg=rabenseifner,ranks=256,hosts=0-255,size=1MiB' \
    --job 'name=b,coll=alltoall,alg=pairwise,ranks=64,hosts=512-575,size=256KiB' \
    --routing ugal
