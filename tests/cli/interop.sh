#!/bin/sh
# CLI test: external platforms, host files, allocations and `collsim traffic`
# (docs/interop.md). usage: interop.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
export COLLSIM_CACHE_DIR="$tmp/cache"
D=tests/data
# Bine paper Fig. 1 (bine.md 1.1): 8 nodes, 2 per leaf switch; bcast distance-doubling
# puts 6n on global links, distance-halving 3n
check "fig1 doubling 6n" 0 "binomial_doubling  *1.0000  *6.0000" -- \
    "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --collective bcast \
    --algorithms binomial_doubling,binomial_halving
check "fig1 halving 3n, 50 %" 0 "binomial_halving  *4.0000  *3.0000  *0.0000  *7  *50.0%" -- \
    "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --collective bcast \
    --algorithms binomial_doubling,binomial_halving
# the presets' group maps agree with their generators' groups
for preset in lumi leonardo; do
    case $preset in
    lumi) A="nid[005000-005063,005300-005363]" ;;
    leonardo) A="lrdn[0141-0204,0330-0361,0700-0731]" ;;
    esac
    "$bin" traffic --alloc "$A" --groups platforms/$preset.yaml --collective allreduce \
        --algorithms rabenseifner,bine_bandwidth,ring --format csv > "$tmp/map.csv" 2>&1
    "$bin" traffic --alloc "$A" --topology platforms/$preset.yaml --collective allreduce \
        --algorithms rabenseifner,bine_bandwidth,ring --format csv > "$tmp/topo.csv" 2>&1
    if cmp -s "$tmp/map.csv" "$tmp/topo.csv" && grep -q "^allreduce,ring,128,128,[2-9]," "$tmp/map.csv"; then
        echo "ok   $preset: map = generator groups"
    else
        echo "FAIL $preset: map and generator groups differ"; cat "$tmp/map.csv" "$tmp/topo.csv"; fail=1
    fi
done
# allocations as schedulers print them
printf 'lrdn0001\nlrdn0002\nlrdn0181\nlrdn0182\n' > "$tmp/nodes"
check "scontrol show hostnames file" 0 "4 ranks on 4 nodes in 2 groups" -- \
    "$bin" traffic --alloc "$tmp/nodes" --groups platforms/leonardo.yaml --collective allreduce \
    --algorithms ring
printf 'MPI_Rank,allocation,xname\n1,lrdn0001,x\n0,lrdn0181,x\n2,lrdn0181,x\n3,lrdn0001,x\n' > "$tmp/pico.csv"
check "PICO CSV, 2 ranks per node" 0 "4 ranks on 2 nodes in 2 groups" -- \
    "$bin" traffic --alloc "$tmp/pico.csv" --groups platforms/leonardo.yaml --ranks-per-node 2 \
    --collective allreduce --algorithms ring
check "SLURM_JOB_NODELIST" 0 "8 ranks on 4 nodes in 2 groups (cyclic order)" -- \
    env SLURM_JOB_NODELIST="lrdn[0001-0002,0181-0182]" "$bin" traffic --alloc env \
    --ranks-per-node 2 --order cyclic --groups platforms/leonardo.yaml --collective allreduce \
    --algorithms ring
check "hostlist error column" 2 "column 9: range 10-2 goes down" -- \
    "$bin" traffic --alloc "lrdn[10-2]" --groups platforms/leonardo.yaml --collective bcast \
    --algorithms linear
# external platforms in collsim sim
check "platform + hostfile" 0 "^ft8_full.xml\|$D/ft8_full.xml,allreduce,ring,,4,2," -- \
    sh -c "printf 'h0\nh0\nh6\nh6\n' > $tmp/hosts && $bin sim --platform $D/ft8_full.xml \
    --hostfile $tmp/hosts --ranks-per-node 2 --collective allreduce --algorithm ring --ranks 4 --no-header"
check "platform + alloc + groups" 0 "alloc:h\[0-7\] order=cyclic,traffic" -- \
    "$bin" sim --platform $D/ft8_zones.xml --groups $D/ft8_groups.txt --alloc "h[0-7]" \
    --order cyclic --collective bcast --algorithm binomial_halving --ranks 8 --model traffic --no-header
check "not a platform" 2 "not a platform file" -- \
    "$bin" sim --platform $D/ft8_groups.txt --collective bcast --algorithm linear --ranks 2
check "unknown host" 2 "unknown host 'h8' (the topology's hosts are h0..h7)" -- \
    "$bin" sim --platform $D/ft8_full.xml --alloc "h[8-9]" --collective bcast --algorithm linear --ranks 2
rm -rf "$tmp"
exit $fail
