#!/bin/sh
# CLI test: `collsim calibrate` (docs/calibrate.md). usage: calibrate.sh PATH/TO/collsim
#  1. the shipped example tables calibrate; bad tables and options fail with file:line;
#  2. a ping-pong table collsim itself simulates (p2p, cm02, known endpoint costs, seeded
#     0.05 % noise) gives back the route latency, bandwidth, o_s + o_r and eager limit
#     within 2 %;
#  3. SMPI: our own MPI programs (tests/smpi/) built with smpicc and run by smpirun on the
#     platform `collsim topo` emits (two hosts on one switch, SMPI's default factors,
#     smpi/os = smpi/ois = 200 ns, smpi/or = 100 ns), calibrated with --factors smpi; then
#     collsim simulates the same ping-pong (--model smpi: the fit is of the link values
#     under SMPI's factor tables, which only that model applies) with the fitted values,
#     the endpoint keys read from the fragment through a preset's `include:`; the one-way
#     times must agree within 3 % at every size from 0 B to 16 MiB. Planted bug: the same
#     comparison with o_s doubled must fail. Skipped, saying so, without smpicc/smpirun.
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export COLLSIM_CACHE_DIR="$tmp/cache"
E=docs/examples/calibrate

# --- 1. the example tables, bad input --------------------------------------------------------
check "example tables" 0 "envelope  *16 B" -- "$bin" calibrate --factors smpi \
    $E/smpi_latency.txt $E/smpi_bw.txt $E/smpi_mbw_mr.txt --output "$tmp/ex.yaml"
check "fragment keys" 0 "^send_overhead: [0-9.]*ns" -- cat "$tmp/ex.yaml"
printf '# OSU MPI Latency Test v7.3\n# Size  Latency (us)\n0 1.5\n8 1.6\n4 1.7\n' > "$tmp/unsorted.txt"
check "unsorted sizes" 2 "unsorted.txt:5: sizes not sorted: 4 after 8" -- \
    "$bin" calibrate "$tmp/unsorted.txt"
printf 'bytes,seconds\n0,1e-6\n1024,-2e-6\n' > "$tmp/neg.csv"
check "negative time" 2 "neg.csv:3: the time or rate of size 1024 is negative" -- \
    "$bin" calibrate "$tmp/neg.csv"
printf 'bytes,seconds\n0,1e-6\n' > "$tmp/one.csv"
check "one point" 2 "one.csv:2: csv table: 1 data point" -- "$bin" calibrate "$tmp/one.csv"
printf '# OSU MPI Allreduce Latency Test v7.3\n# Size       Avg Latency(us)\n4 3.1\n8 3.2\n' > "$tmp/allreduce.txt"
check "another benchmark" 2 "allreduce.txt:1: .* (allowed: osu_latency, osu_bw, osu_bibw, osu_mbw_mr" -- \
    "$bin" calibrate "$tmp/allreduce.txt"
check "stream only" 2 "no one-way time table" -- "$bin" calibrate $E/smpi_bw.txt
check "bad --factors" 2 "unknown factors 'lv08' (allowed: none, smpi)" -- \
    "$bin" calibrate --factors lv08 $E/smpi_latency.txt
check "bad --send-share" 2 "not a share" -- "$bin" calibrate --send-share 2 $E/smpi_latency.txt

# the machine presets' endpoint fragments (platforms/endpoint/) load through `include:`
# (each preset has the line commented out; here a copy with it on, the path made absolute)
for m in lumi leonardo marenostrum5 fugaku polaris; do
    case $m in
    lumi|polaris) want="eager_limit=18433" ;;
    leonardo) want="send_overhead=625ns recv_overhead=625ns msg_gap=4.651ns envelope=34" ;;
    marenostrum5) want="send_overhead=625ns recv_overhead=625ns envelope=34" ;;
    fugaku) want="send_overhead=145ns recv_overhead=145ns" ;;
    esac
    sed "s|^# include: endpoint/|include: $PWD/platforms/endpoint/|" platforms/$m.yaml > "$tmp/$m.yaml"
    check "preset $m + endpoint fragment" 0 "\"model\":\"cm02 $want\"" -- "$bin" sim \
        --topology "$tmp/$m.yaml" --collective p2p --algorithm direct --ranks 2 --size 8 --format json
done
printf 'send_overhead: 1us\nsend_overheads: 2us\n' > "$tmp/badfrag.yaml"
sed "s|^# include: endpoint/lumi.yaml|include: $tmp/badfrag.yaml|" platforms/lumi.yaml > "$tmp/lumibad.yaml"
check "bad fragment key named" 2 "badfrag.yaml:2" -- "$bin" sim --topology "$tmp/lumibad.yaml" \
    --collective p2p --algorithm direct --ranks 2 --size 8

# --- 2. a table collsim simulates, with noise ------------------------------------------------
# truth: route latency 2 x 750 ns, 100 Gb/s, o_s 600 ns, o_r 300 ns, envelope 64 B, 8 KiB
T="fattree leaves=1 hosts_per_leaf=2 radix=4 host_bw=100Gbps host_lat=750ns"
echo "bytes,seconds" > "$tmp/sim.csv"
s=0
while [ $s -le 16777216 ]; do
    "$bin" sim --topology "$T" --collective p2p --algorithm direct --ranks 2 --size $s \
        --send-overhead 600ns --recv-overhead 300ns --envelope 64B --eager-limit 8KiB \
        --format csv --no-header | awk -F, -v s=$s '{print s "," $10}' >> "$tmp/sim.csv"
    s=$(( s ? 2 * s : 1 ))
done
awk -F, 'BEGIN {srand(7)} NR == 1 {print; next}
         {u = rand(); v = rand(); z = sqrt(-2 * log(u + 1e-12)) * cos(6.283185307 * v)
          printf "%s,%.9e\n", $1, $2 * (1 + 5e-4 * z)}' "$tmp/sim.csv" > "$tmp/noisy.csv"
"$bin" calibrate "$tmp/noisy.csv" > "$tmp/sim.out" 2>&1
near() { # name value truth: within 2 %
    if awk -v v="$2" -v t="$3" 'BEGIN {d = (v - t) / t; exit !(d < 0.02 && d > -0.02)}'; then
        echo "ok   collsim table: $1 $2 (true $3)"
    else
        echo "FAIL collsim table: $1 $2, true $3"; cat "$tmp/sim.out"; fail=1
    fi
}
val() { awk -v k="$1" '$1 == k {print $2; exit}' "$tmp/sim.out"; }
near "bandwidth GBps" "$(val bandwidth)" 12.5
near "latency + envelope/bw us" "$(awk -v l="$(val latency)" -v e="$(val envelope)" \
    -v b="$(val bandwidth)" 'BEGIN {print l + e / (b * 1e3)}')" 1.50512
near "o_s + o_r us" "$(awk -v a="$(val send_overhead)" -v b="$(val recv_overhead)" \
    'BEGIN {print a + b}')" 0.9
near "eager_limit B" "$(val eager_limit)" 8192

# --- 3. SMPI ---------------------------------------------------------------------------------
if ! command -v smpicc >/dev/null || ! command -v smpirun >/dev/null; then
    echo "skip SMPI agreement: smpicc/smpirun not found (Debian: simgrid)"
    exit $fail
fi
smpicc -O2 tests/smpi/pingpong.c -o "$tmp/pingpong" >/dev/null 2>&1 &&
    smpicc -O2 tests/smpi/stream.c -o "$tmp/stream" >/dev/null 2>&1 ||
    { echo "FAIL smpicc could not build tests/smpi"; exit 1; }
T="fattree leaves=1 hosts_per_leaf=2 radix=4 host_bw=100Gbps host_lat=500ns"
"$bin" topo $T --emit "$tmp/platform.xml" >/dev/null
printf 'h0\nh1\n' > "$tmp/hosts2"
printf 'h0\nh0\nh0\nh0\nh1\nh1\nh1\nh1\n' > "$tmp/hosts8"
CFG="--cfg=smpi/simulate-computation:no --cfg=smpi/os:0:2e-7:0 --cfg=smpi/ois:0:2e-7:0
     --cfg=smpi/or:0:1e-7:0 --log=root.thres:critical"
# shellcheck disable=SC2086
smpirun -np 2 -platform "$tmp/platform.xml" -hostfile "$tmp/hosts2" $CFG "$tmp/pingpong" \
    16777216 10 240 241 242 243 > "$tmp/lat.txt" 2>/dev/null &&
smpirun -np 2 -platform "$tmp/platform.xml" -hostfile "$tmp/hosts2" $CFG "$tmp/stream" bw \
    4194304 > "$tmp/bw.txt" 2>/dev/null &&
smpirun -np 8 -platform "$tmp/platform.xml" -hostfile "$tmp/hosts8" $CFG "$tmp/stream" mr \
    1048576 > "$tmp/mr.txt" 2>/dev/null || { echo "FAIL smpirun"; exit 1; }
check "calibrate SMPI's tables" 0 "envelope  *16 B" -- "$bin" calibrate --factors smpi \
    "$tmp/lat.txt" "$tmp/bw.txt" "$tmp/mr.txt" --output "$tmp/frag.yaml"
"$bin" calibrate --factors smpi --quiet "$tmp/lat.txt" "$tmp/bw.txt" "$tmp/mr.txt" > "$tmp/fit.out"
val() { awk -v k="$1" '$1 == k {print $2; exit}' "$tmp/fit.out"; }
near3() { # name value low high
    if awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN {exit !(v >= lo && v <= hi)}'; then
        echo "ok   SMPI fit: $1 $2 in [$3, $4]"
    else
        echo "FAIL SMPI fit: $1 $2 not in [$3, $4]"; cat "$tmp/fit.out"; fail=1
    fi
}
# SMPI's own values: links 2 x 500 ns, 12.5 GB/s, o_s 200 ns; its o_r (100 ns) applies to
# eager sizes only, the endpoint model's to all: the fit trades some link latency for it
near3 "bandwidth GBps" "$(val bandwidth)" 12.25 12.75
near3 "latency us" "$(val latency)" 0.95 1.02
near3 "send_overhead us" "$(val send_overhead)" 0.196 0.204
# collsim's ping-pong with the fitted values: a preset on the same fat tree that includes
# the fragment; host_lat = half the fitted route latency (two host links), host_bw = bw
compare() { # fragment -> exit 0 when every size agrees within 3 %
    lat_ns=$(awk -v l="$(val latency)" 'BEGIN {printf "%.4f", l * 500}')
    bw=$(awk -v b="$(val bandwidth)" 'BEGIN {printf "%.6f", b}')
    cp "$1" "$tmp/inc.yaml"
    cat > "$tmp/fitted.yaml" <<YAML
name: smpi-two-hosts
family: fattree
include: inc.yaml
params:
  leaves: 1
  hosts_per_leaf: 2
  radix: 4
  host_bw: ${bw}GBps
  host_lat: ${lat_ns}ns
YAML
    : > "$tmp/cmp.txt"
    grep -v '^#' "$tmp/lat.txt" | while read -r s us; do
        t=$("$bin" sim --topology "$tmp/fitted.yaml" --collective p2p --algorithm direct \
            --ranks 2 --size "$s" --model smpi --format csv --no-header | cut -d, -f10)
        echo "$s $us $t" >> "$tmp/cmp.txt"
    done
    awk '{d = ($3 * 1e6 - $2) / $2 * 100; printf "%10d %12.4f %12.4f %+7.3f %%\n", $1, $2, $3 * 1e6, d
          if (d > 3 || d < -3) bad = 1} END {exit bad}' "$tmp/cmp.txt" > "$tmp/cmp.out"
}
if compare "$tmp/frag.yaml" && [ "$(wc -l < "$tmp/cmp.out")" -ge 29 ]; then
    echo "ok   collsim --model smpi vs SMPI ping-pong within 3 % at every size (0 B..16 MiB):"
    cat "$tmp/cmp.out"
else
    echo "FAIL collsim vs SMPI ping-pong (size, SMPI us, collsim us, difference)"
    cat "$tmp/cmp.out"; fail=1
fi
# planted bug: o_s doubled must break the agreement
awk '/^send_overhead:/ {sub(/[0-9.]+ns/, sprintf("%.3fns", $2 * 2))} {print}' "$tmp/frag.yaml" \
    > "$tmp/bad.yaml"
if compare "$tmp/bad.yaml"; then
    echo "FAIL planted bug: o_s doubled still agrees within 3 %"; fail=1
else
    echo "ok   planted bug: o_s doubled is caught ($(grep -c '%' "$tmp/cmp.out") sizes compared)"
fi
exit $fail
