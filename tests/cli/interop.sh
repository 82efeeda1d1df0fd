#!/bin/sh
# CLI test: external platforms, host files, allocations and `collsim traffic`, from the
# command line and from a Lua scenario (docs/interop.md). usage: interop.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
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
# external platforms in collsim sim. Columns checked: the point, and the bytes: host,
# local, global, inter-group messages, max link, messages, steps (n = 1 MiB = 1048576 B)
FIG1="fattree levels=2 hosts_per_leaf=2 leaves=4 spines=1" # what ft8_*.xml describe
printf 'h0\nh0\nh6\nh6\n' > "$tmp/hosts"
# ring allreduce, 4 ranks, 2 on h0 and 2 on h6 (Q = 2 from the repeated hosts): the two
# inter-host messages of each of the 6 steps carry n/4 over 2 host links and 2 fat-tree
# links each (classed global in the file): 6 x 2 x n/4 x 2 = 6n of each
check "platform + hostfile" 0 "^$D/ft8_full.xml,allreduce,ring,,4,2,1048576,file:$tmp/hosts,cm02,[0-9.e-]*,[0-9.e+]*,[0-9.e+]*,6291456,0,6291456,0,1572864,24,6," -- \
    "$bin" sim --platform $D/ft8_full.xml --hostfile "$tmp/hosts" --collective allreduce \
    --algorithm ring --ranks 4 --no-header
# the same job on the generated fat tree: the same time and bytes (its leaf-spine links
# are local: no class properties there)
gen=$("$bin" sim --topology "$FIG1" --hostfile "$tmp/hosts" --collective allreduce \
    --algorithm ring --ranks 4 --no-header | cut -d, -f10-14,17-19)
check "platform + hostfile = generated fat tree" 0 "^$gen$" -- sh -c "'$bin' sim --platform $D/ft8_full.xml \
    --hostfile '$tmp/hosts' --collective allreduce --algorithm ring --ranks 4 --no-header | cut -d, -f10-12,13,15,17-19"
# binomial_halving bcast on 8 nodes, 4 groups of 2 (Fig. 1): 7 messages of n over 2 host
# links (14n), 3 between groups (3n), each over 2 global links (6n)
check "platform + alloc + groups" 0 "^$D/ft8_zones.xml groups=$D/ft8_groups.txt,bcast,binomial_halving,,8,1,1048576,alloc:h\[0-7\] order=cyclic,traffic,,,,14680064,0,6291456,3145728,3145728,7,3," -- \
    "$bin" sim --platform $D/ft8_zones.xml --groups $D/ft8_groups.txt --alloc "h[0-7]" \
    --order cyclic --collective bcast --algorithm binomial_halving --ranks 8 --model traffic --no-header
# conflicting or misplaced options
check "hostfile and alloc" 2 "give only one of --placement, --hostfile and --alloc (got --hostfile and --alloc)" -- \
    "$bin" sim --platform $D/ft8_full.xml --hostfile "$tmp/hosts" --alloc "h[0-3]" \
    --collective allreduce --algorithm ring --ranks 4
check "placement and hostfile" 2 "(got --placement and --hostfile)" -- \
    "$bin" sim --platform $D/ft8_full.xml --placement linear --hostfile "$tmp/hosts" \
    --collective allreduce --algorithm ring --ranks 4
check "order without alloc" 2 "collsim sim: --order applies to --alloc" -- \
    "$bin" sim --platform $D/ft8_full.xml --order cyclic --collective allreduce --algorithm ring --ranks 4
check "hostfile over --ranks-per-node" 2 "hosts:2: host h0 gets rank 1, more than --ranks-per-node 1" -- \
    "$bin" sim --platform $D/ft8_full.xml --hostfile "$tmp/hosts" --ranks-per-node 1 \
    --collective allreduce --algorithm ring --ranks 4
fig1() { "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt "$@"; } # Fig. 1's job
check "traffic: groups and topology" 2 "give only one of --groups and --topology" -- \
    fig1 --topology platforms/lumi.yaml --collective bcast --algorithms linear
bad_algorithms() { # COLLECTIVE ALGORITHMS PATTERN: an error after a good algorithm, the
    # message, and nothing on stdout (no half-written table)
    check "traffic: $2" 2 "$3" -- fig1 --collective "$1" --algorithms "$2"
    check "traffic: $2, empty stdout" 0 "^0$" -- sh -c "'$bin' traffic --alloc 'h[0-7]' \
        --groups $D/ft8_groups.txt --collective $1 --algorithms $2 2>/dev/null | wc -c"
}
bad_algorithms bcast linear,nosuch "^collsim traffic: --algorithms: unknown bcast algorithm 'nosuch' (allowed: "
bad_algorithms allreduce ring,kautz_c "^collsim traffic: kautz_c: .*P = d(d+1)"

# ---- Lua: the external platform, its group map and an allocation = the CLI's numbers -------
cp $D/ft8_zones.xml $D/ft8_groups.txt "$tmp/"
cat > "$tmp/ext.lua" <<'LUA'
local ft = collsim.topology("ft8_zones.xml")  -- found next to the scenario
assert(ft.family == "external" and ft.hosts == 8, ft.family)
collsim.sweep{topology = ft, groups = "ft8_groups.txt", collective = "bcast",
  algorithms = {"binomial_halving", "binomial_doubling"}, ranks = 8, ranks_per_node = 2,
  models = {"traffic", "cm02"},
  placements = {collsim.placement.alloc("h[0-3]"), collsim.placement.alloc("h[0-3]", {order = "cyclic"})}}
LUA
check "lua external platform" 0 "8 points (0 resumed): 8 ok" -- "$bin" run "$tmp/ext.lua" -o "$tmp/ext" --no-plot
tail -n +2 "$tmp/ext/results.csv" | cut -d, -f6-14,21-30 > "$tmp/lua.rows"
: > "$tmp/cli.rows"
for model in traffic cm02; do
    for order in block cyclic; do
        for alg in binomial_halving binomial_doubling; do
            "$bin" sim --platform "$tmp/ft8_zones.xml" --groups "$tmp/ft8_groups.txt" --alloc "h[0-3]" \
                --order $order --ranks-per-node 2 --collective bcast --algorithm $alg --ranks 8 \
                --model $model --no-header | cut -d, -f1-19 >> "$tmp/cli.rows"
        done
    done
done
if cmp -s "$tmp/lua.rows" "$tmp/cli.rows" && [ "$(sort -u "$tmp/cli.rows" | wc -l)" -eq 8 ]; then
    echo "ok   lua external platform + groups + alloc = collsim sim"
else
    echo "FAIL lua external platform rows differ from collsim sim"; diff "$tmp/lua.rows" "$tmp/cli.rows"; fail=1
fi
check "lua manifest groups" 0 "\"groups\": \"$tmp/ft8_groups.txt\"" -- cat "$tmp/ext/manifest.json"
printf 'collsim.sweep{topology = "torus dims=4", groups = "%s/ft8_groups.txt", collective = "bcast",\n  algorithm = "linear", ranks = 4}\n' "$tmp" > "$tmp/gen.lua"
check "lua groups on a generated topology" 2 "gen.lua:1: collsim.sweep: groups applies to external platforms (.xml) only" -- \
    "$bin" run "$tmp/gen.lua" -o "$tmp/gen"
printf 'rack0 leaf0 extra words\n' > "$tmp/badmap.txt"
printf 'collsim.sweep{topology = "ft8_zones.xml", groups = "badmap.txt", collective = "bcast",\n  algorithm = "linear", ranks = 4}\n' > "$tmp/badmap.lua"
check "lua bad group map" 2 "badmap.lua:1: collsim.sweep: groups: .*badmap.txt:1" -- \
    "$bin" run "$tmp/badmap.lua" -o "$tmp/badmap"
printf 'print(collsim.placement.alloc("h[3-1]"))\n' > "$tmp/badalloc.lua"
check "lua bad allocation" 2 "badalloc.lua:1: collsim.placement.alloc: .*column 5: range 3-1 goes down" -- \
    "$bin" run "$tmp/badalloc.lua" -o "$tmp/badalloc"
printf 'print(collsim.placement.alloc("h[0-3]", {order = "zigzag"}))\n' > "$tmp/badorder.lua"
check "lua bad order" 2 "badorder.lua:1: collsim.placement.alloc: .*zigzag" -- \
    "$bin" run "$tmp/badorder.lua" -o "$tmp/badorder"
check "not a platform" 2 "not a platform file" -- \
    "$bin" sim --platform $D/ft8_groups.txt --collective bcast --algorithm linear --ranks 2
check "unknown host" 2 "unknown host 'h8' (the topology's hosts are h0..h7)" -- \
    "$bin" sim --platform $D/ft8_full.xml --alloc "h[8-9]" --collective bcast --algorithm linear --ranks 2
rm -rf "$tmp"
exit $fail
