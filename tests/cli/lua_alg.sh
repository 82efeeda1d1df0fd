#!/bin/sh
# CLI test: algorithms written in Lua (collsim.define_algorithm) through --lua in dump,
# verify, sim, check and draw, the same schedules and times as the built-ins they copy,
# the documented example, errors (planted bug, Lua error, name clash, bad shapes), resume.
# usage: lua_alg.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
lua=tests/data/lua_algorithms.lua
bad=tests/data/lua_bad.lua
ex=scenarios/examples/my_allreduce.lua

# the same schedule as the C algorithm: JSON-lines bodies (the header names the algorithm)
same_dump() { # COLLECTIVE LUA_ALG C_ALG P [--param ..]
    coll=$1 mine=$2 theirs=$3 P=$4
    shift 4
    "$bin" dump --lua "$LUAFILE" --collective "$coll" --algorithm "$mine" --ranks "$P" --size 1000B "$@" | tail -n +2 > "$tmp/a" &&
    "$bin" dump --collective "$coll" --algorithm "$theirs" --ranks "$P" --size 1000B | tail -n +2 > "$tmp/b" &&
    [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" && echo "same $(wc -l < "$tmp/a") lines"
}
differs() { same_dump "$@" > /dev/null && return 1; echo differs; }
LUAFILE=$lua
for P in 8 16 64 12; do
    check "steps-form recursive doubling = C, P=$P" 0 "same" -- same_dump allreduce lua_recursive_doubling recursive_doubling $P
    check "butterfly-form recursive doubling = C, P=$P" 0 "same" -- same_dump allreduce lua_rd_butterfly recursive_doubling $P
    check "butterfly-form rabenseifner = C, P=$P" 0 "same" -- same_dump allreduce lua_rabenseifner rabenseifner $P
done
check "butterfly block rule = C reduce_scatter, P=100" 0 "same" -- same_dump reduce_scatter lua_rs_doubling recursive_doubling 100
check "a different schedule is told apart" 0 "differs" -- differs allreduce lua_rd_butterfly rabenseifner 16
LUAFILE=$ex
for P in 8 16 64; do
    check "example, order=far = rabenseifner, P=$P" 0 "same" -- same_dump allreduce my_allreduce rabenseifner $P --param order=far
done

# the same simulated time (SimGrid actors calling Lua one rank at a time)
sim_time() { # ALGORITHM
    "$bin" sim --lua $lua --topology "dragonfly p=2 a=2 h=1" --collective allreduce \
        --algorithm "$1" --ranks 12 --size 64KiB --format json | sed 's/.*"time_s":\([^,]*\),.*/\1/'
}
c_time=$(sim_time recursive_doubling)
check "sim: steps form, same time_s" 0 "^$c_time\$" -- sim_time lua_recursive_doubling
check "sim: butterfly form, same time_s" 0 "^$c_time\$" -- sim_time lua_rd_butterfly

# verify and check: correct algorithms pass (full and streaming engines, any P)
check "verify all of the file" 0 "0 failed" -- "$bin" verify --lua $lua --collective reduce_scatter --algorithm all --ranks 2..33 --quiet
check "check example" 0 "verify  *10  *10  *0  *0" -- "$bin" check --lua $ex --collective allreduce --algorithm my_allreduce --ranks pow2:2..1024 --full-up-to 256 --junit "$tmp/ok.xml"
printf 'collective: allreduce\nalgorithm: lua_rd_butterfly\nlua: %s\nranks: "2..40"\ntopologies: ["torus dims=4x4"]\nsim_ranks: [16]\n' $lua > "$tmp/spec.yaml"
check "check spec with lua: key" 0 "simulate        1       1" -- "$bin" check --spec "$tmp/spec.yaml"
printf 'collective: allreduce\nalgorithm: lua_rd_butterfly\nlua: [a, b]\n' > "$tmp/bad.yaml"
check "check spec lua: one file name" 2 "bad.yaml:3:1: unknown key or not a single value" -- "$bin" check --spec "$tmp/bad.yaml"

# a planted bug fails check naming rank, step and block; JUnit records it
check "planted bug fails check" 1 "FAIL verify   allreduce lua_rd_bug P=4 size=1MiB: rank 3 .*step 1.*block 0" -- "$bin" check --lua $bad --collective allreduce --algorithm lua_rd_bug --ranks 4,8 --junit "$tmp/bug.xml"
check "junit records the planted bug" 0 "recorded" -- python3 -c "import xml.etree.ElementTree as E; r=E.parse('$tmp/bug.xml').getroot(); f=r.findall('.//failure'); assert r.get('failures')=='2' and 'rank 3' in f[0].get('message'), E.tostring(r); print('recorded')"

# a Lua error in the rank function: file:line, non-zero exit, in every command
check "verify: Lua error" 1 "lua_bad.lua:31: attempt to index a nil value (local 't') (allreduce lua_shape, P=2, rank 1)" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=error --ranks 2
check "check: Lua error is a failure" 1 "FAIL verify.*lua_bad.lua:31: attempt to index" -- "$bin" check --lua $bad --collective allreduce --algorithm lua_shape --param bug=error --ranks 2
check "sim: Lua error" 2 "lua_bad.lua:31: attempt to index" -- "$bin" sim --lua $bad --collective allreduce --algorithm lua_shape --param bug=error --ranks 2 --topology "torus dims=2"
check "dump: Lua error, no file" 2 "lua_bad.lua:31:" -- "$bin" dump --lua $bad --collective allreduce --algorithm lua_shape --param bug=error --ranks 2 --output "$tmp/x.jsonl"
check "dump: nothing written" 0 "absent" -- sh -c "[ ! -e $tmp/x.jsonl ] && echo absent"
check "draw: Lua error" 2 "lua_bad.lua:31:" -- "$bin" draw "torus dims=2" --lua $bad --collective allreduce --algorithm lua_shape --param bug=error --out "$tmp/d.svg"
check "draw: a Lua algorithm" 0 "wrote" -- "$bin" draw "torus dims=4x4" --lua $lua --collective allreduce --algorithm lua_rabenseifner --out "$tmp/d.svg"

# bad table shapes: a clear message naming the function's file:line, rank and steps[i][j]
check "unknown op" 1 "lua_bad.lua:27: the rank function returned a bad schedule (allreduce lua_shape, P=2, rank 0): steps\[1\]\[1\]: unknown op 'sned' (allowed: send, recv, reduce, copy)" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=op --ranks 2
check "missing peer" 1 "steps\[1\]\[1\]: send needs a peer" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=peer --ranks 2
check "unknown key" 1 "unknown key 'peers' (allowed: op, peer, blocks, bytes, combine" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=key --ranks 2
check "blocks out of range" 1 "blocks: {0, 9} is not a range of 0..1" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=blocks --ranks 2
check "not a list of steps" 1 "expected a list of steps (a table), got number" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=steps --ranks 2
check "butterfly peer not pairing" 1 "lua_bad.lua:48: butterfly.peer does not pair the participants at step 0" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_bad_peer --ranks 8
check "bad parameter value" 2 "allowed: none|op|peer" -- "$bin" verify --lua $bad --collective allreduce --algorithm lua_shape --param bug=x --ranks 2

# definitions: a name clash and malformed definitions are file:line errors at load
check "name clash" 2 "lua_clash.lua:2: collsim.define_algorithm: algorithm name 'ring' is taken for allreduce" -- "$bin" verify --lua tests/data/lua_clash.lua --collective allreduce --algorithm ring --ranks 4
printf 'x = 1\n' > "$tmp/none.lua"
check "a file without algorithms" 2 "none.lua defines no algorithm" -- "$bin" check --lua "$tmp/none.lua" --collective allreduce --algorithm x --ranks 4
printf 'collsim.define_algorithm{name = "y", collective = "allreduce",\n  butterfly = {peer = function(v) return v ~ 1 end, peers = 2}, kind = "latency"}\n' > "$tmp/key.lua"
check "unknown butterfly key" 2 "key.lua:1: collsim.define_algorithm: butterfly: unknown key 'peers' (allowed: peer, steps, blocks, split)" -- "$bin" verify --lua "$tmp/key.lua" --collective allreduce --algorithm y --ranks 4
printf 'collsim.define_algorithm{name = "y", collective = "allreduce",\n  butterfly = {peer = function(v) return v ~ 1 end}}\n' > "$tmp/kind.lua"
check "butterfly allreduce without kind" 2 "needs kind = \"latency\"" -- "$bin" verify --lua "$tmp/kind.lua" --collective allreduce --algorithm y --ranks 4
printf 'collsim.define_algorithm{name = "y", collective = "allreduce", rank = function() return {} end,\n  params = {k = {type = "int", default = 0, range = "1..4"}}}\n' > "$tmp/param.lua"
check "bad parameter default" 2 "params.k: default: " -- "$bin" verify --lua "$tmp/param.lua" --collective allreduce --algorithm y --ranks 4

# scenarios: Lua algorithms in sweeps; after an edit, --resume refuses and --resume --force
# reruns their points, keeping the old rows aside
cp $lua "$tmp/s.lua"
check "run a scenario with a Lua algorithm" 0 "2 ok, 0 error" -- "$bin" run "$tmp/s.lua" -o "$tmp/out"
sed 's/(steps form)"/(edited)"/' $lua > "$tmp/s.lua"
check "resume refuses an edited definition" 2 "changed" -- "$bin" run "$tmp/s.lua" -o "$tmp/out" --resume
check "resume --force reruns the edited definition's points" 0 "(1 resumed): 2 ok" -- "$bin" run "$tmp/s.lua" -o "$tmp/out" --resume --force
rows=$(($(wc -l < "$tmp/out/results.foreign.csv") - 1))
[ "$rows" = 1 ] && echo "ok   the old definition's row kept aside" ||
    { echo "FAIL results.foreign.csv has $rows rows, expected 1"; fail=1; }
exit $fail
