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


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("dfc", "twodfc", "p2p"):
        sys.exit(__doc__)
    {"dfc": dfc, "twodfc": twodfc, "p2p": p2p}[sys.argv[1]](sys.argv[2])
