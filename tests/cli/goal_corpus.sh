#!/bin/sh
# CLI test: the Schedgen corpus (tests/data/goal/schedgen/, made by
# scripts/goal_corpus/make_corpus.sh). Every file imports, verifies and simulates, except
# chained_dissem, which sends to rank 9999999 and is refused naming file:line. On a
# crossbar equivalent to LogGOPSim's parameters (L = 2500 ns = two host links of 1250 ns;
# G = 1 ns/byte = 8 Gb/s; o = g = O = 0; calc in ns; eager up to 65535 bytes, collsim's
# default for such files), collsim's time is within 0.5 % of LogGOPSim's wherever no
# message waited for its sender's NIC in LogGOPSim (nic_queued = 0: LogGOPSim serializes
# a NIC's messages, collsim's flow model shares the link; issue 24 models the NIC) and
# no rank has two sends without dependencies (independent_sends = 0: LogGOPSim starts
# them one after the other, collsim together); the other files are checked to run.
# Schedgen's allreduce_ring at 16..64 ranks leaves LogGOPSim stuck (messages left in its
# receive queues); collsim runs it in 2 (P - 1) rounds of L + (4096 / P) G.
# With a CPU overhead and a NIC gap (loggopsim_og.csv: o = 1500 ns at both ends, g =
# 1000 ns; collsim --send-overhead 1500ns --recv-overhead 1500ns, endpoint costs on the
# dependency schedules): within 0.5 % wherever no message waited for its sender's NIC in
# that run and no rank has independent sends, with --msg-gap g; and on every file with
# one message size s where no rank receives twice (single_receive = 1: scatter,
# broadcast trees, bisections), with --msg-gap g + (s - 1) G, the time LogGOPSim's NIC
# holds a message (LogGOPSim adds g to the bytes' time; collsim's msg_gap only spaces
# injections, the link carries the bytes).
# usage: goal_corpus.sh PATH/TO/collsim   (run from the source tree)
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
dir=tests/data/goal/schedgen
xbar="fattree levels=2 radix=128 hosts_per_leaf=64 leaves=1 spines=1 host_bw=8Gbps host_lat=1250ns"
compared=0
tail -n +2 $dir/loggopsim.csv > /tmp/goal_corpus.$$
while IFS=, read -r file gen pattern ranks lgs status queued indep; do
    f=$dir/$file
    case $pattern in
    chained_dissem)
        check "$file refused" 2 "$file:[0-9]*: peer '9999999' is not a rank" -- \
            "$bin" verify --import "$f"
        continue ;;
    esac
    out=$("$bin" verify --import "$f" --quiet 2>&1)
    case $out in
        *"1 ok, 0 failed"*) ;;
        *) echo "FAIL $file verify: $out"; fail=1; continue ;;
    esac
    t=$("$bin" sim --import "$f" --topology "$xbar" --no-header 2>&1 | cut -d, -f10)
    case $t in
        [0-9]*) ;;
        *) echo "FAIL $file sim: $t"; fail=1; continue ;;
    esac
    if [ "$status" = ok ] && [ "$queued" = 0 ] && [ "$indep" = 0 ]; then
        compared=$((compared + 1))
        if awk -v c="$t" -v l="$lgs" 'BEGIN { d = (c * 1e9 - l) / l; exit !(d < 0.005 && d > -0.005) }'; then
            echo "ok   $file: collsim $t s, LogGOPSim $lgs ns"
        else
            echo "FAIL $file: collsim $t s, LogGOPSim $lgs ns (more than 0.5 % apart)"; fail=1
        fi
    elif [ "$pattern" = allreduce_ring ] && [ "$status" = stuck ]; then
        if awk -v c="$t" -v p="$ranks" 'BEGIN { e = 2 * (p - 1) * (2500 + 4096 / p); d = (c * 1e9 - e) / e; exit !(d < 0.005 && d > -0.005) }'; then
            echo "ok   $file: collsim $t s = 2 (P-1) (L + 4096/P G)"
        else
            echo "FAIL $file: collsim $t s, expected 2 (P-1) (L + 4096/P G)"; fail=1
        fi
    else
        echo "ok   $file: imports, verifies, simulates ($status, nic_queued=$queued)"
    fi
done < /tmp/goal_corpus.$$
rm -f /tmp/goal_corpus.$$
# the comparison must not quietly shrink: the CSV's rows with a time and no NIC queueing
want=$(awk -F, 'NR > 1 && $6 == "ok" && $7 == 0 && $8 == 0' $dir/loggopsim.csv | wc -l)
if [ "$compared" -eq "$want" ] && [ "$compared" -ge 40 ]; then
    echo "ok   compared $compared files with LogGOPSim"
else
    echo "FAIL compared $compared files with LogGOPSim (CSV: $want)"; fail=1
fi
# ---- with o and g (loggopsim_og.csv) ------------------------------------------------------
ep="--send-overhead 1500ns --recv-overhead 1500ns"
tail -n +2 $dir/loggopsim_og.csv > /tmp/goal_corpus.$$
og=0 want_og=0
while IFS=, read -r file lgs status queued single; do
    [ "$status" = ok ] || continue
    indep=$(awk -F, -v f="$file" '$1 == f { print $8 }' $dir/loggopsim.csv)
    if [ "$queued" = 0 ] && [ "$indep" = 0 ]; then
        gap=1000 why="g"
    elif [ "$single" = 1 ]; then
        s=$(sed -n 's/.*send \([0-9]*\)b.*/\1/p' $dir/$file | head -n 1)
        gap=$((1000 + s - 1)) why="g + (s-1) G"
    else
        continue
    fi
    want_og=$((want_og + 1))
    t=$("$bin" sim --import $dir/$file --topology "$xbar" $ep --msg-gap ${gap}ns --no-header 2>&1 | cut -d, -f10)
    if awk -v c="$t" -v l="$lgs" 'BEGIN { d = (c * 1e9 - l) / l; exit !(d < 0.005 && d > -0.005) }'; then
        og=$((og + 1))
        echo "ok   $file with o, g: collsim $t s (msg_gap $why), LogGOPSim $lgs ns"
    else
        echo "FAIL $file with o, g: collsim $t s (msg_gap $why = $gap ns), LogGOPSim $lgs ns"; fail=1
    fi
done < /tmp/goal_corpus.$$
rm -f /tmp/goal_corpus.$$
if [ "$og" -eq "$want_og" ] && [ "$og" -ge 70 ]; then
    echo "ok   compared $og files with LogGOPSim at o = 1500 ns, g = 1000 ns"
else
    echo "FAIL compared $og of $want_og files with LogGOPSim at o, g (at least 70 expected)"; fail=1
fi
# planted: without the overheads collsim is far from LogGOPSim's o = 1500 ns times
t=$("$bin" sim --import $dir/binomialtreebcast_8.goal --topology "$xbar" --msg-gap 5095ns --no-header | cut -d, -f10)
l=$(awk -F, '$1 == "binomialtreebcast_8.goal" { print $2 }' $dir/loggopsim_og.csv)
if awk -v c="$t" -v l="$l" 'BEGIN { d = (c * 1e9 - l) / l; exit !(d < 0.005 && d > -0.005) }'; then
    echo "FAIL planted: binomialtreebcast_8 without overheads agrees with LogGOPSim's o = 1500 ns"; fail=1
else
    echo "ok   planted: binomialtreebcast_8 without overheads differs ($t s, LogGOPSim $l ns)"
fi
exit $fail
