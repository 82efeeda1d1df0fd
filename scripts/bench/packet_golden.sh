#!/bin/sh
<<<<<<< HEAD
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
COLLSIM_CACHE_DIR=$(mktemp -d)
export COLLSIM_CACHE_DIR
trap 'rm -rf "$COLLSIM_CACHE_DIR"' EXIT
DF="dragonfly p=4 a=8 h=4"
point() { # a name, then collsim sim's options
    name=$1
    shift
    printf '== %s\n' "$name"
    "$bin" sim --model packet --format csv --no-header "$@" 2>&1 |
        awk -F, -v OFS=, 'NF >= 21 { $20 = ""; $21 = "" } { print }' || echo "exit $?"
}
point "1 rabenseifner 64KiB minimal P=1024" --topology "$DF" --collective allreduce \
    --algorithm rabenseifner --ranks 1024 --size 64KiB --per-rank
point "2 rabenseifner 1MiB ugal P=1024" --topology "$DF" --collective allreduce \
    --algorithm rabenseifner --ranks 1024 --size 1MiB --routing ugal --per-rank
point "3 torus adaptive" --topology "torus dims=8x8" --collective allreduce \
    --algorithm rabenseifner --ranks 64 --size 1MiB --routing adaptive --per-rank
point "4 fat tree ecmp alltoall" --topology "fattree levels=2 radix=8" --collective alltoall \
    --algorithm pairwise --ranks 32 --size 256KiB --routing ecmp --per-rank
point "5 small buffers, round robin" --topology "dragonfly p=1 a=4 h=2" \
    --collective allgather --algorithm ring --ranks 9 --size 1MiB --placement roundrobin \
    --mtu 1KiB --buffer 2KiB --per-rank
point "6 actors engine" --topology "torus dims=4x4" --collective allreduce \
    --algorithm rabenseifner --ranks 16 --size 256KiB --packet-engine actors --per-rank
point "7 endpoint costs, eager limit" --topology "$DF" --collective allreduce \
    --algorithm recursive_doubling --ranks 256 --size 64KiB --send-overhead 1us \
    --recv-overhead 500ns --msg-gap 100ns --envelope 64B --eager-limit 4KiB --per-rank
point "8 dependencies (ring_recv_ahead)" --topology "$DF" --collective allreduce \
    --algorithm ring_recv_ahead --ranks 64 --size 1MiB --per-rank
point "9 four ranks per host, barrier" --topology "hyperx dims=4x4 T=2" \
    --collective allreduce --algorithm recursive_doubling --ranks 128 --ranks-per-node 4 \
    --size 256KiB --routing adaptive --barrier --per-rank
point "10 two jobs" --topology "$DF" \
    --job 'name=a,coll=allreduce,alg=rabenseifner,ranks=256,hosts=0-255,size=1MiB' \
    --job 'name=b,coll=alltoall,alg=pairwise,ranks=64,hosts=512-575,size=256KiB' \
    --routing ugal
=======
# packet_golden.sh - the packet model's outputs on ten small points, for comparing two
# builds byte for byte while the engine is reworked without changing its semantics
# (issue 25): minimal, UGAL, adaptive and ECMP routing, small buffers and MTUs that do not
# divide the messages, endpoint costs with rendezvous, two jobs sharing a Dragonfly, and
# the actors engine. Prints each point's CSV rows without the run's own wall time and
# memory (sim_wall_s, sim_peak_rss_kb), and its packet-hop count.
# usage: scripts/bench/packet_golden.sh COLLSIM > out.txt
#   then: diff out_before.txt out_after.txt  (no output: the same results)
set -eu
bin=$1
DF="dragonfly p=2 a=4 h=2"
point() { # label, collsim sim arguments...
    label=$1
    shift
    out=$("$bin" sim --verbose "$@" 2>&1) || { echo "$label: FAILED: $out"; return; }
    printf '%s\n' "$out" | awk -v l="$label" -F, '
        /^collsim sim: / { n = split($0, w, " ")
                           for (i = 3; i <= n; i++) if (w[i] ~ /^packet_hops=/) print l ": " w[i]
                           next }
        !hdr { hdr = 1; for (i = 1; i <= NF; i++) skip[i] = $i ~ /^sim_(wall_s|peak_rss_kb)$/
               next }
        { s = ""; for (i = 1; i <= NF; i++) if (!skip[i]) s = s (s == "" ? "" : ",") $i
          print l ": " s }'
}
point "df-minimal" --topology "$DF" --collective allreduce --algorithm rabenseifner --ranks 72 \
    --size 4MiB --model packet --routing minimal
point "df-ugal" --topology "$DF" --collective allreduce --algorithm rabenseifner --ranks 72 \
    --size 4MiB --model packet --routing ugal
point "df-ugal-a2a" --topology "$DF" --collective alltoall --algorithm pairwise --ranks 72 \
    --size 300KiB --model packet --routing ugal --placement roundrobin
point "torus-adaptive" --topology "torus dims=6x6" --collective allreduce \
    --algorithm recursive_doubling --ranks 36 --size 1MiB --model packet --routing adaptive
point "fattree-ecmp" --topology "fattree leaves=4 hosts_per_leaf=4 spines=4" \
    --collective alltoall --algorithm pairwise --ranks 16 --size 1MiB --model packet --routing ecmp
point "hyperx-small-buffers" --topology "hyperx dims=4x4 T=2" --collective allgather \
    --algorithm ring --ranks 32 --size 3000000 --model packet --routing adaptive \
    --mtu 1000 --buffer 2500
point "dfplus-ugal" --topology "dragonflyplus p=4 leaves=2 spines=2 g=4" \
    --collective allreduce --algorithm rabenseifner --ranks 32 --size 2MiB --model packet \
    --routing ugal
point "df-endpoint-rdv" --topology "$DF" --collective allreduce --algorithm ring --ranks 64 \
    --size 1MiB --model packet --routing adaptive --send-overhead 1us --recv-overhead 1us \
    --envelope 64B --eager-limit 8KiB
point "df-jobs-ugal" --topology "$DF" --model packet --routing ugal \
    --job 'coll=allreduce,alg=rabenseifner,ranks=32,size=2MiB' \
    --job 'pattern=uniform,ranks=32,size=64KiB,rounds=3'
point "df-actors" --topology "$DF" --collective allreduce --algorithm rabenseifner --ranks 32 \
    --size 1MiB --model packet --routing ugal --packet-engine actors
>>>>>>> pkhot
