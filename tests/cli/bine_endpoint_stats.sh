#!/bin/sh
# scripts/bine_endpoint_stats.py on a small hand-made results directory whose right
# answers are derived here: the variant of a row (off / on / on+o from the topology word
# endpoint=none and the model column), linear vs the best Bine algorithm, the Table 3 / 4
# pairs, and the check of the LUMI network-only rows against bine_lumi/ (a planted
# difference in one time_s must be counted as not identical).
# usage: bine_endpoint_stats.sh PATH/TO/collsim   (run from the source tree; binary unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d)
mkdir -p "$tmp/bine_lumi_endpoint" "$tmp/bine_lumi"
H="point,id,status,topology,collective,algorithm,params,ranks,size_bytes,model,time_s"
H="$H,bytes_host,bytes_local,bytes_global,bytes_intergroup_msgs,max_link_bytes,messages,steps"
T="0,0,0,0,0,1,1"  # traffic columns
LO="platforms/lumi.yaml endpoint=none" LE="platforms/leonardo.yaml"
EO="cm02 send_overhead=625ns recv_overhead=625ns eager_limit=18433"
EL="cm02 send_overhead=625ns recv_overhead=625ns msg_gap=4.651ns envelope=34"
{
    echo "$H"
    # gather, 16 nodes, 32 B: off linear 1 us vs Bine 2 us (0.50, linear faster);
    # LUMI on+o 10 us vs 5 us (2.00); Leonardo on 3 us vs 2 us (1.50); binomial 4 us
    echo "1,a1,ok,$LO,gather,linear,,16,32,cm02,1e-06,$T"
    echo "2,a2,ok,$LO,gather,bine,,16,32,cm02,2e-06,$T"
    echo "3,a3,ok,$LO,gather,binomial,,16,32,cm02,4e-06,$T"
    echo "4,b1,ok,platforms/lumi.yaml,gather,linear,,16,32,$EO,1e-05,$T"
    echo "5,b2,ok,platforms/lumi.yaml,gather,bine,,16,32,$EO,5e-06,$T"
    echo "6,b3,ok,platforms/lumi.yaml,gather,binomial,,16,32,$EO,5e-06,$T"
    echo "7,c1,ok,$LE,gather,linear,,16,32,$EL,3e-06,$T"
    echo "8,c2,ok,$LE,gather,bine,,16,32,$EL,2e-06,$T"
    echo "9,c3,ok,$LE,gather,binomial,,16,32,$EL,2e-06,$T"
    echo "10,d1,ok,platforms/lumi.yaml nic_ports=1,gather,linear,,16,32,$EO,1e-05,$T"
} > "$tmp/bine_lumi_endpoint/results.csv"
{
    echo "$H"
    echo "1,a1,ok,platforms/lumi.yaml,gather,linear,,16,32,cm02,1e-06,$T"
    echo "2,a2,ok,platforms/lumi.yaml,gather,bine,,16,32,cm02,2.5e-06,$T"  # planted
    echo "3,a3,ok,platforms/lumi.yaml,gather,binomial,,16,32,cm02,4e-06,$T"
} > "$tmp/bine_lumi/results.csv"
S="python3 scripts/bine_endpoint_stats.py $tmp"
check "variants from topology and model" 0 "| lumi on+o | \`platforms/lumi.yaml\` | \`$EO\` | 3 |" -- $S params
check "a nic_ports override is its own variant" 0 "| lumi on+o nic_ports=1 | \`platforms/lumi.yaml nic_ports=1\` |" -- $S params
check "leonardo's own overheads are 'on', not 'on+o'" 0 "| leonardo on | \`$LE\` |" -- $S params
check "linear faster with costs off" 0 "| gather | lumi off | 1 | 1 | 0 | 0.50 | 0.50..0.50 |  |" -- $S linear
check "Bine faster with the assumed overheads" 0 "| gather | lumi on+o | 1 | 0 | 1 | 2.00 | 2.00..2.00 |  |" -- $S linear
check "per point, every variant" 0 "| gather | 16 | 32 B | 0.50 | 2.00 |  | 1.50 |" -- $S linear
# Bine vs binomial: off 4/2 = 2.00 (win), on+o 5/5 = 1.00 (tie), Leonardo 2/2 = 1.00
check "pairs" 0 "| gather | bine | binomial | 100 / 0 (2.00) | 0 / 0 (1.00) |  | 0 / 0 (1.00) |" -- $S pairs
check "reproduce: the planted time is not identical" 0 "with a row of the same id in bine_lumi/: 3; identical in .*: 2\." -- $S reproduce
check "unknown section" 1 "unknown section 'nope' (allowed: params, reproduce, linear, pairs)" -- $S nope
rm -rf "$tmp"
exit $fail
