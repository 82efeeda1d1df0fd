#!/bin/sh
# CLI test: determinism (docs/results.md "What varies between runs"). The same scenario run
# twice with the same command line gives a byte-identical results.csv and a manifest.json
# identical once the fields documented as varying are masked: started, updated, wall_s
# (of the run and of each point) and peak_rss_kb (each point). A run with another seed
# differs even when masked (so the comparison can fail).
# usage: determinism.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
cat > "$tmp/det.lua" <<'LUA'
collsim.sweep{
  topology   = collsim.topology.dragonfly{p = 2, a = 2, h = 1},
  collective = "allreduce",
  ranks      = 8,
  placements = {"linear", "random"},
  algorithms = {"ring", "recursive_doubling"},
  sizes      = {"1KiB", "64KiB"},
  models     = {"cm02", "traffic"},
}
LUA
# the same command line, from two directories (the manifest records the command)
run_in() { # DIR SEED
    mkdir -p "$1" && (cd "$1" && "$bin" run "$tmp/det.lua" -o out --seed "$2" -j 2 -q --no-plot)
}
mask() { # the fields that vary between runs
    sed -E 's/"(started|updated)": "[^"]*"/"\1": "-"/g; s/"(wall_s|peak_rss_kb)": [0-9.eE+-]+/"\1": -/g' "$1"
}
status() { # NAME command...: the command must exit 0 (it prints nothing with -q)
    name=$1; shift
    if "$@"; then echo "ok   $name"; else echo "FAIL $name: exit $?"; fail=1; fi
}
status "first run" run_in "$tmp/a" 5
status "second run" run_in "$tmp/b" 5
status "other seed" run_in "$tmp/c" 6
if cmp -s "$tmp/a/out/results.csv" "$tmp/b/out/results.csv" && [ "$(wc -l < "$tmp/a/out/results.csv")" -eq 17 ]; then
    echo "ok   results.csv byte-identical (16 points)"
else
    echo "FAIL results.csv differs"; diff "$tmp/a/out/results.csv" "$tmp/b/out/results.csv" | head -5; fail=1
fi
mask "$tmp/a/out/manifest.json" > "$tmp/a.masked"
mask "$tmp/b/out/manifest.json" > "$tmp/b.masked"
mask "$tmp/c/out/manifest.json" > "$tmp/c.masked"
if cmp -s "$tmp/a.masked" "$tmp/b.masked"; then
    echo "ok   manifest.json identical but for started, updated, wall_s, peak_rss_kb"
else
    echo "FAIL manifest.json differs in other fields"; diff "$tmp/a.masked" "$tmp/b.masked" | head -10; fail=1
fi
# the masking hides only what varies: the fields are there, and every point has them
check "masked: 16 points + the run" 0 "^16 17$" -- sh -c "echo \$(grep -o '\"peak_rss_kb\": -' '$tmp/a.masked' | wc -l) \$(grep -o '\"wall_s\": -' '$tmp/a.masked' | wc -l)"
if cmp -s "$tmp/a.masked" "$tmp/c.masked"; then
    echo "FAIL another seed gave the same masked manifest"; fail=1
else
    echo "ok   another seed changes the manifest (seed, placements)"
fi
status "timings: the same points" sh -c "cut -d, -f1,2 '$tmp/a/out/timings.csv' | sort > '$tmp/ta'; cut -d, -f1,2 '$tmp/b/out/timings.csv' | sort | cmp -s - '$tmp/ta'"
rm -rf "$tmp"
exit $fail
