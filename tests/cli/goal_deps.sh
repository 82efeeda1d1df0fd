#!/bin/sh
# CLI test: GOAL files with dependencies, tags, eager sends, one rank (issue 27). Times are
# checked on a crossbar of two 1250 ns, 8 Gb/s host links per path: a message of s bytes
# alone takes L + s G = 2500 ns + s ns.
# usage: goal_deps.sh PATH/TO/collsim   (run from the source tree)
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
d=tests/data/goal
x="fattree levels=2 radix=128 hosts_per_leaf=64 leaves=1 spines=1 host_bw=8Gbps host_lat=1250ns"
time_of() { "$bin" sim --topology "$x" --no-header "$@" 2>&1 | cut -d, -f10; }

# a send that depends on a receive, matched by a receive without dependency: three
# messages one after the other, 3 (2500 + 1000) ns (as layers of steps it deadlocked)
check "dependent send verifies" 0 "1 ok, 0 failed" -- "$bin" verify --import $d/dep_second_send.goal
check "dependent send runs" 0 "^1.05e-05$" -- time_of --import $d/dep_second_send.goal

# tags: rank 1 receives tag 2 (sent after 20 us of calc) first, then tag 1: with
# rendezvous (a request, a reply, then the data; a message moves once its receive is
# posted), 20000 + (2 x 2500 + 2500 + 2000) + (2 x 2500 + 2500 + 1000) ns; pairing in
# posting order regardless of tags would mismatch the sizes
check "tags verify" 0 "1 ok, 0 failed" -- "$bin" verify --import $d/tags.goal
check "tags match by tag" 0 "^3.8e-05$" -- time_of --import $d/tags.goal --eager-limit 0
sed 's/^r1: recv 1000b from 0 tag 1$/r1: recv 1000b from 0 tag 3/' $d/tags.goal > "$tmp/tag3.goal"
check "a tag nobody receives is refused" 2 "tag3.goal:5: rank 0's send to 1 (tag 1, 1000 bytes) has no matching recv" -- \
    "$bin" verify --import "$tmp/tag3.goal"
sed 's/tag 2$/tag 1/' $d/tags.goal > "$tmp/tagsame.goal"
check "same tag: pairs in posting order, sizes differ" 1 "bytes" -- "$bin" verify --import "$tmp/tagsame.goal"

# eager: send-send-receive-receive runs with LogGOPSim's default limit (65535 bytes):
# one message time, 2500 + 1000 ns; with --eager-limit 0 it is a deadlock
check "eager ssrr verifies" 0 "1 ok, 0 failed" -- "$bin" verify --import $d/eager_ssrr.goal
check "eager ssrr runs" 0 "^3.5e-06$" -- time_of --import $d/eager_ssrr.goal
check "rendezvous ssrr deadlocks (sim)" 2 "deadlock: 2 of 2 rank(s) never finished" -- \
    "$bin" sim --topology "$x" --import $d/eager_ssrr.goal --eager-limit 0
check "rendezvous ssrr deadlocks (verify)" 1 "deadlock: 2 rank(s) cannot finish; rank 0 step 0: send to 1" -- \
    "$bin" verify --import $d/eager_ssrr.goal --eager-limit 0
check "eager limit shown in the row" 0 "cm02 eager_limit=0," -- \
    "$bin" sim --topology "$x" --import $d/dep_second_send.goal --eager-limit 0 --no-header
check "bad eager limit" 2 "eager-limit" -- "$bin" sim --topology "$x" --import $d/eager_ssrr.goal --eager-limit lots

# one rank sending to itself; calc in ns by default, in bytes with --calc bytes: the two
# runs differ by 5000 ns - 5000 B / 10 GB/s = 4500 ns whatever the loopback costs
check "one rank verifies" 0 "1 ok, 0 failed" -- "$bin" verify --import $d/self_one_rank.goal
ns=$(time_of --import $d/self_one_rank.goal)
by=$(time_of --import $d/self_one_rank.goal --calc bytes --copy-rate 10GBps)
check "calc ns vs bytes" 0 "^4500$" -- awk -v a="$ns" -v b="$by" 'BEGIN { printf "%.0f\n", (a - b) * 1e9 }'
check "bad --calc" 2 "allowed: ns" -- "$bin" sim --topology "$x" --import $d/self_one_rank.goal --calc us

# the packet model runs it too (eager, as LogGOPSim's -S): tag 2 after the calc, then
# tag 1; a packet is stored and forwarded at the switch, so s bytes take 2500 + 2 s ns:
# 20000 + (2500 + 2 x 2000) + (2500 + 2 x 1000) ns
check "packet model runs dependencies and tags" 0 "^3.1e-05$" -- \
    time_of --import $d/tags.goal --model packet
# the stream verifier runs step schedules only
check "stream engine refuses" 1 "stream engine verifies step schedules only" -- \
    "$bin" verify --import $d/tags.goal --engine stream

# export writes what it reads: dependencies, tags and calc in ns survive a round trip
# (annotated and plain), and the re-imported file runs the same
"$bin" dump --import $d/tags.goal --format goal > "$tmp/rt.goal"
"$bin" dump --import "$tmp/rt.goal" --format goal | tail -n +2 > "$tmp/rt2.body"
tail -n +2 "$tmp/rt.goal" > "$tmp/rt.body"
same "goal export round trip (annotated)" "$tmp/rt.body" "$tmp/rt2.body"
check "export keeps requires, tags, calc" 0 "l3 requires l1" -- grep -A1 "send 2000b to 1 tag 2" "$tmp/rt.goal"
"$bin" dump --import $d/tags.goal --format goal --plain > "$tmp/p1.goal"
"$bin" dump --import "$tmp/p1.goal" --format goal --plain > "$tmp/p2.goal"
same "goal export round trip (plain)" "$tmp/p1.goal" "$tmp/p2.goal"
check "plain export runs the same" 0 "^3.8e-05$" -- time_of --import "$tmp/p1.goal" --eager-limit 0
check "jsonl shows dependencies" 0 '"tag":2,"after":\[0\]' -- "$bin" dump --import $d/tags.goal

# dump --workload: a non-uniform alltoallv exported to GOAL simulates in the time of the
# schedule it was written from
w="--collective alltoallv --algorithm pairwise --ranks 4 --workload uniform:S=1KiB:seed=1"
"$bin" dump $w --format goal --output "$tmp/a2av.goal"
direct=$("$bin" sim $w --topology "torus dims=4" --no-header | cut -d, -f10)
check "dump --workload round trip" 0 "^$direct$" -- sh -c "\"$bin\" sim --import $tmp/a2av.goal --topology 'torus dims=4' --no-header | cut -d, -f10"
check "dump --workload keeps the sizes" 1 "" -- sh -c "\"$bin\" dump $w | grep -c '\"bytes\":262144,'"
check "dump --workload other collective" 2 "alltoallv only" -- "$bin" dump --collective allreduce --algorithm ring --ranks 4 --workload uniform:S=1KiB

# a dependency cycle is refused at import, naming its line
printf 'num_ranks 2\nrank 0 {\na: send 8b to 1\nb: calc 1\na requires b\nb requires a\n}\nrank 1 {\nc: recv 8b from 0\n}\n' > "$tmp/cycle.goal"
check "cycle refused" 2 "cycle.goal:[56]: rank 0's dependencies form a cycle" -- "$bin" verify --import "$tmp/cycle.goal"
exit $fail
