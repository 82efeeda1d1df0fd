# check.sh - the helper of the command-line tests (sourced; not a test itself):
#   check NAME EXPECTED_STATUS PATTERN -- command...
# runs the command, compares its exit status and greps its output (stdout + stderr) for
# PATTERN; prints "ok" or "FAIL" and sets fail=1 on failure.
#   same NAME A B
# the files A and B are byte-identical and A has more than one line (a header).
#   use_tmp
# sets $tmp to a fresh directory removed on exit, with collsim's platform cache in it.
fail=0
check() {
    name=$1 want=$2 pattern=$3
    shift 4
    out=$("$@" 2>&1)
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL $name: exit $got, expected $want"; echo "$out"; fail=1; return
    fi
    if ! printf '%s' "$out" | grep -q -- "$pattern"; then
        echo "FAIL $name: output lacks '$pattern'"; echo "$out"; fail=1; return
    fi
    echo "ok   $name"
}
same() {
    if cmp -s "$2" "$3" && [ "$(wc -l < "$2")" -gt 1 ]; then
        echo "ok   $1"
    else
        echo "FAIL $1"; diff "$2" "$3" | head -5; fail=1
    fi
}
# use_tmp: $tmp, a fresh directory removed when the script exits, holding collsim's
# platform cache (COLLSIM_CACHE_DIR) so that a test never reads or fills the user's.
use_tmp() {
    tmp=$(mktemp -d) || exit 1
    trap 'rm -rf "$tmp"' EXIT
    export COLLSIM_CACHE_DIR="$tmp/cache"
}
