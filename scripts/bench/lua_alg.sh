#!/bin/sh
# lua_alg.sh - algorithms written in Lua at scale, and collsim check's 60 s target.
#
# Targets (issue #11):
#   `collsim check` of recursive doubling allreduce over 2..1024 and the powers of two up
#   to 1,048,576 ranks (full semantics up to 65,536, streaming above) under 60 s;
#   full semantic verification of the Lua example (scenarios/examples/my_allreduce.lua,
#   the steps form: one Lua call per rank) at 65,536 ranks, next to the same schedule from
#   C (rabenseifner = my_allreduce order=far) and from the butterfly form
#   (tests/data/lua_algorithms.lua lua_rabenseifner: one Lua call per participant and step,
#   at prepare time only).
# usage: scripts/bench/lua_alg.sh [--quick]     (--quick: P/16 and up to 65,536, a smoke run)
. "$(dirname "$0")/common.sh"
P=65536
RANKS="2..1024,pow2:..1048576"
if [ "${1:-}" = "--quick" ]; then P=4096; RANKS="2..256,pow2:..65536"; fi
EX="$ROOT/scenarios/examples/my_allreduce.lua"
BF="$ROOT/tests/data/lua_algorithms.lua"
bench_build
echo "lua_alg: $(nproc) CPU(s), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
# check prints its summary table last: show the verify row (the line before the blank echo)
bench_time "check allreduce recursive_doubling --ranks $RANKS" \
    sh -c '"$0" check --collective allreduce --algorithm recursive_doubling --ranks "$1" --quiet |
           tail -n 1; echo' "$COLLSIM" "$RANKS"
bench_time "Lua steps form: my_allreduce P=$P (full)" \
    "$COLLSIM" verify --lua "$EX" --collective allreduce --algorithm my_allreduce --ranks $P --engine full
bench_time "C: rabenseifner P=$P (full)" \
    "$COLLSIM" verify --collective allreduce --algorithm rabenseifner --ranks $P --engine full
bench_time "Lua butterfly form: lua_rabenseifner P=$P (full)" \
    "$COLLSIM" verify --lua "$BF" --collective allreduce --algorithm lua_rabenseifner --ranks $P --engine full
