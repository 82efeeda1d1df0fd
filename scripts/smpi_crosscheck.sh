#!/bin/sh
# smpi_crosscheck.sh - collsim's SMPI network model against SimGrid's own MPI (smpirun).
#
# For each topology, the platform XML collsim simulates (collsim sim --emit-platform) is
# given to smpirun, which runs scripts/smpi/coll_time.c with one of SMPI's built-in
# collective implementations; collsim runs the algorithm with the same schedule under
# --model smpi. Local reductions and copies are free on both sides
# (smpi/simulate-computation:no, --reduce-rate free --copy-rate free), ranks are placed
# linearly (hostfile h0, h1, ...). Simulated times must agree within 5 %.
#
#   SMPI algorithm          collsim algorithm        schedule
#   allreduce rdb           recursive_doubling       whole vector, distance 1, 2, 4, ...
#   allreduce lr            ring                     ring reduce-scatter + ring allgather
#   alltoall  bruck         bruck                    log2 P steps of n/2
#   alltoall  pair          xor                      P-1 steps, partner rank ^ i
#   alltoall  ring          pairwise                 P-1 steps, to r+i, from r-i
#
# (SMPI has no allreduce "ring": its logical-ring algorithm is "lr".)
# Writes results/smpi-crosscheck/crosscheck.csv; exit 1 if a case is off by more than 5 %.
# usage: scripts/smpi_crosscheck.sh [--quick]      (--quick: the 16-rank torus only)
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
COLLSIM="$ROOT/build/collsim"
OUT="$ROOT/results/smpi-crosscheck"
TOL=0.05
command -v smpirun >/dev/null || { echo "smpirun not found (Debian: simgrid)"; exit 2; }
(cd "$ROOT" && make -s build >/dev/null)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLLSIM_CACHE_DIR=${COLLSIM_CACHE_DIR:-$WORK/cache}   # platforms emitted fresh
smpicc -O2 "$ROOT/scripts/smpi/coll_time.c" -o "$WORK/coll_time" 2>/dev/null

TOPOLOGIES="torus dims=4x4|16
fattree radix=8 leaves=8 hosts_per_leaf=4 oversub=2:1 spines=2|32
torus dims=8x8|64
dragonfly p=2 a=4 h=2|64"
[ "${1:-}" = "--quick" ] && TOPOLOGIES="torus dims=4x4|16"
CASES="allreduce rdb recursive_doubling
allreduce lr ring
alltoall bruck bruck
alltoall pair xor
alltoall ring pairwise"
SIZES="1048576 16777216"

mkdir -p "$OUT"
csv="$OUT/crosscheck.csv.tmp"
echo "topology,ranks,collective,smpi_algorithm,collsim_algorithm,size_bytes,smpi_time_s,collsim_time_s,rel_diff" > "$csv"
bad=0
echo "$TOPOLOGIES" | while IFS='|' read -r topo P; do
    i=0; : > "$WORK/hosts"
    while [ $i -lt "$P" ]; do echo "h$i" >> "$WORK/hosts"; i=$((i + 1)); done
    "$COLLSIM" sim --topology "$topo" --collective bcast --algorithm linear --ranks 2 \
        --model traffic --emit-platform "$WORK/platform.xml" >/dev/null
    echo "$CASES" | while read -r coll smpi_alg our_alg; do
        for size in $SIZES; do
            smpi=$(smpirun -np "$P" -platform "$WORK/platform.xml" -hostfile "$WORK/hosts" \
                --cfg=smpi/$coll:$smpi_alg --cfg=smpi/simulate-computation:no \
                --log=root.thres:critical "$WORK/coll_time" "$coll" "$size" 2>/dev/null |
                awk '/^time_s/ {print $2}')
            ours=$("$COLLSIM" sim --topology "$topo" --collective "$coll" --algorithm "$our_alg" \
                --ranks "$P" --size "$size" --model smpi --reduce-rate free --copy-rate free \
                --no-header | cut -d, -f10)
            rel=$(awk -v a="$smpi" -v b="$ours" 'BEGIN { d = (b - a) / a; printf "%.5f", d }')
            echo "\"$topo\",$P,$coll,$smpi_alg,$our_alg,$size,$smpi,$ours,$rel" >> "$csv"
            printf '%-45s %-9s %-6s/%-18s %9s  smpi %.6fs  collsim %.6fs  %+.2f%%\n' "$topo" \
                "$coll" "$smpi_alg" "$our_alg" "$size" "$smpi" "$ours" \
                "$(awk -v r="$rel" 'BEGIN { print 100 * r }')"
        done
    done
done
mv "$csv" "$OUT/crosscheck.csv"
bad=$(awk -F, -v tol=$TOL 'NR > 1 { r = $NF < 0 ? -$NF : $NF; if (r > tol) n++ } END { print n + 0 }' "$OUT/crosscheck.csv")
echo "$(($(wc -l < "$OUT/crosscheck.csv") - 1)) case(s), $bad outside ${TOL}"
[ "$bad" -eq 0 ]
