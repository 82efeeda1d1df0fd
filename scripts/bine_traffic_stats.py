#!/usr/bin/env python3
"""bine_traffic_stats.py - the figures of results/bine/README.md, from the committed CSVs.

    python3 scripts/bine_traffic_stats.py [RESULTS_DIR]      (default results/bine)
    python3 scripts/bine_traffic_stats.py RESULTS_DIR SECTION   one section only

Sections (what results/bine/README.md embeds): modular, fragmented, bynodes, other,
lumi-pairs, lumi-summary, fugaku, fugaku-flow. Without SECTION, every table (stats.md).

With matplotlib installed it also draws RESULTS_DIR/bine_traffic/fig5-boxplot.png: the
allreduce reduction per node count over the fragmented placements (the paper's Fig. 5).

Reads RESULTS_DIR/bine_traffic/results.csv (scenarios/bine_traffic.lua), the per-step
link loads of RESULTS_DIR/modular_distance (scripts/bine_modular_distance.sh) and, when
present, bine_lumi_small / bine_lumi (full, perhaps partial) / bine_fugaku results; prints
Markdown tables. Standard library only.

Traffic metric: bytes_intergroup_msgs (bytes of messages between ranks in different
groups: the paper's "global traffic", minimal routing). Reduction = 1 - bine / baseline.
Allreduce baselines:
  paper  the Bine tracer's "rabenseifner" (distance-doubling reduce-scatter +
         distance-halving allgather, bine.md section 4/6). Its allgather is the mirror
         image of its reduce-scatter (same pairs, same sizes), so its bytes are
         2 x reduce_scatter recursive_doubling of the same point.
  mpich  collsim's allreduce rabenseifner (recursive halving first: largest message to
         the farthest peer), simulated directly.
"""
import csv
import math
import os
import statistics
import sys
from collections import defaultdict


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r.get("status", "ok") == "ok"]


def preset(row):
    return os.path.basename(row["topology"]).split(".")[0]


def placement_kind(pl):
    """'linear', 'fragmented:8' (seed dropped) or 'file:<name>'."""
    if pl.startswith("fragmented:"):
        return "fragmented:" + pl.split(":")[1]
    if pl.startswith("file:"):
        return "file:" + os.path.basename(pl).replace(".txt", "")
    return pl


def pct(x):
    return "%.1f" % (100.0 * x)


def modular_distance(resdir):
    """Mean modular distance per step of the two whole-vector DD butterflies."""
    out = {}
    for alg in ("bine_latency", "recursive_doubling"):
        path = os.path.join(resdir, "modular_distance", alg + "-links.csv")
        per_step, hosts = defaultdict(int), set()
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                hosts.add(r["from"])
                if r["class"] == "local" and r["step"] != "all":
                    per_step[int(r["step"])] += int(r["bytes"])
        p = len(hosts)
        out[alg] = [per_step[k] / (p * 1024.0) for k in sorted(per_step)]
    print("## Modular distance per step (ring of %d hosts, allreduce, DD butterflies)\n" % p)
    print("| step | binomial (recursive_doubling) | Bine (bine_latency) | ratio |")
    print("|---|---|---|---|")
    for k, (b, n) in enumerate(zip(out["recursive_doubling"], out["bine_latency"])):
        print("| %d | %.4g | %.4g | %.4f |" % (k, b, n, n / b))
    tb, tn = sum(out["recursive_doubling"]), sum(out["bine_latency"])
    print("| all | %.6g | %.6g | %.4f |\n" % (tb, tn, tn / tb))


def boxplot(red, path):
    """Fig. 5 style: reduction % per node count over fragmented:8/16, both presets."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    ps = sorted({r[2] for r in red})
    data = [[100 * r[3] for r in red if r[2] == p
             and placement_kind(r[1]) in ("fragmented:8", "fragmented:16")] for p in ps]
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.boxplot(data, labels=[str(p) for p in ps])
    ax.axhline(33.3, color="red", linestyle="--", label="33 % bound")
    ax.axhspan(15, 22, color="green", alpha=0.15, label="paper median 15..22 %")
    ax.set_xlabel("nodes")
    ax.set_ylabel("allreduce global-traffic reduction (%)")
    ax.set_title("Bine vs binomial RS+AG, fragmented:8/16, LUMI + Leonardo")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def allreduce_tables(rows, resdir, part="all"):
    """Allreduce reductions; prints the check and the fragmented table (part "fragmented"),
    the per-node-count tables ("bynodes") or all of them."""
    by = {}
    for r in rows:
        key = (preset(r), r["placement"], int(r["ranks"]), r["collective"], r["algorithm"])
        by[key] = int(r["bytes_intergroup_msgs"])
    points = sorted({(k[0], k[1], k[2]) for k in by if k[3] == "allreduce"})
    red = []   # (preset, placement, p, reduction vs paper, reduction vs mpich)
    mirror_ok = True
    for pre, pl, p in points:
        bine = by.get((pre, pl, p, "allreduce", "bine_bandwidth"))
        rs_bin = by.get((pre, pl, p, "reduce_scatter", "recursive_doubling"))
        rs_bine = by.get((pre, pl, p, "reduce_scatter", "bine"))
        mpich = by.get((pre, pl, p, "allreduce", "rabenseifner"))
        if None in (bine, rs_bin, rs_bine, mpich):
            continue
        mirror_ok = mirror_ok and bine == 2 * rs_bine
        paper = 2 * rs_bin
        red.append((pre, pl, p, 1 - bine / paper if paper else 0.0,
                    1 - bine / mpich if mpich else 0.0))
    if part == "bynodes":
        bynodes(red)
        return
    print("Check: allreduce bine_bandwidth bytes == 2 x reduce_scatter bine bytes at every "
          "point: %s (%d points)\n" % ("yes" if mirror_ok else "NO", len(red)))

    print("## Fragmented placements, p >= 128, allreduce reduction vs the paper's baseline\n")
    print("| preset | chunks | points | median % | min % | max % |")
    print("|---|---|---|---|---|---|")
    allk8 = []
    for k in ("4", "8", "16"):
        for pre in ("lumi", "leonardo", "both"):
            xs = [r[3] for r in red if placement_kind(r[1]) == "fragmented:" + k and r[2] >= 128
                  and (pre == "both" or r[0] == pre)]
            if k in ("8", "16") and pre == "both":
                allk8 += xs
            if xs:
                print("| %s | %s | %d | %s | %s | %s |" % (pre, k, len(xs),
                      pct(statistics.median(xs)), pct(min(xs)), pct(max(xs))))
    print("| **both** | **>= 8** | %d | **%s** | %s | **%s** |\n" % (
        len(allk8), pct(statistics.median(allk8)), pct(min(allk8)), pct(max(allk8))))

    if part == "all":
        boxplot(red, os.path.join(resdir, "bine_traffic", "fig5-boxplot.png"))
        bynodes(red)


def bynodes(red):
    print("## Allreduce reduction by node count (vs paper baseline; vs farthest-first rabenseifner)\n")
    kinds = ["linear", "fragmented:4", "fragmented:8", "fragmented:16",
             "file:lumi_aligned16", "file:lumi_aligned64",
             "file:leonardo_aligned16", "file:leonardo_aligned64"]
    for pre in ("lumi", "leonardo"):
        print("%s: median %% over seeds (fragmented: 8 seeds each); in brackets vs farthest-first\n" % pre)
        ps = sorted({r[2] for r in red})
        print("| placement | " + " | ".join(str(p) for p in ps) + " |")
        print("|---" * (len(ps) + 1) + "|")
        for kind in kinds:
            cells = []
            for p in ps:
                xs = [r for r in red if r[0] == pre and r[2] == p and placement_kind(r[1]) == kind]
                if not xs:
                    cells.append("")
                    continue
                cells.append("%s (%s)" % (pct(statistics.median(x[3] for x in xs)),
                                          pct(statistics.median(x[4] for x in xs))))
            if any(cells):
                print("| %s | %s |" % (kind, " | ".join(cells)))
        print()


# other collectives: (collective, Bine algorithm, baseline algorithm)
PAIRS = [("bcast", "bine", "binomial_halving"), ("bcast", "bine", "binomial_doubling"),
         ("bcast", "bine_scatter_allgather", "scatter_allgather"),
         ("reduce", "bine", "binomial"), ("reduce", "bine_rs_gather", "rabenseifner"),
         ("gather", "bine", "binomial"), ("scatter", "bine", "binomial"),
         ("allgather", "bine", "recursive_doubling"), ("allgather", "bine", "bruck"),
         ("alltoall", "bine", "bruck")]


# time comparisons: (collective, Bine algorithm, binomial-style counterpart)
TIME_PAIRS = [("allreduce", "bine_latency", "recursive_doubling"),
              ("allreduce", "bine_bandwidth", "rabenseifner order=nearest"),
              ("allreduce", "bine_bandwidth", "rabenseifner"),
              ("allgather", "bine", "recursive_doubling"),
              ("reduce_scatter", "bine", "recursive_halving"),
              ("alltoall", "bine", "bruck"),
              ("bcast", "bine", "binomial_halving"),
              ("bcast", "bine_scatter_allgather", "scatter_allgather"),
              ("reduce", "bine", "binomial"), ("reduce", "bine_rs_gather", "rabenseifner"),
              ("gather", "bine", "binomial"), ("scatter", "bine", "binomial")]


def other_tables(rows):
    by = {}
    for r in rows:
        by[(preset(r), r["placement"], int(r["ranks"]), r["collective"], r["algorithm"])] = \
            int(r["bytes_intergroup_msgs"])
    print("## Other collectives: global-traffic reduction %, p >= 128\n")
    print("| collective | Bine | baseline | frag:8 mean | frag:8 max | linear mean | linear min |")
    print("|---|---|---|---|---|---|---|")
    for coll, bine, base in PAIRS:
        cols = []
        for kind in ("fragmented:8", "linear"):
            xs = []
            for (pre, pl, p, c, a), v in by.items():
                if c != coll or a != bine or p < 128 or placement_kind(pl) != kind:
                    continue
                b = by.get((pre, pl, p, c, base))
                if b:
                    xs.append(1 - v / b)
            cols.append((statistics.mean(xs), max(xs), min(xs)) if xs else None)
        f, l = cols
        print("| %s | %s | %s | %s | %s | %s | %s |" % (coll, bine, base,
              pct(f[0]) if f else "", pct(f[1]) if f else "",
              pct(l[0]) if l else "", pct(l[2]) if l else ""))
    print()


def alg_name(r):
    """the algorithm with its parameters: rabenseifner (farthest-first, collsim's default)
    and rabenseifner order=nearest (the vendors') are two baselines"""
    return r["algorithm"] + (" " + r["params"] if r.get("params") else "")


def lumi(resdir, name, part="all"):
    """Tables of one LUMI run (bine_lumi_small, or the full bine_lumi, perhaps partial):
    part "all", "pairs" (Bine vs its counterpart) or "summary" (best vs best)."""
    rows = read_csv(os.path.join(resdir, name, "results.csv"))
    if not rows:
        return
    if part == "all":
        print("# %s (%d rows)\n" % (name, len(rows)))
    bine_names = {"bine", "bine_latency", "bine_bandwidth", "bine_scatter_allgather",
                  "bine_rs_gather", "bine_segmented"}
    best = defaultdict(dict)
    for r in rows:
        key = (r["collective"], int(r["ranks"]), int(r["size_bytes"]))
        side = "bine" if r["algorithm"] in bine_names else "classic"
        t = float(r["time_s"])
        if side not in best[key] or t < best[key][side][0]:
            best[key][side] = (t, alg_name(r), float(r["algbw_Bps"]))
    if part == "summary":
        lumi_summary(best)
        return
    if part == "all":
        print("## LUMI (flow model): best Bine vs best classic, speedup = t_classic / t_bine\n")
        print("| collective | nodes | size | best classic | best Bine | speedup | Bine goodput GB/s |")
        print("|---|---|---|---|---|---|---|")
        wins = total = 0
        for key in sorted(best):
            b = best[key]
            if "bine" not in b or "classic" not in b:
                continue
            total += 1
            sp = b["classic"][0] / b["bine"][0]
            wins += sp > 1.01
            print("| %s | %d | %d | %s | %s | %.2f | %.2f |" % (key[0], key[1], key[2],
                  b["classic"][1], b["bine"][1], sp, b["bine"][2] / 1e9))
        print("\nBine faster by > 1%% in %d of %d configurations.\n" % (wins, total))
    times = {(r["collective"], alg_name(r), int(r["ranks"]), int(r["size_bytes"])):
             float(r["time_s"]) for r in rows}
    print("## LUMI (flow model): Bine vs its binomial counterpart (the paper's Table 3)\n")
    print("| collective | Bine | binomial counterpart | configs | win % | loss % | geomean "
          "speedup | max speedup |")
    print("|---|---|---|---|---|---|---|---|")
    for coll, bine, base in TIME_PAIRS:
        sp = [times[(coll, base, p, n)] / t for (c, a, p, n), t in times.items()
              if c == coll and a == bine and (coll, base, p, n) in times]
        if not sp:
            continue
        gm = math.exp(sum(math.log(x) for x in sp) / len(sp))
        print("| %s | %s | %s | %d | %.0f | %.0f | %.2f | %.2f |" % (coll, bine, base, len(sp),
              100.0 * sum(x > 1.01 for x in sp) / len(sp),
              100.0 * sum(x < 0.99 for x in sp) / len(sp), gm, max(sp)))
    print()


def size_text(n):
    for u, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f:
            return "%d %s" % (n // f, u)
    return "%d B" % n


def lumi_summary(best):
    """Per collective: best Bine vs best classic algorithm over the configurations."""
    print("| collective | configs | Bine wins (> 1 %) | losses (< -1 %) | largest gain | "
          "largest loss |")
    print("|---|---|---|---|---|---|")
    for coll in sorted({k[0] for k in best}):
        sp = []
        for key, b in best.items():
            if key[0] == coll and "bine" in b and "classic" in b:
                sp.append((b["classic"][0] / b["bine"][0], key[1], key[2], b["classic"][1]))
        if not sp:
            continue
        hi, lo = max(sp), min(sp)
        cell = lambda x: "%.2fx (%d nodes, %s, vs %s)" % (x[0], x[1], size_text(x[2]), x[3])
        print("| %s | %d | %d | %d | %s | %s |" % (coll, len(sp), sum(x[0] > 1.01 for x in sp),
              sum(x[0] < 0.99 for x in sp), cell(hi), cell(lo)))
    print()


def table_section(resdir, name, title, columns):
    """The rows of resdir/name/results.csv, after printing the section's title and table
    header (nothing, and no rows, when the directory has no results)."""
    rows = read_csv(os.path.join(resdir, name, "results.csv"))
    if rows:
        print("## %s\n" % title)
        print("| %s |" % " | ".join(columns))
        print("|%s" % ("---|" * len(columns)))
    return rows


def fugaku(resdir):
    rows = table_section(resdir, "bine_fugaku",
                         "Fugaku shapes, allreduce 8 MiB (traffic model: link-bytes = bytes x hops)",
                         ["shape", "algorithm", "params", "link-bytes (GB)", "max link (MB)",
                          "time (flow) ms"])
    if not rows:
        return
    times = {}
    for r in rows:
        if r["model"] == "cm02" and r["size_bytes"] == str(8 << 20):
            times[(r["dims"], r["collective"], r["algorithm"], r["params"])] = float(r["time_s"])
    for r in rows:
        if r["model"] != "traffic" or r["collective"] != "allreduce":
            continue
        t = times.get((r["dims"], r["collective"], r["algorithm"], r["params"]))
        print("| %s | %s | %s | %.3f | %.2f | %s |" % (r["dims"], r["algorithm"], r["params"],
              int(r["bytes_local"]) / 1e9, int(r["max_link_bytes"]) / 1e6,
              "%.3f" % (t * 1e3) if t else ""))
    print()


def fugaku_flow(resdir):
    """The timed large shapes (bine_fugaku_flow): every algorithm's time, fastest first."""
    rows = table_section(resdir, "bine_fugaku_flow",
                         "Fugaku 64x64 and 32x256, flow model (bine_fugaku_flow)",
                         ["shape", "collective", "size", "algorithms, fastest first (ms)"])
    if not rows:
        return
    cells = defaultdict(list)
    for r in rows:
        name = r["algorithm"] + (" " + r["params"] if r["params"] else "")
        cells[(r["dims"], r["collective"], int(r["size_bytes"]))].append(
            (float(r["time_s"]) * 1e3, name))
    for (dims, coll, size), entries in sorted(cells.items()):
        entries.sort()
        print("| %s | %s | %d | %s |" % (dims, coll, size, ", ".join(
            "%s %.3f (%.2fx)" % (n, t, t / entries[0][0]) for t, n in entries)))
    print()


def sections(resdir):
    traffic = lambda: read_csv(os.path.join(resdir, "bine_traffic", "results.csv"))
    return {"modular": lambda: modular_distance(resdir),
            "fragmented": lambda: allreduce_tables(traffic(), resdir, "fragmented"),
            "bynodes": lambda: allreduce_tables(traffic(), resdir, "bynodes"),
            "other": lambda: other_tables(traffic()),
            "lumi-pairs": lambda: lumi(resdir, "bine_lumi", "pairs"),
            "lumi-summary": lambda: lumi(resdir, "bine_lumi", "summary"),
            "fugaku": lambda: fugaku(resdir),
            "fugaku-flow": lambda: fugaku_flow(resdir)}


def main(argv):
    resdir = argv[1] if len(argv) > 1 else "results/bine"
    if len(argv) > 2:
        sec = sections(resdir)
        if argv[2] not in sec:
            sys.exit("bine_traffic_stats.py: unknown section %r; allowed: %s"
                     % (argv[2], ", ".join(sec)))
        sec[argv[2]]()
        return 0
    modular_distance(resdir)
    rows = read_csv(os.path.join(resdir, "bine_traffic", "results.csv"))
    allreduce_tables(rows, resdir)
    other_tables(rows)
    lumi(resdir, "bine_lumi_small")
    lumi(resdir, "bine_lumi")
    fugaku(resdir)
    fugaku_flow(resdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
