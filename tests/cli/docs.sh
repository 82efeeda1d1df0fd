#!/bin/sh
# Documentation stays complete: every algorithm `collsim list` prints appears in
# docs/algorithms.md, and every subcommand `collsim --help` lists appears in docs/cli.md.
# An empty list (or a failing command) is a failure, not a vacuous pass. Every relative
# link of README.md, docs/*.md and results/**/README.md names an existing file inside the
# repository (scripts/check_links.py), and the checker catches planted bad links.
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
# collsim list fits an 100-column terminal; --long prints the same algorithms whole
for args in "" "--aliases"; do
    wide=$("$bin" list $args | awk 'length > 100' | head -2)
    if [ -n "$wide" ]; then echo "FAIL: collsim list $args: lines over 100 columns: $wide"; fail=1; fi
done
if [ "$("$bin" list | awk '{print $1, $2}')" != "$("$bin" list --long | awk '{print $1, $2}')" ]; then
    echo "FAIL: collsim list and collsim list --long list different algorithms"; fail=1
fi
"$bin" list --long | grep -q "^allreduce  *rabenseifner .*; params: order=" ||
    { echo "FAIL: collsim list --long lacks the parameters"; fail=1; }
"$bin" list --aliases --long | grep -q "^allreduce  *pico:ring  *ring  *ok  *HLC-Lab/pico" ||
    { echo "FAIL: collsim list --aliases --long lacks the source column"; fail=1; }
commands=$("$bin" --help | awk '/^  [a-z]/ {print $1}')
ncmd=$(printf '%s\n' "$commands" | grep -c '[a-z]')
if [ "$ncmd" -lt 5 ]; then
    echo "FAIL: collsim --help listed $ncmd command(s)"
    fail=1
fi
for cmd in $commands; do
    grep -q "^## collsim $cmd" docs/cli.md || { echo "FAIL: docs/cli.md lacks 'collsim $cmd'"; fail=1; }
done
py=${COLLSIM_PYTHON:-python3}
links=$("$py" scripts/check_links.py README.md docs/*.md $(find results -name README.md)) ||
    { echo "FAIL: bad links:"; echo "$links"; fail=1; }
grep -q '](docs/design.md)' README.md || { echo "FAIL: README.md does not link docs/design.md"; fail=1; }
tmp=$(mktemp -d) || exit 1
mkdir "$tmp/repo" && echo ok > "$tmp/repo/there.md" && echo ok > "$tmp/outside.md"
printf '[a](there.md) [b](there.md#x) [c](https://x.org/y) [d](#top)\n' > "$tmp/repo/good.md"
printf 'ok\n[gone](missing.md)\n[out](../outside.md)\n[abs](/etc/passwd)\n' > "$tmp/repo/bad.md"
"$py" scripts/check_links.py --root "$tmp/repo" "$tmp/repo/good.md" >/dev/null ||
    { echo "FAIL: check_links.py refused good links"; fail=1; }
out=$("$py" scripts/check_links.py --root "$tmp/repo" "$tmp/repo/bad.md")
rc=$?
for want in "bad.md:2: missing.md (no such file)" "bad.md:3: ../outside.md (points outside" \
            "bad.md:4: /etc/passwd (absolute path"; do
    case $out in *"$want"*) ;; *) echo "FAIL: planted link not caught: $want"; fail=1;; esac
done
[ $rc -eq 1 ] || { echo "FAIL: check_links.py exited $rc on planted bad links"; fail=1; }
rm -rf "$tmp"
[ $fail -eq 0 ] && echo "ok docs cover every algorithm ($n) and command ($ncmd)"
exit $fail
