#!/bin/sh
# CLI test: COLLSIM_SIMGRID_CFG (docs/simulator.md "SimGrid options for measurements"):
# an option SimGrid knows runs and is named in the row's model column (a closed form
# still holds: one message alone, 1 us + 1 MB / 1 GB/s); an option it does not know
# stops the point with SimGrid's message listing the allowed values, exit status 2; an
# option that changes results (crosstraffic on) moves the closed form, so the variable
# really reaches SimGrid.
# usage: simgrid_cfg.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
RING="torus dims=4 local_bw=1GBps local_lat=1us router_lat=0s"
# p2p 0 -> 1, 1 MB over one link of 1 GB/s and 1 us: 1.001 ms
check "default: closed form" 0 ",cm02,0.001001," -- \
    "$bin" sim --topology "$RING" --collective p2p --algorithm direct --ranks 4 \
    --size 1000000 --no-header
COLLSIM_SIMGRID_CFG="--cfg=network/optim:Full" \
    check "optim:Full named in the model column, same time" 0 \
    ",cm02 simgrid_cfg=--cfg=network/optim:Full,0.001001," -- \
    "$bin" sim --topology "$RING" --collective p2p --algorithm direct --ranks 4 \
    --size 1000000 --no-header
# planted: cross-traffic on must change the time. On a SHARED link SimGrid adds 5 % of
# the flow in the reverse direction (SIMGRID-NOTES.md: 1 GB takes 1.05 s instead of 1 s):
# 1 us + 1.05 x 1 ms = 1.051 ms; without the option the closed form 1.001 ms holds
SHARED="$RING sharing=shared"
check "shared link, default: closed form" 0 ",cm02,0.001001," -- \
    "$bin" sim --topology "$SHARED" --collective p2p --algorithm direct --ranks 4 \
    --size 1000000 --no-header
COLLSIM_SIMGRID_CFG="--cfg=network/crosstraffic:1" \
    check "crosstraffic:1 reaches SimGrid: 1.051 ms" 0 \
    "simgrid_cfg=--cfg=network/crosstraffic:1,0.001051," -- \
    "$bin" sim --topology "$SHARED" --collective p2p --algorithm direct --ranks 4 \
    --size 1000000 --no-header
COLLSIM_SIMGRID_CFG="--cfg=network/optim:Bogus" \
    check "unknown value: SimGrid's message with the allowed values" 2 \
    "Valid models are: Lazy, TI, Full" -- \
    "$bin" sim --topology "$RING" --collective p2p --algorithm direct --ranks 4 \
    --size 1000000 --no-header
rm -rf "$tmp"
exit $fail
