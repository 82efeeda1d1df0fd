#!/bin/sh
# scripts/trunk_fix_diff.py on a hand-made directory (before_trunk_fix.csv + results.csv)
# whose right answers are derived here: ratios new / old of 0.5, 1 and 0.25 (median 0.5),
# a preset left unchanged (ratio 1, none moved), a row failed after the fix (left out),
# a row only in the new CSV (left out); and planted bugs: a message count changed (the
# schedule must not change: DIFFER), a missing before file, a row without an id; and
# `crossing`, the packet rows with bytes on global links per preset.
# usage: trunk_fix_diff.sh PATH/TO/collsim   (run from the source tree; binary unused)
set -u
. "$(dirname "$0")/lib/check.sh"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 0; }
tmp=$(mktemp -d)
d="$tmp/set"
mkdir -p "$d"
H="id,status,topology,model,time_s,bytes_host,bytes_local,bytes_global,bytes_intergroup_msgs,messages"
P="platforms/polaris.yaml" F="platforms/fugaku.yaml" M="packet routing=minimal"
{
    echo "$H"
    echo "a,ok,$P,$M,4e-06,10,20,30,40,5"
    echo "b,ok,$P,$M,2e-06,10,20,30,40,5"
    echo "c,ok,$P,$M,8e-06,10,20,30,40,5"
    echo "e,ok,$P,$M,1e-06,10,20,30,40,5"
    echo "f,ok,$F,$M,3e-06,10,20,0,0,5"
} > "$d/before_trunk_fix.csv"
{
    echo "$H"
    echo "a,ok,$P,$M,2e-06,10,20,30,40,5"       # 0.5
    echo "b,ok,$P,$M,2e-06,10,20,30,40,5"       # 1.0
    echo "c,ok,$P,$M,2e-06,10,25,30,40,5"       # 0.25, link bytes moved
    echo "e,timeout,$P,$M,,,,,,"                # failed after: left out
    echo "f,ok,$F,$M,3e-06,10,20,0,0,5"         # unchanged preset
    echo "g,ok,$P,$M,9e-06,10,20,30,40,5"       # new only: left out
} > "$d/results.csv"
S="python3 scripts/trunk_fix_diff.py"
check "counts" 0 '`set/`: 5 packet rows ok before, 4 after;' -- $S "$d"
check "polaris ratios" 0 \
    "polaris: 3 rows, new / old time median 0.500 (min 0.250, max 1.000), 2 changed by more than 1 %" -- $S "$d"
check "fugaku unchanged" 0 \
    "fugaku: 1 rows, new / old time median 1.000 (min 1.000, max 1.000), 0 changed" -- $S "$d"
check "schedule identical, one route moved" 0 \
    "bytes_intergroup_msgs, messages) identical; link bytes (bytes_local, bytes_global) moved in 1 rows" -- $S "$d"
# planted: a message count differs after the fix
sed 's/^b,ok,\(.*\),5$/b,ok,\1,6/' "$d/results.csv" > "$tmp/r" && mv "$tmp/r" "$d/results.csv"
check "planted schedule change" 0 "DIFFER in 1 rows" -- $S "$d"
check "missing before file" 1 "nope/before_trunk_fix.csv: no such file" -- $S "$tmp/nope"
printf '%s\n' "$H" ",ok,$P,$M,1e-06,1,1,1,1,1" > "$d/results.csv"
check "row without an id" 1 "results.csv:2: row without an id" -- $S "$d"
check "usage" 1 "usage: trunk_fix_diff.py" -- $S
# extract keeps the packet rows and the named columns
printf '%s\n' "point,id,status,topology,model,time_s,bytes_host,bytes_local,bytes_global,bytes_intergroup_msgs,max_link_bytes,messages" \
    "0,x,ok,$P,$M,1e-06,1,2,3,4,9,5" "1,y,ok,$P,cm02,1e-06,1,2,3,4,9,5" > "$tmp/old.csv"
$S extract "$tmp/old.csv" > "$tmp/ex.csv"
printf '%s\n' "$H" "x,ok,$P,$M,1e-06,1,2,3,4,5" > "$tmp/want.csv"
same "extract keeps packet rows and columns" "$tmp/ex.csv" "$tmp/want.csv"
# crossing: packet rows with bytes on global links, per preset (the cm02 row is not counted)
printf '%s\n' "$H" "a,ok,$P,$M,1e-06,1,2,0,0,5" "b,ok,$P,$M,1e-06,1,2,7,7,5" \
    "c,ok,$P,cm02,1e-06,1,2,7,7,5" "d,ok,$F,$M,1e-06,1,2,0,0,5" > "$d/results.csv"
check "crossing" 0 '`set`: fugaku: 1 packet rows, 0 with bytes on global links; polaris: 2 packet rows, 1 with bytes on global links.' -- \
    $S crossing "$d/results.csv"
rm -rf "$tmp"
exit $fail
