#!/bin/sh
# CLI test: `collsim list` and `collsim verify` exit codes and messages.
# usage: verify.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
check "list" 0 "allreduce  *rabenseifner" -- "$bin" list
check "list one collective" 0 "alltoall  *xor" -- "$bin" list alltoall
check "list bad collective" 2 "allowed: bcast" -- "$bin" list allreducee
check "verify ok" 0 "4 ok, 0 failed" -- "$bin" verify --collective allreduce --algorithm rabenseifner,ring --ranks 6,8
check "verify all" 0 "0 failed" -- "$bin" verify --collective alltoall --algorithm all --ranks 2..9 --quiet
check "ranks: one number" 0 "1 ok, 0 failed" -- "$bin" verify --collective allgather --algorithm ring --ranks 16
check "ranks: pow2 range" 0 "6 ok, 0 failed, 0 unsupported" -- "$bin" verify --collective alltoall --algorithm xor --ranks pow2:2..64 --quiet
check "ranks: mixed spec" 0 "5 case(s): 5 ok" -- "$bin" verify --collective reduce --algorithm binomial --ranks 2..4,pow2:8..16 --quiet
check "unsupported P skipped" 0 "skip xor P=3: alltoall xor: requires P to be a power of two (got P=3)" -- "$bin" verify --collective alltoall --algorithm xor --ranks 2..4
check "missing options" 2 "are required" -- "$bin" verify --collective bcast
check "unknown algorithm" 2 "allowed: recursive_doubling" -- "$bin" verify --collective allreduce --algorithm rd --ranks 4
check "unsupported P" 2 "requires P to be a power of two (got P=6)" -- "$bin" verify --collective alltoall --algorithm xor --ranks 6
check "bad ranks" 2 "--ranks" -- "$bin" verify --collective bcast --algorithm linear --ranks 4..x
check "bad size" 2 "allowed units" -- "$bin" verify --collective bcast --algorithm linear --ranks 4 --size 3parsecs
check "bad param" 2 "unknown parameter 'radixx' (allowed: radix)" -- "$bin" verify --collective allgather --algorithm bruck_kport --ranks 9 --param radixx=3
check "param" 0 "1 ok" -- "$bin" verify --collective allgather --algorithm bruck_kport --ranks 27 --param radix=3
check "bad engine" 2 "allowed: auto, full, stream" -- "$bin" verify --collective bcast --algorithm linear --ranks 4 --engine fast
check "unknown command" 2 "unknown command" -- "$bin" frobnicate
# graph-aware algorithms (Kautz K(d,2), 2dfc) and p2p: --dims, --dst, constraint messages
check "kautz ok" 0 "6 ok, 0 failed" -- "$bin" verify --collective alltoall --algorithm kautz_c,kautz_m --ranks 6,12,20
check "kautz steps" 0 "steps=2" -- "$bin" verify --collective allgather --algorithm kautz_c --ranks 72
check "kautz P" 2 "requires P = d(d+1)" -- "$bin" verify --collective allgather --algorithm kautz_c --ranks 16
check "2dfc ok" 0 "steps=2" -- "$bin" verify --collective alltoall --algorithm 2dfc_md --dims 8x4 --ranks 32 --param split=half
check "2dfc dims" 2 "requires the 2dfc shape" -- "$bin" verify --collective alltoall --algorithm 2dfc_do --ranks 16
check "2dfc split" 2 "allowed: m2|m1|half" -- "$bin" verify --collective allgather --algorithm 2dfc_md --dims 4x4 --ranks 16 --param split=third
check "p2p multipath" 0 "messages=46 steps=3" -- "$bin" verify --collective p2p --algorithm kautz_multipath --ranks 272 --root 7 --dst 128
check "p2p dst" 2 "other than the source 3" -- "$bin" verify --collective p2p --algorithm direct --ranks 8 --root 3 --dst 3
check "p2p bad dst" 2 "--dst" -- "$bin" verify --collective p2p --algorithm direct --ranks 8 --dst x
# alltoallv with --workload (docs/workloads.md)
v() { "$bin" verify --collective alltoallv "$@"; }
check "all algorithms, uniform" 0 "0 failed" -- v --algorithm all --ranks 2..17 --workload uniform:S=1KiB:seed=1 --quiet
check "all algorithms, all-zero" 0 "0 failed" -- v --algorithm all --ranks 8,9 --workload constant:S=0 --quiet
check "workload in the ok line" 0 "workload=fft2:block=512B:last=128B" -- v --algorithm pairwise --ranks 8 --workload fft2
check "parlogna radix" 0 "3 ok" -- v --algorithm parlogna --param radix=5 --ranks 5,6,30 --workload powerlaw:max=1KiB:x=0.9
check "parlinna" 0 "2 ok" -- v --algorithm parlinna_coalesced,parlinna_staggered --ranks-per-node 4 --ranks 12 --param batch_size=2 --workload normal:mean=100:sd=30:max=128
check "parlinna radix above Q" 2 "radix 5 is outside 2..4" -- v --algorithm parlinna_staggered --ranks-per-node 4 --ranks 12 --param radix=5
check "parlinna needs Q" 2 "Q >= 2" -- v --algorithm parlinna_coalesced --ranks 12
check "parlogna radix above P" 2 "radix 9 is outside 2..8" -- v --algorithm parlogna --ranks 8 --param radix=9
check "bad workload kind" 2 "allowed: constant, uniform, normal, powerlaw, fft1, fft2" -- v --algorithm linear --ranks 4 --workload gauss:S=1
check "bad workload key" 2 "unknown key 'mean' (allowed: S, seed, unit)" -- v --algorithm linear --ranks 4 --workload uniform:S=1KiB:mean=3
check "workload needs alltoallv" 2 "alltoallv only" -- "$bin" verify --collective alltoall --algorithm linear --ranks 4 --workload uniform:S=1KiB
exit $fail
