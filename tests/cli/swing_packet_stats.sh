#!/bin/sh
# scripts/swing_packet_stats.py on a small hand-made pair of CSVs (packet minimal + adaptive,
# flow) whose right answers are derived here: per-size winners and Swing's gains under each
# model, a point of one model only (packet minimal has no 128 MiB), an algorithm timed out
# under one model (left out under all three at that size), a flow algorithm the packet run
# lacks (left out), another topology in the flow CSV (skipped), the paper-conclusion rows;
# then planted faults that must be refused (a time below the busiest link's floor, a
# duplicate point, another routing, another topology, reductions not free), and
# results/packet-swing-torus/README.md against its CSV (and a copy with one time changed).
# usage: swing_packet_stats.sh PATH/TO/collsim   (run from the source tree; binary unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
H="point,id,status,topology,collective,algorithm,params,ranks,size_bytes,model,reduce_Bps,copy_Bps,time_s,max_link_bytes"
T="platforms/swing-torus.yaml dims=64x64"
M="packet routing=minimal mtu=4096 buffer=65536" A="packet routing=adaptive mtu=4096 buffer=65536"
# 32 B: SL = swing_latency, RD = recursive_doubling_torus, RDm = the same ports=multi
#   flow SL 30 RD 45 RDm 40 us -> SL; gains 45/30 = 1.50 (paper), 40/30 = 1.33 (set)
#   minimal SL 30 RD 60 RDm 20 -> RDm (changed); 60/30 = 2.00, 20/30 = 0.67
#   adaptive as flow
# 2 MiB: SB = swing_bandwidth, RDB = rabenseifner_torus, bucket; RDBm timed out (minimal)
#   flow SB 100 RDB 250 bucket 120 (RDBm 90: left out) -> SB; 120/100 = 1.20; RD 2.50
#   minimal SB 100 RDB 250 bucket 80 -> bucket (changed); 0.80
#   adaptive SB 100 RDB 200 bucket 150 -> SB; 1.50; RD 200/100 = 2.00
# 128 MiB: flow and adaptive only; flow's RDB (500, faster) is not a packet point: left out
#   flow SB 1000 bucket 900 -> bucket, 0.90; adaptive SB 1000 bucket 1100 -> SB, 1.10
pk() { echo "$1,x,$2,$T,allreduce,$3,$4,4096,$5,$6,0,0,$7,$8"; }
{
    echo "$H"
    for m in "$M" "$A"; do
        pk 1 ok swing_latency "" 32 "$m" 3e-05 0
        pk 2 ok recursive_doubling_torus "" 32 "$m" "$([ "$m" = "$M" ] && echo 6e-05 || echo 4.5e-05)" 0
        pk 3 ok recursive_doubling_torus ports=multi 32 "$m" "$([ "$m" = "$M" ] && echo 2e-05 || echo 4e-05)" 0
        pk 4 ok swing_bandwidth "" 2097152 "$m" 1e-04 1000000
    done
    pk 5 ok rabenseifner_torus "" 2097152 "$M" 2.5e-04 5000000
    pk 6 ok rabenseifner_torus "" 2097152 "$A" 2e-04 4000000
    pk 7 ok bucket "" 2097152 "$M" 8e-05 100
    pk 8 ok bucket "" 2097152 "$A" 1.5e-04 100
    pk 9 timeout rabenseifner_torus ports=multi 2097152 "$M" "" ""
    pk 10 ok rabenseifner_torus ports=multi 2097152 "$A" 9e-05 100
    pk 11 ok swing_bandwidth "" 134217728 "$A" 1e-03 100
    pk 12 ok bucket "" 134217728 "$A" 1.1e-03 100
} > "$tmp/packet.csv"
fl() { echo "$1,x,ok,$T,allreduce,$2,$3,4096,$4,cm02,0,0,$5,0"; }
{
    echo "$H"
    fl 1 swing_latency "" 32 3e-05
    fl 2 recursive_doubling_torus "" 32 4.5e-05
    fl 3 recursive_doubling_torus ports=multi 32 4e-05
    fl 4 swing_bandwidth "" 2097152 1e-04
    fl 5 rabenseifner_torus "" 2097152 2.5e-04
    fl 6 bucket "" 2097152 1.2e-04
    fl 7 rabenseifner_torus ports=multi 2097152 9e-05
    fl 8 swing_bandwidth "" 134217728 1e-03
    fl 9 bucket "" 134217728 9e-04
    fl 10 rabenseifner_torus "" 134217728 5e-04
    echo "11,x,ok,platforms/swing-hyperx.yaml,allreduce,bucket,,4096,32,cm02,0,0,1e-09,0"
} > "$tmp/flow.csv"
S="python3 scripts/swing_packet_stats.py $tmp/packet.csv $tmp/flow.csv"
check "winners 32 B: a changed winner under minimal" 0 \
    "| 32 B | 3 | swing_latency (1.50x / 1.33x) | recursive_doubling_torus+multi (2.00x / 0.67x)\* | swing_latency (1.50x / 1.33x) |" -- $S winners
check "winners 2 MiB: a timed-out algorithm left out under every model" 0 \
    "| 2 MiB | 3 | swing_bandwidth (1.20x / 1.20x) | bucket (0.80x / 0.80x)\* | swing_bandwidth (1.50x / 1.50x) |" -- $S winners
check "winners 128 MiB: no minimal rows, flow's extra algorithm left out" 0 \
    "| 128 MiB | 2 | bucket (0.90x / 0.90x) | - | swing_bandwidth (1.10x / 1.10x)\* |" -- $S winners
check "paper: flow" 0 \
    "| flow (cm02) | 32 B..128 MiB (3) | 2 MiB (first loss 128 MiB) | 128 MiB (by 10.0 %) | 1.20x | 2.50x | 1.50x | 1.50x (32 B) | 1.20x | none |" -- $S paper
check "paper: packet minimal" 0 \
    "| packet minimal | 32 B..2 MiB (2) | 32 B (first loss 2 MiB) | 2 MiB (by 20.0 %) | 0.80x | 2.50x | 2.00x | 2.00x (32 B) | 1.40x | 32 B |" -- $S paper
check "paper: packet adaptive" 0 \
    "| packet adaptive | 32 B..128 MiB (3) | 128 MiB | never | 1.50x | 2.00x | 1.50x | 1.50x (32 B) | 1.50x | none |" -- $S paper
check "speed: ratios and busiest links that differ" 0 \
    "| rabenseifner_torus | 2 MiB | 250.0 | 250.0 | 200.0 | 1.000 | 0.800 | 0.800 | 100.0 / 80.0 |" -- $S speed
check "speed: one packet routing only" 0 \
    "| swing_bandwidth | 128 MiB | 1000.0 | - | 1000.0 | - | 1.000 | - | 0.0 |" -- $S speed
# busiest links (max_link_bytes, last field): flow 0 everywhere; minimal 0 at 32 B (3
# points), not at 2 MiB (SB 1000000, RDB 5000000, bucket 100; RDBm timed out): 3 of 6
check "speed: busiest link flow = minimal" 0 "flow = packet minimal (the same routes): 3 of 6 points" -- $S speed
check "speed: a point not ok is listed" 0 \
    "left out: packet minimal rabenseifner_torus+multi 2 MiB, status timeout" -- $S speed
out=$($S speed)
case $out in *"hyperx"*|*"| recursive_doubling_torus+multi | 2 MiB"*)
    echo "FAIL speed shows a skipped row"; fail=1;;
*) echo "ok   speed skips the other topology";; esac
# planted faults, one at a time in copies of packet.csv
bad() {  # NAME PATTERN SED-SCRIPT
    sed "$3" "$tmp/packet.csv" > "$tmp/bad.csv"
    check "$1" 1 "$2" -- python3 scripts/swing_packet_stats.py "$tmp/bad.csv" "$tmp/flow.csv"
}
bad "time below the busiest link refused" "bad.csv:5: time_s 1e-05 is below the busiest link" \
    '5s/,1e-04,1000000$/,1e-05,1000000/'
bad "duplicate point refused" "bad.csv:3: the point minimal swing_latency 32 B again (first at line 2)" \
    '3s/recursive_doubling_torus,,/swing_latency,,/'
bad "another routing refused" "bad.csv:2: model 'packet routing=ecmp" 's/routing=minimal/routing=ecmp/'
bad "another topology refused" "bad.csv:2: topology 'platforms/swing-torus.yaml dims=8x8' (allowed" \
    '2s/dims=64x64/dims=8x8/'
bad "reductions not free refused" "bad.csv:2: reductions / copies not free" '2s/,0,0,3e-05/,1e9,0,3e-05/'
check "unknown section" 2 "unknown section 'nope' (allowed: speed, winners, paper)" -- $S nope
grep -v dims=64x64 "$tmp/flow.csv" > "$tmp/hyperx.csv"
check "no flow row of the 64x64 torus" 1 "hyperx.csv: no ok row of the 64x64 torus (flow (cm02))" -- \
    python3 scripts/swing_packet_stats.py "$tmp/packet.csv" "$tmp/hyperx.csv"
sed 's/,2097152,/,4096,/; s/,134217728,/,8192,/; s/,32,/,64,/' "$tmp/flow.csv" > "$tmp/other.csv"
check "no common point" 1 "no point of .*packet.csv is also in" -- \
    python3 scripts/swing_packet_stats.py "$tmp/packet.csv" "$tmp/other.csv"
# the README's generated sections are what the script prints from the CSV beside it ...
dir=results/packet-swing-torus
check "README matches its CSVs" 0 "ok" -- python3 scripts/check_generated.py --file $dir/README.md
# ... and a changed time in a copy of the CSV is caught
csv=$dir/swing_torus_packet/results.csv
awk -F, 'NR == 2 { $21 = $21 * 1.5 } { print }' OFS=, $csv > "$tmp/changed.csv"
sed "s|$csv|$tmp/changed.csv|" $dir/README.md > "$tmp/README.md"
check "README against a changed time" 1 "" -- python3 scripts/check_generated.py --file "$tmp/README.md"
exit $fail
