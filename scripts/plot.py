#!/usr/bin/env python3
"""plot.py - plots from a collsim results.csv (docs/results.md describes the columns).

    python3 scripts/plot.py results/quickstart/results.csv [-o OUTDIR] [--baseline A,B]
                            [--kind all|goodput|global|heatmap]
    python3 scripts/plot.py LINKS.csv --kind linkload [-o OUTDIR]   # collsim draw --link-csv

--kind all (default) draws goodput, global and heatmap. For every (topology, collective,
ranks, model) group of rows with status "ok":
  goodput-<group>.png       goodput (size / time, algbw_Bps) vs vector size, one line
                            per algorithm variant, log-log
  global-bytes-<group>.png  bytes crossing global (inter-group) links vs vector size,
                            one line per variant, log-log (only when some are non-zero)
and for every (topology family, collective, model):
  speedup-<group>.png       heatmap over vector size x ranks: in each cell the best
                            variant's speedup over the baseline (the fastest of the
                            --baseline algorithms, default "ring"), annotated with the
                            speedup and the winner, as in the Bine / PICO papers
--kind linkload draws linkload.png from a `collsim draw --link-csv` file: the histogram of
bytes per link direction, one panel per link class (scripts/plot_linkload.py).
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


def heatmap_cells(rows, baseline):
    """{(ranks, size): (speedup, winner)}: the best variant over the fastest baseline."""
    best, base = {}, {}
    for r in rows:
        t = number(r.get("time_s", ""))
        if t is None or t <= 0:
            continue
        cell = (int(r["ranks"]), int(r["size_bytes"]))
        if cell not in best or t < best[cell][0]:
            best[cell] = (t, variant(r))
        if r["algorithm"] in baseline and (cell not in base or t < base[cell]):
            base[cell] = t
    return {c: (base[c] / best[c][0], best[c][1]) for c in best if c in base}


def draw_heatmap(key, cells, baseline, path):
    ranks = sorted({c[0] for c in cells})
    sizes = sorted({c[1] for c in cells})
    grid = [[cells.get((p, n), (float("nan"), ""))[0] for n in sizes] for p in ranks]
    fig, ax = plt.subplots(figsize=(1.1 * len(sizes) + 3, 0.7 * len(ranks) + 2.5))
    top = max(max(v for v in row if v == v) for row in grid)
    im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower", vmin=1.0,
                   vmax=max(top, 1.01))
    for i, p in enumerate(ranks):
        for j, n in enumerate(sizes):
            if (p, n) in cells:
                speedup, winner = cells[(p, n)]
                ax.text(j, i, "%.2fx\n%s" % (speedup, winner.replace(" ", "\n")),
                        ha="center", va="center", fontsize=6,
                        color="white" if speedup < (1 + top) / 2 else "black")
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([size_label(n) for n in sizes], rotation=45)
    ax.set_yticks(range(len(ranks)))
    ax.set_yticklabels([str(p) for p in ranks])
    ax.set_xlabel("vector size per rank (bytes)")
    ax.set_ylabel("ranks P")
    fig.colorbar(im, ax=ax, label="speedup of the best algorithm over %s (x)" %
                 "/".join(baseline))
    ax.set_title("Best algorithm vs baseline %s\n%s, model %s, %s" %
                 ("/".join(baseline), key[1], key[2], key[0]), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def heatmaps(rows, baseline, outdir):
    groups = defaultdict(list)
    for r in rows:
        groups[(r["topology"].split()[0], r["collective"], r["model"])].append(r)
    written = []
    for key, grows in sorted(groups.items()):
        names = baseline or (["ring"] if any(r["algorithm"] == "ring" for r in grows) else [])
        cells = heatmap_cells(grows, set(names))
        if cells:
            name = re.sub(r"[^A-Za-z0-9=._-]+", "_", "-".join(key[1:] + key[:1]))
            written.append(draw_heatmap(key, cells, names,
                                        os.path.join(outdir, "speedup-%s.png" % name)))
    return written


def linkload(path, outdir):
    """The link-load histogram per class of a `collsim draw --link-csv` file."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import plot_linkload
    out = os.path.join(outdir, "linkload.png")
    plot_linkload.plot(plot_linkload.read_loads(path, "all"), out, "all", 20)
    return [out]


def main(argv):
    ap = argparse.ArgumentParser(description="plots from a collsim results.csv")
    ap.add_argument("csv")
    ap.add_argument("-o", "--outdir", help="where the PNGs go (default: next to the CSV)")
    ap.add_argument("--baseline", default="",
                    help="algorithm names separated by ',' (used by the speedup plot)")
    ap.add_argument("--kind", default="all",
                    choices=["all", "goodput", "global", "heatmap", "linkload"],
                    help="which plots (default all but linkload, which reads a link CSV)")
    args = ap.parse_args(argv)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.csv))
    if args.kind == "linkload":
        for path in linkload(args.csv, outdir):
            print("plot.py: wrote %s" % path, file=sys.stderr)
        return 0
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
        goodput = series(grows, "algbw_Bps") if args.kind in ("all", "goodput") else None
        if goodput:
            written.append(draw(key, goodput, "goodput: size / time (GB/s, 1e9 B/s)",
                                "Goodput vs vector size",
                                os.path.join(outdir, "goodput-%s.png" % slug(key)), 1e9))
        glob = series(grows, "bytes_global") if args.kind in ("all", "global") else None
        if glob:
            written.append(draw(key, glob, "bytes on global links (MiB, all links summed)",
                                "Global-link traffic vs vector size",
                                os.path.join(outdir, "global-bytes-%s.png" % slug(key)),
                                1 << 20))
    if args.kind in ("all", "heatmap"):
        written += heatmaps(rows, [b for b in args.baseline.split(",") if b], outdir)
    for path in written:
        print("plot.py: wrote %s" % path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
