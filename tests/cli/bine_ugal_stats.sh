#!/bin/sh
# scripts/bine_ugal_stats.py on a small hand-made pair of results directories (flow:
# bine_lumi/, packet UGAL: bine_lumi_ugal/) whose right answers are derived here: best Bine
# vs best classic under each model, a verdict that flips, a best classic that changes, an
# algorithm ok under one model only (left out under both), a configuration under one model
# only (left out), the Table 3 pairs, the per-configuration grid and the UGAL / flow ratios.
# usage: bine_ugal_stats.sh PATH/TO/collsim   (run from the source tree; binary unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d)
mkdir -p "$tmp/bine_lumi" "$tmp/bine_lumi_ugal"
H="point,id,status,topology,collective,algorithm,params,ranks,size_bytes,model,time_s"
L="platforms/lumi.yaml endpoint=none" U="packet routing=ugal mtu=4096 buffer=65536"
{
    echo "$H"
    # allreduce 16 nodes 32 B: best classic RD 2 us, best Bine 1 us -> 2.00 (win)
    echo "1,a,ok,$L,allreduce,recursive_doubling,,16,32,cm02,2e-06"
    echo "2,b,ok,$L,allreduce,rabenseifner,order=nearest,16,32,cm02,3e-06"
    echo "3,c,ok,$L,allreduce,bine_latency,,16,32,cm02,1e-06"
    echo "4,d,ok,$L,allreduce,bine_bandwidth,,16,32,cm02,4e-06"
    # allreduce 16 nodes 256 B: RD 2 us, ring 3 us, Bine 2 us -> 1.00 (tie), classic RD
    echo "5,e,ok,$L,allreduce,recursive_doubling,,16,256,cm02,2e-06"
    echo "6,f,ok,$L,allreduce,ring,,16,256,cm02,3e-06"
    echo "7,g,ok,$L,allreduce,bine_latency,,16,256,cm02,2e-06"
    # alltoall: linear 1 us is ok here only (an error under UGAL): left out, so 4 / 2
    echo "8,h,ok,$L,alltoall,linear,,16,32,cm02,1e-06"
    echo "9,i,ok,$L,alltoall,bruck,,16,32,cm02,4e-06"
    echo "10,j,ok,$L,alltoall,bine,,16,32,cm02,2e-06"
    # allgather: flow only, no UGAL row: left out
    echo "11,k,ok,$L,allgather,recursive_doubling,,16,32,cm02,2e-06"
    echo "12,l,ok,$L,allgather,bine,,16,32,cm02,1e-06"
} > "$tmp/bine_lumi/results.csv"
{
    echo "$H"
    # 32 B: RD 1 us, Bine 2 us -> 0.50 (loss: the verdict flips)
    echo "1,a,ok,$L,allreduce,recursive_doubling,,16,32,$U,1e-06"
    echo "2,b,ok,$L,allreduce,rabenseifner,order=nearest,16,32,$U,3e-06"
    echo "3,c,ok,$L,allreduce,bine_latency,,16,32,$U,2e-06"
    echo "4,d,ok,$L,allreduce,bine_bandwidth,,16,32,$U,4e-06"
    # 256 B: RD 4 us, ring 3 us, Bine 2 us -> 1.50 (win: flips; best classic now ring)
    echo "5,e,ok,$L,allreduce,recursive_doubling,,16,256,$U,4e-06"
    echo "6,f,ok,$L,allreduce,ring,,16,256,$U,3e-06"
    echo "7,g,ok,$L,allreduce,bine_latency,,16,256,$U,2e-06"
    echo "8,h,error,$L,alltoall,linear,,16,32,$U,"
    echo "9,i,ok,$L,alltoall,bruck,,16,32,$U,4e-06"
    echo "10,j,ok,$L,alltoall,bine,,16,32,$U,2e-06"
} > "$tmp/bine_lumi_ugal/results.csv"
S="python3 scripts/bine_ugal_stats.py $tmp"
# flow [2.00, 1.00]: 50 % wins, geomean sqrt(2); UGAL [0.50, 1.50]: geomean sqrt(0.75)
check "best: flips and a changed best classic" 0 \
    "| allreduce | 2 | 50 / 0 (1.41x, 2.00x) | 50 / 50 (0.87x, 1.50x) | 2 | 1 |" -- $S best
check "best: an algorithm failed under one model is left out" 0 \
    "| alltoall | 1 | 100 / 0 (2.00x, 2.00x) | 100 / 0 (2.00x, 2.00x) | 0 | 0 |" -- $S best
out=$($S best)
case $out in *"| allgather |"*) echo "FAIL a configuration of one model only counted"; fail=1;;
*) echo "ok   a configuration of one model only is left out";; esac
# pairs: the counterparts only (ring is not one): UGAL 256 B = RD 4 / 2 = 2.00
check "pairs: Table 3 counterparts only" 0 \
    "| allreduce | bine_bandwidth/bine_latency | rabenseifner order=nearest/recursive_doubling | 2 | 50 / 0 (1.41x, 2.00x) | 50 / 50 (1.00x, 2.00x) |" -- $S pairs
check "grid: both models, flips marked" 0 "| 16 | 2.00 / 0.50\* | 1.00 / 1.50\* |" -- $S grid
check "speed: UGAL / flow per algorithm" 0 "| allreduce | recursive_doubling | 2 | 1.00 | 0.50 | 2.00 |" -- $S speed
out=$($S speed)
case $out in *"| alltoall | linear |"*) echo "FAIL speed counted a failed row"; fail=1;;
*) echo "ok   speed leaves out a failed row";; esac
# --packet: another packet directory (a copy of bine_lumi_ugal/ with the 32 B Bine time
# halved: 0.50 -> 1.00, a tie; flow's win there still changes, to a tie)
mkdir "$tmp/other"
sed 's/^3,c,ok,\(.*\),2e-06$/3,c,ok,\1,1e-06/' "$tmp/bine_lumi_ugal/results.csv" > "$tmp/other/results.csv"
check "--packet names the packet directory" 0 \
    "| allreduce | 2 | 50 / 0 (1.41x, 2.00x) | 50 / 0 (1.22x, 1.50x) | 2 | 1 |" -- \
    python3 scripts/bine_ugal_stats.py --packet other "$tmp" best
check "--packet without a name" 2 "packet needs a directory name" -- \
    python3 scripts/bine_ugal_stats.py --packet
check "unknown section" 2 "unknown section 'nope' (allowed: best, pairs, grid, speed)" -- $S nope
check "no common point" 1 "no point is ok in both bine_lumi and bine_lumi_ugal" -- \
    python3 scripts/bine_ugal_stats.py "$tmp/bine_lumi"
rm -rf "$tmp"
exit $fail
