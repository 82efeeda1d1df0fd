#!/bin/sh
# CLI test: `collsim calibrate` (docs/calibrate.md). usage: calibrate.sh PATH/TO/collsim
#  1. the shipped example tables calibrate; bad tables and options fail with file:line;
#  2. tables collsim itself simulates (cm02, known endpoint costs, seeded 0.05 % noise): a
#     ping-pong (p2p) and an osu_bw window (tests/data/calib_window.lua) give back the
#     route latency, bandwidth, o_s, o_r and eager limit within 2 % (the envelope is not
#     checked here: docs/calibrate.md, "collsim's own streams");
#  3. SMPI (scripts/calibrate_smpi.sh): our own MPI programs (tests/smpi/) built with smpicc
#     and run by smpirun on the platform `collsim topo` emits (two hosts on one switch,
#     SMPI's default factors, smpi/os = smpi/ois = 200 ns, smpi/or = 100 ns), calibrated
#     with --factors smpi; then collsim simulates the same ping-pong (--model smpi) with the
#     fitted values, the endpoint keys read from the fragment through a preset's
#     `include:`; the one-way times must agree within 3 % at every size from 0 B to 16 MiB,
#     and the fit must find SMPI's bandwidth, o_s and 16-byte envelope. Planted bug: the
#     same comparison with o_s doubled must fail. Skipped, saying so, without smpicc.
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
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
# (on in every preset since 27 Nov 2026)
for m in lumi leonardo marenostrum5 fugaku polaris; do
    case $m in
    lumi|polaris) want="eager_limit=18433" ;;
    leonardo) want="send_overhead=625ns recv_overhead=625ns msg_gap=4.651ns envelope=34" ;;
    marenostrum5) want="send_overhead=625ns recv_overhead=625ns envelope=34" ;;
    fugaku) want="send_overhead=145ns recv_overhead=145ns" ;;
    esac
    check "preset $m + endpoint fragment" 0 "\"model\":\"cm02 $want\"" -- "$bin" sim \
        --topology platforms/$m.yaml --collective p2p --algorithm direct --ranks 2 --size 8 --format json
done
printf 'send_overhead: 1us\nsend_overheads: 2us\n' > "$tmp/badfrag.yaml"
sed "s|^include: endpoint/lumi.yaml|include: $tmp/badfrag.yaml|" platforms/lumi.yaml > "$tmp/lumibad.yaml"
check "bad fragment key named" 2 "badfrag.yaml:2" -- "$bin" sim --topology "$tmp/lumibad.yaml" \
    --collective p2p --algorithm direct --ranks 2 --size 8

# --- 2. tables collsim simulates, with noise ------------------------------------------------
# truth: route latency 2 x 750 ns, 100 Gb/s, o_s 600 ns, o_r 300 ns, envelope 64 B, eager
# limit 64 KiB. One-way times: p2p; osu_bw: the window schedule of tests/data/calib_window.lua
# (8 messages + a 4-byte acknowledgement; --window 8).
T="fattree leaves=1 hosts_per_leaf=2 radix=4 host_bw=100Gbps host_lat=750ns"
EP="--send-overhead 600ns --recv-overhead 300ns --envelope 64B --eager-limit 64KiB"
echo "bytes,seconds" > "$tmp/sim.csv"
printf '# OSU MPI Bandwidth Test (made by collsim sim, tests/data/calib_window.lua)\n' > "$tmp/simbw.txt"
s=0
while [ $s -le 16777216 ]; do
    # shellcheck disable=SC2086
    "$bin" sim --topology "$T" --collective p2p --algorithm direct --ranks 2 --size $s $EP \
        --format csv --no-header | awk -F, -v s=$s '{print s "," $10}' >> "$tmp/sim.csv"
    # shellcheck disable=SC2086
    [ $s -eq 0 ] || "$bin" sim --lua tests/data/calib_window.lua --topology "$T" \
        --collective p2p --algorithm osu_window --param window=8 --ranks 2 --size $s $EP \
        --format csv --no-header | awk -F, -v s=$s '{printf "%d %.9g\n", s, s * 8 / $10 / 1e6}' \
        >> "$tmp/simbw.txt"
    s=$(( s ? 2 * s : 1 ))
done
noise() { # seeded 0.05 % relative noise on column 2 (comma- or space-separated)
    awk -v seed="$2" 'BEGIN {srand(seed)} /^[#b]/ {print; next}
         {n = split($0, f, /[, ]+/); u = rand(); v = rand()
          z = sqrt(-2 * log(u + 1e-12)) * cos(6.283185307 * v); sep = index($0, ",") ? "," : " "
          printf "%s%s%.9e\n", f[1], sep, f[2] * (1 + 5e-4 * z)}' "$1"
}
noise "$tmp/sim.csv" 7 > "$tmp/noisy.csv"
noise "$tmp/simbw.txt" 8 > "$tmp/noisybw.txt"
"$bin" calibrate "$tmp/noisy.csv" "$tmp/noisybw.txt" --window 8 > "$tmp/sim.out" 2>&1
near() { # name value truth: within 2 %
    if awk -v v="$2" -v t="$3" 'BEGIN {d = (v - t) / t; exit !(d < 0.02 && d > -0.02)}'; then
        echo "ok   collsim tables: $1 $2 (true $3)"
    else
        echo "FAIL collsim tables: $1 $2, true $3"; cat "$tmp/sim.out"; fail=1
    fi
}
val() { awk -v k="$1" '$1 == k {print $2; exit}' "$tmp/sim.out"; }
near "bandwidth GBps" "$(val bandwidth)" 12.5
near "latency + envelope/bw us" "$(awk -v l="$(val latency)" -v e="$(val envelope)" \
    -v b="$(val bandwidth)" 'BEGIN {print l + e / (b * 1e3)}')" 1.50512
near "send_overhead us" "$(val send_overhead)" 0.6
near "recv_overhead us" "$(val recv_overhead)" 0.3
near "eager_limit B" "$(val eager_limit)" 65536

# --- 3. SMPI (scripts/calibrate_smpi.sh: measure, calibrate, compare) -----------------------
sh scripts/calibrate_smpi.sh --collsim "$bin" "$tmp/smpi" > "$tmp/smpi.out" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
    echo "skip SMPI agreement: $(cat "$tmp/smpi.out")"
    exit $fail
fi
if [ $rc -eq 0 ]; then
    echo "ok   collsim --model smpi vs SMPI ping-pong within 3 % at every size (0 B..16 MiB):"
else
    echo "FAIL collsim vs SMPI ping-pong (exit $rc):"; cat "$tmp/smpi.out"; fail=1
fi
cat "$tmp/smpi/agreement.csv"
val() { awk -F, -v k="$1" '$1 == k {print $2}' "$tmp/smpi/fit.csv"; }
within() { # name value low high
    if awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN {exit !(v >= lo && v <= hi)}'; then
        echo "ok   SMPI fit: $1 $2 in [$3, $4]"
    else
        echo "FAIL SMPI fit: $1 '$2' not in [$3, $4]"; cat "$tmp/smpi/fit.txt"; fail=1
    fi
}
# SMPI's own values: links 2 x 500 ns, 12.5 GB/s, o_s 200 ns, envelope 16 B; its o_r
# (100 ns) applies to sends below 64 KiB only, the endpoint model's to all: the fit trades
# some link latency for it (docs/calibrate.md)
within "bandwidth GBps" "$(val bandwidth)" 12.25 12.75
within "latency us" "$(val latency)" 0.95 1.02
within "send_overhead us" "$(val send_overhead)" 0.196 0.204
within "envelope B" "$(val envelope)" 16 16
# planted bug: the same comparison with o_s doubled in the fragment must fail
cp -r "$tmp/smpi" "$tmp/bad"
awk '/^send_overhead:/ {sub(/[0-9.]+ns/, sprintf("%.3fns", $2 * 2))} {print}' \
    "$tmp/smpi/frag.yaml" > "$tmp/bad/frag.yaml"
if sh scripts/calibrate_smpi.sh --collsim "$bin" --compare "$tmp/bad" > "$tmp/bad.out" 2>&1; then
    echo "FAIL planted bug: o_s doubled still agrees within 3 %"; fail=1
else
    echo "ok   planted bug: o_s doubled is caught: $(cat "$tmp/bad.out")"
fi
exit $fail
