#!/bin/sh
# CLI test: `collsim sim --model analytic` (docs/simulator.md "The analytic model") and
# `model = "auto"` in sweeps (docs/scenarios.md): a closed form, the step-alignment check
# fed a schedule that is not aligned, the auto pass's choices re-derived from its own
# first-pass rows, and the errors of its keys.
# usage: analytic.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
RING="torus dims=8 local_bw=1GBps local_lat=1us router_lat=0s"
# ring allgather, 8 ranks, 1 MB blocks, one link each: 7 x (1 us + 1 MB / 1 GB/s) = 7.007 ms
check "analytic ring allgather closed form" 0 ",analytic,0.007007," -- \
    "$bin" sim --topology "$RING" --collective allgather --algorithm ring --ranks 8 \
    --size 8000000 --model analytic --no-header
check "unknown model lists analytic" 2 "allowed: .*packet, analytic" -- \
    "$bin" sim --topology "$RING" --collective allgather --algorithm ring --ranks 8 --model fluid

# planted: rank 1 receives in its second step what rank 0 sends in its first
cat > "$tmp/skew.goal" <<'GOAL'
num_ranks 2

rank 0 {
l1: send 1000b to 1 tag 0
}
rank 1 {
l1: calc 100
l2: recv 1000b from 0 tag 0
l2 requires l1
}
GOAL
check "a schedule with dependencies" 2 "the analytic model runs step schedules only.*dependencies" -- \
    "$bin" sim --import "$tmp/skew.goal" --topology "torus dims=2" --model analytic
check "the same schedule under cm02" 0 ",cm02 eager_limit=65535," -- \
    "$bin" sim --import "$tmp/skew.goal" --topology "torus dims=2" --model cm02

# planted: a step schedule (a Lua algorithm) whose rank 1 receives in its second step what
# rank 0 sends in its first: the analytic model must refuse it, cm02 runs it
cat > "$tmp/skew.lua" <<'LUA'
collsim.define_algorithm{
  name = "skew", collective = "bcast", summary = "rank 1 receives one step late",
  units = function(P) return 1 end,
  rank = function(r, P, size, params)
    if r == 0 then return {{{op = "send", peer = 1, blocks = {0, 1}}}} end
    if r == 1 then return {{}, {{op = "recv", peer = 0, blocks = {0, 1}}}} end
    return {}
  end}
LUA
check "a step schedule that is not step-aligned" 2 "needs a step-aligned schedule.*step 0 has 1 send(s) and 0 receive(s).*--model cm02" -- \
    "$bin" sim --lua "$tmp/skew.lua" --collective bcast --algorithm skew --ranks 2 --topology "torus dims=2" --model analytic
check "the same step schedule under cm02" 0 ",cm02," -- \
    "$bin" sim --lua "$tmp/skew.lua" --collective bcast --algorithm skew --ranks 2 --topology "torus dims=2" --model cm02

# ---- model = "auto" --------------------------------------------------------------------------
cat > "$tmp/auto.lua" <<'LUA'
collsim.sweep{topology = "dragonfly p=2 a=4 h=2", collective = "allreduce", ranks = 64,
  algorithms = {"rabenseifner", "recursive_doubling", "ring", "reduce_bcast"},
  sizes = {"64KiB", "1MiB"}, model = "auto", auto_factor = 1.3}
LUA
check "auto: runs" 0 "16 points (0 resumed): 1[0-4] ok, 0 error" -- \
    "$bin" run "$tmp/auto.lua" -o "$tmp/auto" --no-plot -j 2
# every first pass is an analytic row; a second pass (cm02) ran iff its first pass is within
# 1.3 x the best first pass of its size (columns: 3 status, 8 algorithm, 12 size, 14 model,
# 21 time_s)
verdict=$(awk -F, 'NR > 1 && $14 == "analytic" { t[$12 "," $8] = $21; if (!($12 in best) || $21 < best[$12]) best[$12] = $21; n1++ }
    NR > 1 && $14 == "cm02" { s[$12 "," $8] = $3; n2++ }
    END { bad = 0; for (k in s) { split(k, f, ","); want = t[k] <= 1.3 * best[f[1]] ? "ok" : "skipped";
          if (s[k] != want) bad++ }; ran = 0; for (k in s) ran += s[k] == "ok";
          print n1 " first, " n2 " second, " ran " ran, " bad " wrong" }' "$tmp/auto/results.csv")
check "auto: second passes are the points within the factor" 0 "^8 first, 8 second, [1-7] ran, 0 wrong$" -- \
    echo "$verdict"
check "auto: skipped rows say why" 0 "skipped.*auto: not run, its first pass (analytic) took .*the best of its group (auto_factor 1.3)" -- \
    cat "$tmp/auto/results.csv"
check "auto: resume runs nothing" 0 "16 points (16 resumed)" -- \
    "$bin" run "$tmp/auto.lua" -o "$tmp/auto" --no-plot --resume
check "auto: --shard refused" 1 "model = \"auto\" ranks its first pass over the whole plan" -- \
    "$bin" run "$tmp/auto.lua" -o "$tmp/auto_shard" --no-plot --shard 1/2
check "--model auto: two passes" 0 "analytic.*allreduce ring" -- \
    "$bin" run scenarios/quickstart.lua --model auto --dry-run
printf 'collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring", auto_factor = 2}\n' > "$tmp/nauto.lua"
check "auto_factor without auto" 2 "nauto.lua:1: collsim.sweep: auto_factor applies to model = \"auto\" only" -- \
    "$bin" run "$tmp/nauto.lua" --dry-run
printf 'collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring", model = "auto", auto_factor = 0.5}\n' > "$tmp/lowf.lua"
check "auto_factor below 1" 2 "lowf.lua:1: collsim.sweep: auto_factor: a number >= 1" -- \
    "$bin" run "$tmp/lowf.lua" --dry-run
printf 'collsim.sweep{topology = "torus dims=4", collective = "allreduce", ranks = 4, algorithm = "ring", model = "auto", auto_model = "traffic"}\n' > "$tmp/badm.lua"
check "auto_model traffic" 2 "badm.lua:1: collsim.sweep: auto_model: .*'traffic' (allowed: cm02, lv08, smpi, packet)" -- \
    "$bin" run "$tmp/badm.lua" --dry-run
rm -rf "$tmp"
exit $fail
