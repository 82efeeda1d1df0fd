#!/bin/sh
# CLI test: the packet model's loop engine (the default) reproduces the reference output
# of the actors engine it replaced: every packet_minimal_s of
# tests/data/packet_actors_reference.csv (results/packet-vs-flow/packet_vs_flow.csv as
# scripts/bench/packet_vs_flow.sh wrote it under the actors engine, commit 2e31578;
# deterministic minimal routing) within 0.5 %, and a planted 1 % error is refused by the
# same comparison.
# usage: packet_reference.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
csv="$(dirname "$0")/../data/packet_actors_reference.csv"
use_tmp
# GOT within REL of REF? prints the relative difference, exits 0 if so
within() { awk -v got="$1" -v ref="$2" -v rel="$3" 'BEGIN { d = got / ref - 1;
    printf "%+.4f %%\n", 100 * d; if (d < 0) d = -d; exit !(got > 0 && d <= rel) }'; }
check "comparison refuses a planted 1 % error" 1 "+1.0000 %" -- within 1.01 1 0.005
rows=0
tail -n +2 "$csv" > "$tmp/rows"
while IFS= read -r line; do
    topo=$(printf '%s' "$line" | cut -d'"' -f2)
    rest=$(printf '%s' "$line" | cut -d'"' -f3 | cut -c2-)
    coll=$(echo "$rest" | cut -d, -f1); alg=$(echo "$rest" | cut -d, -f2)
    P=$(echo "$rest" | cut -d, -f3); size=$(echo "$rest" | cut -d, -f4)
    pl=$(echo "$rest" | cut -d, -f5); ref=$(echo "$rest" | cut -d, -f8)
    got=$("$bin" sim --topology "$topo" --collective "$coll" --algorithm "$alg" --ranks "$P" \
        --size "$size" --placement "$pl" --model packet --no-header | cut -d, -f10)
    check "$topo $coll $alg P=$P $size $pl: $got vs reference $ref" 0 "%" -- \
        within "$got" "$ref" 0.005
    rows=$((rows + 1))
done < "$tmp/rows"
check "reference rows read" 0 "^10$" -- echo "$rows"
rm -rf "$tmp"
exit $fail
