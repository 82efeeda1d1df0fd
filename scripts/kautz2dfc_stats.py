#!/usr/bin/env python3
"""kautz2dfc_stats.py - statistics of the issue-9 scenarios (results/kautz-2dfc/*).

  kautz2dfc_stats.py dfc   results/kautz-2dfc/kautz_dfc/results.csv
      per (model, collective, block): best Kautz algorithm and its speedup over DF-C
  kautz2dfc_stats.py twodfc results/kautz-2dfc/twodfc/results.csv
      per (model, shape, bandwidth, collective, block): best algorithm, MD over DO
      (thesis anchors: allreduce 32 MB 1.38x / 1.30x / 1.17x on 4x4 / 8x8 / 16x16)
  kautz2dfc_stats.py p2p   results/kautz-2dfc/kautz_p2p/results.csv
      per (model, d, size): single-path time / multi-path time, averaged over the
      destinations (expected (2d^2+d-2)/(3(d+1)) for large messages: 10.3 at d = 16)
  kautz2dfc_stats.py p2p-md | dfc-md | twodfc-md  results.csv
      the Markdown tables of results/kautz-2dfc/README.md (same numbers)
Reads only results.csv (rows with status ok); standard library only.
"""
import csv
import sys
from collections import defaultdict


def rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def dfc(path):
    g = defaultdict(dict)
    for r in rows(path):
        b = int(r["size_bytes"]) // int(r["ranks"])
        g[(r["model"], r["collective"], b)][r["algorithm"]] = float(r["time_s"])
    print("model coll       block_B    best_kautz        t_us      DF-C_us   DF-C/best")
    for (m, c, b), t in sorted(g.items()):
        k = {a: v for a, v in t.items() if a.startswith("kautz")}
        if not k or "df_c" not in t:
            continue
        best = min(k, key=k.get)
        print(f"{m:5} {c:10} {b:9} {best:16} {k[best]*1e6:9.1f} {t['df_c']*1e6:10.1f}"
              f" {t['df_c']/k[best]:9.2f}")


def twodfc(path):
    g = defaultdict(dict)
    for r in rows(path):
        bw = [kv.split("=")[1] for kv in r["topology"].split() if kv.startswith("local_bw=")]
        b = int(r["size_bytes"]) // int(r["ranks"])
        key = (r["model"], r["dims"], bw[0] if bw else "preset", r["collective"], b)
        g[key][r["algorithm"] + (" " + r["params"] if r["params"] else "")] = float(r["time_s"])
    print("model shape bw       coll       block_B   best                 DO/MD  MT/MD")
    for (m, d, bw, c, b), t in sorted(g.items()):
        best = min(t, key=t.get)
        md, do, mt = t.get("2dfc_md"), t.get("2dfc_do"), t.get("2dfc_multitree")
        r1 = f"{do/md:6.2f}" if md and do else "   n/a"
        r2 = f"{mt/md:6.2f}" if md and mt else "   n/a"
        print(f"{m:5} {d:5} {bw:8} {c:10} {b:9} {best:20} {r1} {r2}")


def p2p(path):
    g = defaultdict(lambda: defaultdict(dict))
    for r in rows(path):
        P = int(r["ranks"])
        g[(r["model"], P, int(r["size_bytes"]))][r["dst"]][r["algorithm"]] = float(r["time_s"])
    print("model  d   size_B       dsts  mean(single/multi)  min    max   expected")
    for (m, P, s), per in sorted(g.items()):
        d = int((P ** 0.5))
        ratios = [v["kautz_shortest"] / v["kautz_multipath"] for v in per.values()
                  if "kautz_shortest" in v and "kautz_multipath" in v]
        if ratios:
            exp = (2 * d * d + d - 2) / (3 * (d + 1))
            print(f"{m:5} {d:3} {s:10} {len(ratios):6} {sum(ratios)/len(ratios):14.2f}"
                  f" {min(ratios):8.2f} {max(ratios):6.2f} {exp:8.2f}")


def mb(b):
    return "%g KB" % (b / 1e3) if b < 1000000 else "%g MB" % (b / 1e6)


def p2p_md(path):
    g = defaultdict(lambda: defaultdict(dict))
    for r in rows(path):
        g[(r["model"], int(r["ranks"]))][int(r["size_bytes"])].setdefault(r["dst"], {})[
            r["algorithm"]] = float(r["time_s"])
    sizes = sorted({s for v in g.values() for s in v})
    print("| model | d | " + " | ".join(mb(s) for s in sizes) +
          " | min .. max at %s | destinations | (2d²+d−2)/(3(d+1)) |" % mb(sizes[-1]))
    print("|---" * (len(sizes) + 5) + "|")
    for (m, P), per_size in sorted(g.items()):
        d = int(P ** 0.5)
        cells, last = [], []
        for s in sizes:
            xs = [v["kautz_shortest"] / v["kautz_multipath"] for v in per_size.get(s, {}).values()
                  if "kautz_shortest" in v and "kautz_multipath" in v]
            cells.append("%.2f" % (sum(xs) / len(xs)) if xs else "")
            last = xs or last
        print("| %s | %d | %s | %.2f .. %.2f | %d | %.2f |" % (
            m, d, " | ".join(cells), min(last), max(last), len(last),
            (2 * d * d + d - 2) / (3 * (d + 1))))


def dfc_md(path):
    g = defaultdict(dict)
    for r in rows(path):
        g[(r["model"], r["collective"], int(r["size_bytes"]) // int(r["ranks"]))][
            r["algorithm"]] = float(r["time_s"])
    blocks = sorted({k[2] for k in g})
    print("DF-C time / best Kautz time (the best Kautz variant in the last column):\n")
    print("| model | collective | " + " | ".join(mb(b) for b in blocks) + " | best variant(s) |")
    print("|---" * (len(blocks) + 3) + "|")
    for m, c in sorted({(k[0], k[1]) for k in g}):
        cells, best = [], set()
        for b in blocks:
            t = g.get((m, c, b), {})
            k = {a: v for a, v in t.items() if a.startswith("kautz")}
            if k and "df_c" in t:
                a = min(k, key=k.get)
                best.add(a)
                cells.append("%.2f" % (t["df_c"] / k[a]))
            else:
                cells.append("")
        print("| %s | %s | %s | %s |" % (m, c, " | ".join(cells), ", ".join(sorted(best))))
    variants = sorted({a for t in g.values() for a in t if a.startswith("kautz")})
    print("\nPer variant, DF-C time / variant time, smallest and largest block:\n")
    print("| model | collective | block | " + " | ".join(variants) + " |")
    print("|---" * (len(variants) + 3) + "|")
    for (m, c, b), t in sorted(g.items()):
        if b in (blocks[0], blocks[-1]) and "df_c" in t:
            print("| %s | %s | %s | %s |" % (m, c, mb(b), " | ".join(
                "%.2f" % (t["df_c"] / t[a]) if a in t else "" for a in variants)))


def twodfc_md(path):
    g = defaultdict(dict)
    for r in rows(path):
        bw = [kv.split("=")[1] for kv in r["topology"].split() if kv.startswith("local_bw=")][0]
        g[(r["model"], r["dims"], bw, r["collective"], int(r["size_bytes"]) // int(r["ranks"]))][
            r["algorithm"]] = float(r["time_s"])
    ratio = lambda t: "%.2f" % (t["2dfc_do"] / t["2dfc_md"]) if t else ""
    print("DO time / MD time at 32 MB, 100 Gb/s (allreduce MD = DO reduce-scatter + MD "
          "allgather, `2dfc_md`; pure MD `2dfc_md_both`):\n")
    print("| model | shape | allreduce | allreduce, pure MD | alltoall | allgather |")
    print("|---|---|---|---|---|---|")
    for m in sorted({k[0] for k in g}):
        for shape in sorted({k[1] for k in g}, key=lambda s: int(s.split("x")[0])):
            t = {c: g.get((m, shape, "100Gbps", c, 32000000)) for c in
                 ("allreduce", "alltoall", "allgather")}
            if not any(t.values()):
                continue
            ar = t["allreduce"]
            print("| %s | %s | %s | %s | %s | %s |" % (m, shape, ratio(ar), "%.2f" % (
                ar["2dfc_do"] / ar["2dfc_md_both"]) if ar else "", ratio(t["alltoall"]),
                ratio(t["allgather"])))
    print("\n8x8 bandwidth sweep, MD time / DO time at 16 MB (thesis Fig. 4.13: alltoall "
          "0.70 / 0.89 / 0.95):\n")
    bws = sorted({k[2] for k in g if k[1] == "8x8"}, key=lambda b: int(b[:-4]))
    print("| model | collective | " + " | ".join(bws) + " |")
    print("|---" * (len(bws) + 2) + "|")
    for m in sorted({k[0] for k in g}):
        for c in ("alltoall", "allgather", "allreduce"):
            cells = []
            for bw in bws:
                t = g.get((m, "8x8", bw, c, 16000000))
                cells.append("%.2f" % (t["2dfc_md"] / t["2dfc_do"]) if t else "")
            print("| %s | %s | %s |" % (m, c, " | ".join(cells)))
    print("\nDO/MD over every block, shape and bandwidth (allgather, alltoall), and where MD "
          "is not the best of the three topology-aware algorithms:\n")
    print("| model | collective | DO/MD min .. max | MT/MD min .. max | points | MD not best of DO/MT/MD |")
    print("|---|---|---|---|---|---|")
    for m in sorted({k[0] for k in g}):
        for c in ("allgather", "alltoall", "allreduce"):
            pts = [t for k, t in g.items() if k[0] == m and k[3] == c]
            do = [t["2dfc_do"] / t["2dfc_md"] for t in pts]
            mt = [t["2dfc_multitree"] / t["2dfc_md"] for t in pts]
            nb = sum(t["2dfc_md"] > min(t["2dfc_do"], t["2dfc_multitree"]) for t in pts)
            print("| %s | %s | %.2f .. %.2f | %.2f .. %.2f | %d | %d |" % (
                m, c, min(do), max(do), min(mt), max(mt), len(pts), nb))


if __name__ == "__main__":
    cmds = {"dfc": dfc, "twodfc": twodfc, "p2p": p2p, "p2p-md": p2p_md, "dfc-md": dfc_md,
            "twodfc-md": twodfc_md}
    if len(sys.argv) != 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2])
