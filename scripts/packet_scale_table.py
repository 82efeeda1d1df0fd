#!/usr/bin/env python3
"""packet_scale_table.py - the table of results/packet-scale/README.md.

    python3 scripts/packet_scale_table.py results/packet-scale/packet_scale.csv

Reads the CSV of scripts/bench/packet_scale.sh (one row per run: P, case, routing, engine,
status, packet-hops, CPU seconds, packet-hops per CPU second, peak RSS, simulated time)
and prints one line per (P, case, routing) with the loop engine's figures and the actors
engine's beside them (or why it has none: timeout, not run), then the loop engine's
best and worst packet-hops per CPU second at each P and the speed-up over the actors
engine where both finished. Standard library only.
"""
import csv
import sys


def fmt_int(v):
    return "{:,}".format(int(float(v)))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    runs, order = {}, []
    for r in rows:
        key = (int(r["P"]), r["algorithm"], r["size"], r["routing"])
        if key not in runs:
            runs[key] = {}
            order.append(key)
        runs[key][r["engine"]] = r
    print("| P | case | routing | packet-hops | CPU s | hops / CPU s | peak RSS (MiB) | "
          "simulated (us) | actors: CPU s | actors: hops / CPU s | actors: RSS (MiB) | "
          "actors: simulated (us) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rates, speedups = {}, {}
    for key in order:
        P, alg, size, routing = key
        loop, act = runs[key].get("loop"), runs[key].get("actors")
        cells = [str(P), "%s %s" % (alg, size), routing]
        if loop and loop["status"] == "ok":
            cells += [fmt_int(loop["packet_hops"]), loop["cpu_s"], fmt_int(loop["hops_per_cpu_s"]),
                      loop["peak_rss_mib"], "%.1f" % (float(loop["sim_time_s"]) * 1e6)]
            rates.setdefault(P, []).append(float(loop["hops_per_cpu_s"]))
        else:
            cells += [loop["status"] if loop else "not run"] + [""] * 4
        if act and act["status"] == "ok":
            cells += [act["cpu_s"], fmt_int(act["hops_per_cpu_s"]), act["peak_rss_mib"],
                      "%.1f" % (float(act["sim_time_s"]) * 1e6)]
            if loop and loop["status"] == "ok":
                speedups.setdefault(P, []).append(float(act["cpu_s"]) / float(loop["cpu_s"]))
        else:
            cells += [act["status"] if act else "not run"] + [""] * 3
        print("| " + " | ".join(cells) + " |")
    print()
    for P in sorted(rates):
        line = "P = %s: loop engine %s to %s packet-hops per CPU second" % (
            "{:,}".format(P), fmt_int(min(rates[P])), fmt_int(max(rates[P])))
        if P in speedups:
            line += "; %.1fx to %.1fx less CPU than the actors engine" % (
                min(speedups[P]), max(speedups[P]))
        print(line + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
