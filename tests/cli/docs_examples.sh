#!/bin/sh
# CLI test: every shell example of README.md and docs/*.md runs as written, in a fresh copy
# of the repository (scripts/docs_examples.py); first the checker itself on planted
# examples: one that fails unannounced, one announced to fail that succeeds, one that needs
# a file nothing created, one (or its child) over its CPU time, one that hangs.
# usage: docs_examples.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
runner="$root/scripts/docs_examples.py"
py=python3
command -v python3 >/dev/null 2>&1 || py=/usr/bin/python3
tmp=$(mktemp -d)
mkdir -p "$tmp/repo/docs"
echo "shipped" > "$tmp/repo/shipped.txt"
good="$tmp/repo/docs/good.md"
cat > "$good" <<'MD'
# good

```sh
cat shipped.txt
printf 'made\n' > made.txt   # an example creates a file a later one uses
```

```sh
$ cat made.txt
made
$ collsim sim --bogus-option   # fails: an unknown option
collsim sim: unknown or incomplete option '--bogus-option'
```

<!-- docs-examples: skip needs a cluster -->
```sh
sbatch job.sh
```

```sh
sleep 60 && echo \
    done                       # takes ~1 min
```
MD
check "planted: good examples pass" 0 "docs examples: 5 ok, 0 failed, 1 skipped, in 1 files" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" --budget 1 "$good"
check "planted: a long example stops after the budget" 0 "ok   docs/good.md:21: sleep 60 && echo .*(long: stopped after the budget)" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" --budget 1 "$good"
printf '# bad\n\n```sh\ncollsim sim --bogus-option\n```\n' > "$tmp/repo/docs/fails.md"
check "planted: unannounced failure" 1 "FAIL docs/fails.md:4: collsim sim --bogus-option" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" "$tmp/repo/docs/fails.md"
printf '# bad\n\n```sh\ncollsim list   # fails: it does not\n```\n' > "$tmp/repo/docs/nofail.md"
check "planted: announced failure that succeeds" 1 "exit 0, but the example says it fails" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" "$tmp/repo/docs/nofail.md"
printf '# bad\n\n```sh\ncollsim run my.lua -o out\n```\n' > "$tmp/repo/docs/missing.md"
check "planted: a file nothing created" 1 "FAIL docs/missing.md:4: collsim run my.lua -o out" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" "$tmp/repo/docs/missing.md"
printf '# bad\n\n```sh\nwhile :; do :; done\n```\n' > "$tmp/repo/docs/slow.md"
check "planted: too slow, not announced" 1 "used more than 1 CPU s (--timeout)" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" --timeout 1 --wall 60 "$tmp/repo/docs/slow.md"
printf '# bad\n\n```sh\necho x | (sleep 1; python3 -c "while True: pass")\n```\n' > "$tmp/repo/docs/slowchild.md"
check "planted: a child too slow" 1 "used more than 1 CPU s (--timeout)" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" --timeout 1 --wall 60 "$tmp/repo/docs/slowchild.md"
printf '# bad\n\n```sh\nsleep 30\n```\n' > "$tmp/repo/docs/hangs.md"
check "planted: hangs" 1 "still running after 2 s of wall time (--wall)" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" --timeout 1 --wall 2 "$tmp/repo/docs/hangs.md"
printf '# bad\n\n```sh\ncollsim list\n' > "$tmp/repo/docs/open.md"
check "planted: unclosed block" 1 "open.md: a \`\`\`sh block is not closed" -- \
    $py "$runner" --collsim "$bin" --root "$tmp/repo" "$tmp/repo/docs/open.md"

# ---- the real documents ---------------------------------------------------------------------
$py "$runner" --collsim "$bin" --root "$root" > "$tmp/all.out" 2>&1
rc=$?
grep -v '^ok ' "$tmp/all.out"
if [ $rc -ne 0 ] || ! grep -q "^docs examples: [0-9]* ok, 0 failed" "$tmp/all.out"; then
    echo "FAIL README.md and docs/*.md examples"; fail=1
else
    echo "ok   README.md and docs/*.md examples: $(tail -1 "$tmp/all.out")"
fi
rm -rf "$tmp"
exit $fail
