#!/usr/bin/env python3
"""bine_rorder_stats.py - the tables of results/bine/rabenseifner_order/README.md, from the
CSV of scenarios/bine_rabenseifner_order.lua: Bine against Rabenseifner (allreduce) and
recursive halving / doubling (reduce_scatter) in both peer orders.

    python3 scripts/bine_rorder_stats.py RESULTS.csv

Standard library only. Prints Markdown.

Global traffic = bytes_intergroup_msgs (bytes of messages between ranks in different
Dragonfly groups / fat-tree subtrees, the paper's "global traffic"). Reduction of Bine
against a baseline = 1 - bytes(Bine) / bytes(baseline), per allocation (a point where
both send nothing across groups counts 0 %; one where only the baseline sends nothing is
left out and counted). "Advantage kept" = (sum of the nearest-first baseline's bytes -
sum of Bine's) / (sum of the farthest-first baseline's bytes - sum of Bine's) over all
allocations of a machine: the share of Bine's byte saving that survives the switch of
baseline order. Time ratio = t(baseline) / t(Bine) (flow rows).
"""
import csv
import statistics
import sys
from collections import defaultdict

# (label, collective, algorithm, params) per compared algorithm
ALGS = {
    "allreduce": [("farthest", "rabenseifner", "order=farthest"),
                  ("nearest", "rabenseifner", "order=nearest"),
                  ("bine", "bine_bandwidth", "")],
    "reduce_scatter": [("farthest", "recursive_halving", ""),
                       ("nearest", "recursive_doubling", ""),
                       ("bine", "bine", "")],
}
NAMES = {"allreduce": ("rabenseifner order=farthest", "rabenseifner order=nearest",
                       "bine_bandwidth"),
         "reduce_scatter": ("recursive_halving", "recursive_doubling", "bine")}
PRESETS = [("lumi", "LUMI"), ("leonardo", "Leonardo"), ("marenostrum5", "MareNostrum 5")]

# Which order the paper's vendor libraries use (read from their sources; cited by line).
VENDOR = """Peer order of the vendor baselines (the paper ran Cray MPICH 8.1.29 on LUMI, Open MPI
4.1.6 / 4.1.5 on Leonardo / MareNostrum 5; bine.md section 5):

| collective | library function | first peer | source line |
|---|---|---|---|
| allreduce | MPICH `MPIR_Allreduce_intra_reduce_scatter_allgather` | nearest (r xor 1) | `mask = 0x1; ... while (mask < pof2) { newdst = newrank ^ mask;` (pmodels/mpich `src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c`, commit 0917e160) |
| allreduce | Open MPI `ompi_coll_base_allreduce_intra_redscat_allgather` | nearest (r xor 1) | `for (int mask = 1; mask < nprocs_pof2; mask <<= 1) { int vdest = vrank ^ mask;` (open-mpi/ompi `ompi/mca/coll/base/coll_base_allreduce.c`, commit 07a69c33) |
| reduce_scatter | MPICH `MPIR_Reduce_scatter_intra_recursive_halving` | farthest (r xor P'/2) | `mask = pof2 >> 1; ... while (mask > 0) { newdst = newrank ^ mask;` (pmodels/mpich `src/mpi/coll/reduce_scatter/reduce_scatter_intra_recursive_halving.c`, commit 0500fec2) |
| reduce_scatter | Open MPI `ompi_coll_base_reduce_scatter_intra_basic_recursivehalving` | farthest (r xor P'/2) | `mask = tmp_size >> 1; ... while (mask > 0) { tmp_peer = tmp_rank ^ mask;` (as copied in SimGrid `src/smpi/colls/reduce_scatter/reduce_scatter-ompi.cpp`) |

So the vendor allreduce baseline is `rabenseifner order=nearest`; the vendor
reduce-scatter recursive halving is collsim's `recursive_halving` (farthest first, its
default): only the allreduce baseline had the other order."""


def fail(msg):
    sys.exit("bine_rorder_stats.py: " + msg)


def read(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail("cannot read %s: %s" % (path, e.strerror))
    need = {"status", "topology", "collective", "algorithm", "params", "ranks", "size_bytes",
            "placement", "model", "time_s", "bytes_global", "bytes_intergroup_msgs"}
    if not rows or need - set(rows[0]):
        fail("%s: not a collsim results.csv (columns needed: %s)" % (path, ", ".join(sorted(need))))
    return rows


def preset(topo):
    for key, _ in PRESETS:
        if key in topo:
            return key
    return None


def label(row):
    for lab, alg, params in ALGS.get(row["collective"], []):
        if row["algorithm"] == alg and row["params"] == params:
            return lab
    return None


def group(rows, model):
    """(collective, preset, ranks, size, placement) -> {label: row}"""
    out = defaultdict(dict)
    for r in rows:
        lab = label(r)
        if r["model"] != model or r["status"] != "ok" or lab is None or not preset(r["topology"]):
            continue
        key = (r["collective"], preset(r["topology"]), int(r["ranks"]), int(r["size_bytes"]),
               r["placement"])
        out[key][lab] = r
    return out


def reduction(bine, base):
    if base == 0:
        return 0.0 if bine == 0 else None
    return 100.0 * (1 - bine / base)


def f1(x):
    return "%.1f" % x


def traffic_tables(rows):
    pts = group(rows, "traffic")
    incomplete = [k for k, v in pts.items() if len(v) != 3]
    if incomplete:
        fail("traffic point %s lacks an algorithm (has %s)"
             % (incomplete[0], ", ".join(sorted(pts[incomplete[0]]))))
    for coll in ("allreduce", "reduce_scatter"):
        far, near, bine = NAMES[coll]
        print("### %s: global traffic of %s vs %s (farthest first) and %s (nearest first)\n"
              % (coll, bine, far, near))
        print("Reduction % = 1 - bytes(Bine) / bytes(baseline), per allocation; mean "
              "(min / max) over the allocations of each node count. Bine worse = allocations "
              "where Bine sends more across groups than the baseline.\n")
        print("| machine | nodes | allocations | vs farthest: mean (min / max) | "
              "vs nearest: mean (min / max) | Bine worse vs nearest |")
        print("|---|---|---|---|---|---|")
        summary = []
        for key, name in PRESETS:
            sums = defaultdict(float)
            for p in sorted({k[2] for k in pts if k[0] == coll and k[1] == key}):
                red = {"farthest": [], "nearest": []}
                worse = 0
                cells = [k for k in pts if k[:3] == (coll, key, p)]
                for k in cells:
                    b = {lab: float(r["bytes_intergroup_msgs"]) for lab, r in pts[k].items()}
                    for lab in b:
                        sums[lab] += b[lab]
                    for base in red:
                        x = reduction(b["bine"], b[base])
                        if x is not None:
                            red[base].append(x)
                    worse += b["bine"] > b["nearest"]
                txt = []
                for base in ("farthest", "nearest"):
                    v = red[base]
                    txt.append("%s (%s / %s)" % (f1(statistics.mean(v)), f1(min(v)), f1(max(v)))
                               if v else "-")
                print("| %s | %d | %d | %s | %s | %d |" % (name, p, len(cells), txt[0], txt[1],
                                                         worse))
            if sums:
                summary.append((name, sums))
        print("\nAll allocations of a machine summed (MiB of global traffic at 1 MiB per rank):\n")
        print("| machine | %s | %s | %s | reduction vs farthest %% | reduction vs nearest %% "
              "| advantage kept %% |" % (far, near, bine))
        print("|---|---|---|---|---|---|---|")
        for name, s in summary:
            gap_far = s["farthest"] - s["bine"]
            kept = "%.1f" % (100.0 * (s["nearest"] - s["bine"]) / gap_far) if gap_far else "-"
            print("| %s | %.0f | %.0f | %.0f | %s | %s | %s |"
                  % (name, s["farthest"] / 2**20, s["nearest"] / 2**20, s["bine"] / 2**20,
                     f1(reduction(s["bine"], s["farthest"]) or 0.0),
                     f1(reduction(s["bine"], s["nearest"]) or 0.0), kept))
        print()


def size_text(n):
    return "%d MiB" % (n // 2**20) if n >= 2**20 else "%d KiB" % (n // 1024)


def time_table(rows):
    pts = group(rows, "cm02")
    if not pts:
        return
    print("### allreduce time on LUMI (flow model cm02)\n")
    print("t in ms; global = bytes_intergroup_msgs in MiB; ratio = t(baseline) / t(Bine).\n")
    print("| nodes | size | placement | t farthest | t nearest | t Bine | farthest/Bine | "
          "nearest/Bine | global farthest | global nearest | global Bine |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ratios = {"farthest": [], "nearest": []}
    for k in sorted(pts, key=lambda k: (k[2], k[3], k[4] != "linear", k[4])):
        v = pts[k]
        if len(v) != 3:
            fail("flow point %s lacks an algorithm (has %s)" % (k, ", ".join(sorted(v))))
        t = {lab: float(r["time_s"]) for lab, r in v.items()}
        g = {lab: float(r["bytes_intergroup_msgs"]) / 2**20 for lab, r in v.items()}
        for base in ratios:
            ratios[base].append(t[base] / t["bine"])
        print("| %d | %s | %s | %.3f | %.3f | %.3f | %.2f | %.2f | %.0f | %.0f | %.0f |"
              % (k[2], size_text(k[3]), k[4], 1e3 * t["farthest"], 1e3 * t["nearest"],
                 1e3 * t["bine"], t["farthest"] / t["bine"], t["nearest"] / t["bine"],
                 g["farthest"], g["nearest"], g["bine"]))
    for base in ("farthest", "nearest"):
        r = ratios[base]
        print("\nBine vs %s first: time ratio geometric mean %.2f, min %.2f, max %.2f "
              "over %d points; Bine faster (> 1 %%) in %d."
              % (base, statistics.geometric_mean(r), min(r), max(r), len(r),
                 sum(x > 1.01 for x in r)))
    print()


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    rows = read(argv[1])
    bad = sum(r["status"] != "ok" for r in rows)
    print("Rows: %d, not ok: %d.\n" % (len(rows), bad))
    print(VENDOR + "\n")
    traffic_tables(rows)
    time_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
