#!/bin/sh
# draw_examples.sh - regenerates the pictures of docs/draw.md and docs/teaching.md
# (docs/img/draw/*.svg) with `collsim draw`. SVG only: deterministic, no matplotlib needed.
# usage: scripts/draw_examples.sh [PATH/TO/collsim]   (default: build/collsim)
set -eu
bin=${1:-build/collsim}
out=docs/img/draw
mkdir -p "$out"
draw() { "$bin" draw "$@" >/dev/null; }

# Gallery: one teaching-size instance per family.
draw "torus dims=4x4" --out "$out/torus.svg"
draw "hyperx dims=3x3 T=2" --out "$out/hyperx.svg"
draw "2dfc m1=4 m2=4" --out "$out/2dfc.svg"
draw "dragonfly p=2 a=4 h=2" --out "$out/dragonfly.svg"
draw "dragonflyplus p=2 leaves=2 spines=2 h=2 g=5" --out "$out/dragonflyplus.svg"
draw "fattree levels=3 radix=4" --out "$out/fattree.svg"
draw "kautz d=3 k=2" --out "$out/kautz.svg"
draw "hammingmesh a=2 x=2 y=2" --out "$out/hammingmesh.svg"

# Lesson 1: distance on a torus (recursive doubling vs Swing, one port, 8x8).
draw "torus dims=8x8" --collective allreduce --compare recursive_doubling_torus,swing_latency \
    --dims 8x8 --param ports=1 --size 1MiB --rank 0 --out "$out/torus-rd-vs-swing.svg"
draw "torus dims=8x8" --collective allreduce --compare recursive_doubling_torus,swing_latency \
    --dims 8x8 --param ports=1 --size 1MiB --rank 0 --step 2 --out "$out/torus-rd-vs-swing-step2.svg"

# Lesson 2: locality on a tapered fat tree (Bine paper Fig. 1), every step and animated.
draw "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1" --collective bcast \
    --compare binomial_doubling,bine --size 1MiB --rank 0 --out "$out/fattree-binomial-vs-bine.svg"
draw "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1" --collective bcast \
    --compare binomial_doubling,bine --size 1MiB --rank 0 --all-steps --out "$out/fig1.svg"

# Lesson 3: multi-port on a 2D fully connected network (dimension order vs multi-dimensional).
draw "2dfc m1=4 m2=4" --collective allgather --compare 2dfc_do,2dfc_md --dims 4x4 --size 1MiB \
    --rank 0 --out "$out/2dfc-do-vs-md.svg"
echo "wrote $(ls "$out" | wc -l) pictures in $out"
