#!/bin/sh
# CLI test of issue 26 (nothing lost, nothing silent): collsim run refuses an output
# directory holding results (--resume, --overwrite), one run per directory (the lock names
# the PID; a scenario drawing at load writes nothing into a locked directory), --resume reading any JSON manifest and dropping malformed rows anywhere, byte
# counts that would overflow, --lua-timeout / --lua-memory in every command taking --lua,
# and clear words for rough inputs (missing or directory files, options without values or
# given twice, dims=4x4x, empty list items, --plain with JSON lines, binary host files,
# garbage in a shard given to merge).
# usage: safety.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp

# 2 algorithms x 2 sizes on a 4-node ring, traffic model: 4 points in milliseconds
cat > "$tmp/q.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, model = "traffic",
              algorithms = {"ring", "recursive_doubling"}, sizes = {"1KiB", "64KiB"}}
LUA
cat > "$tmp/other.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4", collective = "bcast", ranks = 4, model = "traffic",
              algorithm = "binomial_halving", sizes = {"1KiB"}}
LUA

# ---- 1. no silent overwrite -----------------------------------------------------------------
check "first run" 0 "4 points (0 resumed): 4 ok" -- "$bin" run "$tmp/q.lua" -o "$tmp/a" --no-plot
cp "$tmp/a/results.csv" "$tmp/a.csv"
check "second run refused" 2 "$tmp/a already holds the results of a run (4 rows in $tmp/a/results.csv, scenario $tmp/q.lua, state complete). Give --overwrite to move them aside into $tmp/a/previous-<time>/ first, another output directory, or (collsim run) --resume" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/a" --no-plot
same "refused run: results.csv untouched" "$tmp/a.csv" "$tmp/a/results.csv"
check "another scenario's directory refused" 2 "already holds the results of a run (4 rows" -- \
    "$bin" run "$tmp/other.lua" -o "$tmp/a" --no-plot
same "another scenario refused: results.csv untouched" "$tmp/a.csv" "$tmp/a/results.csv"
check "--overwrite with --resume" 2 "overwrite and --resume exclude each other" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/a" --overwrite --resume
echo "my notes" > "$tmp/a/notes.txt"
check "--overwrite" 0 "--overwrite: the earlier results moved to $tmp/a/previous-[0-9T]*Z/" -- \
    "$bin" run "$tmp/other.lua" -o "$tmp/a" --overwrite --no-plot
same "--overwrite: the old rows kept aside" "$tmp/a.csv" "$(ls -d "$tmp"/a/previous-*)/results.csv"
check "--overwrite: the old manifest kept aside" 0 '"scenario_name": "q"' -- \
    sh -c "cat '$tmp'/a/previous-*/manifest.json"
check "--overwrite: the new run" 0 "^2$" -- sh -c "wc -l < '$tmp/a/results.csv'"
check "--overwrite: other files stay" 0 "my notes" -- cat "$tmp/a/notes.txt"
check "a directory without results is not refused" 0 "1 ok" -- \
    sh -c "mkdir -p '$tmp/n' && echo x > '$tmp/n/readme.txt' && '$bin' run '$tmp/other.lua' -o '$tmp/n' --no-plot"

# ---- 2. one run per directory --------------------------------------------------------------
# run A's on_result waits (by construction, not by timing) until the file "go" exists
cat > "$tmp/wait.lua" <<LUA
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, model = "traffic",
              algorithm = "ring", size = "1KiB",
              on_result = function(row) while not io.open("$tmp/go") do end end}
LUA
"$bin" run "$tmp/wait.lua" -o "$tmp/l" --no-plot -q --lua-timeout 0 &
pid=$!
i=0
while [ "$(cat "$tmp/l/.collsim.lock" 2>/dev/null)" != "$pid" ] && [ $i -lt 1200 ]; do
    sleep 0.05; i=$((i + 1))
done
check "a second run on a locked directory refused" 2 "$tmp/l is in use by another collsim run (PID $pid, lock $tmp/l/.collsim.lock)" -- \
    "$bin" run "$tmp/wait.lua" -o "$tmp/l" --no-plot --resume --seed 2
# a scenario that draws while it is loaded writes nothing into a directory another run
# holds: the directory is claimed before the scenario is loaded
cat > "$tmp/drawload.lua" <<'LUA'
collsim.draw{topology = "torus dims=4", out = "drawn-at-load.svg"}
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, model = "traffic",
              algorithm = "ring", size = "1KiB"}
LUA
check "a scenario drawing at load, on a locked directory: refused" 2 "$tmp/l is in use by another collsim run (PID $pid" -- \
    "$bin" run "$tmp/drawload.lua" -o "$tmp/l" --no-plot --resume --force
[ ! -e "$tmp/l/drawn-at-load.svg" ] || { echo "FAIL collsim.draw wrote into a locked directory"; fail=1; }
touch "$tmp/go"
wait $pid
st=$?
if [ $st -eq 0 ]; then echo "ok   the first run ends normally"; else echo "FAIL first run: exit $st"; fail=1; fi
check "the first run's seed in its manifest" 0 '"seed": 1,' -- cat "$tmp/l/manifest.json"
check "a lock nobody holds does not block" 0 "1 points (1 resumed)" -- \
    "$bin" run "$tmp/wait.lua" -o "$tmp/l" --no-plot --resume

# ---- 3. resume reads what it wrote, strictly but fairly ---------------------------------------
"$bin" run "$tmp/q.lua" -o "$tmp/r" -q --no-plot
python3 -c "import json,sys; m=json.load(open(sys.argv[1])); json.dump(m, open(sys.argv[1], 'w'), indent=3, sort_keys=True)" "$tmp/r/manifest.json"
check "a manifest of another JSON layout is accepted" 0 "4 points (4 resumed)" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/r" --resume --no-plot
# a malformed row in the middle (line 3 of 5): dropped and its point (point 1) run again
sed -i '3s/,ok,/,okay,/' "$tmp/r/results.csv"
check "a malformed middle row is dropped" 0 "results.csv line 3 is not a valid row (status 'okay' (allowed: ok, error, timeout, skipped)): dropped, its point runs again" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/r" --resume --no-plot
same "its point run again: the uninterrupted file" "$tmp/a.csv" "$tmp/r/results.csv"
sed -i '2s/,[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9]*,$/,1,2,/' "$tmp/r/results.csv" # fields lost
check "a row with fields missing is dropped" 0 "line 2 is not a valid row ([0-9]* fields, the header has [0-9]*)" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/r" --resume --no-plot
same "its point run again" "$tmp/a.csv" "$tmp/r/results.csv"
# a hash whose first 12 digits are the same: printed whole
sha=$(sha256sum "$tmp/q.lua" | cut -c1-64)
near=$(echo "$sha" | cut -c1-12)0000000000000000000000000000000000000000000000000000
sed -i "s/$sha/$near/" "$tmp/r/manifest.json"
check "equal short hashes printed whole" 2 "sha256 $near, now $sha) changed" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/r" --resume --no-plot
# byte 40 (from 0) is the second comma
printf '{"manifest": "collsim-run-1", "seed": 1,,}' > "$tmp/r/manifest.json"
check "a manifest that is not JSON refused" 2 "r/manifest.json is not valid JSON (at byte 40)" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/r" --resume --no-plot

# ---- 4. numbers that cannot overflow -----------------------------------------------------------
# ring allreduce on 16 ranks of a 16-node ring: each rank sends 2(P-1) = 30 messages of
# n/16 bytes over one local link: bytes_local = 16 * 30 * n / 16 = 30 n
RING16="--collective allreduce --algorithm ring --ranks 16 --model traffic"
check "bytes_local = 30 n at n = 1e17" 0 "^3000000000000000000$" -- \
    sh -c "'$bin' sim --topology 'torus dims=16' $RING16 --size 1e17 | cut -d, -f14 | tail -1"
check "30 n past 2^63 refused, with the limit" 2 "overflow: bytes x links would reach 3e+19, more than 2^63-1 (9.22e+18); only sizes at most 0.307 times" -- \
    "$bin" sim --topology "torus dims=16" $RING16 --size 1e18
# the same count during a SimGrid run (4 ranks: 6 messages of n/4 each, 6 n in all)
check "overflow in a flow run refused" 2 "overflow: bytes x links would reach 1.2e+19" -- \
    "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm ring --ranks 4 --size 2e18
check "a size past 2^63 refused" 2 "too large (the limit is 2^63-1 bytes)" -- "$bin" sim --topology "torus dims=16" $RING16 --size 1e19

# ---- 5. Lua limits in every command taking --lua ---------------------------------------------
printf 'local n = 0\nwhile true do n = n + 1 end\n' > "$tmp/loop.lua"
cat > "$tmp/spin.lua" <<'LUA'
collsim.define_algorithm{name = "spin", collective = "allreduce", summary = "never ends",
  units = function(P) return P end,
  rank = function(r, P, size, params) while true do end end}
LUA
printf 'local t = {}\nwhile true do t[#t + 1] = {} end\n' > "$tmp/bomb.lua"
A="--collective allreduce --algorithm ring --ranks 4"
S="--collective allreduce --algorithm spin --ranks 4"
T="--lua-timeout 0.3"
check "verify --lua: endless file stopped" 2 "loop.lua:2: scenario evaluation exceeded 0.3 s (--lua-timeout)" -- \
    timeout 120 "$bin" verify --lua "$tmp/loop.lua" $T $A
check "dump --lua: endless file stopped" 2 "loop.lua:2: scenario evaluation exceeded 0.3 s" -- \
    timeout 120 "$bin" dump --lua "$tmp/loop.lua" $T $A
check "verify --lua: endless algorithm stopped" 1 "exceeded 0.3 s (--lua-timeout) (allreduce spin, P=4" -- \
    timeout 120 "$bin" verify --lua "$tmp/spin.lua" $T $S
check "sim --lua: endless algorithm stopped" 2 "exceeded 0.3 s (--lua-timeout) (allreduce spin, P=4" -- \
    timeout 120 "$bin" sim --lua "$tmp/spin.lua" $T $S --topology "torus dims=4" --model traffic
check "check --lua: endless algorithm stopped" 1 "exceeded 0.3 s (--lua-timeout)" -- \
    timeout 120 "$bin" check --lua "$tmp/spin.lua" $T $S
check "draw --lua: endless algorithm stopped" 2 "exceeded 0.3 s (--lua-timeout)" -- \
    timeout 120 "$bin" draw --lua "$tmp/spin.lua" $T --topology "torus dims=4" \
    --collective allreduce --algorithm spin --out "$tmp/x.svg"
check "verify --lua: memory bomb stopped" 2 "bomb.lua:2: scenario used more than 16MiB of memory (--lua-memory)" -- \
    timeout 120 "$bin" verify --lua "$tmp/bomb.lua" --lua-memory 16MiB $A
check "bad --lua-timeout" 2 "lua-timeout: invalid timeout" -- "$bin" sim --lua "$tmp/spin.lua" --lua-timeout -1 $S

# ---- 7. clear words for rough inputs --------------------------------------------------------
check "missing platform file" 2 "cannot open $tmp/nope.xml: No such file or directory" -- \
    "$bin" sim --topology "$tmp/nope.xml" $A
mkdir -p "$tmp/dir.xml" "$tmp/dir"
check "a directory as the platform" 2 "cannot open $tmp/dir.xml: Is a directory" -- \
    "$bin" sim --topology "$tmp/dir.xml" $A
check "a directory as the scenario" 2 "cannot open $tmp/dir: Is a directory" -- \
    "$bin" run "$tmp/dir" -o "$tmp/never1"
check "a run that cannot open its scenario leaves no directory" 0 "gone" -- \
    sh -c "test ! -e '$tmp/never1' && echo gone"
printf 'collsim.sweep{topology = "torus dims=4",\n' > "$tmp/broken.lua"
check "a scenario that does not load" 2 "broken.lua:" -- "$bin" run "$tmp/broken.lua" -o "$tmp/never2"
check "a run whose scenario does not load leaves no directory" 0 "gone" -- \
    sh -c "test ! -e '$tmp/never2' && echo gone"
check "a directory as --lua" 2 "cannot open $tmp/dir: Is a directory" -- "$bin" verify --lua "$tmp/dir" $A
check "a directory as --import" 2 "cannot open the schedule file: Is a directory" -- "$bin" verify --import "$tmp/dir"
check "a directory as --hostfile" 2 "cannot open the allocation file: Is a directory" -- \
    "$bin" sim --topology "torus dims=4" $A --hostfile "$tmp/dir" --model traffic
check "a directory as --spec" 2 "cannot open the check spec: Is a directory" -- "$bin" check --spec "$tmp/dir" $A
check "a directory as --output" 2 "cannot write $tmp/dir: Is a directory" -- "$bin" dump $A --output "$tmp/dir"
touch "$tmp/file"
check "a file as the output directory" 2 "\-o $tmp/file: not a directory" -- "$bin" run "$tmp/q.lua" -o "$tmp/file"
check "--size without a value" 2 "collsim sim: --size needs a value" -- \
    "$bin" sim --topology "torus dims=4" $A --size
check "--size followed by an option" 2 "--size needs a value, got the option '--model'" -- \
    "$bin" sim --topology "torus dims=4" $A --size --model traffic
printf 'h1\n\001\002\377bad\033[31mred\n' > "$tmp/hosts.txt"
check "binary garbage in a host file escaped" 2 "hosts.txt:2: unknown host '.x01.x02.xffbad.x1b\[31mred'" -- \
    "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm ring --ranks 2 \
    --hostfile "$tmp/hosts.txt" --model traffic
if "$bin" sim --topology "torus dims=4" --collective allreduce --algorithm ring --ranks 2 \
    --hostfile "$tmp/hosts.txt" --model traffic 2>&1 | LC_ALL=C grep -q "$(printf '\033')"; then
    echo "FAIL the host file's raw bytes reached the terminal"; fail=1
else echo "ok   no raw byte of the host file echoed"; fi
check "dims=4x4x" 2 "invalid dimensions '4x4x' (ends in 'x'" -- \
    "$bin" sim --topology "torus dims=4x4x" $A --model traffic
check "--dims 2x2x" 2 "--dims: invalid dimensions '2x2x' (ends in 'x'" -- "$bin" verify $A --dims 2x2x
check "two dims=" 2 "dims given twice ('dims=4x4' and 'dims=8')" -- \
    "$bin" sim --topology "torus dims=4x4 dims=8" $A --model traffic
check "--ranks twice" 2 "collsim sim: --ranks given twice ('4' and '16'): give it once" -- \
    "$bin" sim --topology "torus dims=16" $A --ranks 16 --model traffic
check "--ranks twice in verify" 2 "collsim verify: --ranks given twice ('4' and '8')" -- "$bin" verify $A --ranks 8
check "-o twice in run" 2 "collsim run: --output given twice ('$tmp/x' and '$tmp/y')" -- \
    "$bin" run "$tmp/q.lua" -o "$tmp/x" -o "$tmp/y"
# --param may repeat: the second one reaches the algorithm (whose message names it)
check "--param may repeat" 2 "no_such" -- "$bin" verify --collective allreduce \
    --algorithm rabenseifner --ranks 4 --param order=nearest --param no_such=1
check "empty list item" 2 "empty item in the list 'ring,,rabenseifner'" -- \
    "$bin" verify --collective allreduce --algorithm ring,,rabenseifner --ranks 4
check "empty list item at the end" 2 "empty item in the list 'ring,'" -- \
    "$bin" traffic --alloc "h[0-3]" --topology "torus dims=4" --collective allreduce --algorithms ring,
check "--plain with JSON lines" 2 "--plain goes with --format goal" -- "$bin" dump $A --plain
check "a workload key twice" 2 "S given twice" -- "$bin" verify --collective alltoallv \
    --algorithm linear --ranks 4 --workload uniform:S=1KiB:S=2KiB

# garbage in a shard given to merge: named with its file and line, not left out
for k in 1 2; do "$bin" run "$tmp/q.lua" -o "$tmp/s$k" --shard $k/2 -q --no-plot; done
check "merge of clean shards" 0 "4 of 4 points" -- "$bin" merge "$tmp/m" "$tmp/s1" "$tmp/s2"
same "merged = the whole run" "$tmp/a.csv" "$tmp/m/results.csv"
echo "this is not a row" >> "$tmp/s2/results.csv"
check "merge: a garbage row" 2 "s2/results.csv:4: not a valid row (it does not start with a point number" -- \
    "$bin" merge "$tmp/m2" "$tmp/s1" "$tmp/s2"
sed -i '$d' "$tmp/s2/results.csv"
echo "1,abc" >> "$tmp/s1/timings.csv"
check "merge: a garbage timing line" 2 "s1/timings.csv:4: not a line of point,id,wall_s,peak_rss_kb" -- \
    "$bin" merge "$tmp/m2" "$tmp/s1" "$tmp/s2"
sed -i '$d' "$tmp/s1/timings.csv"
# merging shards over a whole run: refused, the whole run untouched; --overwrite moves it
check "merge into a directory with results refused" 2 "$tmp/a already holds the results of a run" -- \
    "$bin" merge "$tmp/a" "$tmp/s1" "$tmp/s2"
check "merge --overwrite" 0 "the earlier results moved to $tmp/a/previous-" -- \
    "$bin" merge --overwrite "$tmp/a" "$tmp/s1" "$tmp/s2"
same "merge --overwrite: the merged rows" "$tmp/a.csv" "$tmp/a/results.csv"
python3 -c "import json,sys; m=json.load(open(sys.argv[1])); json.dump(m, open(sys.argv[1], 'w'), indent=2)" "$tmp/s2/manifest.json"
check "merge: a reformatted shard manifest refused, not merged without its points" 2 "s2/manifest.json: its points are not one per line" -- \
    "$bin" merge "$tmp/m4" "$tmp/s1" "$tmp/s2"
check "merge: unknown option" 2 "unknown option '--force'" -- "$bin" merge --force "$tmp/m3" "$tmp/s1"

rm -rf "$tmp"
exit $fail
