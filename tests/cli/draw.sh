#!/bin/sh
# CLI test: `collsim draw` writes SVG / JSON (and PNG when matplotlib is there), one file
# per step plus an animation, the link table; bad options exit 2 with a clear message.
# usage: draw.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)
check "topology" 0 "wrote $tmp/t.svg" -- "$bin" draw "torus dims=4x4" --out "$tmp/t.svg"
check "svg" 0 '<svg xmlns' -- cat "$tmp/t.svg"
check "json" 0 "wrote $tmp/t.json" -- "$bin" draw --topology "kautz d=2 k=2" --out "$tmp/t.json"
check "json scene" 0 '"kind": "circle"' -- cat "$tmp/t.json"
check "one step" 0 "(6 steps, max link load 1024 bytes)" -- \
    "$bin" draw "torus dims=4" --collective allreduce --algorithm ring --size 4KiB --step 2 \
    --rank 1 --out "$tmp/ring.svg"
check "all steps" 0 "wrote 7 files: $tmp/s-step0.svg .. $tmp/s-anim.svg" -- \
    "$bin" draw "torus dims=4" --collective allreduce --algorithm ring --size 4KiB --all-steps \
    --out "$tmp/s.svg"
check "step file" 0 'data-fwd="1024"' -- cat "$tmp/s-step5.svg"
check "compare" 0 "wrote $tmp/c.csv" -- "$bin" draw "fattree leaves=4 hosts_per_leaf=2 oversub=2:1 spines=1" \
    --collective bcast --compare binomial_doubling,bine --out "$tmp/c.svg" --link-csv "$tmp/c.csv"
check "link csv" 0 "algorithm,step,link,class,from,to,bytes" -- head -1 "$tmp/c.csv"
check "link csv rows" 0 "^bine,all,8,global,s8,s12,2097152" -- cat "$tmp/c.csv"
check "histogram table" 0 "binomial_doubling,global,8,5,12582912" -- \
    "$(dirname "$0")/../../scripts/plot_linkload.py" "$tmp/c.csv" --text
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    check "png" 0 "wrote $tmp/t.png" -- "$bin" draw "torus dims=3x3" --out "$tmp/t.png"
    check "png file" 0 "PNG image" -- file "$tmp/t.png"
else
    echo "skip png: no python3-matplotlib"
fi
check "help" 0 "usage: collsim draw TOPOLOGY --out FILE" -- "$bin" draw --help
check "no out" 2 "a topology and --out are required" -- "$bin" draw "torus dims=4x4"
check "bad format" 2 "unknown picture format (allowed extensions: .svg, .png, .json)" -- \
    "$bin" draw "torus dims=4x4" --out "$tmp/x.gif"
check "collective alone" 2 "--collective goes with --algorithm or --compare" -- \
    "$bin" draw "torus dims=4x4" --collective bcast --out "$tmp/x.svg"
check "bad compare" 2 "--compare: expected two algorithms as A,B, got 'ring'" -- \
    "$bin" draw "torus dims=4x4" --collective allreduce --compare ring --out "$tmp/x.svg"
check "step and all" 2 "--step and --all-steps exclude each other" -- \
    "$bin" draw "torus dims=4x4" --collective allreduce --algorithm ring --step 1 --all-steps --out "$tmp/x.svg"
check "step range" 2 "step 9: the run has 6 steps (0..5)" -- \
    "$bin" draw "torus dims=4" --collective allreduce --algorithm ring --step 9 --out "$tmp/x.svg"
check "rank range" 2 "rank 4: there are 4 ranks (0..3)" -- \
    "$bin" draw "torus dims=4" --rank 4 --out "$tmp/x.svg"
check "bad placement" 2 "--placement" -- "$bin" draw "torus dims=4" --placement zigzag --out "$tmp/x.svg"
check "bad option" 2 "unknown or incomplete option '--colour'" -- "$bin" draw "torus dims=4" --colour --out "$tmp/x.svg"
check "no partial file" 0 "^0$" -- sh -c "ls '$tmp' | grep -c tmp; true"
rm -rf "$tmp"
exit $fail
