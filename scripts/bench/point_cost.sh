#!/bin/sh
# point_cost.sh - measures the points of scripts/bench/point_cost.lua and fits the constants
# of collsim run's per-point time estimate (src/sweep/point_cost.c) on them.
#
# The run goes into scripts/bench/point_cost/ (results.csv, timings.csv, manifest.json:
# the measurements the constants in point_cost.c come from; --overwrite moves the earlier
# ones aside), then scripts/bench/point_cost_fit.py prints the constants and each point's
# estimate / measured. Takes about 25 minutes on a 2-core machine (the largest points run
# a few minutes each); the wall times depend on the machine and its load, so the fit is
# rough by nature. point_cost_fit.py alone refits the committed CSVs.
# usage: scripts/bench/point_cost.sh            (then copy the constants into point_cost.c)
. "$(dirname "$0")/common.sh"
bench_build
OUT="$ROOT/scripts/bench/point_cost"
nice "$COLLSIM" run "$ROOT/scripts/bench/point_cost.lua" -o "$OUT" --no-plot --overwrite
python3 "$ROOT/scripts/bench/point_cost_fit.py" "$OUT"
