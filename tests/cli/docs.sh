#!/bin/sh
# Documentation stays complete: every algorithm `collsim list` prints appears in
# docs/algorithms.md, and every subcommand `collsim --help` lists appears in docs/cli.md.
# An empty list (or a failing command) is a failure, not a vacuous pass.
set -u
bin=$1
fail=0
algorithms=$("$bin" list) || { echo "FAIL: collsim list exited $?"; fail=1; }
n=$(printf '%s\n' "$algorithms" | grep -c '[a-z]')
if [ "$n" -lt 20 ]; then
    echo "FAIL: collsim list printed $n algorithm line(s), expected the registry (dozens)"
    fail=1
fi
while read -r coll alg _; do
    [ -n "$coll" ] || continue
    if ! grep -q "| $coll | $alg |" docs/algorithms.md; then
        echo "FAIL: docs/algorithms.md lacks '$coll $alg'"
        fail=1
    fi
done <<LIST
$algorithms
LIST
commands=$("$bin" --help | awk '/^  [a-z]/ {print $1}')
ncmd=$(printf '%s\n' "$commands" | grep -c '[a-z]')
if [ "$ncmd" -lt 5 ]; then
    echo "FAIL: collsim --help listed $ncmd command(s)"
    fail=1
fi
for cmd in $commands; do
    grep -q "^## collsim $cmd" docs/cli.md || { echo "FAIL: docs/cli.md lacks 'collsim $cmd'"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok docs cover every algorithm ($n) and command ($ncmd)"
exit $fail
