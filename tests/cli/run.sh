#!/bin/sh
# CLI test: `collsim run SCENARIO.lua`: scenario errors as file:line with a non-zero
# exit (also runtime errors in C code, time and memory limits, on_result errors with a
# "failed" manifest), the sandbox, same seed -> same CSV, -j 2 -> same CSV as -j 1, a
# killed run resumed -> same CSV as an uninterrupted one, --resume refusing another run's
# directory, shards together = the whole run, --point-timeout on a point that never ends
# by construction (no bound that depends on the machine's speed), the terminal progress
# line, long points announced before they start (--announce-over), plot.py.
# tests/cli/safety.sh covers the output directory rules (issue 26).
# usage: run.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp

# ---- errors in scenarios -------------------------------------------------------------------
printf 'local t = collsim.topology.torus{dims = "4"}\ncollsim.sweep{\n  topology = t,,\n}\n' > "$tmp/syntax.lua"
check "syntax error" 2 "syntax.lua:3:" -- "$bin" run "$tmp/syntax.lua" -o "$tmp/o"
cat > "$tmp/unknown.lua" <<'LUA'
local t = collsim.topology.torus{dims = "4"}
collsim.sweep{topology = t, collective = "allreduce", ranks = 4,
              algorithm = "no_such_algorithm"}
LUA
check "unknown algorithm" 2 "unknown.lua:2: collsim.sweep: algorithm: .*no_such_algorithm" -- \
    "$bin" run "$tmp/unknown.lua" -o "$tmp/o"
printf 'collsim.sweep{topology = collsim.topology.torus{dims = "4"}, collective = "allreduce",\n  ranks = 4, algorithm = "ring", sizes = "12 parsecs"}\n' > "$tmp/size.lua"
check "bad size" 2 "size.lua:1: collsim.sweep: size" -- "$bin" run "$tmp/size.lua" -o "$tmp/o"
printf 'collsim.sweep{topology = collsim.topology.torus{dimz = "4"}, collective = "allreduce",\n  ranks = 4, algorithm = "ring"}\n' > "$tmp/key.lua"
check "bad topology key" 2 "key.lua:1: .*dimz" -- "$bin" run "$tmp/key.lua" -o "$tmp/o"
check "missing file" 2 "nope.lua" -- "$bin" run "$tmp/nope.lua" -o "$tmp/o"

# errors raised in C code (ipairs' iterator) get the line of the innermost scenario frame,
# also inside a collsim.* call (a filter function collsim.sweep calls)
printf 'local x = 1\nfor _ in ipairs(nil) do end\n' > "$tmp/rt.lua"
check "runtime error: file:line" 2 "rt.lua:2: attempt to index a nil value" -- "$bin" run "$tmp/rt.lua" -o "$tmp/o"
cat > "$tmp/rtc.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring",
  filter = function(point)
    for _ in ipairs(point.no_such_key) do end
  end}
LUA
check "runtime error inside collsim.sweep: file:line" 2 "rtc.lua:3: attempt to index a nil value" -- \
    "$bin" run "$tmp/rtc.lua" -o "$tmp/o"

# ---- limits of the Lua code: time and memory -------------------------------------------------
printf 'local n = 0\nwhile true do n = n + 1 end\n' > "$tmp/loop.lua"
check "endless loop stopped" 2 "loop.lua:2: scenario evaluation exceeded 0.5 s (--lua-timeout)" -- \
    "$bin" run "$tmp/loop.lua" -o "$tmp/o" --lua-timeout 0.5
printf 'while true do\n  pcall(function() while true do end end)\nend\n' > "$tmp/pcall.lua"
check "endless loop of pcalls stopped" 2 "pcall.lua:[12]: scenario evaluation exceeded" -- \
    timeout 60 "$bin" run "$tmp/pcall.lua" -o "$tmp/o" --lua-timeout 0.3
cat > "$tmp/filterloop.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring",
  filter = function(point)
    while true do end
  end}
LUA
check "endless filter stopped" 2 "filterloop.lua:3: scenario evaluation exceeded 0.3 s" -- \
    "$bin" run "$tmp/filterloop.lua" -o "$tmp/o" --lua-timeout 0.3
printf 'local t = {}\nwhile true do t[#t + 1] = {} end\n' > "$tmp/bomb.lua"
check "memory bomb stopped" 2 "bomb.lua:2: scenario used more than 16MiB of memory (--lua-memory)" -- \
    "$bin" run "$tmp/bomb.lua" -o "$tmp/o" --lua-memory 16MiB
printf 'local n = 1\nlocal s = string.rep("x", 256 * 1024 * 1024)\n' > "$tmp/bigstr.lua"
check "one large block refused" 2 "bigstr.lua:2: scenario used more than 100MiB of memory" -- \
    "$bin" run "$tmp/bigstr.lua" -o "$tmp/o" --lua-memory 100MiB
check "bad --lua-memory" 2 "lua-memory: .*allowed units" -- "$bin" run "$tmp/bomb.lua" --lua-memory 3XB

# ---- on_result: an error or an endless callback stops the run; the manifest says "failed" ---
cat > "$tmp/onres.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring",
  model = "traffic", sizes = {"1KiB", "2KiB"},
  on_result = function(row)
    if row.size_bytes == 2048 then error("no 2 KiB please") end
  end}
LUA
check "on_result error" 1 "onres.lua:4: no 2 KiB please (in on_result, point 1" -- \
    "$bin" run "$tmp/onres.lua" -o "$tmp/or" --no-plot
check "on_result error: manifest failed" 0 '"state": "failed"' -- cat "$tmp/or/manifest.json"
check "on_result error: manifest error" 0 '"error": "onres.lua:4: no 2 KiB please' -- sh -c \
    "sed 's|$tmp/||' '$tmp/or/manifest.json'"
# the header and both rows: a row is written before its on_result call
check "on_result error: the rows so far" 0 "^3$" -- sh -c "wc -l < '$tmp/or/results.csv'"
sed 's/error("no 2 KiB please")/while true do end/' "$tmp/onres.lua" > "$tmp/onloop.lua"
check "endless on_result stopped" 1 "onloop.lua:4: on_result exceeded 0.3 s (--lua-timeout)" -- \
    "$bin" run "$tmp/onloop.lua" -o "$tmp/ol" --no-plot --lua-timeout 0.3
check "endless on_result: manifest failed" 0 '"state": "failed"' -- cat "$tmp/ol/manifest.json"

# ---- collsim.topology.families, as docs/scenarios.md shows it ----------------------------
cat > "$tmp/families.lua" <<'LUA'
for _, f in ipairs(collsim.topology.families) do io.write(f, " ") end
print()
collsim.sweep{topology = collsim.topology[collsim.topology.families[1]](), collective = "allreduce",
              ranks = 2, algorithm = "ring", model = "traffic"}
LUA
check "collsim.topology.families" 0 "dragonfly .*torus" -- "$bin" run "$tmp/families.lua" -o "$tmp/fam" -q --no-plot

# ---- the sandbox ---------------------------------------------------------------------------
printf '\nos.execute("touch %s/pwned")\n' "$tmp" > "$tmp/exec.lua"
check "os.execute refused" 2 "exec.lua:2: os.execute is not available in a scenario" -- \
    "$bin" run "$tmp/exec.lua" -o "$tmp/o"
[ ! -e "$tmp/pwned" ] || { echo "FAIL os.execute ran"; fail=1; }
printf 'io.popen("true")\n' > "$tmp/popen.lua"
check "io.popen refused" 2 "popen.lua:1: io.popen is not available" -- "$bin" run "$tmp/popen.lua" -o "$tmp/o"
printf 'package.loadlib("libc.so.6", "*")\n' > "$tmp/loadlib.lua"
check "package.loadlib refused" 2 "loadlib.lua:1: package.loadlib is not available" -- \
    "$bin" run "$tmp/loadlib.lua" -o "$tmp/o"
printf 'io.open("%s/outside.txt", "w")\n' "$tmp" > "$tmp/write.lua"
check "write outside refused" 2 "write.lua:1: io.open: writing .* only under the output directory" -- \
    "$bin" run "$tmp/write.lua" -o "$tmp/o"
printf 'os.execute("true")\ncollsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring", model = "traffic"}\n' > "$tmp/unsafe.lua"
quiet=$("$bin" run "$tmp/unsafe.lua" -o "$tmp/uq" --unsafe-lua -q 2>&1)
if [ -z "$quiet" ] && [ -s "$tmp/uq/results.csv" ]; then echo "ok   -q prints nothing"; else echo "FAIL -q printed: $quiet"; fail=1; fi
check "unsafe lifts the sandbox" 0 "1 ok" -- "$bin" run "$tmp/unsafe.lua" -o "$tmp/u" --unsafe-lua --no-plot

# ---- a small sweep: 2 placements x 3 algorithms x 4 sizes = 24 points ----------------------
cat > "$tmp/small.lua" <<'LUA'
local df = collsim.topology.dragonfly{p = 2, a = 2, h = 1}
collsim.sweep{
  topology   = df,
  collective = "allreduce",
  ranks      = 8,
  placements = {"linear", "random"},
  algorithms = {"ring", "recursive_doubling", collsim.algorithm("bine_bandwidth", {strategy = "send"})},
  sizes      = collsim.sizes.geometric("1KiB", "512KiB", 8),
}
LUA
check "run" 0 "24 points (0 resumed): 24 ok" -- "$bin" run "$tmp/small.lua" -o "$tmp/a" --seed 7 --no-plot
check "csv rows" 0 "^24$" -- sh -c "tail -n +2 '$tmp/a/results.csv' | wc -l"
check "manifest sha256" 0 "$(sha256sum "$tmp/small.lua" | cut -c1-64)" -- cat "$tmp/a/manifest.json"
check "manifest wall time per point" 0 '"wall_s": [0-9.]*, "peak_rss_kb": [1-9]' -- cat "$tmp/a/manifest.json"
check "manifest complete" 0 '"state": "complete"' -- cat "$tmp/a/manifest.json"
"$bin" run "$tmp/small.lua" -o "$tmp/b" --seed 7 -q --no-plot 2>/dev/null
same "same seed, byte-identical CSV" "$tmp/a/results.csv" "$tmp/b/results.csv"
"$bin" run "$tmp/small.lua" -o "$tmp/c" --seed 8 -q --no-plot 2>/dev/null
if ! cmp -s "$tmp/a/results.csv" "$tmp/c/results.csv"; then
    echo "ok   another seed, other random placements"
else
    echo "FAIL another seed gave the same CSV"; fail=1
fi
"$bin" run "$tmp/small.lua" -o "$tmp/j" --seed 7 -j 2 -q --no-plot 2>/dev/null
same "-j 2 gives the -j 1 CSV" "$tmp/a/results.csv" "$tmp/j/results.csv"

# ---- kill half-way, resume ------------------------------------------------------------------
"$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 7 -q --no-plot 2>/dev/null &
pid=$!
i=0
while [ "$(cat "$tmp/k/results.csv" 2>/dev/null | wc -l)" -lt 8 ] && [ $i -lt 600 ]; do
    sleep 0.05; i=$((i + 1))
done
kill -TERM $pid
wait $pid
st=$?
check "timings of the killed run" 0 "^point,id,wall_s,peak_rss_kb" -- cat "$tmp/k/timings.csv"
rows=$(($(wc -l < "$tmp/k/results.csv") - 1))
if [ $st -eq 143 ] && [ $rows -ge 7 ] && [ $rows -lt 24 ]; then
    echo "ok   killed after $rows rows (exit $st)"
else
    echo "FAIL kill: exit $st, $rows rows"; fail=1
fi
check "manifest interrupted" 0 '"state": "interrupted"' -- cat "$tmp/k/manifest.json"
printf '99,deadbeef' >> "$tmp/k/results.csv" # a partial last line, as a cut write leaves
check "resume" 0 "24 points ([0-9]* resumed)" -- "$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 7 --resume --no-plot
same "killed + resumed = uninterrupted" "$tmp/a/results.csv" "$tmp/k/results.csv"
check "resume with nothing left" 0 "24 points (24 resumed)" -- \
    "$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 7 --resume --no-plot
# --resume into a directory of another run: refused, nothing lost; --force keeps them aside
check "resume with another seed refused" 2 "the seed (7, now 8) changed; 24 of its rows are not points of this run. Use --resume --force" -- \
    "$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 8 --resume --no-plot
same "refused resume: results.csv untouched" "$tmp/a/results.csv" "$tmp/k/results.csv"
{ cat "$tmp/small.lua"; echo "-- an edit"; } > "$tmp/small2.lua"
check "resume of an edited scenario refused" 2 "the scenario file (sha256 [0-9a-f]*\.\.\., now [0-9a-f]*\.\.\.) changed" -- \
    "$bin" run "$tmp/small2.lua" -o "$tmp/k" --seed 7 --resume --no-plot
check "resume of another shard refused" 2 "the shard (1/1, now 2/3) changed; 16 of its rows" -- \
    "$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 7 --shard 2/3 --resume --no-plot
check "--force needs --resume" 2 "force goes with --resume" -- "$bin" run "$tmp/small.lua" -o "$tmp/k" --force
check "resume --force" 0 "24 rows that are not points of this run moved to .*results.foreign.csv" -- \
    "$bin" run "$tmp/small.lua" -o "$tmp/k" --seed 8 --resume --force --no-plot
same "resume --force: the old rows aside" "$tmp/a/results.csv" "$tmp/k/results.foreign.csv"
same "resume --force: the new run" "$tmp/c/results.csv" "$tmp/k/results.csv"

# a scenario whose environment selects a subset of its points: resuming with a larger
# subset keeps the rows (matched by point id, renumbered) and runs only the new points
cat > "$tmp/subset.lua" <<'LUA'
local sizes = os.getenv("SUBSET") == "small" and {"1KiB", "64KiB"} or {"1KiB", "4KiB", "64KiB"}
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4,
              algorithms = {"ring", "recursive_doubling"}, sizes = sizes}
LUA
SUBSET=small "$bin" run "$tmp/subset.lua" -o "$tmp/sub" -q --no-plot
"$bin" run "$tmp/subset.lua" -o "$tmp/whole" -q --no-plot
check "resume with a larger subset" 0 "6 points (4 resumed)" -- \
    "$bin" run "$tmp/subset.lua" -o "$tmp/sub" --resume --no-plot
same "larger subset resumed = the whole run" "$tmp/whole/results.csv" "$tmp/sub/results.csv"
cut -d, -f1,2 "$tmp/sub/timings.csv" | sort > "$tmp/sub/t.keys"
cut -d, -f1,2 "$tmp/sub/results.csv" | sort > "$tmp/sub/r.keys"
same "timings renumbered like the rows" "$tmp/sub/r.keys" "$tmp/sub/t.keys"
check "resume with a smaller subset refused" 2 "2 of its rows are not points of this run" -- \
    env SUBSET=small "$bin" run "$tmp/subset.lua" -o "$tmp/sub" --resume --no-plot

# ---- --model: every timed point on another model; traffic points stay traffic ---------------
cat > "$tmp/models.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4,
              algorithm = "ring", sizes = {"1KiB", "64KiB"}, models = {"cm02", "smpi"}}
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4,
              algorithm = "ring", size = "1KiB", model = "traffic"}
LUA
check "--model packet: one model, not two" 0 "3 points (0 resumed): 3 ok" -- \
    "$bin" run "$tmp/models.lua" -o "$tmp/mp" --model packet --no-plot
check "--model packet: the rows' models" 0 "^packet routing=minimal mtu=4096 buffer=65536,packet routing=minimal mtu=4096 buffer=65536,traffic,$" -- \
    sh -c "python3 -c \"import csv,sys; print(','.join(r['model'] for r in csv.DictReader(open(sys.argv[1]))) + ',')\" '$tmp/mp/results.csv'"
check "--model in the manifest" 0 '"model_override": "packet"' -- cat "$tmp/mp/manifest.json"
check "--model flow = cm02, once" 0 "^4 2 0$" -- sh -c "'$bin' run '$tmp/models.lua' -o '$tmp/mf' --model flow -q --no-plot && echo \$(wc -l < '$tmp/mf/results.csv') \$(grep -c ',cm02,' '$tmp/mf/results.csv') \$(grep -c ',smpi,' '$tmp/mf/results.csv')"
check "resume under another --model refused" 2 "\-\-model (packet, now cm02) changed" -- \
    "$bin" run "$tmp/models.lua" -o "$tmp/mp" --model cm02 --resume --no-plot
check "resume without the --model refused" 2 "\-\-model (packet, now none) changed" -- \
    "$bin" run "$tmp/models.lua" -o "$tmp/mp" --resume --no-plot
check "bad --model" 2 "unknown model 'fluid' (allowed: cm02 (default, alias flow), lv08, smpi, traffic, packet, analytic, auto)" -- \
    "$bin" run "$tmp/models.lua" -o "$tmp/mx" --model fluid

# ---- shards ------------------------------------------------------------------------------------
for k in 1 2 3; do
    "$bin" run "$tmp/small.lua" -o "$tmp/s$k" --seed 7 --shard $k/3 -q --no-plot 2>/dev/null 2>/dev/null
done
check "merge" 0 "24 of 24 points" -- "$bin" merge "$tmp/m" "$tmp/s2" "$tmp/s3" "$tmp/s1"
same "shards 1/3 2/3 3/3 merged = the whole run" "$tmp/a/results.csv" "$tmp/m/results.csv"
check "merged manifest" 0 '"state": "complete"' -- cat "$tmp/m/manifest.json"
check "merged manifest: every point" 0 "^24$" -- sh -c "grep -c '^    {\"point\": ' '$tmp/m/manifest.json'"
check "merged manifest: json" 0 "24 merged" -- python3 -c "import json,sys; m=json.load(open(sys.argv[1])); assert [p['point'] for p in m['points']] == list(range(24)); print(len(m['points']), m['shard'])" "$tmp/m/manifest.json"
check "merged timings" 0 "^25$" -- sh -c "wc -l < '$tmp/m/timings.csv'"
check "merge with a shard missing" 1 "8 points have no row" -- "$bin" merge "$tmp/m2" "$tmp/s1" "$tmp/s3"
check "merge incomplete manifest" 0 '"state": "incomplete"' -- cat "$tmp/m2/manifest.json"
check "merge of other seeds" 2 "different scenarios, seeds" -- "$bin" merge "$tmp/m3" "$tmp/s1" "$tmp/c"
check "merge of a non-run" 2 "cannot read .*nodir/manifest.json" -- "$bin" merge "$tmp/m3" "$tmp/nodir"
check "bad shard" 2 "1 <= K <= N" -- "$bin" run "$tmp/small.lua" --shard 4/3

# ---- collsim.draw{...}: pictures written under the output directory only -------------------
cat > "$tmp/draw.lua" <<'LUA'
local t = collsim.topology.torus{dims = "4x2"}
local topo = collsim.draw{topology = t, out = "torus.svg"}
local r = collsim.draw{topology = t, out = "ring.svg", algorithm = "ring", collective = "allreduce",
                       size = "64KiB", link_csv = "ring-links.csv"}
print("drawn", topo.files, r.steps, r.max_link_bytes)
collsim.sweep{topology = t, collective = "allreduce", ranks = 8, algorithm = "ring", model = "traffic"}
LUA
# ring allreduce on 8 ranks: 2(P-1) = 14 steps, each link direction carries n/P per step
check "collsim.draw" 0 "drawn	1	14	" -- "$bin" run "$tmp/draw.lua" -o "$tmp/d" -q --no-plot
check "collsim.draw svg" 0 "<svg" -- cat "$tmp/d/torus.svg" "$tmp/d/ring.svg"
check "collsim.draw link csv" 0 "^algorithm,step,link,class,from,to,bytes" -- cat "$tmp/d/ring-links.csv"
printf 'collsim.draw{topology = "torus dims=4", out = "../escape.svg"}\n' > "$tmp/drawout.lua"
check "collsim.draw outside refused" 2 "drawout.lua:1: collsim.draw: writing .* only under the output directory" -- \
    "$bin" run "$tmp/drawout.lua" -o "$tmp/d2"
[ ! -e "$tmp/escape.svg" ] || { echo "FAIL collsim.draw wrote outside"; fail=1; }
printf 'collsim.draw{topology = "torus dims=4", out = "x.svg", algorithm = "ring"}\n' > "$tmp/drawbad.lua"
check "collsim.draw needs a collective" 2 "drawbad.lua:1: collsim.draw: collective goes with algorithm" -- \
    "$bin" run "$tmp/drawbad.lua" -o "$tmp/d2"
printf 'collsim.draw{topology = "torus dims=4", out = "x.svg", colour = 1}\n' > "$tmp/drawkey.lua"
check "collsim.draw unknown key" 2 "drawkey.lua:1: collsim.draw: unknown key 'colour'" -- \
    "$bin" run "$tmp/drawkey.lua" -o "$tmp/d2"

# --point-timeout: a point that never ends by construction (a Lua algorithm in an endless
# loop, run with --lua-timeout 0) is killed and recorded as status=timeout, and the run
# still exits 0. No bound depends on the machine's speed: the fast point (4 ranks on a
# 4-node ring) runs first without a timeout (SLOW unset selects it alone), then the
# resumed run adds the endless point under --point-timeout 1, which it can never meet.
cat > "$tmp/slow.lua" <<'LUA'
collsim.define_algorithm{name = "endless", collective = "allreduce", summary = "never ends",
  units = function(P) return P end,
  rank = function(r, P, size, params) while true do end end}
collsim.sweep{topology = collsim.topology.torus{dims = "4"}, collective = "allreduce",
              ranks = 4, algorithm = "ring", size = "1MiB"}
if os.getenv("SLOW") then
  collsim.sweep{topology = collsim.topology.torus{dims = "4"}, collective = "allreduce",
                ranks = 4, algorithm = "endless", size = "1MiB"}
end
LUA
check "the fast point alone" 0 "1 points (0 resumed): 1 ok" -- \
    "$bin" run "$tmp/slow.lua" -o "$tmp/slow" --no-plot
check "point timeout" 0 "allreduce endless P=4 n=1MiB: timeout: the point ran longer than 1 s" -- \
    env SLOW=1 "$bin" run "$tmp/slow.lua" -o "$tmp/slow" --no-plot --point-timeout 1 \
    --lua-timeout 0 --resume
check "point timeout row" 0 "^1,.*,timeout," -- cat "$tmp/slow/results.csv"
check "point timeout keeps the fast point" 0 "^0,.*,ok," -- cat "$tmp/slow/results.csv"
# --resume keeps the timeout row; --resume --retry runs its point again (to a timeout again)
check "resume keeps a timeout row" 0 "2 points (2 resumed)" -- \
    env SLOW=1 "$bin" run "$tmp/slow.lua" -o "$tmp/slow" --no-plot --point-timeout 1 \
    --lua-timeout 0 --resume
check "retry runs it again" 0 "--retry: running again the 1 point(s) whose rows were not ok" -- \
    env SLOW=1 "$bin" run "$tmp/slow.lua" -o "$tmp/slow" --no-plot --point-timeout 1 \
    --lua-timeout 0 --resume --retry
check "retry: the fast row ok, the endless one a timeout again" 0 "^ok timeout$" -- \
    sh -c "echo \$(cut -d, -f3 '$tmp/slow/results.csv' | tail -n +2)"
check "retry goes with resume" 2 "--retry goes with --resume" -- \
    "$bin" run "$tmp/slow.lua" -o "$tmp/slow" --retry
check "bad point timeout" 2 "point-timeout: invalid timeout" -- \
    "$bin" run "$tmp/slow.lua" -o "$tmp/slow2" --point-timeout -3

# ---- the progress line on a terminal (script(1) gives the run a pty) ------------------------
if command -v script >/dev/null 2>&1; then
    script -qec "'$bin' run '$tmp/small.lua' -o '$tmp/tty' --seed 7 -j 2 --no-plot" /dev/null \
        > "$tmp/tty.txt" 2>&1
    check "progress line: done/total, ETA, the running point, +1 more" 0 \
        "\[[0-9]*/24\] ETA [0-9?].* | running allreduce [a-z_]* P=8 n=[0-9]*KiB ([0-9]* s) +1 more" -- \
        tr '\r' '\n' < "$tmp/tty.txt"
    check "progress line: the summary" 0 "24 points (0 resumed): 24 ok" -- cat "$tmp/tty.txt"
else
    echo "skip progress line (no script(1))"
fi

# ---- long points announced before they start (--announce-over: 0 makes every point "long";
# the default 60 s is far above these points' estimates, which do not depend on the machine)
check "--announce-over 0: every point announced" 0 "^24$" -- sh -c \
    "'$bin' run '$tmp/small.lua' -o '$tmp/ann' --seed 7 --no-plot --announce-over 0 2>&1 | grep -c '^collsim run: point [0-9]*/24: allreduce [a-z_= ]* P=8 n=[0-9]*KiB, expect [<~][0-9]* s$'"
check "--announce-over: the announcement comes before the point's line" 0 "point 3/24: .*expect [<~][0-9]* s|collsim run: \[3/24\]" -- sh -c \
    "'$bin' run '$tmp/small.lua' -o '$tmp/ann2' --seed 7 --no-plot --announce-over 0 2>&1 | grep -A1 'point 3/24' | tr '\n' '|'"
check "default: these short points are not announced" 0 "^0$" -- sh -c \
    "'$bin' run '$tmp/small.lua' -o '$tmp/ann3' --seed 7 --no-plot 2>&1 | grep -c 'expect'; true"
check "--announce-over: a bad value" 2 "announce-over: 'soon' is not a time (expected seconds >= 0" -- \
    "$bin" run "$tmp/small.lua" -o "$tmp/ann4" --announce-over soon

# algorithms = "all" keeps only the algorithms whose constraints each point meets; the
# others are listed once with the reason. The Kautz allreduces need P = d(d+1): 6 = 2 x 3
# runs them, 8 does not.
cat > "$tmp/all.lua" <<'LUA'
collsim.sweep{topology = collsim.topology.torus{dims = "8"}, collective = "allreduce",
              ranks = {6, 8}, algorithms = "all", sizes = "1KiB", model = "traffic"}
LUA
"$bin" run "$tmp/all.lua" --dry-run > "$tmp/all.plan" 2> "$tmp/all.err"
check "all: skipped once, with the reason" 0 "^  kautz_c: P=8: allreduce kautz_c: requires P = d(d+1) .* (1 point)$" -- \
    cat "$tmp/all.err"
check "all: kautz_c kept at P=6" 0 "allreduce kautz_c P=6 " -- cat "$tmp/all.plan"
check "all: no kautz_c point at P=8" 0 "^0$" -- sh -c "grep -c 'allreduce kautz_c P=8 ' '$tmp/all.plan'; true"
check "all: ring at both P" 0 "^2$" -- grep -c "allreduce ring P=[68] " "$tmp/all.plan"
# plot.py under a Python without matplotlib (-S: no site packages) names what is missing
for cand in python3 /usr/bin/python3; do
    if command -v "$cand" >/dev/null 2>&1; then
        check "plot.py without matplotlib ($cand -S)" 2 "plot.py: this Python .* lacks the package 'matplotlib' (matplotlib is needed): install it with \`apt-get install python3-matplotlib\`" -- \
            "$cand" -S scripts/plot.py "$tmp/nope.csv"
    fi
done
# ---- scripts/plot.py: the three kinds, and its errors ----------------------------------------
py=""
for p in "${COLLSIM_PYTHON:-}" python3 /usr/bin/python3; do
    if [ -n "$p" ] && "$p" -c "import matplotlib" 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ]; then
    plot=scripts/plot.py
    cat > "$tmp/plot.lua" <<'LUA'
collsim.sweep{topology = collsim.topology.dragonfly{p = 2, a = 2, h = 1}, collective = "allreduce",
              ranks = {4, 8}, algorithms = {"ring", "recursive_doubling"}, sizes = {"1KiB", "64KiB"}}
LUA
    "$bin" run "$tmp/plot.lua" -o "$tmp/pl" -q --no-plot
    for kind in goodput time busbw global heatmap; do
        check "plot.py --kind $kind" 0 "wrote" -- "$py" $plot "$tmp/pl/results.csv" -o "$tmp/png" \
            --kind $kind --baseline ring
    done
    # per (topology, collective, P, model): P = 4 and 8 give 2 goodput, time and busbw plots
    n=$(ls "$tmp/png"/goodput-*.png "$tmp/png"/time-*.png "$tmp/png"/busbw-*.png "$tmp/png"/global-bytes-*.png "$tmp/png"/speedup-*.png 2>/dev/null | wc -l)
    ng=$(ls "$tmp/png"/global-bytes-*.png 2>/dev/null | wc -l)
    if [ "$n" -eq $((7 + ng)) ]; then echo "ok   plot.py: 2 goodput, 2 time, 2 busbw, $ng global-bytes, 1 speedup PNG"; else
        echo "FAIL plot.py wrote $n PNGs"; ls "$tmp/png"; fail=1; fi
    # rows not ok are counted, not silently dropped
    awk -F, 'BEGIN { OFS = "," } NR == 2 { $3 = "error" } NR == 3 { $3 = "timeout" } { print }' \
        "$tmp/pl/results.csv" > "$tmp/bad.csv"
    check "plot.py: a note of the rows not ok" 0 "note: .*bad.csv: 2 of 8 points not ok (error 1, timeout 1): not drawn" -- \
        "$py" $plot "$tmp/bad.csv" -o "$tmp/png-bad" --kind time
    # titles carry the full topology parameters
    check "plot.py: topology in titles" 0 "^2 topologies: torus dims=4; torus dims=8$" -- \
        "$py" -c "import sys; sys.path.insert(0, 'scripts'); import plot
print(plot.topology_text([{'topology': 'torus dims=8'}, {'topology': 'torus dims=4'}]))"
    check "plot.py: missing CSV" 2 "plot.py: cannot read .*nope.csv: No such file" -- \
        "$py" $plot "$tmp/nope.csv" -o "$tmp/png"
    check "plot.py: unknown baseline" 2 "baseline: 'rnig': no such algorithm .*(allowed: recursive_doubling, ring)" -- \
        "$py" $plot "$tmp/pl/results.csv" -o "$tmp/png" --kind heatmap --baseline rnig
else
    echo "skip plot.py (no Python with matplotlib)"
fi

rm -rf "$tmp"
exit $fail
