#!/bin/sh
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
