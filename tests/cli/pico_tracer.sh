#!/bin/sh
# CLI test: on Leonardo-like allocations, `collsim traffic` with the pico: aliases counts
# the internal and external bytes PICO's tracer prints for every algorithm it traces
# (tests/data/pico_tracer/: allocations, the tracer's output and the cells of its map,
# made by scripts/pico_tracer_data.py). The tracer counts every send of every rank, in
# units of n, as external when its two ranks are in different cells; so does collsim
# traffic. An alias whose target another branch adds may be "missing" here (skipped, and
# said so); nothing else is skipped. usage: pico_tracer.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
D=tests/data/pico_tracer
may_miss=" allreduce:pico:rabenseifner allgather:pico:distance_halving "
"$bin" list --aliases > "$tmp/aliases" || { echo "FAIL: collsim list --aliases"; exit 1; }

# compare NAME COLLECTIVE ALIAS INTERNAL EXTERNAL ALLOC: collsim's counts of ALIAS on ALLOC
# equal INTERNAL and EXTERNAL (the tracer's, in units of n) to 1e-9; 0 when equal
compare() {
    "$bin" traffic --alloc "$6" --groups $D/leonardo_cells.txt --collective "$2" \
        --algorithms "$3" --format csv > "$tmp/out" 2>&1 || { cat "$tmp/out"; return 1; }
    awk -F, -v i="$4" -v e="$5" 'NR == 2 { d1 = $6 - i; d2 = $7 - e
        exit !(d1 < 1e-9 && d1 > -1e-9 && d2 < 1e-9 && d2 > -1e-9 && $9 > 0) }
        END { if (NR != 2) exit 1 }' "$tmp/out"
}

rows=0
for traced in $D/traced_*.csv; do
    name=${traced#$D/traced_}
    alloc=$D/alloc_$name
    while IFS=, read -r coll alg internal external total; do
        case $coll in COLLECTIVE|num_ranks) continue ;; esac
        alias=pico:$alg
        status=$(awk -v c="$coll" -v a="$alias" '$1 == c && $2 == a { print / missing / ? "missing" : "ok"; f = 1 } END { if (!f) print "none" }' "$tmp/aliases")
        if [ "$status" = none ]; then
            echo "FAIL $name: no alias $alias for $coll"; fail=1; continue
        fi
        if [ "$status" = missing ]; then
            case "$may_miss" in
            *" $coll:$alias "*) echo "skip $name $coll $alias (missing in this build)"; continue ;;
            *) echo "FAIL $name: $coll $alias is missing"; fail=1; continue ;;
            esac
        fi
        rows=$((rows + 1))
        if compare "$name" "$coll" "$alias" "$internal" "$external" "$alloc"; then
            echo "ok   $name $coll $alias internal $internal external $external"
        else
            echo "FAIL $name $coll $alias: tracer internal $internal external $external, collsim:"
            cat "$tmp/out"; fail=1
        fi
    done < "$traced"
done
if [ "$rows" -lt 180 ]; then
    echo "FAIL: compared $rows rows (expected 5 allocations x 37 algorithms)"; fail=1
fi

# the alias table on the command line, and its errors
check "list --aliases bcast" 0 "pico:bine_bdw_doubling_halving  *bine_scatter_allgather send_back=no  *ok" -- \
    "$bin" list --aliases bcast
check "unknown alias lists the collective's" 2 "unknown bcast alias 'pico:nope' (allowed: pico:binomial_doubling" -- \
    "$bin" verify --collective bcast --algorithm pico:nope --ranks 8
check "an alias takes no --param" 2 "unknown parameter 'send_back'" -- \
    "$bin" verify --collective bcast --algorithm pico:bine_halving --param send_back=no --ranks 8
check "list --aliases: bad argument" 2 "unexpected argument '--bogus'" -- \
    "$bin" list --aliases --bogus

# planted bug: the comparison tells distance-doubling from distance-halving (the tracer's
# binomial_halving row against collsim's binomial_doubling)
row=$(grep '^bcast,binomial_halving,' $D/traced_64_4cells_mixed.csv)
set -- $(echo "$row" | tr ',' ' ')
if compare planted bcast pico:binomial_doubling "$3" "$4" $D/alloc_64_4cells_mixed.csv; then
    echo "FAIL planted: binomial_doubling matched the tracer's binomial_halving"; fail=1
else
    echo "ok   planted: binomial_doubling differs from the tracer's binomial_halving"
fi
# planted bug: the reduce's two binomial reduce-scatter + gather orders differ (the tracer's
# binomial_bdw_doubling_halving row against collsim's rabenseifner order=nearest)
row=$(grep '^reduce,binomial_bdw_doubling_halving,' $D/traced_64_4cells.csv)
set -- $(echo "$row" | tr ',' ' ')
if compare planted reduce pico:binomial_bdw_halving_doubling "$3" "$4" $D/alloc_64_4cells.csv; then
    echo "FAIL planted: binomial_bdw_halving_doubling matched the tracer's doubling_halving"; fail=1
else
    echo "ok   planted: reduce bdw orders differ"
fi
rm -rf "$tmp"
exit $fail
