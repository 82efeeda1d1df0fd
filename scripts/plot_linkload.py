#!/usr/bin/python3
"""plot_linkload.py - link-load histogram per link class, from `collsim draw --link-csv`.

    collsim draw "torus dims=8x8" --collective allreduce --compare recursive_doubling,swing_latency \\
        --out t.svg --link-csv links.csv
    scripts/plot_linkload.py links.csv --out linkload.png [--step all|K] [--bins N]
    scripts/plot_linkload.py links.csv --text        # the same counts as a table

The CSV (src/draw/draw.h) has one row per link direction, per step and for the whole run
(step "all"): algorithm,step,link,class,from,to,bytes. For the chosen step (default: the
whole run) the script draws one panel per link class present (host, local, global): a
histogram of the bytes each link direction carries, one colour per algorithm, so that two
algorithms compared side by side show which one spreads its bytes and which one piles
them on a few links. Unloaded directions count in the bin at 0. --text prints, per
algorithm and class, the link directions, loaded ones, total, mean and max bytes instead
(needs no matplotlib).
"""
import argparse
import csv
import sys
from collections import OrderedDict

CLASSES = ("host", "local", "global")


def read_loads(path, step):
    """{algorithm: {class: [bytes per link direction]}} for one step ("all": the run)."""
    loads = OrderedDict()
    with open(path, newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        need = {"algorithm", "step", "class", "bytes"}
        if not reader.fieldnames or not need <= set(reader.fieldnames):
            raise ValueError("%s: not a collsim draw --link-csv file (columns %s needed)"
                             % (path, ", ".join(sorted(need))))
        for row in reader:
            if row["step"] != step:
                continue
            per_class = loads.setdefault(row["algorithm"], OrderedDict())
            per_class.setdefault(row["class"], []).append(int(row["bytes"]))
    if not loads:
        raise ValueError("%s: no rows for step %s" % (path, step))
    return loads


def classes_of(loads):
    present = {c for per_class in loads.values() for c in per_class}
    return [c for c in CLASSES if c in present] + sorted(present - set(CLASSES))


def print_table(loads, out):
    out.write("algorithm,class,directions,loaded,total_bytes,mean_bytes,max_bytes\n")
    for alg, per_class in loads.items():
        for cls in classes_of(loads):
            values = per_class.get(cls, [])
            if not values:
                continue
            out.write("%s,%s,%d,%d,%d,%.1f,%d\n" % (
                alg, cls, len(values), sum(1 for v in values if v > 0), sum(values),
                sum(values) / len(values), max(values)))


def plot(loads, out, step, bins):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    classes = classes_of(loads)
    mib = 1024.0 * 1024.0  # axes in MiB
    top = max(max(v) for per_class in loads.values() for v in per_class.values()) / mib
    edges = [top * i / bins for i in range(bins + 1)] if top > 0 else [0, 1]
    fig, axes = plt.subplots(1, len(classes), figsize=(4.2 * len(classes), 3.4), squeeze=False)
    for ax, cls in zip(axes[0], classes):
        data = [[b / mib for b in per_class.get(cls, [])] for per_class in loads.values()]
        ax.hist(data, bins=edges, label=list(loads.keys()))
        ax.set_title("%s links" % cls)
        ax.set_xlabel("MiB per link direction")
        ax.set_ylabel("link directions")
    axes[0][0].legend(fontsize=8)
    fig.suptitle("link load per class (%s)" % ("whole run" if step == "all" else "step " + step))
    fig.tight_layout()
    fig.savefig(out, metadata={"Software": None} if out.endswith(".png") else None)
    plt.close(fig)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("csv", help="the file written by collsim draw --link-csv")
    ap.add_argument("--out", help="picture to write (.png, .svg or .pdf)")
    ap.add_argument("--step", default="all", help='"all" (default: the whole run) or a step')
    ap.add_argument("--bins", type=int, default=20, help="histogram bins (default 20)")
    ap.add_argument("--text", action="store_true", help="print a summary table instead")
    args = ap.parse_args(argv)
    if args.bins < 1:
        ap.error("--bins must be at least 1")
    if not args.text and not args.out:
        ap.error("give --out FILE or --text")
    try:
        loads = read_loads(args.csv, args.step)
    except (OSError, ValueError) as e:
        sys.stderr.write("plot_linkload.py: %s\n" % e)
        return 2
    if args.text:
        print_table(loads, sys.stdout)
    else:
        plot(loads, args.out, args.step, args.bins)
        print("wrote %s" % args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
