#!/bin/sh
# CLI test: several jobs in a Lua scenario (collsim.sweep{jobs = {...}}, issue 29): rows per
# job equal to `collsim sim --job` of the same point, one point per swept value, resume that
# keeps whole points, merge of shards, --point-timeout, bad job tables, and results.csv
# without job columns when no point has jobs.
# usage: jobs_sweep.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
py=python3
runs() { # NAME command...: exits 0
    name=$1
    shift
    if out=$("$@" 2>&1); then echo "ok   $name"; else echo "FAIL $name"; echo "$out"; fail=1; fi
}
# a mesh line h0 - h1 - h2 - h3: h0 -> h2 and h1 -> h3 share the link h1 -> h2
LINE="torus dims=4 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns"
cat > "$tmp/two.lua" <<EOF
collsim.sweep{
  topology = "$LINE",
  jobs = {
    { name = "a", coll = "p2p", alg = "direct", ranks = 2, hosts = {0, 2},
      size = {"1000000B", "2000000B", "3000000B"} },
    { name = "b", coll = "p2p", alg = "direct", ranks = 2, hosts = "[1,3]", size = "1000000B" },
  },
}
EOF

# one point per size of the victim, each listing its jobs
"$bin" run "$tmp/two.lua" --dry-run > "$tmp/plan.txt" 2>/dev/null
n=$(grep -c "jobs a:p2p/direct P=2 n=[123]000000B + b:p2p/direct P=2 n=1000000B" "$tmp/plan.txt")
[ "$n" = 3 ] && [ "$(wc -l < "$tmp/plan.txt")" = 3 ] && echo "ok   one point per victim size" ||
    { echo "FAIL one point per victim size"; cat "$tmp/plan.txt"; fail=1; }

runs "run" "$bin" run "$tmp/two.lua" -o "$tmp/full" -q
check "job columns" 0 ",error,job,start_s,reps,alone_time_s,slowdown$" -- head -1 "$tmp/full/results.csv"
rows=$(($(wc -l < "$tmp/full/results.csv") - 1))
[ "$rows" = 6 ] && echo "ok   2 rows per point" || { echo "FAIL $rows rows, expected 6"; fail=1; }
check "manifest lists the jobs" 0 '"jobs": \["alg=direct,coll=p2p,hosts=\[0,2\],name=a,ranks=2,size=2000000B", "alg=direct,coll=p2p,hosts=\[1,3\],name=b,ranks=2,size=1000000B"\]' -- \
    cat "$tmp/full/manifest.json"

# every row equals the row of `collsim sim --job` with the same jobs (compared, not copied)
for size in 1000000B 2000000B 3000000B; do
    "$bin" sim --topology "$LINE" --format csv \
        --job "name=a,coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=$size" \
        --job "name=b,coll=p2p,alg=direct,ranks=2,hosts=[1,3],size=1000000B" > "$tmp/sim_$size.csv"
done
$py - "$tmp/full/results.csv" "$tmp"/sim_*.csv <<'EOF' && echo "ok   rows = collsim sim --job" ||
import csv, sys
sweep = list(csv.DictReader(open(sys.argv[1])))
cols = ["size_bytes", "placement", "time_s", "bytes_local", "messages", "job", "alone_time_s",
        "slowdown"]
ok = len(sweep) == 6 and all(r["status"] == "ok" for r in sweep)
for path in sys.argv[2:]:  # one sim per victim size: the rows of the point with that size
    sim = list(csv.DictReader(open(path)))
    points = {r["point"] for r in sweep if r["job"] == "a" and r["size_bytes"] == sim[0]["size_bytes"]}
    got = [r for r in sweep if r["point"] in points]
    ok &= len(points) == 1 and [[r[c] for c in cols] for r in got] == [[r[c] for c in cols] for r in sim]
# the closed form: alone 1 us x 2 hops + n / 1 GB/s; a and b share h1 -> h2 for 1 ms
a1 = [r for r in sweep if r["job"] == "a" and r["size_bytes"] == "1000000"][0]
ok &= abs(float(a1["time_s"]) - 0.002002) < 1e-9 and abs(float(a1["alone_time_s"]) - 0.001002) < 1e-9
sys.exit(0 if ok else 1)
EOF
    { echo "FAIL rows = collsim sim --job"; cat "$tmp/full/results.csv" "$tmp"/sim_*.csv; fail=1; }

# plots: a slowdown picture of job a (one line, its 3 sizes); none of the other plots of
# job rows
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
    /usr/bin/python3 scripts/plot.py "$tmp/full/results.csv" -o "$tmp/plots" 2>/dev/null
    n=$(ls "$tmp/plots" | grep -c '^slowdown-a-cm02-.*\.png$')
    m=$(ls "$tmp/plots" | grep -vc '^slowdown-')
    [ "$n" = 1 ] && [ "$m" = 0 ] && echo "ok   slowdown plot" ||
        { echo "FAIL slowdown plot"; ls "$tmp/plots"; fail=1; }
else
    echo "skip slowdown plot: no matplotlib"
fi

# merge of two shards = the whole run
"$bin" run "$tmp/two.lua" -o "$tmp/s1" --shard 1/2 -q
"$bin" run "$tmp/two.lua" -o "$tmp/s2" --shard 2/2 -q
check "merge" 0 "3 of 3 points" -- "$bin" merge "$tmp/merged" "$tmp/s1" "$tmp/s2"
same "merged results = whole run" "$tmp/merged/results.csv" "$tmp/full/results.csv"

# resume: a run stopped between points (the last point's rows missing) runs only that
# point; a point with only some of its rows (planted) runs again whole
cp -r "$tmp/full" "$tmp/cut"
head -n 5 "$tmp/full/results.csv" > "$tmp/cut/results.csv"
runs "resume after points" "$bin" run "$tmp/two.lua" -o "$tmp/cut" --resume -q
same "resumed = whole run" "$tmp/cut/results.csv" "$tmp/full/results.csv"
cp -r "$tmp/full" "$tmp/half"
head -n 4 "$tmp/full/results.csv" > "$tmp/half/results.csv"   # point 1 has job a only
check "half a point runs again" 0 "1 point(s) without all their job rows" -- \
    "$bin" run "$tmp/two.lua" -o "$tmp/half" --resume
same "half point resumed = whole run" "$tmp/half/results.csv" "$tmp/full/results.csv"
# a real interruption: SIGTERM once the first point is written; every point in the file
# then has all its rows, and --resume completes it to the whole run
cat > "$tmp/many.lua" <<EOF
collsim.sweep{
  topology = "torus dims=8x8",
  jobs = {
    { name = "x", coll = "allreduce", alg = {"ring", "rabenseifner"}, ranks = 32,
      size = {"64KiB", "1MiB", "4MiB"} },
    { name = "y", coll = "alltoall", alg = "pairwise", ranks = 32, size = "16KiB" },
  },
}
EOF
"$bin" run "$tmp/many.lua" -o "$tmp/killed" -q -j 1 &
pid=$!
i=0
while [ "$i" -lt 600 ] && [ "$(cat "$tmp/killed/results.csv" 2>/dev/null | wc -l)" -lt 3 ]; do
    sleep 0.05; i=$((i + 1))
done
kill -TERM "$pid" 2>/dev/null
wait "$pid"
$py - "$tmp/killed/results.csv" <<'EOF' && echo "ok   killed run: whole points" ||
import collections, csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
per = collections.Counter(r["point"] for r in rows)
sys.exit(0 if rows and all(n == 2 for n in per.values()) else 1)
EOF
    { echo "FAIL killed run: whole points"; cat "$tmp/killed/results.csv"; fail=1; }
runs "killed run resumed" "$bin" run "$tmp/many.lua" -o "$tmp/killed" --resume -q
runs "uninterrupted run" "$bin" run "$tmp/many.lua" -o "$tmp/whole" -q
same "resumed after a kill = uninterrupted" "$tmp/killed/results.csv" "$tmp/whole/results.csv"

# --point-timeout: the point (all its simulations) times out as one: a row per job. No
# bound depends on the machine's speed: job x runs a Lua algorithm that never ends (with
# --lua-timeout 0), so its point can never meet the limit, whatever the machine.
cat > "$tmp/endless_alg.lua" <<'EOF'
collsim.define_algorithm{name = "endless", collective = "allreduce", summary = "never ends",
  units = function(P) return P end,
  rank = function(r, P, size, params) while true do end end}
EOF
{ cat "$tmp/endless_alg.lua"; cat <<'EOF'
collsim.sweep{ topology = "torus dims=4", jobs = {
  { name = "x", coll = "allreduce", alg = "endless", ranks = 2, hosts = {0, 1} },
  { name = "y", coll = "p2p", alg = "direct", ranks = 2, hosts = {2, 3} } } }
EOF
} > "$tmp/endless.lua"
runs "timeout" "$bin" run "$tmp/endless.lua" -o "$tmp/to" --point-timeout 1 --lua-timeout 0 -q --no-plot
n=$(grep -c ",timeout,.*--point-timeout.*,[xy],0,1,,$" "$tmp/to/results.csv")
[ "$n" = 2 ] && echo "ok   timeout rows per job" || { echo "FAIL timeout rows: $n"; fail=1; }
check "sim --job timeout" 1 "timeout: the point ran longer than 1 s" -- \
    "$bin" sim --lua "$tmp/endless_alg.lua" --lua-timeout 0 --topology "$LINE" \
    --job 'coll=allreduce,alg=endless,ranks=2,hosts=[0,2]' --point-timeout 1

# bad job tables: the scenario file and line of the sweep, and the job
bad() { # name pattern lua-jobs-table
    printf 'local x = 1\ncollsim.sweep{\n  topology = "%s",\n  jobs = %s,\n}\n' "$LINE" "$3" > "$tmp/bad.lua"
    check "$1" 2 "$2" -- "$bin" run "$tmp/bad.lua" --dry-run
}
bad "unknown key" "bad.lua:2: collsim.sweep: jobs\[2\] (b): unknown key 'colour' (allowed: name, coll" \
    '{ {coll = "p2p", alg = "direct", ranks = 2}, {name = "b", coll = "bcast", alg = "linear", ranks = 2, colour = "red"} }'
bad "overlapping hosts" "bad.lua:2: .*jobs a and b both use host h1" \
    '{ {name = "a", coll = "p2p", alg = "direct", ranks = 2, hosts = "0-1"}, {name = "b", coll = "bcast", alg = "linear", ranks = 2, hosts = "1-2"} }'
bad "no ranks" "bad.lua:2: collsim.sweep: jobs\[1\] (a): ranks= is required" \
    '{ {name = "a", coll = "p2p", alg = "direct"} }'
bad "a point key beside jobs" "drop 'size' from the sweep" \
    '{ {coll = "p2p", alg = "direct", ranks = 2} }, size = "1MiB"'
bad "unknown algorithm" "jobs\[1\]: .*nope" '{ {coll = "allreduce", alg = "nope", ranks = 2} }'
bad "not a table" "jobs\[1\]: expected a table" '{ "coll=p2p" }'

# filter sees the point's jobs; on_result is called once per job row, with the job columns
cat > "$tmp/onres.lua" <<EOF
collsim.sweep{
  topology = "$LINE",
  jobs = { { name = "a", coll = "p2p", alg = "direct", ranks = 2, hosts = {0, 2},
             size = {"1000000B", "2000000B"} },
           { name = "b", coll = "p2p", alg = "direct", ranks = 2, hosts = {1, 3} } },
  filter = function(pt) return #pt.jobs == 2 and pt.jobs[1]:find("size=2000000B") == nil end,
  on_result = function(row) print("ROW", row.job, row.ranks, row.alone_time_s ~= nil) end,
}
EOF
"$bin" run "$tmp/onres.lua" -o "$tmp/onres" -q --no-plot > "$tmp/onres.txt" 2>&1
printf 'ROW\ta\t2\ttrue\nROW\tb\t2\ttrue\n' > "$tmp/onres.want"
same "filter and on_result per job" "$tmp/onres.txt" "$tmp/onres.want"

# no jobs: results.csv keeps its columns; a plan mixing both gives the others empty job
# columns
printf 'collsim.sweep{ topology = "%s", collective = "p2p", algorithm = "direct", ranks = 2 }\n' \
    "$LINE" > "$tmp/plain.lua"
"$bin" run "$tmp/plain.lua" -o "$tmp/plain" -q
if head -1 "$tmp/plain/results.csv" | grep -q ',error$'; then echo "ok   no job columns without jobs"
else echo "FAIL no job columns without jobs"; head -1 "$tmp/plain/results.csv"; fail=1; fi
check "resume across layouts refused" 2 "has the job columns (job, start_s, ...), but this run's points have no jobs" -- \
    "$bin" run "$tmp/plain.lua" -o "$tmp/full" --resume --force
cat "$tmp/plain.lua" "$tmp/two.lua" > "$tmp/mixed.lua"
"$bin" run "$tmp/mixed.lua" -o "$tmp/mixed" -q
check "mixed plan" 0 "^0,.*,,,,,$" -- cat "$tmp/mixed/results.csv"
check "mixed plan: every row has the header's columns" 0 "^same width$" -- $py -c "
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
print('same width' if len({len(r) for r in rows}) == 1 else 'widths %s' % sorted({len(r) for r in rows}))
" "$tmp/mixed/results.csv"
check "mixed plan rows" 0 "^7$" -- sh -c "tail -n +2 '$tmp/mixed/results.csv' | wc -l"
exit $fail
