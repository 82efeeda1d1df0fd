#!/bin/sh
# CLI test: the packet model's setup (docs/packet-model.md "Setup"): SimGrid gets a
# platform of hosts alone (no link, no route), the flow models the whole one; a hosts-only
# platform that lacks a rank's host is an error naming it.
# usage: packet_setup.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
DF="dragonfly p=2 a=4 h=2" # 9 groups of 4 routers with 2 hosts each: 72 hosts
POINT="--collective allreduce --algorithm rabenseifner --ranks 64 --size 64KiB --no-header"

# shellcheck disable=SC2086
check "packet point" 0 ",packet routing=minimal" -- "$bin" sim --topology "$DF" $POINT --model packet
if [ -f "$tmp/cache/hosts-72.xml" ] && ! ls "$tmp/cache" | grep -q "^dragonfly"; then
    echo "ok   packet: the hosts-only platform, not the whole one"
else
    echo "FAIL packet: the cache holds"; ls "$tmp/cache"; fail=1
fi
hosts=$(grep -c "<host id=\"h[0-9]*\"" "$tmp/cache/hosts-72.xml")
net=$(grep -c "<link\|<route\|<zoneRoute\|<cluster" "$tmp/cache/hosts-72.xml")
if [ "$hosts" -eq 72 ] && [ "$net" -eq 0 ] &&
    grep -q "<host id=\"h0\"" "$tmp/cache/hosts-72.xml" &&
    grep -q "<host id=\"h71\"" "$tmp/cache/hosts-72.xml"; then
    echo "ok   hosts-only platform: h0 .. h71, no link, route or cluster"
else
    echo "FAIL hosts-only platform: $hosts hosts, $net network elements"; fail=1
fi
# shellcheck disable=SC2086
check "flow point" 0 ",cm02," -- "$bin" sim --topology "$DF" $POINT --model cm02
if ls "$tmp/cache" | grep -q "^dragonfly-.*\.xml$" &&
    [ "$(grep -c "<link " "$tmp/cache"/dragonfly-*.xml)" -gt 0 ]; then
    echo "ok   flow: the whole platform"
else
    echo "FAIL flow: no whole platform in the cache"; ls "$tmp/cache"; fail=1
fi

# planted: a hosts-only platform missing hosts h64 .. h71 (rank 64 of 72 runs on h64)
awk '!/<host id="h(6[4-9]|7[01])"/' "$tmp/cache/hosts-72.xml" > "$tmp/short.xml"
mv "$tmp/short.xml" "$tmp/cache/hosts-72.xml"
check "planted: a host missing" 2 "the SimGrid platform has no host 'h64'" -- \
    "$bin" sim --topology "$DF" --collective allreduce --algorithm rabenseifner --ranks 72 \
    --size 64KiB --model packet
rm -rf "$tmp"
exit $fail
