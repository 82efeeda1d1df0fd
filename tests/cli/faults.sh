#!/bin/sh
# CLI test: failed and degraded links (docs/topologies.md "Faults"): the topology keys and
# the --fail-links / --degrade-links / --fault-seed options, SimGrid routes equal ours on
# faulty networks of every family, the long way round on a ring, seeded draws, bad specs
# and a disconnecting fault (exit 2, two ranks named, nothing on stdout; an error row in a
# sweep), drawings of failed links, the Lua keys, and the study results/faults-torus
# (its README is what scripts/faults_torus_table.py prints from its CSV, a changed value in
# a copy of the CSV is caught, and its rows are the scenario's plan).
# usage: faults.sh PATH/TO/collsim   (run from the source tree)
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
R="torus dims=8 local_bw=1GBps local_lat=10us"

# topologies
check "failed link listed" 0 "failed 1 links: l0(h0-h1 local)" -- "$bin" topo "$R fail_links=l0"
check "long way round" 0 "h0 -> h1: 7 links" -- "$bin" topo "$R fail_links=h0-h1" --route 0 1
check "degraded listed" 0 "l3(h3-h4 local x0.5)" -- "$bin" topo "$R degrade_links=l3:0.5"
check "cut in two" 0 "fall into 2 parts" -- "$bin" topo "$R fail_links=l0,l4" --stats
for spec in "torus dims=4x4 fail_links=random:3 degrade_links=l1:0.5" \
            "dragonfly p=2 a=4 h=2 fail_links=global:30%" \
            "dragonflyplus p=2 leaves=3 spines=2 h=2 fail_links=random:4" \
            "fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:6" \
            "hyperx dims=4x4 T=2 fail_links=random:8" "kautz d=3 k=2 fail_links=random:3" \
            "hammingmesh a=2 b=2 x=2 y=2 fail_links=random:3" \
            "fattree leaves=4 hosts_per_leaf=2 spines=2 fail_links=host:1" \
            "torus dims=24x24 fail_links=random:6"; do
    check "simgrid routes: $spec" 0 ", 0 differ" -- "$bin" topo "$spec" --check 3000
done

# seeded draws: the same seed twice gives the same links, another seed others
a=$("$bin" topo "fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:5 fault_seed=3" | grep "^failed")
b=$("$bin" topo "fattree leaves=8 hosts_per_leaf=4 spines=4" --fail-links random:5 --fault-seed 3 2>&1 | grep "^failed")
c=$("$bin" topo "fattree leaves=8 hosts_per_leaf=4 spines=4 fail_links=random:5 fault_seed=4" | grep "^failed")
if [ -n "$a" ] && [ "$a" = "$b" ] && [ "$a" != "$c" ]; then echo "ok   seeded draws"; else
    echo "FAIL seeded draws: '$a' / '$b' / '$c'"; fail=1; fi

# sim: the options become the topology's keys; the time follows the longer route
check "sim --fail-links" 0 "local_lat=10us fail_links=l0,allreduce,ring" -- "$bin" sim \
    --topology "$R" --fail-links l0 --collective allreduce --algorithm ring --ranks 8 \
    --size 8MiB --reduce-rate free --format csv
check "sim --degrade-links" 0 "degrade_links=l0:0.5" -- "$bin" sim --topology "$R" \
    --degrade-links l0:0.5 --collective bcast --algorithm linear --ranks 2 --format csv

# bad input: exit 2, the option or key and the allowed values named
check "unknown link" 2 "fail_links: no link 'l99' in this network (links l0..l7" -- "$bin" sim \
    --topology "$R" --fail-links l99 --collective allreduce --algorithm ring --ranks 8
check "too many" 2 "asks for 9 links but the network has 8" -- "$bin" topo "$R fail_links=local:9"
check "factor" 2 "degrade_links: factor 1.5 .* (allowed: 0 < FACTOR <= 1" -- "$bin" topo "$R" \
    --degrade-links l1:1.5
check "unknown class" 2 "unknown class 'glob'" -- "$bin" topo "$R fail_links=glob:1"
check "bad seed" 2 "fault_seed: bad seed 'x'" -- "$bin" sim --topology "$R" --fail-links l1 \
    --fault-seed x --collective allreduce --algorithm ring --ranks 8
check "external platform" 2 "--fail-links applies to generated topologies" -- "$bin" sim \
    --platform x.xml --fail-links l1 --collective allreduce --algorithm ring --ranks 8
check "given twice" 2 "already has fail_links=" -- "$bin" sim --topology "$R fail_links=l1" \
    --fail-links l2 --collective allreduce --algorithm ring --ranks 8
# the packet model routes adaptively around failed links: on an 8x8 torus without h0-h1
# and h0-h56 one 3-link path h0 -> h1 remains (y+, x+, y-); 16 packets of 4 KiB over 3
# links of 1 us, 1 GB/s: 3 us + (16 + 2) x 4.096 us = 76.728 us, every routing
for routing in minimal adaptive ecmp; do
    check "packet $routing around failed links" 0 ",7.6728e-05," -- "$bin" sim \
        --topology "torus dims=8x8 local_bw=1GBps local_lat=1us" --fail-links h0-h1,h0-h56 \
        --collective p2p --algorithm direct --ranks 64 --dst 1 --size 64KiB --model packet \
        --routing $routing --format csv --no-header
done

# a disconnecting fault: an error naming two ranks, nothing written
"$bin" sim --topology "$R" --fail-links l3,l7 --collective allreduce --algorithm ring \
    --ranks 8 --format csv > "$tmp/out.csv" 2> "$tmp/err.txt"
rc=$?
if [ $rc -eq 2 ] && [ ! -s "$tmp/out.csv" ] &&
   grep -q "rank 0 (host h0) and rank 4 (host h4) cannot reach each other" "$tmp/err.txt"; then
    echo "ok   disconnected: exit 2, two ranks named, no output"
else echo "FAIL disconnected: exit $rc"; cat "$tmp/err.txt"; fail=1; fi
check "inside one part" 0 "allreduce,ring" -- "$bin" sim --topology "$R" --fail-links l3,l7 \
    --collective allreduce --algorithm ring --ranks 4 --format csv

# Lua keys: swept, an error row for the disconnected point, a bad spec is file:line
cat > "$tmp/cut.lua" <<'LUA'
collsim.sweep{topology = "torus dims=8", collective = "allreduce", algorithm = "ring",
  ranks = 8, fail_links = {"none", "l0", "l3,l7"}}
LUA
"$bin" run "$tmp/cut.lua" -o "$tmp/cut" --no-plot > /dev/null 2>&1
check "lua: swept" 0 ",ok,.*torus dims=8 fail_links=l0," -- cat "$tmp/cut/results.csv"
check "lua: error row" 0 ",error,.*rank 0 (host h0) and rank 4 (host h4)" -- cat "$tmp/cut/results.csv"
printf 'collsim.sweep{topology = "torus dims=8", collective = "allreduce",\n  algorithm = "ring", ranks = 8, fail_links = "l99"}\n' > "$tmp/bad.lua"
check "lua: bad spec" 2 "bad.lua:1: collsim.sweep: topology \"torus dims=8 fail_links=l99\"" -- \
    "$bin" run "$tmp/bad.lua" --dry-run

# drawings: failed links red and dashed, with a title
check "draw" 0 "wrote $tmp/f.svg" -- "$bin" draw "torus dims=4x4" --fail-links l0 \
    --degrade-links l9:0.5 --out "$tmp/f.svg"
check "draw: failed link" 0 'stroke="#e03131" stroke-width="[0-9.]*" stroke-dasharray' -- cat "$tmp/f.svg"
check "draw: degraded title" 0 "degraded: bandwidth x0.5" -- cat "$tmp/f.svg"

# the study: README generated from the CSV, a planted change caught, rows = plan
py=python3
check "faults-torus README" 0 "ok generated sections: 1 README" -- $py scripts/check_generated.py \
    --file results/faults-torus/README.md
$py - results/faults-torus/run/results.csv "$tmp/planted.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
rows[-1]["time_s"] = repr(float(rows[-1]["time_s"]) * 1.5)
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]))
w.writeheader()
w.writerows(rows)
PY
sed "s|results/faults-torus/run/results.csv|$tmp/planted.csv|" results/faults-torus/README.md \
    > "$tmp/README.md"
check "planted change caught" 1 "" -- $py scripts/check_generated.py --file "$tmp/README.md"
"$bin" run scenarios/faults_torus.lua --dry-run 2>/dev/null | cut -f2 | sort > "$tmp/plan.ids"
tail -n +2 results/faults-torus/run/results.csv | cut -d, -f2 | sort > "$tmp/rows.ids"
if [ -s "$tmp/plan.ids" ] && cmp -s "$tmp/plan.ids" "$tmp/rows.ids"; then
    echo "ok   faults-torus: the rows are the plan"
else echo "FAIL faults-torus: rows and plan differ"; fail=1; fi
rm -rf "$tmp"
exit $fail
