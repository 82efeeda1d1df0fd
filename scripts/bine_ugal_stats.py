#!/usr/bin/env python3
"""bine_ugal_stats.py - the "packet model, UGAL" tables of results/bine/README.md: Bine on
the LUMI preset under the flow model (bine_lumi/results.csv, scenarios/bine_lumi.lua) and
under the packet model with UGAL-L routing (bine_lumi_ugal/results.csv,
scenarios/bine_lumi_ugal.lua), on the points both hold.

    python3 scripts/bine_ugal_stats.py [--packet NAME] [RESULTS_DIR] [SECTION...]
                                                     (default results/bine, all sections)

--packet NAME: the packet-model directory under RESULTS_DIR (default bine_lumi_ugal; e.g.
bine_lumi_ugal_buffer, scenarios/bine_lumi_ugal_buffer.lua: UGAL with 1 MiB buffers).

Sections: best (per collective, the best Bine algorithm against the best classic one, under
each model, and how many configurations change verdict), pairs (Bine against its binomial
counterpart, the paper's Table 3), grid (per collective and configuration, the best-vs-best
speedup under flow and under UGAL), speed (per algorithm, packet UGAL time / flow time).
Without SECTION, all of them. Standard library only.

A configuration is (collective, nodes, vector size). Only (configuration, algorithm) rows
that are ok under both models count ("the same points"): an algorithm that failed under one
model (bine_lumi's linear alltoall on 512 / 1,024 nodes) is left out under both.
Speedup of Bine = t_classic / t_Bine (> 1: Bine faster); a win is > 1.01, a loss < 0.99,
a tie in between (the paper's "within 1 %"). Geometric means over configurations.
"""
import csv
import math
import os
import sys
from collections import defaultdict

FLOW, UGAL = "bine_lumi", "bine_lumi_ugal"
BINE = {"bine", "bine_latency", "bine_bandwidth", "bine_scatter_allgather", "bine_rs_gather"}
ORDER = ["allreduce", "allgather", "reduce_scatter", "alltoall", "bcast", "reduce", "gather",
         "scatter"]
# the paper's Table 3: Bine algorithm(s) vs the binomial counterpart(s) (claims_spec/bine.py's
# TABLE3 too)
PAIRS = {"allreduce": ({"bine_latency", "bine_bandwidth"},
                       {"recursive_doubling", "rabenseifner order=nearest"}),
         "allgather": ({"bine"}, {"recursive_doubling"}),
         "reduce_scatter": ({"bine"}, {"recursive_halving"}),
         "alltoall": ({"bine"}, {"bruck"}),
         "bcast": ({"bine", "bine_scatter_allgather"}, {"binomial_halving", "scatter_allgather"}),
         "reduce": ({"bine", "bine_rs_gather"}, {"binomial", "rabenseifner"}),
         "gather": ({"bine"}, {"binomial"}),
         "scatter": ({"bine"}, {"binomial"})}


def read_times(path):
    """{(collective, nodes, size): {algorithm name: time_s}} of the ok rows of a CSV."""
    out = defaultdict(dict)
    if not os.path.exists(path):
        return out
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok" or not r["time_s"]:
                continue
            name = r["algorithm"] + (" " + r["params"] if r["params"] else "")
            key = (r["collective"], int(r["ranks"]), int(r["size_bytes"]))
            out[key][name] = float(r["time_s"])
    return out


def common(d, packet=UGAL):
    """{config: ({name: flow time}, {name: packet time})} over the names ok in both."""
    flow = read_times(os.path.join(d, FLOW, "results.csv"))
    ugal = read_times(os.path.join(d, packet, "results.csv"))
    out = {}
    for key in sorted(set(flow) & set(ugal)):
        names = set(flow[key]) & set(ugal[key])
        if names:
            out[key] = ({n: flow[key][n] for n in names}, {n: ugal[key][n] for n in names})
    return out


def speedup(times, bine=None, base=None):
    """t_best classic / t_best Bine (None without either side); bine / base restrict the
    names (default: the Bine algorithms against every other)."""
    b = [t for n, t in times.items() if (n in bine if bine else n.split()[0] in BINE)]
    c = [t for n, t in times.items() if (n in base if base else n.split()[0] not in BINE)]
    return min(c) / min(b) if b and c else None


def best_classic(times):
    return min((t, n) for n, t in times.items() if n.split()[0] not in BINE)[1]


def verdict(x):
    return "win" if x > 1.01 else "loss" if x < 0.99 else "tie"


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def speedups(cells, coll, bine=None, base=None):
    """{(nodes, size): (flow speedup, ugal speedup)} of one collective."""
    out = {}
    for (c, p, s), (f, u) in cells.items():
        if c == coll:
            sf, su = speedup(f, bine, base), speedup(u, bine, base)
            if sf is not None and su is not None:
                out[(p, s)] = (sf, su)
    return out


def summary(sp):
    """'wins / losses (geomean, max)' of a list of speedups, as percentages of configs."""
    n = len(sp)
    win = 100.0 * sum(verdict(x) == "win" for x in sp) / n
    loss = 100.0 * sum(verdict(x) == "loss" for x in sp) / n
    return "%.0f / %.0f (%.2fx, %.2fx)" % (win, loss, geomean(sp), max(sp))


def collectives(cells):
    present = {c for c, _, _ in cells}
    return [c for c in ORDER if c in present]


def section_best(cells):
    print("| collective | configs | flow: Bine wins / losses % (geomean, max speedup) | "
          "packet UGAL: wins / losses % (geomean, max speedup) | verdict changed | "
          "best classic changed |")
    print("|---|---|---|---|---|---|")
    for coll in collectives(cells):
        sp = speedups(cells, coll)
        if not sp:
            continue
        f = [x for x, _ in sp.values()]
        u = [y for _, y in sp.values()]
        changed = sum(verdict(x) != verdict(y) for x, y in sp.values())
        moved = sum(best_classic(cells[(coll, p, s)][0]) != best_classic(cells[(coll, p, s)][1])
                    for p, s in sp)
        print("| %s | %d | %s | %s | %d | %d |" % (coll, len(sp), summary(f), summary(u),
                                                  changed, moved))


def section_pairs(cells):
    print("| collective | Bine | binomial counterpart | configs | flow: wins / losses % "
          "(geomean, max speedup) | packet UGAL: wins / losses % (geomean, max speedup) |")
    print("|---|---|---|---|---|---|")
    for coll in collectives(cells):
        bine, base = PAIRS[coll]
        sp = speedups(cells, coll, bine, base)
        if not sp:
            continue
        print("| %s | %s | %s | %d | %s | %s |" % (
            coll, "/".join(sorted(bine)), "/".join(sorted(base)), len(sp),
            summary([x for x, _ in sp.values()]), summary([y for _, y in sp.values()])))


def size_text(b):
    for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d %s" % (b // n, unit)
    return "%d B" % b


def section_grid(cells):
    print("Best Bine vs best classic, speedup under flow / under packet UGAL; "
          "`*` marks a changed verdict (win, tie, loss).")
    for coll in collectives(cells):
        sp = speedups(cells, coll)
        if not sp:
            continue
        nodes = sorted({p for p, _ in sp})
        sizes = sorted({s for _, s in sp})
        print("\n%s\n" % coll)
        print("| nodes | " + " | ".join(size_text(s) for s in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for p in nodes:
            row = []
            for s in sizes:
                if (p, s) not in sp:
                    row.append("")
                    continue
                x, y = sp[(p, s)]
                row.append("%.2f / %.2f%s" % (x, y, "*" if verdict(x) != verdict(y) else ""))
            print("| %d | %s |" % (p, " | ".join(row)))


def section_speed(cells):
    print("| collective | algorithm | configs | UGAL / flow time: geomean | min | max |")
    print("|---|---|---|---|---|---|")
    for coll in collectives(cells):
        ratios = defaultdict(list)
        for (c, _, _), (f, u) in cells.items():
            if c == coll:
                for n in f:
                    ratios[n].append(u[n] / f[n])
        for n in sorted(ratios, key=lambda n: (n.split()[0] in BINE, n)):
            r = ratios[n]
            print("| %s | %s | %d | %.2f | %.2f | %.2f |" % (coll, n, len(r), geomean(r),
                                                            min(r), max(r)))


SECTIONS = {"best": section_best, "pairs": section_pairs, "grid": section_grid,
            "speed": section_speed}


def main(argv):
    args, packet = argv[1:], UGAL
    if args[:1] == ["--packet"]:
        if len(args) < 2:
            sys.stderr.write("bine_ugal_stats.py: --packet needs a directory name\n")
            return 2
        packet, args = args[1], args[2:]
    d = args[0] if args else "results/bine"
    which = args[1:] or list(SECTIONS)
    for w in which:
        if w not in SECTIONS:
            sys.stderr.write("bine_ugal_stats.py: unknown section '%s' (allowed: %s)\n"
                             % (w, ", ".join(SECTIONS)))
            return 2
    cells = common(d, packet)
    if not cells:
        sys.stderr.write("bine_ugal_stats.py: no point is ok in both %s and %s under %s\n"
                         % (FLOW, packet, d))
        return 1
    for i, w in enumerate(which):
        if i:
            print()
        SECTIONS[w](cells)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
