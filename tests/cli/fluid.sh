#!/bin/sh
# CLI test: --flow-engine loop (collsim's own fluid network, src/sim/fluid.h) against closed
# forms derived by hand, under both engines, and its errors.
#
# A mesh line of hosts h0 - h1 - ... with 1 GB/s links of 1 us (no router latency), messages
# of S = 10^6 bytes (S / bw = 1 ms), L = 1 us per link; CM02: a flow waits its route's
# latency, then gets a weighted max-min share, weight 1 / (route latency).
#   two flows on one link: h0 -> h2 and h1 -> h3 share h1 -> h2: each takes 2 L + 2 S / bw
#     (alone: 2 L + S / bw);
#   three flows on a bottleneck: h0 -> h2 twice and h1 -> h3 share h1 -> h2 (1/3 each);
#     h2 -> h4 shares h2 -> h3 with h1 -> h3 only, so max-min gives it the remaining 2/3
#     (not 1/2): 2 L + 3 S / bw for the three, 2 L + 1.5 S / bw for it;
#   weights: h0 -> h3 (3 links, weight 1/(3L)) and h1 -> h3 (2 links, 1/(2L)) share h1 -> h2
#     and h2 -> h3. h1 -> h3 starts at 2L alone (bw L = 1000 bytes by 3L), then the two
#     share 2/5 : 3/5; h1 -> h3 ends at tb = 3L + (S - 1000) / (0.6 bw), h0 -> h3 has sent
#     0.4 bw (tb - 3L) by then and the rest alone: ta = tb + (S - 0.4 bw (tb - 3L)) / bw.
# usage: fluid.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
LINE="torus dims=5 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns"
job() { # NAME HOSTS: a p2p job of S bytes between two hosts, sharing hosts
    echo "name=$1,coll=p2p,alg=direct,ranks=2,hosts=[$2],size=1000000B,shared=yes"
}

# expect NAME ENGINE WANT_JOB=TIME... -- jobs: every job's time_s within 1e-9 of the value
expect() {
    name=$1 engine=$2
    shift 2
    wants=""
    while [ "$1" != "--" ]; do wants="$wants $1"; shift; done
    shift
    "$bin" sim --topology "$LINE" --flow-engine "$engine" --no-alone --format csv --no-header \
        "$@" > "$tmp/rows.csv" 2>&1 || { echo "FAIL $name ($engine): exit $?"; cat "$tmp/rows.csv"; fail=1; return; }
    # time_s is the 10th column, the job's name the 22nd (the placement is quoted)
    awk -F'"' '{ print $3 }' "$tmp/rows.csv" | awk -F, -v wants="$wants" '
        BEGIN { n = split(wants, w, " "); for (i = 1; i <= n; i++) { split(w[i], kv, "=");
                want[kv[1]] = kv[2] } }
        { got[$15] = $3 }
        END { for (j in want) { d = got[j] - want[j]; if (d < 0) d = -d
                  if (!(j in got) || d > 1e-9 * want[j]) { print "job " j ": " got[j] " want " want[j]; bad = 1 } }
              exit bad }' && echo "ok   $name ($engine)" || {
        echo "FAIL $name ($engine)"; cat "$tmp/rows.csv"; fail=1; }
}

for e in simgrid loop; do
    expect "one flow alone" $e a=0.001002 -- --job "$(job a 0,2)"
    expect "two flows on one link: 2x" $e a=0.002002 b=0.002002 -- \
        --job "$(job a 0,2)" --job "$(job b 1,3)"
    expect "three flows on a bottleneck: max-min" $e a=0.003002 a2=0.003002 b=0.003002 c=0.001502 -- \
        --job "$(job a 0,2)" --job "$(job a2 0,2)" --job "$(job b 1,3)" --job "$(job c 2,4)"
    tb=$(awk 'BEGIN { L = 1e-6; S = 1e6; bw = 1e9; printf "%.12g", 3 * L + (S - bw * L) / (0.6 * bw) }')
    ta=$(awk -v tb="$tb" 'BEGIN { L = 1e-6; S = 1e6; bw = 1e9; printf "%.12g", tb + (S - 0.4 * bw * (tb - 3 * L)) / bw }')
    expect "weights 1/latency" $e a="$ta" b="$tb" -- --job "$(job a 0,3)" --job "$(job b 1,3)"
done

# the checker fails on a wrong closed form (planted)
saved=$fail
fail=0
expect "planted: a wrong closed form" loop a=0.001502 -- --job "$(job a 0,2)" > /dev/null
if [ "$fail" -eq 1 ]; then echo "ok   planted wrong closed form caught"; else
    echo "FAIL planted wrong closed form not caught"; saved=1; fi
fail=$saved

# two --job points (collectives sharing a Dragonfly, endpoint costs in the second): both
# engines within the equality test's tolerance (tests/test_fluid_equal.c), bytes identical
DF="dragonfly p=2 a=4 h=2"
J1="name=x,coll=allreduce,alg=ring,ranks=8,hosts=0-7,size=1MiB"
J2="name=y,coll=alltoall,alg=pairwise,ranks=8,hosts=8-15,size=256KiB"
for opts in "" "--send-overhead 1us --eager-limit 4KiB --envelope 64B"; do
    for e in simgrid loop; do
        "$bin" sim --topology "$DF" --job "$J1" --job "$J2" $opts --flow-engine $e --format csv \
            --no-header | awk -F'"' '{ print $3 }' | cut -d, -f3-10,15 > "$tmp/jobs.$e"
    done
    if paste -d, "$tmp/jobs.simgrid" "$tmp/jobs.loop" | awk -F, '
        { d = $1 - $10; if (d < 0) d = -d; if (d > 2e-2 * $1) bad = 1
          for (i = 4; i <= 9; i++) if ($i != $(i + 9)) bad = 1 }
        END { exit bad || NR != 2 }'; then echo "ok   job points, engines agree ($opts)"
    else echo "FAIL job points differ ($opts)"; cat "$tmp/jobs.simgrid" "$tmp/jobs.loop"; fail=1; fi
done

# the model column names the engine; the byte columns equal SimGrid's
check "model column" 0 ",cm02 flow_engine=loop," -- "$bin" sim --topology "$LINE" --collective \
    allreduce --algorithm ring --ranks 5 --size 1MiB --flow-engine loop --format csv --no-header
for e in simgrid loop; do
    "$bin" sim --topology "torus dims=4x4" --collective alltoall --algorithm pairwise --ranks 16 \
        --size 64KiB --flow-engine $e --format csv --no-header | cut -d, -f13-19 > "$tmp/bytes.$e"
done
if cmp -s "$tmp/bytes.simgrid" "$tmp/bytes.loop" && [ -s "$tmp/bytes.loop" ]; then
    echo "ok   bytes per class identical to SimGrid's"
else
    echo "FAIL bytes differ"; cat "$tmp/bytes.simgrid" "$tmp/bytes.loop"; fail=1
fi

# a sweep with flow_engine: each cm02 point under both engines, lv08 points once
cat > "$tmp/fe.lua" <<'LUA'
collsim.sweep{
  topology    = collsim.topology.torus{dims = "4x4"},
  collective  = "allreduce",
  ranks       = 16,
  algorithms  = {"ring", "recursive_doubling"},
  size        = "1MiB",
  models      = {"cm02", "lv08"},
  flow_engine = {"simgrid", "loop"},
}
LUA
"$bin" run "$tmp/fe.lua" --output "$tmp/fe" > /dev/null 2>&1
rows=$(grep -c ',ok,' "$tmp/fe/results.csv" 2>/dev/null || echo 0)
loops=$(grep -c 'cm02 flow_engine=loop' "$tmp/fe/results.csv" 2>/dev/null || echo 0)
if [ "$rows" -eq 6 ] && [ "$loops" -eq 2 ]; then echo "ok   sweep flow_engine: 6 points, 2 loop"
else echo "FAIL sweep flow_engine: $rows points, $loops loop"; cat "$tmp/fe/results.csv"; fail=1; fi
check "sweep bad flow_engine" 2 "flow engine.*'fast'" -- sh -c "sed 's/\"loop\"}/\"fast\"}/' \
    '$tmp/fe.lua' > '$tmp/bad.lua' && '$bin' run '$tmp/bad.lua' --output '$tmp/bad'"

# bad input
check "unknown engine" 2 "flow engine.*'fast'.*simgrid, loop" -- "$bin" sim --topology "$LINE" \
    --collective bcast --algorithm linear --ranks 2 --flow-engine fast
check "loop needs cm02" 2 "flow-engine loop applies to --model cm02 only (the model is smpi" -- \
    "$bin" sim --topology "$LINE" --collective bcast --algorithm linear --ranks 2 --model smpi \
    --flow-engine loop
exit $fail
