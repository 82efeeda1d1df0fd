#!/bin/sh
# calibrate_smpi.sh - `collsim calibrate` against SimGrid's SMPI (issue 24.3).
#
# Builds collsim's own MPI programs (tests/smpi/pingpong.c, stream.c) with smpicc, runs them
# with smpirun on the platform `collsim topo` emits for two hosts on one switch (links of
# 500 ns and 100 Gb/s), with SMPI's default latency and bandwidth factors and non-zero
# per-message overheads (smpi/os = smpi/ois = 200 ns, smpi/or = 100 ns); calibrates the three
# tables with --factors smpi (fit.txt, frag.yaml); then simulates the same ping-pong in
# collsim with --model smpi (the fit is of the links under SMPI's factor tables, which only
# that model applies) on a preset of the same fat tree whose host_lat is half the fitted
# route latency, host_bw the fitted bandwidth, and which includes frag.yaml for the
# endpoint keys. Writes OUT/agreement.csv (bytes, smpirun and collsim one-way times,
# difference) and OUT/fit.csv; exit 1 if a size differs by more than 3 %.
#
# usage: scripts/calibrate_smpi.sh [--collsim BIN] OUT            (measure, fit, compare)
#        scripts/calibrate_smpi.sh [--collsim BIN] --compare OUT  (compare again with
#                                  OUT/frag.yaml as it is now: OUT from a previous run)
# e.g.   scripts/calibrate_smpi.sh results/calibrate-smpi
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN="$ROOT/build/collsim"
[ "${1:-}" = "--collsim" ] && { BIN=$2; shift 2; }
COMPARE_ONLY=0
[ "${1:-}" = "--compare" ] && { COMPARE_ONLY=1; shift; }
[ $# -eq 1 ] || { sed -n '/^# usage/,/^# e.g./p' "$0"; exit 2; }
OUT=$1
TOL=3
mkdir -p "$OUT"
TOPO="fattree leaves=1 hosts_per_leaf=2 radix=4 host_bw=100Gbps host_lat=500ns"

measure() {
    command -v smpicc >/dev/null && command -v smpirun >/dev/null ||
        { echo "calibrate_smpi.sh: smpicc/smpirun not found (Debian: simgrid)"; exit 77; }
    work=$(mktemp -d)
    smpicc -O2 "$ROOT/tests/smpi/pingpong.c" -o "$work/pingpong" >/dev/null 2>&1 &&
        smpicc -O2 "$ROOT/tests/smpi/stream.c" -o "$work/stream" >/dev/null 2>&1 ||
        { echo "calibrate_smpi.sh: smpicc could not build tests/smpi"; exit 1; }
    # shellcheck disable=SC2086
    "$BIN" topo $TOPO --emit "$work/platform.xml" >/dev/null || exit 1
    printf 'h0\nh1\n' > "$work/hosts2"
    printf 'h0\nh0\nh0\nh0\nh1\nh1\nh1\nh1\n' > "$work/hosts8"
    cfg="--cfg=smpi/simulate-computation:no --cfg=smpi/os:0:2e-7:0 --cfg=smpi/ois:0:2e-7:0
         --cfg=smpi/or:0:1e-7:0 --log=root.thres:critical"
    # extra sizes 240..243 straddle SMPI's first factor threshold (257 B on the wire)
    # shellcheck disable=SC2086
    smpirun -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts2" $cfg "$work/pingpong" \
        16777216 10 240 241 242 243 > "$OUT/smpi_latency.txt" 2>/dev/null &&
    smpirun -np 2 -platform "$work/platform.xml" -hostfile "$work/hosts2" $cfg "$work/stream" bw \
        4194304 > "$OUT/smpi_bw.txt" 2>/dev/null &&
    smpirun -np 8 -platform "$work/platform.xml" -hostfile "$work/hosts8" $cfg "$work/stream" mr \
        1048576 > "$OUT/smpi_mbw_mr.txt" 2>/dev/null || { echo "calibrate_smpi.sh: smpirun failed"; exit 1; }
    rm -rf "$work"
    tables="$OUT/smpi_latency.txt $OUT/smpi_bw.txt $OUT/smpi_mbw_mr.txt"
    # shellcheck disable=SC2086
    "$BIN" calibrate --factors smpi $tables --output "$OUT/frag.yaml" > "$OUT/fit.txt" || exit 1
    awk 'BEGIN {print "parameter,value,unit"} /^# residuals/ {exit}
         !/^#/ {print $1 "," $2 "," ($2 == "none" ? "" : $3)}' "$OUT/fit.txt" > "$OUT/fit.csv"
}

compare() {
    val() { awk -F, -v k="$1" '$1 == k {print $2}' "$OUT/fit.csv"; }
    lat_ns=$(awk -v l="$(val latency)" 'BEGIN {printf "%.4f", l * 500}')
    bw=$(val bandwidth)
    cat > "$OUT/fitted.yaml" <<YAML
# the two-host fat tree of calibrate_smpi.sh with the fitted values (written by it)
name: smpi-two-hosts-fitted
family: fattree
include: frag.yaml
params:
  leaves: 1
  hosts_per_leaf: 2
  radix: 4
  host_bw: ${bw}GBps
  host_lat: ${lat_ns}ns
YAML
    echo "bytes,smpirun_us,collsim_us,diff_percent" > "$OUT/agreement.csv.tmp"
    grep -v '^#' "$OUT/smpi_latency.txt" | while read -r s us; do
        t=$("$BIN" sim --topology "$OUT/fitted.yaml" --collective p2p --algorithm direct \
            --ranks 2 --size "$s" --model smpi --format csv --no-header | cut -d, -f10)
        awk -v s="$s" -v a="$us" -v t="$t" \
            'BEGIN {printf "%s,%s,%.4f,%+.3f\n", s, a, t * 1e6, (t * 1e6 - a) / a * 100}'
    done >> "$OUT/agreement.csv.tmp"
    mv "$OUT/agreement.csv.tmp" "$OUT/agreement.csv"
    awk -F, -v tol=$TOL 'NR > 1 {n++; d = $4 < 0 ? -$4 : $4; if (d > tol) bad++}
        END {printf "calibrate_smpi.sh: %d sizes, %d outside %s %%\n", n, bad, tol; exit bad > 0 || n < 29}' \
        "$OUT/agreement.csv"
}

[ $COMPARE_ONLY -eq 1 ] || measure
compare
