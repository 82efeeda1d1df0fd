#!/usr/bin/env python3
"""swing_stats.py - the Swing paper's comparisons from a results.csv of scenarios/swing_*.lua.

For every topology (and link bandwidth) it prints, per size, the goodput (n / T, Gb/s) of
Swing-B, Swing-L and the best of each baseline, the best baseline, and Swing's speedup
over it and over recursive doubling. Usage:
    python3 scripts/swing_stats.py results/swing/swing_tori/results.csv
Only rows with status ok count; the algorithm name gets "+multi" for ports=multi.

    python3 scripts/swing_stats.py --summary CSV [CSV ...]
        one Markdown row per topology (what results/swing/README.md embeds): Swing's
        median / largest gain over the paper's baselines (single-port torus RD-L / RD-B,
        multiport bucket, Hamiltonian rings) and over collsim's whole set (4-port
        mirrored RD, plain RD and ring included), the size up to which Swing wins, the
        first size where bucket is ahead, Swing-B's peak goodput.
"""
import csv
import statistics
import sys
from collections import defaultdict

SWING = ("swing_latency", "swing_bandwidth")
RD = ("recursive_doubling", "rabenseifner", "recursive_doubling_torus", "rabenseifner_torus")


def label(row):
    return row["algorithm"] + ("+multi" if "ports=multi" in row["params"] else "")


def fmt_size(n):
    for unit, f in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f:
            return "%d %s" % (n // f, unit)
    return "%d B" % n


def main(path):
    times = defaultdict(dict)  # (topology, size) -> label -> seconds
    for row in csv.DictReader(open(path)):
        if row["status"] == "ok":
            times[(row["topology"], int(row["size_bytes"]))][label(row)] = float(row["time_s"])
    last = None
    gains = defaultdict(list)  # topology -> Swing / best baseline per size
    for (topo, n), t in sorted(times.items()):
        if topo != last:
            if last in gains:
                print("median Swing / best baseline: %.2f" % statistics.median(gains[last]))
            print("\n== %s\n%-9s %9s %9s  %-28s %9s %7s %7s" % (
                topo, "size", "SwingB", "SwingL", "best baseline", "Gb/s", "Sw/best", "Sw/RD"))
            last = topo
        swings = [(t[a], a) for a in SWING if a in t]
        bases = [(v, a) for a, v in t.items() if a not in SWING]
        if not swings or not bases:  # a partial run: this size is not complete
            continue
        swing, base = min(swings), min(bases)
        gains[topo].append(base[0] / swing[0])
        rd = min((t[a] for a in RD if a in t), default=None)
        gbps = lambda a: 8 * n / t[a] / 1e9 if a in t else float("nan")
        print("%-9s %9.1f %9.1f  %-28s %9.1f %7.2f %7s" % (
            fmt_size(n), gbps("swing_bandwidth"), gbps("swing_latency"), base[1],
            8 * n / base[0] / 1e9, base[0] / swing[0],
            "%.2f" % (rd / swing[0]) if rd else "-"))
    if last in gains:
        print("median Swing / best baseline: %.2f" % statistics.median(gains[last]))


PAPER_BASES = {"recursive_doubling_torus", "rabenseifner_torus", "bucket", "hamiltonian_rings"}


def summary_rows(path):
    times = defaultdict(dict)
    for row in csv.DictReader(open(path)):
        if row.get("status", "ok") == "ok":
            times[row["topology"]].setdefault(int(row["size_bytes"]), {})[label(row)] = \
                float(row["time_s"])
    for topo, by_size in sorted(times.items()):
        gp, ga, bucket, peak = [], [], None, (0, 0)
        for n, t in sorted(by_size.items()):
            sw = [t[a] for a in SWING if a in t]
            if not sw:
                continue
            p = [v for a, v in t.items() if a in PAPER_BASES]
            a = [v for a, v in t.items() if a not in SWING]
            if p:
                gp.append((min(p) / min(sw), n))
            if a:
                ga.append((min(a) / min(sw), n))
            if bucket is None and "bucket" in t and t["bucket"] < min(sw):
                bucket = n
            if "swing_bandwidth" in t:
                peak = max(peak, (8 * n / t["swing_bandwidth"] / 1e9, n))
        upto = None
        for g, n in gp:
            if g < 1.0:
                break
            upto = n
        yield (topo.replace("platforms/", ""), len(gp), statistics.median(g for g, _ in gp),
               max(gp), fmt_size(upto) if upto else "-", fmt_size(bucket) if bucket else "never",
               statistics.median(g for g, _ in ga), max(ga), peak)


def summary(paths):
    print("| topology | sizes | median gain (paper baselines) | largest gain | Swing best up to |"
          " bucket ahead from | median gain (collsim set) | largest gain (collsim set) |"
          " Swing-B peak Gb/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        for topo, k, med, mx, upto, buck, meda, mxa, peak in summary_rows(path):
            print("| %s | %d | %.2fx | %.2fx (%s) | %s | %s | %.2fx | %.2fx (%s) | %.0f (%s) |" % (
                topo, k, med, mx[0], fmt_size(mx[1]), upto, buck, meda, mxa[0],
                fmt_size(mxa[1]), peak[0], fmt_size(peak[1])))


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    elif len(sys.argv) == 2:
        main(sys.argv[1])
    else:
        sys.exit(__doc__)
