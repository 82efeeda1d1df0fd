#!/usr/bin/python3
"""plot.py - plots from a collsim results.csv (docs/results.md describes the columns).

    scripts/plot.py results/quickstart/results.csv [-o OUTDIR] [--baseline A,B]
                            [--kind all|goodput|global|heatmap]
    scripts/plot.py LINKS.csv --kind linkload [-o OUTDIR]   # collsim draw --link-csv

--kind all (default) draws goodput, time, busbw, global and heatmap. For every (topology,
collective, ranks, model) group of rows with status "ok":
  goodput-<group>.png       goodput (size / time, algbw_Bps) vs vector size, one line
                            per algorithm variant, log-log
  time-<group>.png          completion time (time_s) vs vector size, log-log
  busbw-<group>.png         bus bandwidth (busbw_Bps, NCCL-tests) vs vector size
  global-bytes-<group>.png  bytes crossing global (inter-group) links vs vector size,
                            one line per variant, log-log (only when some are non-zero)
Titles carry the full topology parameters; rows whose status is not "ok" are left out,
counted in a note on stderr and in the picture of their group.
And for every (topology family, collective, model):
  speedup-<group>.png       heatmap over vector size x ranks: in each cell the best
                            variant's speedup over the baseline (the fastest of the
                            --baseline algorithms, default "ring"), annotated with the
                            speedup and the winner, as in the Bine / PICO papers
With several jobs per point (a `job` column, collsim.sweep{jobs = ...}), the job rows are
drawn apart (--kind all or slowdown), scripts/plot_jobs.py:
  slowdown-<job>-<model>-<hash>.png  a collective job's slowdown (time with the other jobs
                            / time alone) vs its vector size, one line per algorithm, per
                            group of points whose other jobs are the same
and the other plots take the rows of points without jobs only.
--kind linkload draws linkload.png from a `collsim draw --link-csv` file: the histogram of
bytes per link direction, one panel per link class (scripts/plot_linkload.py).
Only the standard library and matplotlib (Agg backend, no display needed); run as
scripts/plot.py it uses /usr/bin/python3, where Debian's python3-matplotlib installs. Under
a Python without matplotlib it says so and how to install it, exit 2.
Bad input exits 2 with a message: a CSV that cannot be read or is no results.csv, a
--baseline of which no name is an algorithm with results in the CSV (the message lists
them; names without results beside others that have some only get a note).
"""
import argparse
import csv
import os
import re
import sys
from collections import defaultdict

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: E402
except ImportError as missing:
    print("plot.py: this Python (%s) lacks the package '%s' (matplotlib is needed): "
             "install it with `apt-get install python3-matplotlib` (Debian, for "
             "/usr/bin/python3, which `scripts/plot.py` runs) or `%s -m pip install "
             "matplotlib`" % (sys.executable, missing.name or "matplotlib",
                              sys.executable or "python3"), file=sys.stderr)
    sys.exit(2)

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


class PlotError(Exception):
    """Bad input (a missing file, an unknown name): printed as "plot.py: ...", exit 2."""


def read_all_rows(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if "status" not in (reader.fieldnames or []):
                raise PlotError("%s is not a collsim results.csv (no status column; "
                                "docs/results.md)" % path)
            return list(reader)
    except OSError as e:
        raise PlotError("cannot read %s: %s" % (path, e.strerror or e))


def read_rows(path):
    return [r for r in read_all_rows(path) if r.get("status") == "ok"]


def not_ok_note(rows):
    """'3 of 24 points not ok (error 2, timeout 1): not drawn', or '' when all are ok."""
    bad = defaultdict(int)
    for r in rows:
        if r.get("status") != "ok":
            bad[r.get("status") or "?"] += 1
    if not bad:
        return ""
    kinds = ", ".join("%s %d" % kv for kv in sorted(bad.items()))
    return "%d of %d points not ok (%s): not drawn" % (sum(bad.values()), len(rows), kinds)


def check_baseline(rows, baseline, path):
    """The --baseline names are alternatives (the fastest of them is the baseline), so some
    may be absent from a CSV (a note says so); none present is an error: nothing could be
    compared."""
    known = sorted({r["algorithm"] for r in rows})
    unknown = ["'%s'" % b for b in baseline if b not in known]
    if unknown and len(unknown) == len(baseline):
        raise PlotError("--baseline: %s: no such algorithm with results in %s (allowed: %s)"
                        % (", ".join(unknown), path, ", ".join(known)))
    if unknown:
        print("plot.py: note: --baseline %s: no results in %s" % (", ".join(unknown), path),
              file=sys.stderr)


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


def draw(key, data, ylabel, title, path, yscale, note=""):
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
    if note:
        fig.text(0.01, 0.005, note, fontsize=8, color="firebrick", va="bottom")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


# --kind name: (column, y label, title, file prefix, divisor)
LINE_PLOTS = [
    ("goodput", "algbw_Bps", "goodput: size / time (GB/s, 1e9 B/s)", "Goodput vs vector size",
     "goodput", 1e9),
    ("time", "time_s", "completion time (us)", "Completion time vs vector size", "time", 1e-6),
    ("busbw", "busbw_Bps", "bus bandwidth: algbw x NCCL-tests factor (GB/s)",
     "Bus bandwidth vs vector size", "busbw", 1e9),
    ("global", "bytes_global", "bytes on global links (MiB, all links summed)",
     "Global-link traffic vs vector size", "global-bytes", 1 << 20),
]


def line_plots(key, rows, kind, outdir, note):
    """The line plots of one (topology, collective, ranks, model) group."""
    written = []
    for name, column, ylabel, title, prefix, divisor in LINE_PLOTS:
        if kind not in ("all", name):
            continue
        data = series(rows, column)
        if data:
            path = os.path.join(outdir, "%s-%s.png" % (prefix, slug(key)))
            written.append(draw(key, data, ylabel, title, path, divisor, note))
    return written


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


def topology_text(rows, width=110):
    """The full topology parameters of the rows: one, or the distinct ones joined."""
    names = sorted({r["topology"] for r in rows})
    text = names[0] if len(names) == 1 else "%d topologies: %s" % (len(names), "; ".join(names))
    return text if len(text) <= width else text[:width - 3] + "..."


def draw_heatmap(key, cells, baseline, path, topologies):
    ranks = sorted({c[0] for c in cells})
    sizes = sorted({c[1] for c in cells})
    grid = [[cells.get((p, n), (float("nan"), ""))[0] for n in sizes] for p in ranks]
    # constrained layout + a tight bounding box: the colour bar's label and the title
    # stay inside the picture whatever the number of cells and the baseline names
    # a single P is one row: give it the height of three, the cells stay legible
    fig, ax = plt.subplots(figsize=(1.1 * len(sizes) + 3.5, 0.7 * max(len(ranks), 3) + 2.5),
                           constrained_layout=True)
    top = max(max(max(v for v in row if v == v) for row in grid), 1.01)
    im = ax.imshow(grid, cmap="viridis", aspect="auto", origin="lower", vmin=1.0, vmax=top)
    for i, p in enumerate(ranks):
        for j, n in enumerate(sizes):
            if (p, n) in cells:
                speedup, winner = cells[(p, n)]
                ax.text(j, i, "%.2fx\n%s" % (speedup, winner.replace(" ", "\n")),
                        ha="center", va="center", fontsize=7 if len(ranks) > 3 else 9,
                        color="white" if speedup < (1 + top) / 2 else "black")
    ax.set_xticks(range(len(sizes)))
    ax.set_xticklabels([size_label(n) for n in sizes], rotation=45)
    ax.set_yticks(range(len(ranks)))
    ax.set_yticklabels([str(p) for p in ranks])
    ax.set_xlabel("vector size per rank (bytes)")
    ax.set_ylabel("ranks P")
    fig.colorbar(im, ax=ax, label="speedup of the best algorithm\nover %s (x)" %
                 "/".join(baseline))
    ax.set_title("Best algorithm vs baseline %s\n%s, model %s\n%s" %
                 ("/".join(baseline), key[1], key[2], topologies), fontsize=9)
    fig.savefig(path, dpi=120, bbox_inches="tight", pad_inches=0.15)
    plt.close(fig)
    return path


def heatmaps(rows, baseline, outdir):
    groups = defaultdict(list)
    for r in rows:
        groups[(r["topology"].split()[0], r["collective"], r["model"])].append(r)
    written = []
    for key, grows in sorted(groups.items()):
        names = baseline or (["ring"] if any(r["algorithm"] == "ring" for r in grows) else [])
        # name only the baselines this collective ran (a scenario's list covers them all)
        ran = {r["algorithm"] for r in grows}
        names = [n for n in names if n in ran]
        cells = heatmap_cells(grows, set(names))
        if cells:
            name = re.sub(r"[^A-Za-z0-9=._-]+", "_", "-".join(key[1:] + key[:1]))
            written.append(draw_heatmap(key, cells, names,
                                        os.path.join(outdir, "speedup-%s.png" % name),
                                        topology_text(grows)))
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
                    choices=["all", "goodput", "time", "busbw", "global", "heatmap",
                             "slowdown", "linkload"],
                    help="which plots (default all but linkload, which reads a link CSV)")
    args = ap.parse_args(argv)
    try:
        return plot(args)
    except PlotError as e:
        print("plot.py: %s" % e, file=sys.stderr)
        return 2


def plot(args):
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.csv))
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as e:
        raise PlotError("cannot create %s: %s" % (outdir, e.strerror or e))
    if args.kind == "linkload":
        try:
            written = linkload(args.csv, outdir)
        except OSError as e:
            raise PlotError("cannot read %s: %s" % (args.csv, e.strerror or e))
        for path in written:
            print("plot.py: wrote %s" % path, file=sys.stderr)
        return 0
    import plot_jobs  # beside this script, as plot_linkload

    every = read_all_rows(args.csv)
    rows = [r for r in every if r.get("status") == "ok"]
    if not_ok_note(every):
        print("plot.py: note: %s: %s" % (args.csv, not_ok_note(every)), file=sys.stderr)
    if not rows:
        print("plot.py: no rows with status ok in %s: nothing to draw" % args.csv,
              file=sys.stderr)
        return 0
    written = []
    if plot_jobs.has_jobs(every):  # the job rows: slowdown plots (plot_jobs.py)
        if args.kind in ("all", "slowdown"):
            written += plot_jobs.slowdown_plots(every, outdir)
        every = [r for r in every if not r.get("job")]
        rows = [r for r in rows if not r.get("job")]
    if not rows or args.kind == "slowdown":
        for path in written:
            print("plot.py: wrote %s" % path, file=sys.stderr)
        return 0
    baseline = [b for b in args.baseline.split(",") if b]
    check_baseline(rows, baseline, args.csv)
    groups = defaultdict(list)
    for r in rows:
        groups[group_key(r)].append(r)
    notes = defaultdict(list)
    for r in every:
        notes[group_key(r)].append(r)
    for key, grows in sorted(groups.items()):
        written += line_plots(key, grows, args.kind, outdir, not_ok_note(notes[key]))
    if args.kind in ("all", "heatmap"):
        maps = heatmaps(rows, baseline, outdir)
        if not maps:
            print("plot.py: no speedup heatmap: no (family, collective, model) group has "
                  "times of the baseline %s" % ("/".join(baseline) or "ring"), file=sys.stderr)
        written += maps
    for path in written:
        print("plot.py: wrote %s" % path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
