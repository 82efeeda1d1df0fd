#!/usr/bin/env python3
"""trunk_fix_diff.py - what the packet model's folded-trunk fix changed in a rerun result.

The fix (commit 9e7ce5c, issue 25): a folded trunk of m parallel links got the buffer of
one link per virtual channel; now it gets m (credits = buffer x m). A result made with the
packet model on a preset with folded trunks (LUMI, Polaris) was rerun; its rows from
before the fix are kept beside it as before_trunk_fix.csv (the columns below, copied from
`git show f53a7cc:<dir>/results.csv`).

    python3 scripts/trunk_fix_diff.py extract OLD_RESULTS.csv > DIR/before_trunk_fix.csv
    python3 scripts/trunk_fix_diff.py DIR [DIR ...]
    python3 scripts/trunk_fix_diff.py crossing RESULTS.csv [...]

The second form prints one Markdown line per directory: how many packet rows are ok before
and after, the new / old ratio of time_s over the rows ok in both (median, min, max, and
how many changed by more than 1 %), per preset; whether the schedule's columns (host and
inter-group bytes, messages), which the fix must not change, are identical; and in how
many rows the routes' link bytes (local, global) moved (adaptive and UGAL routing choose
paths by queue occupancy, which the fix changes; minimal routing keeps them). Rows are matched
by their point id. Exit 1 on a missing file or a row without an id.

`crossing` prints, per results CSV and preset, how many packet rows put bytes on global
links (bytes_global > 0): the only folded links of the LUMI and Polaris presets are their
global trunks (`trunk: 1`; nic_ports widens a host link without folding it), so a row
with none cannot have changed with the fix. Standard library only.
"""
import csv
import os
import statistics
import sys

KEEP = ["id", "status", "topology", "model", "time_s", "bytes_host", "bytes_local",
        "bytes_global", "bytes_intergroup_msgs", "messages"]
SCHEDULE = ["bytes_host", "bytes_intergroup_msgs", "messages"]
ROUTES = ["bytes_local", "bytes_global"]


def die(msg):
    sys.stderr.write("trunk_fix_diff.py: %s\n" % msg)
    sys.exit(1)


def load(path):
    if not os.path.exists(path):
        die("%s: no such file" % path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for i, r in enumerate(rows):
        if not r.get("id"):
            die("%s:%d: row without an id" % (path, i + 2))
        out[r["id"]] = r
    return out


def extract(path):
    rows = load(path)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(KEEP)
    for r in rows.values():
        if r.get("model", "").startswith("packet"):
            w.writerow([r.get(k, "") for k in KEEP])


def preset(r):
    return os.path.splitext(os.path.basename(r["topology"].split()[0]))[0]


def line(d):
    old = load(os.path.join(d, "before_trunk_fix.csv"))
    new = load(os.path.join(d, "results.csv"))
    both = [i for i in old if i in new and old[i]["status"] == "ok"
            and new[i]["status"] == "ok"]
    if not both:
        return "`%s/`: no row ok before and after the fix" % os.path.basename(d)
    parts = []
    for p in sorted({preset(new[i]) for i in both}):
        ids = [i for i in both if preset(new[i]) == p]
        rs = [float(new[i]["time_s"]) / float(old[i]["time_s"]) for i in ids]
        moved = sum(abs(x - 1) > 0.01 for x in rs)
        parts.append("%s: %d rows, new / old time median %.3f (min %.3f, max %.3f), %d "
                     "changed by more than 1 %%" % (p, len(ids), statistics.median(rs),
                                                   min(rs), max(rs), moved))
    diff = sum(any(old[i][k] != new[i][k] for k in SCHEDULE) for i in both)
    moved = sum(any(old[i][k] != new[i][k] for k in ROUTES) for i in both)
    traffic = ("schedule columns (%s) %s; link bytes (%s) moved in %d rows"
               % (", ".join(SCHEDULE), "identical" if diff == 0 else
                  "DIFFER in %d rows" % diff, ", ".join(ROUTES), moved))
    n_old = sum(r["status"] == "ok" for r in old.values())
    n_new = sum(r["status"] == "ok" and i in old for i, r in new.items())
    return ("`%s/`: %d packet rows ok before, %d after; %s; %s."
            % (os.path.basename(d.rstrip("/")), n_old, n_new, "; ".join(parts), traffic))


def crossing(path):
    rows = load(path).values()
    out = []
    for p in sorted({preset(r) for r in rows}):
        sel = [r for r in rows if preset(r) == p and r.get("model", "").startswith("packet")]
        g = sum(float(r["bytes_global"] or 0) > 0 for r in sel)
        out.append("%s: %d packet rows, %d with bytes on global links" % (p, len(sel), g))
    return "`%s`: %s." % (os.path.basename(os.path.dirname(path)), "; ".join(out))


def main(argv):
    if len(argv) == 2 and argv[0] == "extract":
        extract(argv[1])
        return
    if len(argv) >= 2 and argv[0] == "crossing":
        for path in argv[1:]:
            print("- " + crossing(path))
        return
    if not argv or argv[0].startswith("-"):
        die("usage: trunk_fix_diff.py DIR [DIR ...] | extract OLD_RESULTS.csv | "
            "crossing RESULTS.csv [...]")
    for d in argv:
        print("- " + line(d))


if __name__ == "__main__":
    main(sys.argv[1:])
