#!/bin/sh
# CLI test: `collsim topo` builds the issue's example topologies, prints figures, emits
# platforms, routes and checks them against SimGrid; bad input exits 2 with a clear message.
# usage: topo.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
check "dragonfly" 0 "72 hosts, 36 switches, 9 groups" -- "$bin" topo dragonfly p=2 a=4 h=2
check "kautz stats" 0 "diameter    2 links" -- "$bin" topo kautz d=16 k=2 --stats
check "kautz links" 0 "local 4352" -- "$bin" topo kautz d=16 k=2 --stats
check "2dfc degree" 0 "degree      30..30" -- "$bin" topo 2dfc m1=16 m2=16 --stats
check "torus" 0 "512 hosts" -- "$bin" topo torus dims=8x8x8
check "hyperx" 0 "1024 hosts, 256 switches" -- "$bin" topo hyperx dims=16x16 T=4
check "preset" 0 "2976 hosts, 744 switches, 24 groups" -- "$bin" topo platforms/lumi.yaml
check "preset override" 0 "64 hosts" -- "$bin" topo platforms/fugaku.yaml dims=4x4x4
check "route" 0 "h0 -> h71: 5 links" -- "$bin" topo dragonfly p=2 a=4 h=2 --route 0 71
check "loopback" 0 "loopback lo3" -- "$bin" topo fattree --route 3 3
check "emit" 0 "emitted $tmp/x.xml" -- "$bin" topo fattree --emit "$tmp/x.xml"
check "emitted xml" 0 'platform version="4.1"' -- cat "$tmp/x.xml"
check "emit stdout" 0 '<?xml' -- "$bin" topo torus dims=2x2 --emit -
check "platform cache" 0 "platform $tmp/cache/torus-" -- "$bin" topo torus dims=2x2 --platform
check "simgrid check" 0 ", 0 differ" -- "$bin" topo dragonflyplus p=2 leaves=3 spines=2 h=2 --check 1000
check "list" 0 "hammingmesh" -- "$bin" topo --list
check "help" 0 "keys: d, k, T" -- "$bin" topo --help
check "unknown family" 2 "unknown topology family 'dragonfy'" -- "$bin" topo dragonfy p=2
check "unknown key" 2 "unknown key 'hh' (allowed: p, a, h" -- "$bin" topo dragonfly hh=2
check "bad value" 2 "p: invalid value" -- "$bin" topo dragonfly p=two
check "missing topology" 2 "missing topology" -- "$bin" topo --stats
check "bad option" 2 "unknown or incomplete option '--frobnicate'" -- "$bin" topo torus --frobnicate
check "bad route host" 2 "hosts are 0..3" -- "$bin" topo torus dims=2x2 --route 0 9
printf 'family: torus\nparams:\n  dims: 4x4\n  dimz: 4\n' > "$tmp/bad.yaml"
check "yaml error" 2 "bad.yaml:4:3: unknown key 'dimz'" -- "$bin" topo "$tmp/bad.yaml"
rm -rf "$tmp"
exit $fail
