#!/bin/sh
# packet_swing_torus.sh - the Swing study's 64x64 torus (platforms/swing-torus.yaml,
# results/swing) rerun on the packet model: allreduce, reductions and copies free, as in
# scenarios/swing_tori.lua, under the flow model (cm02) and the packet model with minimal
# (dimension-order) and adaptive routing (least-occupied minimal next hop). One CSV row
# per point: collsim's result row (the header of `collsim sim`).
# usage: scripts/bench/packet_swing_torus.sh [> results/packet-swing-torus/points.csv]
#   ALGS="swing_bandwidth rabenseifner_torus"  SIZES="128KiB 2MiB 8MiB"
#   MODELS="cm02 packet:minimal packet:adaptive"
#   NO_BUILD=1  use build/collsim as it is; COLLSIM_BIN=PATH  another binary
set -eu
. "$(dirname "$0")/common.sh"
[ "${NO_BUILD:-0}" = 1 ] || bench_build
COLLSIM=${COLLSIM_BIN:-$COLLSIM}
ALGS=${ALGS:-"swing_bandwidth rabenseifner_torus"}
SIZES=${SIZES:-"128KiB 2MiB 8MiB"}
MODELS=${MODELS:-"cm02 packet:minimal packet:adaptive"}
topo="platforms/swing-torus.yaml dims=64x64"
header=1
for alg in $ALGS; do
    for size in $SIZES; do
        for m in $MODELS; do
            case $m in
            packet:*) model="--model packet --routing ${m#packet:}" ;;
            *) model="--model $m" ;;
            esac
            flags="--no-header"
            [ $header = 1 ] && flags="" && header=0
            # shellcheck disable=SC2086
            "$COLLSIM" sim --topology "$topo" --collective allreduce --algorithm "$alg" \
                --ranks 4096 --dims 64x64 --size "$size" --reduce-rate free --copy-rate free \
                $model --format csv $flags
        done
    done
done
