#!/bin/sh
# CLI test: files a scenario names (collsim.placement.file / alloc, also through an
# absolute path built from collsim.info.dir) are recorded relative to the current
# directory when the scenario is given by a relative path, so two checkouts in different
# places give the same results.csv and point ids; a scenario given by an absolute path
# keeps absolute names; a missing file stops the scenario at its line.
# usage: paths.sh PATH/TO/collsim
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
. "$(dirname "$0")/lib/check.sh"
use_tmp

# one scenario with its files, copied into two checkouts at different depths
for co in "$tmp/a" "$tmp/b/deeper/checkout"; do
    mkdir -p "$co/sc/data"
    printf 'h3\nh2\nh1\nh0\n' > "$co/sc/data/hosts.txt"
    printf 'h1\nh0\nh3\nh2\n' > "$co/sc/data/hosts2.txt"
    printf 'h0\nh1\nh2\nh3\n' > "$co/sc/data/nodes.txt"
    cat > "$co/sc/s.lua" <<'LUA'
collsim.sweep{topology = collsim.topology.torus{dims = "4"}, collective = "allreduce",
              ranks = 4, algorithm = "ring", size = "1KiB", model = "traffic",
              placements = {collsim.placement.file("data/hosts.txt"),
                            collsim.placement.file(collsim.info.dir .. "/data/hosts2.txt"),
                            collsim.placement.alloc("data/nodes.txt")}}
LUA
    (cd "$co" && "$bin" run sc/s.lua -o out -q --no-plot) || { echo "FAIL run in $co"; fail=1; }
done
check "relative name: recorded relative to the current directory" 0 ",file:sc/data/hosts.txt," -- \
    cat "$tmp/a/out/results.csv"
check "name built from collsim.info.dir: recorded relative too" 0 ",file:sc/data/hosts2.txt," -- \
    cat "$tmp/a/out/results.csv"
check "alloc file: recorded relative" 0 ",alloc:sc/data/nodes.txt," -- cat "$tmp/a/out/results.csv"
check "no checkout path in results.csv or manifest.json" 0 "^none$" -- \
    sh -c "grep -l '$tmp' '$tmp/a/out/results.csv' '$tmp/a/out/manifest.json' || echo none"
same "two checkouts: same results.csv" "$tmp/a/out/results.csv" "$tmp/b/deeper/checkout/out/results.csv"
cut -d, -f2 "$tmp/a/out/results.csv" > "$tmp/ids-a"
cut -d, -f2 "$tmp/b/deeper/checkout/out/results.csv" > "$tmp/ids-b"
same "two checkouts: same point ids" "$tmp/ids-a" "$tmp/ids-b"

# a scenario named by an absolute path has no relative form: its files stay absolute
"$bin" run "$tmp/a/sc/s.lua" -o "$tmp/abs" -q --no-plot
check "absolute scenario path: absolute names" 0 ",file:$tmp/a/sc/data/hosts2.txt," -- \
    cat "$tmp/abs/results.csv"

# the existence check stays
printf 'local x = 1\nlocal p = collsim.placement.file("data/nope.txt")\n' > "$tmp/a/sc/nope.lua"
check "missing file: file:line" 2 "sc/nope.lua:2: cannot find 'data/nope.txt'" -- \
    sh -c "cd '$tmp/a' && '$bin' run sc/nope.lua -o out2 -q"

rm -rf "$tmp"
exit $fail
