#!/usr/bin/env python3
"""pico_stats.py - the tables of results/pico/README.md, from the CSV of
scenarios/pico_bcast.lua (PICO's bcast case study on 128-node Leonardo allocations).

    python3 scripts/pico_stats.py [RESULTS.csv]   (default results/pico/pico_bcast/results.csv)

Run from the repository root (the allocation files named in the placement column are read
to count the cells each job touches: node lrdnN is in cell (N - 1) / 180 + 1, as
platforms/leonardo.yaml maps them). Standard library only; prints Markdown.

Tracer (PICO Fig. 9; digest pico.md section 4, anchor 4): with one rank per node every
message leaves its node, so the bytes of all sends = bytes_host / 2 (a message crosses the
sender's and the receiver's host link); external = bytes_intergroup_msgs (sends between two
cells), internal = the rest; both in units of the vector n. Paper, 128-node allocation:
distance-doubling (Open MPI binomial) 5n internal / 122n external, distance-halving
(MPICH binomial) 90n / 37n. Tolerance: external within TRACER_TOL n of the paper's;
verdict per allocation: both algorithms within = reproduced, one = partial.

Time (PICO Fig. 10, anchor 5): 512 MiB, distance-doubling 757 ms vs distance-halving
304 ms (2.5x); "curves nearly identical up to 16 KiB". Tolerance: the 512 MiB ratio within
RATIO_TOL of 2.5 (relative) and every ratio at <= 16 KiB within SMALL_TOL of 1.
"""
import csv
import os
import sys
from collections import defaultdict

TRACER_TOL = 10.0
RATIO_TOL = 0.25
SMALL_TOL = 0.10
PAPER_TRACER = {"binomial_doubling": (5, 122), "binomial_halving": (90, 37)}
PAPER_RATIO = 2.5
ALGS = ["binomial_doubling", "binomial_halving", "bine", "scatter_allgather",
        "scatter_ring_allgather", "bine_scatter_allgather"]


def read(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f)]


def alloc_name(placement):
    return os.path.basename(placement.split(":", 1)[1]).replace(".txt", "").replace(
        "leonardo_128_", "")


def cells(placement):
    path = placement.split(":", 1)[1]
    found = set()
    with open(path) as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                found.add((int(line[4:]) - 1) // 180 + 1)
    return len(found)


def tracer_bytes(rows):
    """{(allocation, algorithm): (internal, external)} bytes in units of n, of the ok
    traffic rows (1 rank per node: all sends = bytes_host / 2)."""
    out = {}
    for r in rows:
        if r["model"] == "traffic" and r["status"] == "ok":
            n = float(r["size_bytes"])
            e = int(r["bytes_intergroup_msgs"]) / n
            out[(alloc_name(r["placement"]), r["algorithm"])] = (int(r["bytes_host"]) / 2 / n - e, e)
    return out


def tracer(rows):
    tr = [r for r in rows if r["model"] == "traffic" and r["status"] == "ok"]
    print("## Tracer: internal / external bytes per bcast (1 rank per node, units of n)\n")
    print("| allocation | cells | algorithm | internal | external | external % |")
    print("|---|---|---|---|---|---|")
    ext = {}
    order = {a: i for i, a in enumerate(ALGS)}
    split = tracer_bytes(tr)
    for r in sorted(tr, key=lambda r: (r["placement"], order.get(r["algorithm"], 99))):
        a = alloc_name(r["placement"])
        internal, e = split[(a, r["algorithm"])]
        total = internal + e
        ext[(a, r["algorithm"])] = e
        print("| %s | %d | %s | %.2f | %.2f | %.0f |" % (a, cells(r["placement"]),
              r["algorithm"], total - e, e, 100 * e / total))
    print("| **paper Fig. 9** | | binomial_doubling | 5 | 122 | 96 |")
    print("| **paper Fig. 9** | | binomial_halving | 90 | 37 | 29 |\n")
    print("Against Fig. 9 (external within +-%.0f n of the paper's):\n" % TRACER_TOL)
    for a in sorted({k[0] for k in ext}):
        hits = [abs(ext[(a, alg)] - PAPER_TRACER[alg][1]) <= TRACER_TOL
                for alg in PAPER_TRACER if (a, alg) in ext]
        word = ("reproduced" if all(hits) else "partial" if any(hits) else "not reproduced")
        print("- %s: doubling %.0f n, halving %.0f n external: **%s**" % (
            a, ext.get((a, "binomial_doubling"), float("nan")),
            ext.get((a, "binomial_halving"), float("nan")), word))
    print()


def flow_times(rows):
    """({(allocation, ranks per node, size, algorithm): time_s}, {same: max_link_bytes})."""
    t, link = {}, {}
    for r in rows:
        if r["model"] == "cm02" and r["status"] == "ok":
            key = (alloc_name(r["placement"]), int(r["ranks_per_node"]), int(r["size_bytes"]),
                   r["algorithm"])
            t[key] = float(r["time_s"])
            link[key] = int(r["max_link_bytes"])
    return t, link


def fig10(t, a, q):
    """(doubling / halving time at the largest size, largest |ratio - 1| at <= 16 KiB)."""
    sizes = sorted({k[2] for k in t})
    big = max(sizes)
    r512 = t[(a, q, big, "binomial_doubling")] / t[(a, q, big, "binomial_halving")]
    dev = max(abs(t[(a, q, n, "binomial_doubling")] / t[(a, q, n, "binomial_halving")] - 1)
              for n in sizes if n <= 16384 and (a, q, n, "binomial_halving") in t)
    return r512, dev


def times(rows):
    t, link = flow_times(rows)
    if not t:
        return
    groups = sorted({k[:2] for k in t})
    sizes = sorted({k[2] for k in t})
    print("## Bcast time (flow model), 128 nodes; ms\n")
    for a, q in groups:
        print("%s, %d rank(s) per node (%d ranks):\n" % (a, q, 128 * q))
        print("| size | " + " | ".join(ALGS) + " | doubling / halving |")
        print("|---" * (len(ALGS) + 2) + "|")
        for n in sizes:
            cells_ = [t.get((a, q, n, alg)) for alg in ALGS]
            dd, dh = cells_[0], cells_[1]
            print("| %d | %s | %s |" % (n, " | ".join("%.4g" % (x * 1e3) if x else ""
                                                      for x in cells_),
                                        "%.2f" % (dd / dh) if dd and dh else ""))
        print()
    print("Against Fig. 10 (doubling / halving at 512 MiB: 2.5 +-%d %%; at <= 16 KiB "
          "within +-%d %% of 1):\n" % (RATIO_TOL * 100, SMALL_TOL * 100))
    print("| allocation | ranks per node | doubling / halving ms at 512 MiB | ratio | "
          "busiest link doubling / halving (GiB) | largest deviation <= 16 KiB | verdict |")
    print("|---|---|---|---|---|---|---|")
    for a, q in groups:
        big = max(sizes)
        r512, dev = fig10(t, a, q)
        hits = [abs(r512 / PAPER_RATIO - 1) <= RATIO_TOL, dev <= SMALL_TOL]
        word = "reproduced" if all(hits) else "partial" if any(hits) else "not reproduced"
        dd, dh = (a, q, big, "binomial_doubling"), (a, q, big, "binomial_halving")
        print("| %s | %d | %.0f / %.0f | %.2f | %.1f / %.1f | %.0f %% | %s |" % (
            a, q, t[dd] * 1e3, t[dh] * 1e3, r512, link[dd] / 2**30, link[dh] / 2**30,
            100 * dev, word))
    print()


def main(argv):
    rows = read(argv[1] if len(argv) > 1 else "results/pico/pico_bcast/results.csv")
    bad = [r for r in rows if r["status"] != "ok"]
    print("Rows: %d (%d traffic, %d flow); not ok: %d\n" % (
        len(rows), sum(r["model"] == "traffic" for r in rows),
        sum(r["model"] == "cm02" for r in rows), len(bad)))
    tracer(rows)
    times(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
