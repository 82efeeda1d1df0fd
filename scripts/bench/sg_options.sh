#!/bin/sh
# sg_options.sh - what SimGrid's solver options do to collsim's flow model: CPU time and
# simulated time of a few points under each option (issue 28).
#
# Every option is given to SimGrid through COLLSIM_SIMGRID_CFG (docs/simulator.md) on top
# of collsim's own (cm02: network/model:CM02, network/crosstraffic:0,
# surf/precision:1e-9). Cases on the 16x16 HyperX with 4 hosts per switch: bcast 4 B at
# P = 1,024 (the fixed cost), Rabenseifner allreduce 1 MiB at P = 1,024, ring allreduce
# and pairwise alltoall 1 MiB at P = SG_OPT_P (default 256). BENCH_RUNS (default 3) runs
# each, the median CPU time (user + system) is kept.
#
# usage: SG_OPT_CSV=results/sim-scale/sg_options.csv scripts/bench/sg_options.sh
#        (python3 scripts/sg_options_table.py FILE makes the README's table)
. "$(dirname "$0")/common.sh"
BENCH_RUNS=${BENCH_RUNS:-3}
P=${SG_OPT_P:-256}
CSV=${SG_OPT_CSV:?set SG_OPT_CSV to the output file}
TOPO="hyperx dims=16x16 T=4"
OPTIONS=${SG_OPTIONS:-"default --cfg=network/optim:Full
--cfg=maxmin/concurrency-limit:16 --cfg=maxmin/precision:1e-3 --cfg=surf/precision:1e-5
--cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:1 --cfg=contexts/guard-size:0"}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export COLLSIM_CACHE_DIR=${COLLSIM_CACHE_DIR:-$WORK/cache}
[ -s "$CSV" ] || echo "option,case,P,simulated_s,cpu_s,runs" > "$CSV"
bench_build
echo "sg_options: $(nproc) CPU(s), load $(cut -d' ' -f1-3 /proc/loadavg), git $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
for opt in $OPTIONS; do
    cfg=$opt
    [ "$opt" = default ] && cfg=
    for c in "bcast binomial_halving 1024 4B" "allreduce rabenseifner 1024 1MiB" \
             "allreduce ring $P 1MiB" "alltoall pairwise $P 1MiB"; do
        set -- $c
        # stderr dropped: SimGrid's warnings (e.g. surf/precision above a link latency)
        # must not stand in for the CSV row
        COLLSIM_SIMGRID_CFG=$cfg bench_time "$opt $2 P=$3" sh -c 'exec "$@" 2>/dev/null' sh \
            nice "$COLLSIM" sim --topology "$TOPO" --collective "$1" --algorithm "$2" \
            --ranks "$3" --size "$4" --format csv --no-header
        echo "$opt,$2,$3,$(echo "$out" | cut -d, -f10),$BENCH_CPU,$BENCH_RUNS" >> "$CSV"
    done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
