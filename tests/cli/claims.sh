#!/bin/sh
# Claims tables and generated README sections are what the scripts compute from the
# committed CSVs (scripts/claims.py, scripts/check_generated.py), and the checkers catch
# planted differences: one digit changed in a copy of a README's generated section, one
# value changed in a copy of a claims CSV, unbalanced markers, a command that is not a
# python3 scripts/*.py. Standard library Python only; runs in seconds.
set -u
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
py=python3

$py scripts/claims.py verdicts || { echo "FAIL: the verdict rule"; fail=1; }
out=$($py scripts/claims.py check 2>&1)
if [ $? -ne 0 ]; then echo "FAIL: claims.py check: $out"; fail=1; else echo "$out"; fi

# Every paper README starts its content with a generated claims table (not vacuous).
for p in bine swing alltoallv kautz-2dfc; do
    grep -q "^<!-- BEGIN GENERATED: python3 scripts/claims.py table $p -->\$" results/$p/README.md ||
        { echo "FAIL: results/$p/README.md has no generated claims table"; fail=1; }
done
for p in bine swing alltoallv kautz-2dfc pico; do
    n=$(grep -c . results/claims/$p.csv)
    [ "$n" -ge 3 ] || { echo "FAIL: results/claims/$p.csv has $n lines"; fail=1; }
done

# Planted bug 1: one digit changed inside a generated section of a README copy.
$py - results/bine/README.md "$tmp/README.md" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
inside, done = False, False
for i, l in enumerate(lines):
    if l.startswith("<!-- BEGIN GENERATED:"):
        inside = True
    elif l.startswith("<!-- END GENERATED"):
        inside = False
    elif inside and not done and re.search(r"[0-9]", l):
        m = re.search(r"[0-9]", l)
        d = "1" if m.group() != "1" else "2"
        lines[i] = l[:m.start()] + d + l[m.end():]
        done = True
open(sys.argv[2], "w").write("\n".join(lines))
sys.exit(0 if done else 1)
PY
[ $? -eq 0 ] || { echo "FAIL: no digit to plant in a generated section"; fail=1; }
out=$($py scripts/check_generated.py --file "$tmp/README.md" 2>&1)
if [ $? -eq 0 ]; then
    echo "FAIL: check_generated.py accepted a changed digit"; fail=1
else
    case $out in *"README.md:"*"differs"*) echo "ok planted digit caught: $(echo "$out" | head -1)";;
    *) echo "FAIL: unexpected message: $out"; fail=1;; esac
fi
cp results/bine/README.md "$tmp/same.md"
$py scripts/check_generated.py --file "$tmp/same.md" >/dev/null ||
    { echo "FAIL: an unchanged copy of results/bine/README.md fails the check"; fail=1; }

# Planted bug 2: a claims CSV whose collsim value differs from the computed one.
mkdir "$tmp/claims"
cp results/claims/*.csv "$tmp/claims/"
$py - "$tmp/claims/swing.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
r = next(r for r in rows if r["collsim_value"])
r["collsim_value"] = "9" + r["collsim_value"]
w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
out=$($py scripts/claims.py check --dir "$tmp/claims" --no-readmes 2>&1)
if [ $? -eq 0 ]; then echo "FAIL: claims.py check accepted a changed value"; fail=1
else case $out in *swing.csv:*) echo "ok planted claims value caught";;
     *) echo "FAIL: unexpected message: $out"; fail=1;; esac; fi

# Malformed sections and forbidden commands are errors naming the line.
printf 'a\n<!-- BEGIN GENERATED: python3 scripts/claims.py table pico -->\nx\n' > "$tmp/open.md"
out=$($py scripts/check_generated.py --file "$tmp/open.md" 2>&1) &&
    { echo "FAIL: an unclosed section passed"; fail=1; }
case $out in *"open.md:2: BEGIN GENERATED never closed"*) ;; *) echo "FAIL: $out"; fail=1;; esac
printf '<!-- BEGIN GENERATED: sh -c true -->\n<!-- END GENERATED -->\n' > "$tmp/cmd.md"
out=$($py scripts/check_generated.py --file "$tmp/cmd.md" 2>&1) &&
    { echo "FAIL: a shell command was run"; fail=1; }
case $out in *"only 'python3 scripts/<name>.py ARGS' is allowed"*) ;; *) echo "FAIL: $out"; fail=1;; esac

[ $fail -eq 0 ] && echo "ok claims and generated sections"
exit $fail
