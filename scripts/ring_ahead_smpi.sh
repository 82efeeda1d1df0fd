#!/bin/sh
# ring_ahead_smpi.sh - collsim's allreduce ring_recv_ahead against SMPI running the same
# communication as libbine's allreduce_ring (scripts/smpi/ring_ahead.c, collsim's own
# code), with the local reductions' cost switched off and on on both sides.
#
# SMPI charges no simulated time for MPI_Reduce_local (it runs inside the MPI library,
# which SMPI does not benchmark); collsim charges --reduce-rate (default 10 GB/s). That
# is the cause of "collsim is slower than SMPI running libbine's ring": with reductions
# free on both sides (smpi/simulate-computation:no, --reduce-rate free) or at 10 GB/s on
# both sides (ring_ahead.c's REDUCE_BPS, --reduce-rate 10GBps) the two agree; the mixed
# row (SMPI free, collsim 10 GB/s) is the gap. Same platform (collsim sim
# --emit-platform), ranks placed linearly, copies free on both sides.
# Writes results/smpi-crosscheck/ring_ahead.csv (the table: scripts/ring_ahead_table.py).
# usage: scripts/ring_ahead_smpi.sh
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
COLLSIM="$ROOT/build/collsim"
OUT="$ROOT/results/smpi-crosscheck"
command -v smpirun >/dev/null || { echo "smpirun not found (Debian: simgrid)"; exit 2; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLLSIM_CACHE_DIR=${COLLSIM_CACHE_DIR:-$WORK/cache}
smpicc -O2 "$ROOT/scripts/smpi/ring_ahead.c" -o "$WORK/ring_ahead" 2>/dev/null
csv="$OUT/ring_ahead.csv.tmp"
echo "topology,ranks,size_bytes,smpi_reduce,collsim_reduce,smpi_time_s,collsim_time_s,rel_diff" > "$csv"
printf 'torus dims=4x4|16\ntorus dims=8x8|64\n' | while IFS='|' read -r topo P; do
    i=0; : > "$WORK/hosts"
    while [ $i -lt "$P" ]; do echo "h$i" >> "$WORK/hosts"; i=$((i + 1)); done
    "$COLLSIM" sim --topology "$topo" --collective bcast --algorithm linear --ranks 2 \
        --model traffic --emit-platform "$WORK/platform.xml" >/dev/null
    for size in 65536 1048576 16777216; do
        for pair in "free free" "free 10GBps" "10GBps 10GBps"; do
            set -- $pair
            bps=0; [ "$1" = free ] || bps=1e10
            smpi=$(smpirun -np "$P" -platform "$WORK/platform.xml" -hostfile "$WORK/hosts" \
                --cfg=smpi/simulate-computation:no --log=root.thres:critical \
                "$WORK/ring_ahead" "$size" "$bps" 2>/dev/null | awk '/^time_s/ {print $2}')
            ours=$("$COLLSIM" sim --topology "$topo" --collective allreduce \
                --algorithm ring_recv_ahead --ranks "$P" --size "$size" --model smpi \
                --reduce-rate "$2" --copy-rate free --no-header | cut -d, -f10)
            rel=$(awk -v a="$smpi" -v b="$ours" 'BEGIN { printf "%.5f", (b - a) / a }')
            echo "\"$topo\",$P,$size,$1,$2,$smpi,$ours,$rel" >> "$csv"
            echo "$topo P=$P $size smpi($1) $smpi collsim($2) $ours $rel"
        done
    done
done
mv "$csv" "$OUT/ring_ahead.csv"
