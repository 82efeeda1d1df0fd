#!/usr/bin/env python3
"""bine_torus_order_stats.py - the tables of results/bine/README.md ("Why bine_torus trails
Swing on 32x256"), from the CSV of scenarios/bine_torus_order.lua: the torus-optimised
Bine allreduce in its two dimension orders (dim_order=round_robin, collsim's default, and
dim_order=rotation, libswing's) against Swing's, per 2D Fugaku shape.

    python3 scripts/bine_torus_order_stats.py RESULTS.csv [FUGAKU_FLOW.csv]

FUGAKU_FLOW.csv (results/bine/bine_fugaku_flow/results.csv) adds the flow times of Bine
(its default order) and of Swing multiport, which sends the messages of Bine's rotation
order multiport (tests/test_bine_torus_order.c). Standard library only; prints Markdown. Exits 1 naming
the point when a traffic shape lacks one of the compared algorithms.

Link-bytes = bytes_host + bytes_local + bytes_global (bytes x links crossed); max link =
max_link_bytes; ratios are Bine's over Swing's with the same ports (traffic) and
round_robin's over rotation's (flow).
"""
import csv
import sys
from collections import defaultdict


def fail(msg):
    sys.exit("bine_torus_order_stats.py: " + msg)


def read(path):
    try:
        with open(path, newline="") as f:
            return [r for r in csv.DictReader(f) if r["status"] == "ok"]
    except OSError as e:
        fail("%s: %s" % (path, e.strerror))


def param(r, key, default):
    for kv in r["params"].split():
        k, _, v = kv.partition("=")
        if k == key:
            return v
    return default


def shape(r):
    """the dims column, else the topology's dims= (the job's shape is the torus's)"""
    if r["dims"]:
        return r["dims"]
    for w in r["topology"].split():
        if w.startswith("dims="):
            return w[5:]
    fail("point %s: no dims in its row or topology" % r["point"])


def name(r):
    """'bine round_robin', 'bine rotation' or 'swing'"""
    if r["algorithm"] == "bine_torus":
        return "bine " + param(r, "dim_order", "round_robin")
    return "swing"


def shape_key(dims):
    a, b = (int(x) for x in dims.split("x"))
    return (b / a, a)


def traffic_table(rows):
    t = defaultdict(dict)
    for r in rows:
        if r["model"] == "traffic":
            lb = sum(int(r[c]) for c in ("bytes_host", "bytes_local", "bytes_global"))
            t[(shape(r), param(r, "ports", "?"))][name(r)] = (lb, int(r["max_link_bytes"]))
    print("Allreduce 8 MiB, traffic model: link-bytes (GB) and the most bytes on one link (MB); "
          "x Swing = Bine's max link over Swing's with the same ports.\n")
    print("| shape | ports | Bine round_robin: link-bytes / max link | x Swing | Bine rotation: "
          "link-bytes / max link | x Swing | Swing: link-bytes / max link |")
    print("|---|---|---|---|---|---|---|")
    for (dims, ports) in sorted(t, key=lambda k: (shape_key(k[0]), k[1])):
        v = t[(dims, ports)]
        for need in ("bine round_robin", "bine rotation", "swing"):
            if need not in v:
                fail("traffic point %s ports=%s lacks %s" % (dims, ports, need))
        s = v["swing"]
        cells = []
        for k in ("bine round_robin", "bine rotation"):
            cells += ["%.1f / %.2f" % (v[k][0] / 1e9, v[k][1] / 1e6), "%.2f" % (v[k][1] / s[1])]
        print("| %s | %s | %s | %.1f / %.2f |" % (dims, ports, " | ".join(cells), s[0] / 1e9,
                                                  s[1] / 1e6))
    print()


def flow_table(flow):
    """bine_fugaku_flow: Bine (round_robin, the default) against Swing multiport, whose
    messages are those of bine_torus dim_order=rotation multiport (test_bine_torus_order)."""
    t = defaultdict(dict)
    for r in flow:
        if r["collective"] != "allreduce" or r["model"] != "cm02":
            continue
        if r["algorithm"] == "bine_torus":
            t[(shape(r), int(r["size_bytes"]))]["bine " + param(r, "ports", "1")] = float(r["time_s"])
        elif r["algorithm"] == "swing_bandwidth" and param(r, "ports", "") == "multi":
            t[(shape(r), int(r["size_bytes"]))]["swing"] = float(r["time_s"])
    print("Allreduce, flow model (cm02, bine_fugaku_flow): time (ms). Swing multiport sends the "
          "messages of bine_torus dim_order=rotation ports=multi.\n")
    print("| shape | size | Bine round_robin, 1 port | Bine round_robin, multiport | Swing "
          "multiport = Bine rotation multiport | round_robin / rotation (multiport) |")
    print("|---|---|---|---|---|---|")
    for (dims, size) in sorted(t, key=lambda k: (shape_key(k[0]), k[1])):
        v = t[(dims, size)]
        if not all(k in v for k in ("bine 1", "bine multi", "swing")):
            fail("flow point %s %d B lacks Bine 1 / multi or Swing multi" % (dims, size))
        print("| %s | %d KiB | %.3f | %.3f | %.3f | %.2f |" % (
            dims, size >> 10, 1e3 * v["bine 1"], 1e3 * v["bine multi"], 1e3 * v["swing"],
            v["bine multi"] / v["swing"]))
    print()


def main(argv):
    if len(argv) not in (2, 3):
        fail("usage: bine_torus_order_stats.py RESULTS.csv [FUGAKU_FLOW.csv]")
    rows = read(argv[1])
    print("Rows: %d ok.\n" % len(rows))
    traffic_table(rows)
    if len(argv) == 3:
        flow_table(read(argv[2]))


if __name__ == "__main__":
    main(sys.argv)
