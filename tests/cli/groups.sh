#!/bin/sh
# CLI test: group maps as the papers' tools write them (docs/interop.md): PICO's node map,
# host names with and without a domain suffix, a map matching no host (an error) or only
# some (one warning line on stderr, whatever the format), byte columns written exactly.
# usage: groups.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
D=tests/data
PICO=$D/pico_leonardo_excerpt.txt # lines of PICO's tracer/maps/leonardo.txt
traffic() { "$bin" traffic --collective allreduce --algorithms ring "$@"; }

# ---- PICO's map: the CELL of the NODE line (cells 1, 1, 2, 2 in the excerpt) -------------
check "pico map: two cells" 0 "4 ranks on 4 nodes in 2 groups" -- \
    traffic --alloc "lrdn[0001-0002,0181-0182]" --groups $PICO
# lrdn3421 and lrdn3744 are both in cell 20 of PICO's map (cells above node 3420 hold 324
# and 624 nodes, not 180), and so in the Leonardo preset's map
check "pico map: cell 20 spans 3421-3744" 0 "2 ranks on 2 nodes in 1 groups" -- \
    traffic --alloc "lrdn[3421,3744]" --groups $PICO
check "preset map: cell 20 spans 3421-3744" 0 "2 ranks on 2 nodes in 1 groups" -- \
    traffic --alloc "lrdn[3421,3744]" --groups platforms/leonardo.yaml
check "preset map: 3744 / 3745 in two cells" 0 "2 ranks on 2 nodes in 2 groups" -- \
    traffic --alloc "lrdn[3744-3745]" --groups platforms/leonardo.yaml
# the Leonardo preset's generator builds the same cells as its map (group_hosts): a job on
# cells 19-22 counts the same bytes through --topology (the generator's groups) as through
# --groups (the map), and 4 groups; the old uniform 180-node model split cells 20-22
A="lrdn[3400-3430,3700-3760,4300-4400,4900-4992]"
"$bin" traffic --alloc "$A" --topology platforms/leonardo.yaml --format csv \
    --collective allreduce --algorithms ring,rabenseifner > "$tmp/by_topo" 2>&1
"$bin" traffic --alloc "$A" --groups platforms/leonardo.yaml --format csv \
    --collective allreduce --algorithms ring,rabenseifner > "$tmp/by_map" 2>&1
if cmp -s "$tmp/by_topo" "$tmp/by_map" && grep -q '^allreduce,ring,286,286,4,' "$tmp/by_map"; then
    echo "ok   leonardo: generator cells = map cells (cells 19-22)"
else
    echo "FAIL leonardo: generator and map differ"; cat "$tmp/by_topo" "$tmp/by_map"; fail=1
fi
check "leonardo generator: 4992 hosts, lrdn4992 the last" 0 "2 ranks on 2 nodes in 1 groups" -- \
    traffic --alloc "lrdn[4991-4992]" --topology platforms/leonardo.yaml
check "dragonflyplus: group_hosts must count g groups" 2 "group_hosts=180x2: 2 groups, but g=3" -- \
    "$bin" topo "dragonflyplus leaves=2 spines=2 h=1 g=3 group_hosts=180x2" --stats
check "dragonflyplus: group_hosts format" 2 "group_hosts=10y2: expected a comma list of N or NxK" -- \
    "$bin" topo "dragonflyplus leaves=2 spines=2 h=1 g=3 group_hosts=10y2" --stats
# MareNostrum 5: the subtree is the number after "as" (as PICO's tracer reads the names of
# the paper's MN5 allocations): two racks of as01 are one group, as01 and as04 two
check "mn5 map: racks r2 and r5 of as01 in one group" 0 "4 ranks on 4 nodes in 1 groups" -- \
    traffic --alloc "as01r2b[01-02],as01r5b[31-32]" --groups platforms/marenostrum5.yaml
check "mn5 map: as01 and as04 in two groups" 0 "4 ranks on 4 nodes in 2 groups" -- \
    traffic --alloc "as01r2b[01-02],as04r3b[01-02]" --groups platforms/marenostrum5.yaml
# LUMI: PICO's lumi_node_to_cell puts nid007852-007977 (126 nodes) in the last cabinet
check "lumi map: the last cabinet holds 126" 0 "3 ranks on 3 nodes in 1 groups" -- \
    traffic --alloc "nid[007852,007975,007977]" --groups platforms/lumi.yaml
check "lumi map: 7851 / 7852 in two cabinets" 0 "2 ranks on 2 nodes in 2 groups" -- \
    traffic --alloc "nid[007851-007852]" --groups platforms/lumi.yaml

# ---- domain suffixes, on the allocation's side and on the map's ---------------------------
check "suffix on the hosts" 0 "4 ranks on 4 nodes in 2 groups" -- \
    traffic --alloc "lrdn[0001-0002,0181-0182].leonardo.local" --groups $PICO
printf 'lrdn0001.leonardo.local cellA\nlrdn0002.leonardo.local cellB\n' > "$tmp/suffixed.map"
check "suffix in the map" 0 "2 ranks on 2 nodes in 2 groups" -- \
    traffic --alloc "lrdn[0001-0002]" --groups "$tmp/suffixed.map"
check "suffix on the hosts, preset topology" 0 "2 ranks on 2 nodes in 2 groups" -- \
    traffic --alloc "lrdn0001.leonardo.local,lrdn0181.leonardo.local" \
    --topology platforms/leonardo.yaml

# ---- no host matched: an error naming the map and a host; some matched: a warning --------
check "no host matched" 2 "collsim traffic: $PICO: no host of the job is in the group map (4 hosts, e.g. 'nid005000'" -- \
    traffic --alloc "nid[005000-005003]" --groups $PICO
check "no host matched, preset map" 2 "platforms/leonardo.yaml: no host of the job is in the group map (2 hosts, e.g. 'x1000c0s0b0n0'" -- \
    traffic --alloc "x1000c0s0b0n[0-1]" --groups platforms/leonardo.yaml
WARN="collsim traffic: warning: $D/ft8_groups.txt: 2 of 4 hosts of the job are in no group of the map (e.g. 'h8'); 2 matched"
for format in table csv json; do
    check "partial match warns ($format)" 0 "$WARN" -- \
        traffic --alloc "h[6-9]" --groups $D/ft8_groups.txt --format $format
    check "partial match: one warning line ($format)" 0 "^1$" -- sh -c "'$bin' traffic \
        --alloc 'h[6-9]' --groups $D/ft8_groups.txt --collective allreduce --algorithms ring \
        --format $format 2>&1 >/dev/null | grep -c warning || true"
    check "partial match: stdout clean ($format)" 0 "^0$" -- sh -c "'$bin' traffic \
        --alloc 'h[6-9]' --groups $D/ft8_groups.txt --collective allreduce --algorithms ring \
        --format $format 2>/dev/null | grep -c warning || true"
done
# collsim sim on an external platform: the same rules over the job's hosts
printf 'h[0-1] leaf0\n' > "$tmp/half.map"
printf 'x[0-1] leaf0\n' > "$tmp/none.map"
simext() { "$bin" sim --platform $D/ft8_zones.xml --alloc "h[0-3]" --collective bcast \
    --algorithm binomial_halving --ranks 4 --model traffic "$@"; }
check "sim: no host matched" 2 "collsim sim: $tmp/none.map: no host of the job is in the group map (4 hosts, e.g. 'h0'" -- \
    simext --groups "$tmp/none.map"
for format in csv json; do
    check "sim: partial match warns ($format)" 0 "collsim: warning: $tmp/half.map: 2 of 4 hosts of the job are in no group of the map (e.g. 'h2'); 2 matched" -- \
        simext --groups "$tmp/half.map" --format $format
    check "sim: partial match, stdout clean ($format)" 0 "^0$" -- sh -c "'$bin' sim \
        --platform $D/ft8_zones.xml --alloc 'h[0-3]' --collective bcast --algorithm binomial_halving \
        --ranks 4 --model traffic --groups '$tmp/half.map' --format $format 2>/dev/null | grep -c warning || true"
done
check "full match: no warning" 0 "^0$" -- sh -c "'$bin' traffic --alloc 'h[0-7]' \
    --groups $D/ft8_groups.txt --collective allreduce --algorithms ring 2>&1 | grep -c warning || true"

# ---- exact bytes: n = 2^24 + 1 (not representable in a float, 8 significant digits) ------
# Bine paper Fig. 1 (bine.md 1.1): a distance-doubling bcast sends 1n inside groups and 6n
# between them, a distance-halving one 4n and 3n: 6n = 100663302, 3n = 50331651
N=16777217
check "traffic csv: exact bytes" 0 "^bcast,binomial_doubling,8,8,4,1,6,0,7,0,$N,$N,100663302,0$" -- \
    "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --collective bcast \
    --algorithms binomial_doubling,binomial_halving --size $N --format csv
check "traffic csv: exact ratio" 0 "^bcast,binomial_halving,8,8,4,4,3,0,7,0.5,$N,67108868,50331651,0$" -- \
    "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --collective bcast \
    --algorithms binomial_doubling,binomial_halving --size $N --format csv
check "traffic json: exact bytes" 0 '"external_bytes":50331651,"ungrouped_bytes":0}' -- \
    "$bin" traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --collective bcast \
    --algorithms binomial_doubling,binomial_halving --size $N --format json
# the same job simulated: 7 messages of n over 2 host links (14n = 234881038), 3 between
# groups (3n) over 2 global links each (6n), at most 3n on one link
FIG1="fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1"
check "sim csv: exact bytes" 0 ",traffic,,,,234881038,0,100663302,50331651,50331651,7,3," -- \
    "$bin" sim --topology "$FIG1" --collective bcast --algorithm binomial_halving --ranks 8 \
    --size $N --model traffic
check "sim json: exact bytes" 0 '"bytes_host":234881038,"bytes_local":0,"bytes_global":100663302,"bytes_intergroup_msgs":50331651,"max_link_bytes":50331651' -- \
    "$bin" sim --topology "$FIG1" --collective bcast --algorithm binomial_halving --ranks 8 \
    --size $N --model traffic --format json
check "traffic: bad format" 2 "unknown format 'xml' (allowed: table, csv, json)" -- \
    traffic --alloc "h[0-7]" --groups $D/ft8_groups.txt --format xml
rm -rf "$tmp"
exit $fail
