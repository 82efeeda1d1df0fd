#!/bin/sh
# Documentation stays complete: every algorithm `collsim list` prints appears in
# docs/algorithms.md, and every subcommand `collsim --help` lists appears in docs/cli.md.
set -u
bin=$1
fail=0
"$bin" list | while read -r coll alg _; do
    if ! grep -q "| $coll | $alg |" docs/algorithms.md; then
        echo "FAIL: docs/algorithms.md lacks '$coll $alg'"
        echo x >> /tmp/collsim-docs-fail.$$
    fi
done
[ -f /tmp/collsim-docs-fail.$$ ] && { rm -f /tmp/collsim-docs-fail.$$; fail=1; }
for cmd in $("$bin" --help | awk '/^  [a-z]/ {print $1}'); do
    grep -q "^## collsim $cmd" docs/cli.md || { echo "FAIL: docs/cli.md lacks 'collsim $cmd'"; fail=1; }
done
[ $fail -eq 0 ] && echo "ok docs cover every algorithm and command"
exit $fail
