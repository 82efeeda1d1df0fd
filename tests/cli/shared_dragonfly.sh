#!/bin/sh
# results/shared-dragonfly: the README's generated table is what
# scripts/shared_dragonfly_table.py prints from the results.csv of
# scenarios/shared_dragonfly.lua beside it, and the checks catch planted faults: a changed
# slowdown in a copy of the CSV (the README no longer matches), a victim row without its
# bully, a victim that outlived its bully, a failed point.
# usage: shared_dragonfly.sh PATH/TO/collsim (unused: no simulation runs here)
set -u
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
py=python3
dir=results/shared-dragonfly
csv=$dir/results.csv
$py scripts/check_generated.py --file $dir/README.md ||
    { echo "FAIL: $dir/README.md does not match $csv"; fail=1; }
n=$(grep -c ',victim,' $csv)
[ "$n" -ge 27 ] || { echo "FAIL: $csv has $n victim rows, expected 27"; fail=1; }
# planted: the first victim's slowdown changed (last column)
awk -F, 'NR == 2 { $NF = $NF + 0.5 } { print }' OFS=, $csv > "$tmp/changed.csv"
sed "s|$csv|$tmp/changed.csv|" $dir/README.md > "$tmp/README.md"
if $py scripts/check_generated.py --file "$tmp/README.md" >/dev/null 2>&1; then
    echo "FAIL: a changed slowdown was not caught"; fail=1
else
    echo "ok   changed slowdown caught"
fi
# planted: a victim without its bully
sed 3d $csv > "$tmp/unpaired.csv"
out=$($py scripts/shared_dragonfly_table.py "$tmp/unpaired.csv" 2>&1) &&
    { echo "FAIL: unpaired rows accepted"; fail=1; }
echo "$out" | grep -q "expected victim" && echo "ok   unpaired rows refused" ||
    { echo "FAIL: unpaired rows: $out"; fail=1; }
# planted: the bully ends before the victim (its time_s, the 9th field after the quoted
# placement: model root dst dims workload reduce_Bps copy_Bps time_s, made tiny)
awk -F'"' 'NR == 3 { n = split($3, f, ","); f[9] = "1e-9"; s = f[1];
    for (i = 2; i <= n; i++) s = s "," f[i]; $3 = s } { print }' OFS='"' $csv > "$tmp/late.csv"
out=$($py scripts/shared_dragonfly_table.py "$tmp/late.csv" 2>&1) &&
    { echo "FAIL: a victim outliving its bully accepted"; fail=1; }
echo "$out" | grep -q "outlived the bully" && echo "ok   late victim refused" ||
    { echo "FAIL: late victim: $out"; fail=1; }
# planted: a failed point (status error) among the rows
sed '2s/,ok,/,error,/' $csv > "$tmp/failed.csv"
out=$($py scripts/shared_dragonfly_table.py "$tmp/failed.csv" 2>&1) &&
    { echo "FAIL: a failed point accepted"; fail=1; }
echo "$out" | grep -q "status ok" && echo "ok   failed point refused" ||
    { echo "FAIL: failed point: $out"; fail=1; }
exit $fail
