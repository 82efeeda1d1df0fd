#!/usr/bin/env python3
"""analytic_vs_flow_table.py - the analytic model's error against the flow model (cm02),
from the rows of `collsim run scenarios/analytic_vs_flow.lua` (results.csv): every point
runs under both models; the error of a point is analytic time_s / cm02 time_s - 1.

    python3 scripts/analytic_vs_flow_table.py RESULTS.CSV            the tables (markdown)
    python3 scripts/analytic_vs_flow_table.py --scale SCALE.CSV      the speed table of
                                                                    scripts/bench/analytic_scale.sh

A point is "exact" when |error| < 1e-6 (the flow model runs with SimGrid's precision
1e-9). Standard library only.
"""
import csv
import statistics
import sys

EXACT = 1e-6


def family(topology):
    return topology.split()[0]


def load(path):
    """{(family, collective, algorithm, ranks): {model: time_s}} and the topologies."""
    points, topo = {}, {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                sys.exit(f"{path}: point {r['point']} has status {r['status']}: {r['error']}")
            key = (family(r["topology"]), r["collective"], r["algorithm"], int(r["ranks"]))
            points.setdefault(key, {})[r["model"]] = float(r["time_s"])
            topo[(key[0], int(r["ranks"]))] = r["topology"]
    errors = {}
    for key, m in points.items():
        if "analytic" in m and "cm02" in m:
            errors[key] = m["analytic"] / m["cm02"] - 1
    return errors, topo


def fmt(e):
    if abs(e) < EXACT:
        return "exact"
    return f"{100 * e:+.1f} %"


def main_table(errors):
    fams = sorted({k[0] for k in errors}, key=lambda f: [k[0] for k in errors].index(f))
    algs = []
    for k in errors:
        if (k[1], k[2]) not in algs:
            algs.append((k[1], k[2]))
    print("| collective algorithm | family | P = 64 | P = 256 / 512 | P = 4096 |")
    print("|---|---|---|---|---|")
    for coll, alg in algs:
        for fam in fams:
            cells = []
            for ps in ((64,), (256, 512), (4096,)):
                e = [errors[(fam, coll, alg, p)] for p in ps if (fam, coll, alg, p) in errors]
                cells.append(fmt(e[0]) if e else "-")
            print(f"| {coll} {alg} | {fam} | " + " | ".join(cells) + " |")


def summary(errors, label, keyfn, wherefn):
    groups = {}
    for k, e in errors.items():
        groups.setdefault(keyfn(k), []).append((e, k))
    print(f"| {label} | points | exact | median abs error | largest abs error (where) |")
    print("|---|---|---|---|---|")
    for g, items in groups.items():
        es = [abs(e) for e, _ in items]
        worst_e, worst_k = max(items, key=lambda x: abs(x[0]))
        where = f" ({wherefn(worst_k)})" if abs(worst_e) >= EXACT else ""
        exact = sum(1 for e in es if e < EXACT)
        print(f"| {g} | {len(items)} | {exact} | {100 * statistics.median(es):.1f} % | "
              f"{fmt(worst_e)}{where} |")


def totals(errors):
    es = [abs(e) for e in errors.values()]
    exact = sum(1 for e in es if e < EXACT)
    below = [e for e in errors.values() if e < -EXACT]
    within5 = sum(1 for e in es if e <= 0.05)
    print(f"{len(es)} points: {exact} exact, {within5} within 5 %, {len(below)} where the "
          f"analytic time is below the flow time (down to {fmt(min(below + [0]))}); median "
          f"abs error {100 * statistics.median(es):.1f} %, largest {100 * max(es):.1f} %.")


def scale_table(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    print("| P | wall s | CPU s | peak RSS MiB | load average | steps | estimated time_s |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {int(r['ranks']):,} | {float(r['wall_s']):.2f} | {float(r['cpu_s']):.2f} | "
              f"{float(r['peak_rss_mib']):.0f} | {r['load1']} | {r['steps']} | "
              f"{float(r['time_s']):.6g} |")


def main(argv):
    if len(argv) == 3 and argv[1] == "--scale":
        scale_table(argv[2])
        return
    if len(argv) != 2:
        sys.exit(__doc__)
    errors, topo = load(argv[1])
    totals(errors)
    print()
    summary(errors, "collective algorithm", lambda k: f"{k[1]} {k[2]}",
            lambda k: f"{k[0]}, P = {k[3]}")
    print()
    summary(errors, "family", lambda k: k[0], lambda k: f"{k[1]} {k[2]}, P = {k[3]}")
    print()
    main_table(errors)
    print()
    print("Instances (P = 256 runs on the 512-rank instance):")
    print()
    print("| family | P = 64 | P = 512 | P = 4096 |")
    print("|---|---|---|---|")
    fams = []
    for (fam, _p) in topo:
        if fam not in fams:
            fams.append(fam)
    for fam in fams:
        cells = [f"`{topo[(fam, p)]}`" if (fam, p) in topo else "-" for p in (64, 512, 4096)]
        print(f"| {fam} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv)
