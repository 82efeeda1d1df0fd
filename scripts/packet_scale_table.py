#!/usr/bin/env python3
"""packet_scale_table.py - the table of results/packet-scale/README.md.

    python3 scripts/packet_scale_table.py results/packet-scale/packet_scale.csv

Reads the CSV of scripts/bench/packet_scale.sh (one row per run: P, case, routing, engine,
status, packet-hops, CPU seconds, packet-hops per CPU second, peak RSS, simulated time,
and for the loop engine the setup and event-loop CPU seconds and the loop's packet-hops
per CPU second) and prints one line per (P, case, routing): the loop engine's figures,
the earlier loop engine's rate (engine `loop_<commit>`, rows kept from the previous
measurement) and the actors engine's, or why a run has none (timeout, not run). Then,
per P, the loop engine's range of packet-hops per CPU second (whole process and event
loop), its speed-up over the earlier loop engine and the actors engine where both
finished, and the issue's targets met or not. Standard library only.
"""
import csv
import sys

TARGETS = {1024: 10e6, 16384: 3e6}  # packet-hops per CPU second (issue 25)


def fmt_int(v):
    return "{:,}".format(int(float(v)))


def ok(r):
    return r is not None and r["status"] == "ok"


def loop_cells(r):
    if not ok(r):
        return [r["status"] if r else "not run"] + [""] * 7
    eng = [r["setup_cpu_s"], r["engine_cpu_s"],
           fmt_int(r["engine_hops_per_cpu_s"]) if r["engine_hops_per_cpu_s"] else ""]
    return [fmt_int(r["packet_hops"]), r["cpu_s"], fmt_int(r["hops_per_cpu_s"])] + eng + \
        [r["peak_rss_mib"], "%.1f" % (float(r["sim_time_s"]) * 1e6)]


def summary(P, loop_rows, before, actors):
    whole = [float(r["hops_per_cpu_s"]) for r in loop_rows]
    eng = [float(r["engine_hops_per_cpu_s"]) for r in loop_rows if r["engine_hops_per_cpu_s"]]
    line = "P = %s: loop engine %s to %s packet-hops per CPU second (event loop alone %s to %s)" % (
        "{:,}".format(P), fmt_int(min(whole)), fmt_int(max(whole)),
        fmt_int(min(eng)) if eng else "-", fmt_int(max(eng)) if eng else "-")
    if before:
        line += "; %.1fx to %.1fx less CPU than the earlier loop engine" % (min(before), max(before))
    if actors:
        line += "; %.1fx to %.1fx less than the actors engine" % (min(actors), max(actors))
    print(line + ".")
    if P in TARGETS:
        best = max(whole)
        print("Target at P = %s: %s packet-hops per CPU second; best %s (event loop alone %s): %s." % (
            "{:,}".format(P), fmt_int(TARGETS[P]), fmt_int(best),
            fmt_int(max(eng)) if eng else "-", "met" if best >= TARGETS[P] else "not met"))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    runs, order, before_name = {}, [], None
    for r in rows:
        key = (int(r["P"]), r["algorithm"], r["size"], r["routing"])
        if key not in runs:
            runs[key] = {}
            order.append(key)
        runs[key][r["engine"]] = r
        if r["engine"].startswith("loop_"):
            before_name = r["engine"]
    order.sort(key=lambda k: k[0])  # by P, stable: the measured order within a P
    print("| P | case | routing | packet-hops | CPU s | hops / CPU s | setup CPU s | loop CPU s "
          "| loop: hops / CPU s | peak RSS (MiB) | simulated (us) | earlier loop: hops / CPU s "
          "| actors: CPU s | actors: hops / CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    per_p = {}
    for key in order:
        P, alg, size, routing = key
        loop, act = runs[key].get("loop"), runs[key].get("actors")
        old = runs[key].get(before_name) if before_name else None
        cells = [str(P), "%s %s" % (alg, size), routing] + loop_cells(loop)
        cells += [fmt_int(old["hops_per_cpu_s"]) if ok(old) else (old["status"] if old else "not run")]
        cells += [act["cpu_s"], fmt_int(act["hops_per_cpu_s"])] if ok(act) else \
            [act["status"] if act else "not run", ""]
        print("| " + " | ".join(cells) + " |")
        s = per_p.setdefault(P, ([], [], []))
        if ok(loop):
            s[0].append(loop)
            if ok(old):
                s[1].append(float(old["cpu_s"]) / float(loop["cpu_s"]))
            if ok(act):
                s[2].append(float(act["cpu_s"]) / float(loop["cpu_s"]))
    print()
    for P in sorted(per_p):
        if per_p[P][0]:
            summary(P, *per_p[P])
    big = runs.get((16384, "rabenseifner", "16MiB", "ugal"), {}).get("loop")
    print("Target: P = 16,384 Rabenseifner 16 MiB with UGAL in under 15 minutes and 8 GiB: %s." % (
        "%s CPU s, %s MiB: %s" % (big["cpu_s"], big["peak_rss_mib"],
                                  "met" if float(big["cpu_s"]) < 900 and
                                  float(big["peak_rss_mib"]) < 8192 else "not met")
        if ok(big) else (big["status"] if big else "not run")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
