#!/bin/bash
# make_corpus.sh - regenerates tests/data/goal/schedgen/: GOAL files from SPCL's Schedgen
# and Schedgen2 (github.com/spcl/LogGOPSim, src/Schedgen and src/Schedgen2; built in a
# temporary folder, never part of collsim) for every pattern at 8, 16, 32 and 64 ranks,
# and LogGOPSim's finishing time for each at fixed LogGP parameters (loggopsim.csv).
#
# usage: make_corpus.sh SCHEDGEN SCHEDGEN2_DIR LOGGOPSIM_DIR [OUT_DIR]
#   SCHEDGEN       the built src/Schedgen/schedgen
#   SCHEDGEN2_DIR  src/Schedgen2 (python3 schedgen.py)
#   LOGGOPSIM_DIR  the folder holding the built LogGOPSim and txt2bin
#
# LogGOPSim runs with L=2500 o=0 g=0 G=1 O=0 S=65535 (ns, ns per byte): a latency of
# 2.5 us, 1 byte per ns (8 Gb/s), no CPU overheads, eager up to 65535 bytes. The
# equivalent crossbar for collsim is a one-switch fat tree whose host links have 8Gbps
# and 1250ns (two of them on every path), see tests/cli/goal_corpus.sh.
# Columns: file, generator, pattern, ranks, lgs_ns (empty when LogGOPSim finished no
# time), lgs_status (ok; stuck: LogGOPSim ends with messages left in receive queues;
# refused: txt2bin or LogGOPSim fails), nic_queued (nic_queued.py on the run's timeline),
# independent_sends (independent_sends.py on the file).
set -eu
schedgen=$1 sg2=$2 lgs=$3 out=${4:-tests/data/goal/schedgen}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
size=4096
gen1() { # pattern ranks file
    extra=""
    case $1 in
        nwaydissemination) extra="--nway 2" ;;
        pipelinedring|pipelinedringdep) extra="--segmentsize 256" ;;
    esac
    "$schedgen" -p "$1" -s "$2" -d $size $extra -o "$3" > /dev/null
}
gen2() { # "comm [--ptrn p]" ranks file
    (cd "$sg2" && python3 schedgen.py $1 --comm_size "$2" --datasize $size --output "$3" > /dev/null)
}
echo "file,generator,pattern,ranks,lgs_ns,lgs_status,nic_queued,independent_sends" > "$out/loggopsim.csv"
run_lgs() { # file generator pattern ranks
    f=$out/$1
    status=ok t="" q=""
    if "$lgs/txt2bin" -i "$f" -o "$tmp/s.bin" > /dev/null 2>&1 &&
        timeout 300 "$lgs/LogGOPSim" -f "$tmp/s.bin" -L 2500 -o 0 -g 0 -G 1 -O 0 -S 65535 -b \
            -V "$tmp/s.viz" > "$tmp/s.out" 2>&1; then
        if grep -q "receive queue on host" "$tmp/s.out"; then
            status=stuck
        else
            t=$(sed -n 's/.*Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/s.out")
            q=$(python3 "$here/nic_queued.py" "$tmp/s.viz" 1 0)
        fi
    else
        status=refused
    fi
    echo "$1,$2,$3,$4,$t,$status,$q,$(python3 "$here/independent_sends.py" "$f")" >> "$out/loggopsim.csv"
}
for n in 8 16 32 64; do
    for p in binomialtreereduce binarytreebcast binomialtreebcast nwaydissemination \
             pipelinedring pipelinedringdep doublering gather scatter linbarrier \
             dissemination random_bisect random_bisect_fd_sym linear_alltoall \
             linear_alltoallv allreduce_recdoub allreduce_ring resnet chained_dissem; do
        gen1 $p $n "$out/${p}_$n.goal"
        run_lgs "${p}_$n.goal" schedgen $p $n
    done
    for spec in "bcast --ptrn binomialtree" "reduce --ptrn binomialtree" \
                "allreduce --ptrn recdoub" "allreduce --ptrn ring" "alltoall --ptrn linear" \
                "scatter --ptrn linear" incast outcast; do
        set -- $spec
        name=sg2_$1${3:+_$3}
        gen2 "$spec" $n "$(cd "$out" && pwd)/${name}_$n.goal"
        run_lgs "${name}_$n.goal" schedgen2 "$1${3:+ $3}" $n
    done
done
