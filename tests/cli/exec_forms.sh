#!/bin/sh
# CLI test: one rank executor for both forms of the IR (src/sim/sim_exec.c). A built-in
# step schedule and the same schedule written with explicit dependencies (collsim dump
# --format goal --plain: every op requires every op of the previous step; reduces and
# copies become `calc N` bytes, read back with --calc bytes at the same rate) give
# identical times, every rank's, under endpoint costs (overheads, NIC gap, envelope,
# rendezvous above the eager limit) in the flow models and in the packet model. (Under
# the packet model without endpoint costs a step schedule waits for a step's messages at
# once, as it always has, and a dependency schedule for each message: the order in which
# ranks post at one instant differs, and with it how the network breaks ties.)
# Planted: the endpoint costs change the time (the comparison can fail), and a schedule
# with one message larger does not match.
# usage: exec_forms.sh PATH/TO/collsim   (run from the source tree)
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
trap "rm -rf $tmp" EXIT
topo="torus dims=4x2"
rates="--reduce-rate 5GBps --copy-rate 5GBps"
ep="--send-overhead 1us --recv-overhead 2us --msg-gap 300ns --envelope 64B --eager-limit 4KiB"
run() { "$bin" sim --topology "$topo" $rates --no-header --per-rank "$@" | cut -d, -f10,22; }
for spec in "allreduce ring" "allreduce recursive_doubling" "bcast binomial_halving" \
            "allgather bruck" "alltoall pairwise" "reduce_scatter ring"; do
    set -- $spec
    for model in "cm02 $ep" "smpi $ep" "packet $ep"; do
        alg="--collective $1 --algorithm $2 --ranks 8 --size 64KiB"
        "$bin" dump $alg --format goal --plain > "$tmp/s.goal"
        set -- $model
        m=$1; shift
        steps=$(run $alg --model $m "$@")
        deps=$(run --import "$tmp/s.goal" --calc bytes --model $m "$@")
        case $steps in
            [0-9]*) ;;
            *) echo "FAIL $spec [$model]: $steps"; fail=1; continue ;;
        esac
        if [ "$steps" = "$deps" ]; then
            echo "ok   $spec [$model]: steps = dependencies (${steps%%,*} s)"
        else
            echo "FAIL $spec [$model]: steps $steps, dependencies $deps"; fail=1
        fi
        set -- $spec
    done
done
differ() { echo "$1 | $2"; test "$1" != "$2"; }
# planted: the comparison can fail
alg="--collective allreduce --algorithm ring --ranks 8 --size 64KiB"
"$bin" dump $alg --format goal --plain > "$tmp/s.goal"
with=$(run --import "$tmp/s.goal" --calc bytes --model packet $ep)
without=$(run $alg --model packet)
check "planted: endpoint costs change the packet model's time" 0 "|" -- \
    differ "$with" "$without"
# rank 1's last send to rank 2 (and rank 2's matching receive) 8 times larger
awk '/^rank 1 \{/ { r = 1 } /^rank 2 \{/ { r = 2 }
     r == 1 && /send .* to 2 / { last1 = NR } r == 2 && /recv .* from 1 / { last2 = NR }
     { line[NR] = $0 }
     END { for (i = 1; i <= NR; i++) {
               if ((i == last1 || i == last2) && match(line[i], /[0-9]+b /))
                   line[i] = substr(line[i], 1, RSTART - 1) 8 * substr(line[i], RSTART, RLENGTH - 2) "b " substr(line[i], RSTART + RLENGTH)
               print line[i] } }' "$tmp/s.goal" > "$tmp/larger.goal"
larger=$(run --import "$tmp/larger.goal" --calc bytes --model packet $ep 2>&1)
check "planted: a larger message does not match" 0 "|" -- differ "$with" "$larger"
exit $fail
