#!/bin/sh
# CLI test: the machine presets' endpoint costs and the topology word endpoint=none
# (issue 24, deliverable 4; docs/topologies.md "Endpoint keys").
#  - A preset with its fragment on names the fragment's values in the model column (the
#    expected text is read from platforms/endpoint/leonardo.yaml, not from collsim).
#  - endpoint=none is the preset without its include: same time_s and model as a copy of
#    the preset whose include line is deleted; the spec's own endpoint words still apply.
#  - Sweep ids: a network-only point (endpoint=none) keeps the id the preset had before it
#    carried costs; a timed point paying them gets another id, and another again when a
#    fragment value changes (planted); a traffic point keeps its id.
#  - Bad input: endpoint= with another value is an error naming the allowed value.
# usage: endpoint_presets.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp

# ---- the model column names the fragment's values --------------------------------------------
# "key: 625ns  # comment" -> "key=625ns"; sizes lose their B (the model column's bytes)
want=$(sed -n 's/^\([a-z_]*\): *\([0-9.]*\)\(ns\|B\).*/\1=\2\3/p' platforms/endpoint/leonardo.yaml |
       sed 's/B$//' | tr '\n' ' ' | sed 's/ $//')
case $want in
    *send_overhead=*recv_overhead=*) echo "ok   leonardo fragment read: $want" ;;
    *) echo "FAIL leonardo fragment: could not read its values ('$want')"; fail=1 ;;
esac
ALL="--collective allreduce --algorithm rabenseifner --ranks 8 --size 1KiB --no-header"
check "leonardo: model column names the fragment's values" 0 ",cm02 $want," -- \
    "$bin" sim --topology platforms/leonardo.yaml $ALL

# ---- endpoint=none = the preset without its include ------------------------------------------
mkdir -p "$tmp/p"
grep -v '^include:' platforms/leonardo.yaml > "$tmp/p/leonardo_net.yaml"
"$bin" sim --topology "$tmp/p/leonardo_net.yaml" $ALL | cut -d, -f9-10 > "$tmp/net.txt"
"$bin" sim --topology "platforms/leonardo.yaml endpoint=none" $ALL | cut -d, -f9-10 > "$tmp/none.txt"
"$bin" sim --topology platforms/leonardo.yaml $ALL | cut -d, -f9-10 > "$tmp/on.txt"
check "endpoint=none: model cm02" 0 "^cm02," -- cat "$tmp/none.txt"
if cmp -s "$tmp/net.txt" "$tmp/none.txt" && [ -s "$tmp/net.txt" ]; then
    echo "ok   endpoint=none: time and model of the preset without its include"
else
    echo "FAIL endpoint=none differs from the preset without its include"
    cat "$tmp/net.txt" "$tmp/none.txt"; fail=1
fi
if cmp -s "$tmp/on.txt" "$tmp/none.txt"; then # planted: the costs must change the row
    echo "FAIL the fragment's costs do not change the row"; fail=1
else
    echo "ok   planted: with the fragment on, model and time differ"
fi
check "endpoint=none keeps the spec's own words" 0 ",cm02 send_overhead=1000ns," -- \
    "$bin" sim --topology "platforms/leonardo.yaml endpoint=none send_overhead=1us" $ALL
check "endpoint=none on a family: nothing to drop" 0 ",cm02," -- \
    "$bin" sim --topology "torus dims=8 endpoint=none" $ALL

# ---- sweep ids ---------------------------------------------------------------------------------
STAR="leaves: 1, hosts_per_leaf: 4, host_bw: 1GBps, host_lat: 1us"
printf 'send_overhead: 1us\n' > "$tmp/p/frag.yaml"
mk() { # the preset, with or without its include
    printf 'family: fattree\nparams: {%s}\n' "$STAR" > "$tmp/p/m.yaml"
    [ "$1" = on ] && printf 'include: frag.yaml\n' >> "$tmp/p/m.yaml"
}
id() { # TOPOLOGY MODEL: the id of a one-point sweep
    printf 'collsim.sweep{topology = "%s", collective = "allreduce", algorithm = "ring",\n  ranks = 4, size = 1000, model = "%s"}\n' "$1" "$2" > "$tmp/s.lua"
    "$bin" run "$tmp/s.lua" --dry-run 2>/dev/null | cut -f2
}
M=$tmp/p/m.yaml
mk off; off_cm02=$(id "$M" cm02); off_traffic=$(id "$M" traffic)
mk on; on_cm02=$(id "$M" cm02); on_traffic=$(id "$M" traffic)
none_cm02=$(id "$M endpoint=none" cm02); none_traffic=$(id "$M endpoint=none" traffic)
printf 'send_overhead: 2us\n' > "$tmp/p/frag.yaml"
changed_cm02=$(id "$M" cm02)
check "sweep: endpoint=none keeps the network-only id" 0 "^same$" -- \
    sh -c "[ '$none_cm02' = '$off_cm02' ] && [ -n '$off_cm02' ] && echo same"
check "sweep: a point paying the preset's costs has its own id" 0 "^differ$" -- \
    sh -c "[ '$on_cm02' != '$off_cm02' ] && echo differ"
check "sweep: a changed fragment value changes the id (planted)" 0 "^differ$" -- \
    sh -c "[ '$changed_cm02' != '$on_cm02' ] && echo differ"
check "sweep: traffic points keep their id" 0 "^same$" -- \
    sh -c "[ '$on_traffic' = '$off_traffic' ] && [ '$none_traffic' = '$off_traffic' ] && echo same"

# ---- bad input ---------------------------------------------------------------------------------
check "endpoint=off is not a value" 2 "topology spec: endpoint=off: unknown value (allowed: none" -- \
    "$bin" sim --topology "platforms/lumi.yaml endpoint=off" $ALL
check "topo: endpoint=bogus" 2 "endpoint=bogus: unknown value (allowed: none" -- \
    "$bin" topo "platforms/lumi.yaml endpoint=bogus"
printf 'collsim.sweep{topology = "platforms/lumi.yaml endpoint=1", collective = "allreduce",\n  algorithm = "ring", ranks = 4, size = 1000}\n' > "$tmp/bad.lua"
check "sweep: endpoint=1" 2 "endpoint=1: unknown value (allowed: none" -- \
    "$bin" run "$tmp/bad.lua" --dry-run
rm -rf "$tmp"
exit $fail
