#!/bin/sh
# verify_scale.sh - time and peak memory of the verifier at scale.
#
# Targets (issue #2): each under 60 s and 4 GiB on a 2-core machine:
#   allreduce rabenseifner P=65,536 (full engine: exactly-once reductions)
#   allgather ring and recursive_doubling P=65,536
#   streaming consistency of allreduce recursive_doubling at P=1,048,576
# usage: scripts/bench/verify_scale.sh [--quick]     (--quick: P/16, for a smoke run)
. "$(dirname "$0")/common.sh"
P=65536
BIG=1048576
if [ "${1:-}" = "--quick" ]; then P=4096; BIG=65536; fi
bench_build
echo "verify_scale: $(nproc) CPU(s), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
bench_time "allreduce rabenseifner P=$P (full)" \
    "$COLLSIM" verify --collective allreduce --algorithm rabenseifner --ranks $P
bench_time "allgather recursive_doubling P=$P" \
    "$COLLSIM" verify --collective allgather --algorithm recursive_doubling --ranks $P
bench_time "allgather ring P=$P" \
    "$COLLSIM" verify --collective allgather --algorithm ring --ranks $P
bench_time "allreduce recursive_doubling P=$BIG (stream consistency)" \
    "$COLLSIM" verify --collective allreduce --algorithm recursive_doubling --ranks $BIG --engine stream
