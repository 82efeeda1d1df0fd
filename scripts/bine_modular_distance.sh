#!/bin/sh
# bine_modular_distance.sh - per-step link loads that give the modular distance of each
# butterfly step (results/bine/modular_distance/, read by scripts/bine_traffic_stats.py).
#
#   scripts/bine_modular_distance.sh [COLLSIM] [P] [OUTDIR]
#
# On a ring of P hosts (1D torus, linear placement) a message between ranks a and b
# crosses exactly the modular distance min(|a-b|, P-|a-b|) links, so the bytes on all
# links in step k divided by (P x message size) is the mean modular distance of step k.
# Whole-vector butterflies (allreduce bine_latency and recursive_doubling, both
# distance-doubling) send the same size at every step.
set -e
COLLSIM=${1:-build/collsim}
P=${2:-1024}
OUT=${3:-results/bine/modular_distance}
mkdir -p "$OUT"
for alg in bine_latency recursive_doubling; do
  "$COLLSIM" draw "torus dims=$P" --ranks "$P" --collective allreduce --algorithm "$alg" \
    --size 1KiB --out "$OUT/$alg.json" --link-csv "$OUT/$alg-links.csv" >/dev/null
  rm -f "$OUT/$alg.json"
done
