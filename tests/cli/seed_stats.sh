#!/bin/sh
# The verdicts of the seed-experiment statistics scripts (scripts/bine_mn5_stats.py,
# scripts/kautz_large_stats.py, scripts/pico_stats.py) on small hand-made CSVs whose
# right answer is derived here: a CSV that matches the paper's anchor within the
# tolerance gives "reproduced", the same CSV with one planted wrong number does not.
# usage: seed_stats.sh PATH/TO/collsim   (run from the source tree; the binary is unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d)
H="status,model,collective,algorithm,ranks,ranks_per_node,size_bytes,placement,dst,topology"
H="$H,time_s,bytes_host,bytes_local,bytes_intergroup_msgs,max_link_bytes,messages,steps"

# --- pico_stats.py, tracer (PICO Fig. 9: doubling 5n / 122n, halving 90n / 37n) -------
# n = 1 MiB; 127 sends of n each, so bytes_host = 2 x 127 n; external = intergroup bytes
n=1048576
pico() { # DD_EXTERNAL_N DH_EXTERNAL_N > csv
    echo "$H"
    for a in "binomial_doubling $1" "binomial_halving $2"; do
        set -- $a
        echo "ok,traffic,bcast,$1,128,1,$n,alloc:scenarios/pico_alloc/leonardo_128_chunks4.txt,1,platforms/leonardo.yaml,,$((254 * n)),0,$(($2 * n)),0,127,7"
    done
}
pico 122 37 > "$tmp/pico_ok.csv"
pico 60 37 > "$tmp/pico_bad.csv"        # planted: doubling sends half as much outside
check "pico: Fig. 9 numbers give reproduced" 0 "chunks4: doubling 122 n, halving 37 n external: \*\*reproduced" -- \
    python3 scripts/pico_stats.py "$tmp/pico_ok.csv"
check "pico: internal = sends - external" 0 "| chunks4 | 23 | binomial_doubling | 5.00 | 122.00 | 96 |" -- \
    python3 scripts/pico_stats.py "$tmp/pico_ok.csv"
check "pico: planted wrong external is caught" 0 "chunks4: doubling 60 n, halving 37 n external: \*\*partial" -- \
    python3 scripts/pico_stats.py "$tmp/pico_bad.csv"

# --- kautz_large_stats.py, p2p (Fig. 3.9: speed-up (2d^2+d-2)/(3(d+1))) ----------------
# d = 4 (P = 20): (32 + 4 - 2) / 15 = 2.2667
kautz() { # MULTIPATH_TIME > csv (single path 2.2667 s)
    echo "$H"
    echo "ok,cm02,p2p,kautz_shortest,20,1,1000,linear,5,k,2.2667,0,0,0,0,1,2"
    echo "ok,cm02,p2p,kautz_multipath,20,1,1000,linear,5,k,$1,0,0,0,0,4,3"
}
kautz 1.0 > "$tmp/kautz_ok.csv"
kautz 2.0 > "$tmp/kautz_bad.csv"         # planted: multi-path barely faster
check "kautz: closed-form speed-up gives reproduced" 0 "| 4 | 1 | 2.27 | 2.27 .. 2.27 | 2.27 | reproduced |" -- \
    python3 scripts/kautz_large_stats.py "$tmp/kautz_ok.csv"
check "kautz: planted slow multi-path is caught" 0 "| 4 | 1 | 1.13 | 1.13 .. 1.13 | 2.27 | not reproduced |" -- \
    python3 scripts/kautz_large_stats.py "$tmp/kautz_bad.csv"

# --- bine_mn5_stats.py, Table 5 allreduce row (paper: 80 % wins, 2 % traffic saved) -----
# 5 configurations: Bine 2x faster in 4, equal in 1 -> 80 % wins, 0 % losses; traffic:
# reduce-scatter Bine 98 vs recursive doubling 100 -> 2 %
mn5() { # BINE_RS_TRAFFIC > csv
    echo "$H"
    for s in 32 256 2048 16384 131072; do
        tb=1.0; [ $s = 131072 ] && tb=2.0
        echo "ok,cm02,allreduce,bine_bandwidth,64,1,$s,f,1,m,$tb,0,0,0,0,1,1"
        echo "ok,cm02,allreduce,rabenseifner,64,1,$s,f,1,m,2.0,0,0,0,0,1,1"
    done
    echo "ok,traffic,reduce_scatter,bine,64,1,1,f,1,m,,0,0,$1,0,1,1"
    echo "ok,traffic,reduce_scatter,recursive_doubling,64,1,1,f,1,m,,0,0,100,0,1,1"
}
mn5 98 > "$tmp/mn5_ok.csv"
mn5 50 > "$tmp/mn5_bad.csv"             # planted: Bine halves the traffic (paper: 2 %)
check "mn5: Table 5 allreduce row gives reproduced" 0 "| allreduce | 5 | 80 \\\\| 80 | 100/100 \\\\| 9/46 | 0 \\\\| 2 | / \\\\| 6/6 | 2/2 \\\\| 2/11 | reproduced |" -- \
    python3 scripts/bine_mn5_stats.py "$tmp/mn5_ok.csv"
check "mn5: planted traffic is caught" 0 "| allreduce | .* | 50/50 \\\\| 2/11 | partial (off: traffic) |" -- \
    python3 scripts/bine_mn5_stats.py "$tmp/mn5_bad.csv"

rm -rf "$tmp"
exit $fail
