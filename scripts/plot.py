#!/usr/bin/env python3
"""plot.py - plots from a collsim results.csv (docs/results.md describes the columns).

    python3 scripts/plot.py results/quickstart/results.csv [-o OUTDIR] [--baseline A,B]

Draws, for every (topology, collective, ranks, model) group of rows with status "ok":
  goodput-<group>.png       goodput (size / time, algbw_Bps) vs vector size, one line
                            per algorithm variant, log-log
  global-bytes-<group>.png  bytes crossing global (inter-group) links vs vector size,
                            one line per variant, log-log (only when some are non-zero)
Only the standard library and matplotlib (Agg backend, no display needed).
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

UNITS = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"), (1, "B")]


def size_label(n):
    """32 -> '32B', 1048576 -> '1MiB' (the units of collsim's sizes)."""
    for factor, unit in UNITS:
        if n >= factor and n % factor == 0:
            return "%d%s" % (n // factor, unit)
    return "%dB" % n


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def read_rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("status") == "ok"]


def variant(row):
    return row["algorithm"] + (" " + row["params"] if row["params"] else "")


def group_key(row):
    return (row["topology"], row["collective"], row["ranks"], row["model"])


def slug(key):
    text = "-".join([key[1], "P" + key[2], key[3], key[0]])
    return re.sub(r"[^A-Za-z0-9=._-]+", "_", text)[:120]


def series(rows, column):
    """variant -> sorted [(size, value)] of the rows where the column has a value > 0."""
    out = defaultdict(list)
    for r in rows:
        v = number(r.get(column, ""))
        if v is not None and v > 0:
            out[variant(r)].append((int(r["size_bytes"]), v))
    return {k: sorted(v) for k, v in sorted(out.items())}


def draw(key, data, ylabel, title, path, yscale):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    markers = "os^vD<>phx*+"
    for i, (name, points) in enumerate(data.items()):
        xs = [p[0] for p in points]
        ys = [p[1] / yscale for p in points]
        ax.plot(xs, ys, marker=markers[i % len(markers)], linewidth=1.4, markersize=4,
                label=name)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    sizes = sorted({p[0] for pts in data.values() for p in pts})
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(s) for s in sizes], rotation=45)
    ax.set_xlabel("vector size per rank (bytes)")
    ax.set_ylabel(ylabel)
    ax.set_title("%s\n%s, P=%s, model %s" % (title, key[1], key[2], key[3]) +
                 "\n" + key[0], fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main(argv):
    ap = argparse.ArgumentParser(description="plots from a collsim results.csv")
    ap.add_argument("csv")
    ap.add_argument("-o", "--outdir", help="where the PNGs go (default: next to the CSV)")
    ap.add_argument("--baseline", default="",
                    help="algorithm names separated by ',' (used by the speedup plot)")
    args = ap.parse_args(argv)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.csv))
    rows = read_rows(args.csv)
    if not rows:
        print("plot.py: no rows with status ok in %s: nothing to draw" % args.csv,
              file=sys.stderr)
        return 0
    groups = defaultdict(list)
    for r in rows:
        groups[group_key(r)].append(r)
    written = []
    for key, grows in sorted(groups.items()):
        goodput = series(grows, "algbw_Bps")
        if goodput:
            written.append(draw(key, goodput, "goodput: size / time (GB/s, 1e9 B/s)",
                                "Goodput vs vector size",
                                os.path.join(outdir, "goodput-%s.png" % slug(key)), 1e9))
        glob = series(grows, "bytes_global")
        if glob:
            written.append(draw(key, glob, "bytes on global links (MiB, all links summed)",
                                "Global-link traffic vs vector size",
                                os.path.join(outdir, "global-bytes-%s.png" % slug(key)),
                                1 << 20))
    for path in written:
        print("plot.py: wrote %s" % path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
