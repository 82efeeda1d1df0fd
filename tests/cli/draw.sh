#!/bin/sh
# CLI test: `collsim draw` writes SVG / JSON (and PNG when matplotlib is there), one file
# per step plus an animation, the link table (and its plot.py histogram); bad options exit
# 2 with a clear message; collsim.draw{...} in a scenario writes the same files.
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
    # a scene wider than 4096 pixels (a whole LUMI is 42,000) is scaled down to 4096
    printf '{"width": 10000, "height": 500, "background": "#ffffff", "items": []}' > "$tmp/wide.json"
    check "png pixel cap: the note" 0 "the 10000x500-pixel scene is drawn at 4096x204 pixels" -- \
        /usr/bin/python3 "$(dirname "$0")/../../scripts/render_scene.py" "$tmp/wide.json" "$tmp/wide.png"
    check "png pixel cap: the file" 0 "PNG image data, 4096 x 204" -- file "$tmp/wide.png"
else
    echo "skip png: no python3-matplotlib"
fi
# scripts/plot.py --kind linkload: a PNG from the link CSV, with the Python collsim run
# would use (src/sweep/plot.c: $COLLSIM_PYTHON, else python3, else /usr/bin/python3, the
# first that imports matplotlib)
py=""
for cand in ${COLLSIM_PYTHON:-python3 /usr/bin/python3}; do
    if "$cand" -c "import matplotlib" 2>/dev/null; then py=$cand; break; fi
done
if [ -n "$py" ]; then
    mkdir -p "$tmp/ll"
    check "plot.py linkload" 0 "linkload.png" -- \
        "$py" "$(dirname "$0")/../../scripts/plot.py" "$tmp/c.csv" --kind linkload -o "$tmp/ll"
    check "plot.py linkload png" 0 "PNG image data" -- file "$tmp/ll/linkload.png"
else
    echo "skip plot.py linkload: no Python with matplotlib"
fi

# ---- collsim.draw{...} from Lua: every option of collsim draw, the same files ----------------
# dims and per-algorithm parameters: the CLI's --param goes to both algorithms of --compare
cat > "$tmp/draw.lua" <<'LUA'
local ports1 = function(name) return collsim.algorithm(name, {ports = "1"}) end
collsim.draw{topology = collsim.topology.torus{dims = "4x4"}, out = "cmp.svg",
             collective = "allreduce", compare = {ports1("bine_torus"), ports1("swing_bandwidth")},
             dims = "4x4", size = "64KiB", placement = "random:3", rank = 5, link_csv = "cmp.csv"}
collsim.draw{topology = "torus dims=2x8", out = "one.svg", collective = "bcast", root = 2,
             algorithm = collsim.algorithm("bine_torus", {ports = "multi"}), dims = "2x8",
             step = 1, ranks = 16, ranks_per_node = 1}
collsim.draw{topology = "torus dims=4", out = "all.svg", collective = "allreduce",
             algorithm = "ring", all_steps = true, frame_seconds = 0.5, size = "4KiB"}
collsim.draw{topology = "torus dims=2x2", out = "p2p.svg", collective = "p2p", algorithm = "direct",
             root = 1, dst = 3}
collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring",
              model = "traffic"}
LUA
check "lua draw" 0 "1 ok" -- "$bin" run "$tmp/draw.lua" -o "$tmp/lua" --no-plot
"$bin" draw "torus dims=4x4" --collective allreduce --compare bine_torus,swing_bandwidth \
    --param ports=1 --dims 4x4 --size 64KiB --placement random:3 --rank 5 --out "$tmp/cmp.svg" \
    --link-csv "$tmp/cmp.csv" > /dev/null
"$bin" draw "torus dims=2x8" --collective bcast --root 2 --algorithm bine_torus --param ports=multi \
    --dims 2x8 --step 1 --ranks 16 --ranks-per-node 1 --out "$tmp/one.svg" > /dev/null
"$bin" draw "torus dims=4" --collective allreduce --algorithm ring --all-steps --frame-time 500ms \
    --size 4KiB --out "$tmp/all.svg" > /dev/null
"$bin" draw "torus dims=2x2" --collective p2p --algorithm direct --root 1 --dst 3 \
    --out "$tmp/p2p.svg" > /dev/null
for f in cmp.svg cmp.csv one.svg all-step3.svg all-anim.svg p2p.svg; do
    if [ -s "$tmp/$f" ] && cmp -s "$tmp/$f" "$tmp/lua/$f"; then
        echo "ok   lua draw = collsim draw: $f"
    else
        echo "FAIL lua draw differs from collsim draw: $f"; fail=1
    fi
done
check "variant in the link csv" 0 "^bine_torus ports=1,all," -- cat "$tmp/lua/cmp.csv"
# dims reach the algorithm: without them bine_torus runs on one ring of 16
"$bin" draw "torus dims=4x4" --collective allreduce --compare bine_torus,swing_bandwidth \
    --param ports=1 --size 64KiB --placement random:3 --rank 5 --out "$tmp/nodims.svg" > /dev/null
if ! cmp -s "$tmp/nodims.svg" "$tmp/lua/cmp.svg"; then echo "ok   lua draw dims matter"; else
    echo "FAIL lua draw: the picture without dims is the same"; fail=1; fi
printf 'collsim.draw{topology = "torus dims=4", out = "x.svg", collective = "bcast", compare = {"linear", 3}}\n' > "$tmp/badcmp.lua"
check "lua draw bad compare" 2 "badcmp.lua:1: collsim.draw: compare\[2\] must be a name or collsim.algorithm(...), got number" -- \
    "$bin" run "$tmp/badcmp.lua" -o "$tmp/badcmp"
printf 'collsim.draw{topology = "torus dims=4", out = "x.svg", collective = "bcast", algorithm = "linear", dims = "4y"}\n' > "$tmp/baddims.lua"
check "lua draw bad dims" 2 "baddims.lua:1: collsim.draw: dims: invalid dimension size '4y'" -- \
    "$bin" run "$tmp/baddims.lua" -o "$tmp/baddims"
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
check "unwritable link csv" 2 "collsim draw: --link-csv: cannot write '$tmp/no/such/dir/l.csv': No such file or directory" -- \
    "$bin" draw "torus dims=4" --collective allreduce --algorithm ring --out "$tmp/lc.svg" \
    --link-csv "$tmp/no/such/dir/l.csv"
if [ -e "$tmp/lc.svg" ]; then echo "FAIL unwritable link csv: the picture was written"; fail=1; fi
check "unwritable out" 2 "collsim draw: --out: cannot write '$tmp/no/dir/x.svg'" -- \
    "$bin" draw "torus dims=4" --out "$tmp/no/dir/x.svg"

# ---- a large machine alone is drawn by its groups: LUMI's preset has g = 24 groups of
# a = 31 routers with p = 4 hosts each: 744 routers, 2976 hosts; one circle per group
root=$(cd "$(dirname "$0")/../.." && pwd)
check "LUMI by groups" 0 "drawn by groups: each router and host stands for a group of 31 routers and 124 hosts" -- \
    sh -c "'$bin' draw '$root/platforms/lumi.yaml' --out '$tmp/lumi.svg' >/dev/null && cat '$tmp/lumi.svg'"
check "LUMI by groups: the whole machine" 0 "the whole machine: 2976 hosts, 744 routers" -- cat "$tmp/lumi.svg"
check "LUMI by groups: 24 group discs" 0 "^24$" -- sh -c "grep -o '>group [0-9]*<' '$tmp/lumi.svg' | sort -u | wc -l"
check "a small Dragonfly is drawn whole" 0 "72 hosts, 36 switches" -- \
    sh -c "'$bin' draw 'dragonfly p=2 a=4 h=2' --out '$tmp/df.svg' >/dev/null && cat '$tmp/df.svg'"

# ---- interrupted while the PNG renderer runs: the renderer ends, no temporary file stays ----
# A stand-in renderer (COLLSIM_PYTHON) that notes its pid and writes a growing PNG forever.
mkdir -p "$tmp/int"
cat > "$tmp/slowpy" <<SH
#!/bin/sh
echo \$\$ > "$tmp/renderer.pid"
while :; do echo x >> "\$3"; sleep 0.1; done
SH
chmod +x "$tmp/slowpy"
# (SIGINT is ignored by a background job of a script; TERM and HUP stand for it.)
for sig in TERM HUP; do
    rm -f "$tmp/renderer.pid"
    COLLSIM_PYTHON="$tmp/slowpy" "$bin" draw "torus dims=3x3" --out "$tmp/int/x.png" &
    pid=$!
    k=0
    while [ ! -s "$tmp/renderer.pid" ] && [ $k -lt 300 ]; do sleep 0.1; k=$((k + 1)); done
    kill -$sig $pid
    wait $pid
    rc=$?
    case $sig in TERM) want=143 ;; *) want=129 ;; esac
    left=$(ls -A "$tmp/int")
    if [ $rc -ne $want ]; then
        echo "FAIL interrupt ($sig): exit $rc, expected $want"; fail=1
    elif [ -n "$left" ]; then
        echo "FAIL interrupt ($sig): left behind: $left"; fail=1
    elif kill -0 "$(cat "$tmp/renderer.pid")" 2>/dev/null; then
        echo "FAIL interrupt ($sig): the renderer still runs"; fail=1
        kill "$(cat "$tmp/renderer.pid")"
    else
        echo "ok   interrupt ($sig): renderer ended, no temporary files"
    fi
done

rm -rf "$tmp"
exit $fail
