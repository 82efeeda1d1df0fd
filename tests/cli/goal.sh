#!/bin/sh
# CLI test: schedule files (collsim dump, --import) and collsim check (JUnit, baselines).
# usage: goal.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ex=tests/data/goal_allreduce_rd4.goal

# dump: JSON lines and GOAL; a GOAL dump imports back to the same JSON lines
check "dump jsonl" 0 '"op":"recv","peer":1,"bytes":1024,"blocks":\[\[0,1\]\],"combine":true' -- \
    "$bin" dump --collective allreduce --algorithm recursive_doubling --ranks 4 --size 1KiB
"$bin" dump --collective allreduce --algorithm rabenseifner --ranks 6 --size 1000B --format goal --output "$tmp/rab.goal"
"$bin" dump --collective allreduce --algorithm rabenseifner --ranks 6 --size 1000B > "$tmp/a.jsonl"
"$bin" dump --import "$tmp/rab.goal" > "$tmp/b.jsonl"
tail -n +2 "$tmp/a.jsonl" > "$tmp/a.body"
tail -n +2 "$tmp/b.jsonl" > "$tmp/b.body"
check "goal round trip keeps the jsonl" 0 "same" -- sh -c "cmp $tmp/a.body $tmp/b.body && echo same"
check "dump bad format" 2 "allowed: jsonl, goal" -- "$bin" dump --collective allreduce --algorithm ring --ranks 4 --format xml
check "dump plain goal" 0 "l1: send" -- "$bin" dump --collective bcast --algorithm binomial_halving --ranks 8 --format goal --plain

# the documented example: imports, verifies, simulates
check "verify example" 0 "1 ok, 0 failed" -- "$bin" verify --import $ex
check "verify plain goal" 0 "data semantics is not" -- "$bin" verify --import tests/data/goal_dissemination4.goal
check "sim example" 0 "file:goal_allreduce_rd4.goal,,4,1,4096" -- "$bin" sim --import $ex --topology "torus dims=2x2"
check "import malformed" 2 "bad.goal:3: peer '9' is not a rank" -- sh -c "printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 9\n}\n' > $tmp/bad.goal; \"$bin\" verify --import $tmp/bad.goal"

# check: ok, JUnit well-formed
check "check ok" 0 "verify  " -- "$bin" check --spec tests/data/check_rd.yaml --junit "$tmp/ok.xml"
check "junit ok well-formed" 0 "well-formed" -- python3 -c "import xml.etree.ElementTree as E; r=E.parse('$tmp/ok.xml').getroot(); assert r.get('failures')=='0' and int(r.get('tests'))>70, r.attrib; print('well-formed')"

# check: a planted bug (rank 3 overwrites instead of combining in step 1, so it misses
# contributions) fails, names rank/step/block
sed '/^rank 3 {/,/^}/{s#^//@ 1 combine 0:1$#//@ 1 0:1#;s#^//@ 1 reduce$#//@ 1 copy#}' $ex > "$tmp/bug.goal"
check "check planted bug" 1 "FAIL verify.*rank 3.*step.*block" -- "$bin" check --import "$tmp/bug.goal" --junit "$tmp/bug.xml"
check "junit records the failure" 0 "recorded" -- python3 -c "import xml.etree.ElementTree as E; r=E.parse('$tmp/bug.xml').getroot(); f=r.findall('.//failure'); assert r.get('failures')=='1' and len(f)==1 and 'rank 3' in f[0].get('message'), E.tostring(r); print('recorded')"

# baselines: write, pass within tolerance, fail beyond it
check "write baseline" 0 "simulate" -- "$bin" check --collective allreduce --algorithm recursive_doubling --ranks 16 --topology "dragonfly p=2 a=2 h=1" --sim-ranks 8 --model cm02 --write-baseline "$tmp/base.csv"
check "baseline ok" 0 "0       0" -- "$bin" check --collective allreduce --algorithm recursive_doubling --ranks 16 --topology "dragonfly p=2 a=2 h=1" --sim-ranks 8 --model cm02 --baseline "$tmp/base.csv" --tolerance 5%
sed 's/,\([0-9]*\)$/,1000/' "$tmp/base.csv" > "$tmp/base_bad.csv"
check "baseline regression" 1 "regression: bytes_global" -- "$bin" check --collective allreduce --algorithm recursive_doubling --ranks 16 --topology "dragonfly p=2 a=2 h=1" --sim-ranks 8 --model cm02 --baseline "$tmp/base_bad.csv"
check "check bad spec key" 2 "unknown key" -- sh -c "printf 'collective: allreduce\nalgo: x\n' > $tmp/s.yaml; \"$bin\" check --spec $tmp/s.yaml"
check "check missing" 2 "are required" -- "$bin" check --collective allreduce
exit $fail
