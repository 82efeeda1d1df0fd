#!/bin/sh
# scripts/packet_vs_flow_table.py on a hand-made CSV whose answers are derived here: the
# fat-tree overstatement sentence takes the fat-tree rows with ECMP only (not a torus row,
# not a fat-tree row of another routing) and splits flow / packet ECMP into the models'
# sharing (flow / packet minimal) and the routing (packet minimal / packet ECMP).
# usage: packet_vs_flow_table.sh PATH/TO/collsim   (run from the source tree; binary unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d)
H="topology,collective,algorithm,ranks,size,placement,routing2,flow_s,packet_minimal_s,packet_routing2_s"
{
    echo "$H"
    echo "\"torus dims=8x8\",allreduce,ring,64,1MiB,linear,adaptive,9,1,1"
    # flow / ECMP 3 and 8; flow / minimal 2 and 2; minimal / ECMP 1.5 and 4
    echo "\"fattree leaves=2 hosts_per_leaf=2 spines=2\",allreduce,rabenseifner,4,1MiB,linear,ecmp,6,3,2"
    echo "\"fattree leaves=4 hosts_per_leaf=4 spines=4\",alltoall,pairwise,16,1MiB,linear,ecmp,8,4,1"
    echo "\"fattree leaves=4 hosts_per_leaf=4 spines=4\",alltoall,pairwise,16,1MiB,linear,adaptive,100,1,1"
} > "$tmp/a.csv"
S="python3 scripts/packet_vs_flow_table.py"
check "overstatement over the ECMP fat-tree rows only" 0 \
    "Fat tree with ECMP (2 rows, P = 4, 16): the flow model's time is 3.00x to 8.00x the packet model's with per-flow ECMP (flow / packet ECMP); of that, 2.00x comes from the models' sharing on the same routes (flow / packet minimal) and 1.50x to 4.00x from the routing (packet minimal / packet ECMP)." \
    -- $S "$tmp/a.csv"
check "row percentages" 0 "| 6000000.0 | 3000000.0 (-50.0 %) | 2000000.0 (-66.7 %) |" -- $S "$tmp/a.csv"
head -2 "$tmp/a.csv" > "$tmp/b.csv"
out=$($S "$tmp/b.csv")
case $out in *"Fat tree"*) echo "FAIL a sentence without fat-tree rows"; fail=1;;
*) echo "ok   no fat-tree rows, no sentence";; esac
rm -rf "$tmp"
exit $fail
