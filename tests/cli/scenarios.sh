#!/bin/sh
# The shipped scenarios and their reference outputs agree: every scenarios/*.lua loads
# (`collsim run --dry-run`: the plan, nothing run), and the rows of every complete
# reference output under results/ are exactly the points of today's plan (same ids, none
# missing, none extra; the environment switches as the results READMEs give them): an
# edit that changes a plan is noticed, and `--resume` on them (with --force where the
# file was edited since, e.g. a comment) keeps every row and runs nothing.
# Also: --dry-run writes nothing, and a bad scenario switch is a file:line error.
# usage: scenarios.sh PATH/TO/collsim   (run from the source tree)
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
tmp=$(mktemp -d)

# every scenario loads, with a plan of at least one point (the summary is on stderr)
for f in scenarios/*.lua; do
    got=$("$bin" run "$f" --dry-run 2>&1 >/dev/null)
    case $got in
        "collsim run: "[1-9]*" points "*) echo "ok   $f loads" ;;
        *) echo "FAIL $f: $got"; fail=1 ;;
    esac
done

# reference outputs: every row is a point of the plan (ids), and every point has a row
same_ids() { # NAME RESULTS.CSV [VAR=value ...] collsim run scenario [options]
    name=$1 csv=$2
    shift 2
    env "$@" --dry-run 2>/dev/null | cut -f2 | sort > "$tmp/plan.ids"
    uniq=cat # a results.csv with job columns has a row per job: one id per point
    head -1 "$csv" | grep -q ',job,start_s,reps,alone_time_s,slowdown$' && uniq="uniq"
    tail -n +2 "$csv" | cut -d, -f2 | $uniq | sort > "$tmp/rows.ids"
    if [ -s "$tmp/plan.ids" ] && cmp -s "$tmp/plan.ids" "$tmp/rows.ids"; then
        echo "ok   $name: the rows are the plan ($(wc -l < "$tmp/rows.ids") ids)"
    else
        echo "FAIL $name: rows and plan differ"; diff "$tmp/plan.ids" "$tmp/rows.ids" | head -5
        fail=1
    fi
}
B=$bin
S=scenarios
same_ids "bine_lumi" results/bine/bine_lumi/results.csv $B run $S/bine_lumi.lua
same_ids "bine_lumi_small" results/bine/bine_lumi_small/results.csv $B run $S/bine_lumi_small.lua
same_ids "bine_lumi_endpoint" results/bine/bine_lumi_endpoint/results.csv $B run $S/bine_lumi_endpoint.lua
same_ids "bine_lumi_ugal" results/bine/bine_lumi_ugal/results.csv $B run $S/bine_lumi_ugal.lua
same_ids "bine_lumi_ugal_buffer" results/bine/bine_lumi_ugal_buffer/results.csv \
    $B run $S/bine_lumi_ugal_buffer.lua
same_ids "bine_traffic" results/bine/bine_traffic/results.csv $B run $S/bine_traffic.lua
same_ids "bine_fugaku" results/bine/bine_fugaku/results.csv $B run $S/bine_fugaku.lua
same_ids "bine_fugaku_flow" results/bine/bine_fugaku_flow/results.csv $B run $S/bine_fugaku_flow.lua
same_ids "bine_mn5" results/bine/bine_mn5/results.csv $B run $S/bine_mn5.lua
same_ids "bine_rabenseifner_order" results/bine/rabenseifner_order/results.csv \
    $B run $S/bine_rabenseifner_order.lua
same_ids "bine_torus_order" results/bine/bine_torus_order/results.csv \
    $B run $S/bine_torus_order.lua
same_ids "pico_bcast" results/pico/pico_bcast/results.csv $B run $S/pico_bcast.lua
same_ids "shared_dragonfly" results/shared-dragonfly/results.csv $B run $S/shared_dragonfly.lua
same_ids "swing_tori" results/swing/swing_tori/results.csv SWING_SHAPES=8x8,16x16,8x8x8 $B run $S/swing_tori.lua
same_ids "swing_large" results/swing/swing_large/results.csv \
    SWING_SHAPES=64x64,hyperx SWING_PLAN=pruned $B run $S/swing_tori.lua
same_ids "swing_rect" results/swing/swing_rect/results.csv \
    SWING_SHAPES=64x16,128x8,256x4 SWING_PLAN=pruned $B run $S/swing_tori.lua
same_ids "swing_square" results/swing/swing_square/results.csv $B run $S/swing_square.lua
same_ids "swing_8x8x8x8" results/swing/swing_8x8x8x8/results.csv \
    SWING_SHAPES=8x8x8x8 SWING_PLAN=pruned $B run $S/swing_tori.lua
same_ids "swing_hx2mesh" results/swing/swing_hx2mesh/results.csv \
    SWING_SHAPES=hx2mesh SWING_PLAN=pruned $B run $S/swing_tori.lua
same_ids "swing_hx4mesh" results/swing/swing_hx4mesh/results.csv \
    SWING_SHAPES=hx4mesh SWING_PLAN=pruned $B run $S/swing_tori.lua
same_ids "swing_bandwidth" results/swing/swing_bandwidth/results.csv $B run $S/swing_bandwidth.lua
same_ids "swing_torus_packet" results/packet-swing-torus/swing_torus_packet/results.csv \
    $B run $S/swing_torus_packet.lua
same_ids "analytic_vs_flow" results/analytic-vs-flow/analytic_vs_flow/results.csv \
    $B run $S/analytic_vs_flow.lua
same_ids "twodfc_full" results/kautz-2dfc/twodfc_full/results.csv $B run $S/twodfc.lua
same_ids "kautz_p2p_full" results/kautz-2dfc/kautz_p2p_full/results.csv $B run $S/kautz_p2p.lua
same_ids "kautz_dfc_full" results/kautz-2dfc/kautz_dfc_full/results.csv $B run $S/kautz_dfc.lua
same_ids "kautz_large" results/kautz-2dfc/kautz_large/results.csv $B run $S/kautz_large.lua
same_ids "kautz_dfc_endpoint" results/kautz-2dfc/kautz_dfc_endpoint/results.csv \
    $B run $S/kautz_dfc_endpoint.lua
same_ids "twodfc_endpoint" results/kautz-2dfc/twodfc_endpoint/results.csv $B run $S/twodfc_endpoint.lua
same_ids "alltoallv_radix_endpoint" results/alltoallv/alltoallv_radix_endpoint/results.csv \
    $B run $S/alltoallv_radix_endpoint.lua
same_ids "alltoallv_radix_endpoint_1024" results/alltoallv/alltoallv_radix_endpoint_1024/results.csv \
    ALLTOALLV_P=1024 ALLTOALLV_MACHINES=polaris ALLTOALLV_ENDPOINT=off,paper ALLTOALLV_S=16B,1KiB,16KiB \
    $B run $S/alltoallv_radix_endpoint.lua
same_ids "alltoallv_compare_endpoint" results/alltoallv/alltoallv_compare_endpoint/results.csv \
    $B run $S/alltoallv_compare_endpoint.lua
same_ids "alltoallv_parlinna_endpoint" results/alltoallv/alltoallv_parlinna_endpoint/results.csv \
    $B run $S/alltoallv_parlinna_endpoint.lua
same_ids "alltoallv_radix (quick, flow)" results/alltoallv/alltoallv_radix/results.csv \
    COLLSIM_QUICK=1 $B run $S/alltoallv_radix.lua
same_ids "alltoallv_parlinna (quick, flow)" results/alltoallv/alltoallv_parlinna/results.csv \
    COLLSIM_QUICK=1 $B run $S/alltoallv_parlinna.lua
same_ids "alltoallv_compare (quick, flow)" results/alltoallv/alltoallv_compare/results.csv \
    COLLSIM_QUICK=1 $B run $S/alltoallv_compare.lua
same_ids "alltoallv_radix_packet" results/alltoallv/alltoallv_radix_packet/results.csv \
    $B run $S/alltoallv_radix.lua --model packet
same_ids "alltoallv_parlinna_packet" results/alltoallv/alltoallv_parlinna_packet/results.csv \
    COLLSIM_QUICK=1 $B run $S/alltoallv_parlinna.lua --model packet
same_ids "alltoallv_compare_packet" results/alltoallv/alltoallv_compare_packet/results.csv \
    COLLSIM_QUICK=1 $B run $S/alltoallv_compare.lua --model packet
same_ids "alltoallv_compare_2048_polaris_packet" \
    results/alltoallv/alltoallv_compare_2048_polaris_packet/results.csv \
    ALLTOALLV_MACHINES=polaris $B run $S/alltoallv_compare.lua --model packet

# --dry-run writes nothing; bad switches are refused before anything runs
check "dry run" 0 "64 points (0 duplicates dropped); --dry-run: nothing run" -- \
    "$bin" run scenarios/quickstart.lua -o "$tmp/out" --dry-run
[ ! -e "$tmp/out" ] || { echo "FAIL --dry-run created its output directory"; fail=1; }
# ... nor does a scenario's collsim.draw (docs/examples/my.lua draws a picture and links.csv)
check "dry run with collsim.draw" 0 "6 points (0 duplicates dropped); --dry-run: nothing run" -- \
    "$bin" run docs/examples/my.lua -o "$tmp/out-draw" --dry-run
[ ! -e "$tmp/out-draw" ] || { echo "FAIL --dry-run: collsim.draw created the output directory"; fail=1; }
check "dry run: a line per point" 0 "^0	[0-9a-f]\{16\}	dragonfly a=4 h=2 p=2	cm02	allreduce ring P=64 n=32B" -- \
    "$bin" run scenarios/quickstart.lua --dry-run
# --dry-run finds a dims mismatch before anything runs (the Fugaku mistake planted: dims
# reversed against the torus the ranks fill); the matching dims and an algorithm that
# reads no dims pass, and the run itself refuses the same point at run time
cat > "$tmp/dims.lua" <<'LUA'
collsim.sweep{topology = "torus dims=4x8", collective = "allreduce", ranks = 32, size = "1MiB",
              algorithms = {"swing_bandwidth", "ring"}, model = "traffic", dims = {"8x4", "4x8"}}
LUA
check "dry run: dims mismatch names both shapes" 2 "point 0 (allreduce swing_bandwidth P=32 n=1MiB) would fail: .*dims=8x4 do not match the rank-to-node mapping: .* as a 4x8 grid" -- \
    "$bin" run "$tmp/dims.lua" --dry-run
check "dry run: one point would fail" 2 "--dry-run: 1 point(s) would fail" -- \
    "$bin" run "$tmp/dims.lua" --dry-run
sed 's/"8x4", //' "$tmp/dims.lua" > "$tmp/dims_ok.lua"
check "dry run: matching dims pass" 0 "2 points (0 duplicates dropped); --dry-run: nothing run" -- \
    "$bin" run "$tmp/dims_ok.lua" --dry-run
check "run: the same point fails at run time" 0 "1 error" -- \
    "$bin" run "$tmp/dims.lua" -o "$tmp/dims_out" -j 1 --no-plot
check "bad ALLTOALLV_MACHINES" 2 "alltoallv_compare.lua:[0-9]*: ALLTOALLV_MACHINES: 'summit' is not a machine .*(allowed: polaris, fugaku" -- \
    env ALLTOALLV_MACHINES=summit "$bin" run scenarios/alltoallv_compare.lua --dry-run
check "bad ALLTOALLV_P" 2 "alltoallv_radix.lua:[0-9]*: ALLTOALLV_P: a comma-separated list" -- \
    env ALLTOALLV_P=many "$bin" run scenarios/alltoallv_radix.lua --dry-run

# bine_rorder_stats.py refuses a results.csv with a baseline row missing (planted: the
# nearest-first Rabenseifner rows removed) instead of printing reductions without it
grep -v "order=nearest" results/bine/rabenseifner_order/results.csv > "$tmp/rorder.csv"
check "bine_rorder_stats: missing baseline" 1 "traffic point .*allreduce.* lacks an algorithm (has bine, farthest)" -- \
    python3 scripts/bine_rorder_stats.py "$tmp/rorder.csv"

# bine_torus_order_stats.py refuses a shape without Swing's row (planted: Swing removed)
grep -v "swing_bandwidth" results/bine/bine_torus_order/results.csv > "$tmp/torder.csv"
check "bine_torus_order_stats: missing Swing" 1 "traffic point 64x64 ports=1 lacks swing" -- \
    python3 scripts/bine_torus_order_stats.py "$tmp/torder.csv"

rm -rf "$tmp"
exit $fail
