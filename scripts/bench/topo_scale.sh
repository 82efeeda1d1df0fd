#!/bin/sh
# topo_scale.sh - generation and SimGrid load time, and peak memory, of a ~16,384-host
# instance of every topology family (issue #3 target: each under 10 s and 2 GiB).
#
# For each family two runs:
#   gen   `collsim topo SPEC --emit FILE`: build the graph and routing tables, write XML
#   load  `collsim topo SPEC --check 100 --emit FILE`: build again, write again, load the
#         platform in SimGrid (until it is sealed) and compare 100 routes with SimGrid
# Each line shows wall and CPU (user+sys) seconds and the peak RSS; the command's own line
# says how long SimGrid took to load. On a shared machine, CPU time is the figure to trust.
# usage: scripts/bench/topo_scale.sh [--quick]    (--quick: ~1,024 hosts, a smoke run)
. "$(dirname "$0")/common.sh"
bench_build
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export COLLSIM_CACHE_DIR="$tmp/cache"
if [ "${1:-}" = "--quick" ]; then
    set -- "dragonfly p=4 a=8 h=4 g=8" "dragonflyplus p=8 leaves=8 spines=8 h=2 g=16" \
        "fattree levels=3 radix=16" "torus dims=16x8x8" "hyperx dims=16x16 T=4" \
        "kautz d=15 k=2 T=4" "2dfc m1=16 m2=16 T=4" "hammingmesh a=2 x=16 y=16"
else
    set -- "dragonfly p=8 a=16 h=8" \
        "dragonflyplus p=16 leaves=16 spines=16 h=4 g=64" \
        "fattree levels=3 radix=64 hosts_per_leaf=32 leaves_per_pod=16 pods=32" \
        "torus dims=32x32x16" \
        "hyperx dims=32x32 T=16" \
        "kautz d=31 k=2 T=16" \
        "2dfc m1=32 m2=32 T=16" \
        "hammingmesh a=2 x=64 y=64"
fi
echo "topo_scale: $(nproc) CPU(s), load average $(cut -d' ' -f1 /proc/loadavg)," \
     "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
for spec in "$@"; do
    family=${spec%% *}
    # shellcheck disable=SC2086
    "$COLLSIM" topo $spec | head -n 1 | sed 's/^/  /'
    for step in gen load; do
        extra="--emit $tmp/$family.xml"
        [ "$step" = load ] && extra="--check 100 $extra"
        t=$(mktemp)
        # shellcheck disable=SC2086
        out=$(/usr/bin/time -f "%e %U %S %M" -o "$t" "$COLLSIM" topo $spec $extra 2>&1 | tail -n 1)
        read -r wall user sys rss < "$t"
        rm -f "$t"
        cpu=$(echo "$user $sys" | awk '{printf "%.2f", $1 + $2}')
        printf '  %-4s %-14s wall=%6.2fs cpu=%6ss peak_rss=%5d MiB  %s\n' "$step" "$family" \
            "$wall" "$cpu" $((rss / 1024)) "$([ "$step" = load ] && echo "$out")"
    done
done
