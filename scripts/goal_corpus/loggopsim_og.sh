#!/bin/bash
# loggopsim_og.sh - LogGOPSim's finishing times for the committed Schedgen corpus with a
# CPU overhead and a NIC gap (tests/data/goal/schedgen/loggopsim_og.csv): L=2500 o=1500
# g=1000 G=1 O=0 S=65535 (ns, ns per byte), the GOAL files as make_corpus.sh made them.
# LogGOPSim (github.com/spcl/LogGOPSim, commit 76451de) is built in a temporary folder
# and never part of collsim.
#
# usage: loggopsim_og.sh LOGGOPSIM_DIR [CORPUS_DIR]
#   LOGGOPSIM_DIR  the folder holding the built LogGOPSim and txt2bin (src/LogGOPSim)
# Columns: file, lgs_ns (empty when LogGOPSim finished no time), lgs_status (ok; stuck:
# messages left in receive queues; refused: txt2bin or LogGOPSim fails), nic_queued
# (nic_queued.py on this run's timeline: a message waited for its sender's NIC, which
# LogGOPSim keeps busy g + (s-1) G per message), single_receive (single_receive.py on the
# file: one message size, no rank receives twice).
set -eu
lgs=$1 dir=${2:-tests/data/goal/schedgen}
here=$(cd "$(dirname "$0")" && pwd)
L=2500 o=1500 g=1000 G=1 S=65535
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$dir/loggopsim_og.csv
echo "file,lgs_ns,lgs_status,nic_queued,single_receive" > "$out.tmp"
for f in "$dir"/*.goal; do
    name=$(basename "$f")
    status=ok t="" q=""
    if "$lgs/txt2bin" -i "$f" -o "$tmp/s.bin" > /dev/null 2>&1 &&
        timeout 300 "$lgs/LogGOPSim" -f "$tmp/s.bin" -L $L -o $o -g $g -G $G -O 0 -S $S -b \
            -V "$tmp/s.viz" > "$tmp/s.out" 2>&1; then
        if grep -q "receive queue on host" "$tmp/s.out"; then
            status=stuck
        else
            t=$(sed -n 's/.*Maximum finishing time at host [0-9]*: \([0-9]*\) .*/\1/p' "$tmp/s.out")
            q=$(python3 "$here/nic_queued.py" "$tmp/s.viz" $G $g)
        fi
    else
        status=refused
    fi
    echo "$name,$t,$status,$q,$(python3 "$here/single_receive.py" "$f")" >> "$out.tmp"
done
mv "$out.tmp" "$out"
