#!/usr/bin/env python3
"""run_summary.py - the "what was run" table of a results README, from the run directories.

    python3 scripts/run_summary.py DIR [DIR ...]

One Markdown row per directory: the rows of results.csv by status, the manifest's state,
and the point wall times of timings.csv (their sum and the longest point; for a directory
of `collsim sim` rows without timings.csv, the sim_wall_s column). The commands that made
each directory stay in the README's text; wall times are measurements of a shared
machine, so they are printed from the data, never typed. Standard library only.
"""
import csv
import json
import os
import sys


def fmt_s(s):
    if s >= 3600:
        return "%.1f h" % (s / 3600)
    if s >= 60:
        return "%.1f min" % (s / 60)
    return "%.1f s" % s


def summary(d):
    res = os.path.join(d, "results.csv")
    if not os.path.exists(res):
        raise SystemExit("run_summary.py: %s has no results.csv" % d)
    with open(res, newline="") as f:
        rows = list(csv.DictReader(f))
    status = {}
    for r in rows:
        s = r.get("status", "ok")
        status[s] = status.get(s, 0) + 1
    walls = []
    tpath = os.path.join(d, "timings.csv")
    if os.path.exists(tpath):
        with open(tpath, newline="") as f:
            walls = [float(r["wall_s"]) for r in csv.DictReader(f) if r.get("wall_s")]
    else:
        walls = [float(r["sim_wall_s"]) for r in rows if r.get("sim_wall_s")]
    state = ""
    mpath = os.path.join(d, "manifest.json")
    if os.path.exists(mpath):
        with open(mpath) as f:
            state = json.load(f).get("state", "")
    st = ", ".join("%d %s" % (n, s) for s, n in sorted(status.items(), key=lambda x: x[0] != "ok"))
    wall = "%s (longest %s)" % (fmt_s(sum(walls)), fmt_s(max(walls))) if walls else ""
    return "| `%s/` | %d | %s | %s | %s |" % (os.path.basename(d.rstrip("/")), len(rows),
                                              st, state, wall)


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    print("| directory | rows | status | manifest | point wall time, sum (longest) |")
    print("|---|---|---|---|---|")
    for d in argv[1:]:
        print(summary(d))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
