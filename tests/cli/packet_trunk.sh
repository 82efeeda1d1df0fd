#!/bin/sh
# CLI test: a folded trunk (m parallel links as one link, topo_link.mult) has m far buffers
# per virtual channel under the packet model, as the m real links do (docs/packet-model.md
# "Credit-based flow control"); a buffer x m beyond a credit counter's 2 GiB is capped.
# usage: packet_trunk.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp

# Two switches joined by K parallel 1 GB/s links of 100 us, one host each (100 GB/s,
# 10 ns); one 256 KiB message (64 packets of 4 KiB), 8 KiB buffers. The trunk is the
# bottleneck and credits limit it: a packet holds a credit of the far switch's buffer from
# the start of its trunk serialization (s/bw_t) over the link (lat_t) until it has crossed
# the host link there (s/bw_h), a cycle c = s/bw_t + lat_t + s/bw_h. With k packets of
# credit the trunk sends k back to back per cycle, so the last packet starts its trunk
# serialization at t_in + (N/k - 1) c + (k - 1) s/bw_t (t_in = s/bw_h + lat_h: the first
# packet's arrival at the first switch) and reaches its host s/bw_t + lat_t + s/bw_h +
# lat_h later. k = K x buffer / s: the K links' buffers (k = buffer / s, one buffer for
# the whole trunk, was the earlier model's flaw: 3.2 ms instead of 0.8 ms at K = 4).
expected() { # K
    python3 -c "
K, s, N, buf = $1, 4096, 64, 8192
bw_t, lat_t, bw_h, lat_h = K * 1e9, 100e-6, 100e9, 10e-9
k = K * buf // s
c = s / bw_t + lat_t + s / bw_h
t = s / bw_h + lat_h + (N // k - 1) * c + (k - 1) * s / bw_t + s / bw_t + lat_t + s / bw_h + lat_h
print('%.9e' % t)"
}
for K in 1 4; do
    want=$(expected $K)
    got=$("$bin" sim --topology "hyperx dims=2 T=1 K=$K local_bw=1GBps local_lat=100us host_bw=100GBps host_lat=10ns" \
        --collective p2p --algorithm direct --ranks 2 --dst 1 --size 256KiB --model packet \
        --mtu 4KiB --buffer 8KiB --no-header | cut -d, -f10)
    if python3 -c "import sys; sys.exit(abs($got / $want - 1) > 1e-9)"; then
        echo "ok   trunk K=$K: $got s = closed form $want s"
    else
        echo "FAIL trunk K=$K: $got s, closed form $want s"; fail=1
    fi
done

# 1 GiB buffers on a trunk of 4: 4 GiB of credit, capped at 2 GiB (an int32 counter
# would wrap to 0 and deadlock); the 16 KiB message is then limited by nothing but the
# links: 4 packets, 1 switch hop, the same as with 1 MiB buffers.
LINE="hyperx dims=2 T=1 K=4 local_bw=1GBps local_lat=100us host_bw=100GBps host_lat=10ns"
for b in 1GiB 1MiB; do
    "$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 2 --dst 1 \
        --size 16KiB --model packet --buffer $b --no-header | cut -d, -f10 > "$tmp/t_$b"
done
if [ -s "$tmp/t_1MiB" ] && cmp -s "$tmp/t_1GiB" "$tmp/t_1MiB"; then
    echo "ok   1 GiB x 4 links: capped, the same time as 1 MiB ($(cat "$tmp/t_1GiB") s)"
else
    echo "FAIL 1 GiB x 4 links: $(cat "$tmp/t_1GiB") s vs 1 MiB $(cat "$tmp/t_1MiB") s"; fail=1
fi
exit $fail
