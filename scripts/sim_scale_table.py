#!/usr/bin/env python3
"""sim_scale_table.py - the tables of results/sim-scale/README.md.

    python3 scripts/sim_scale_table.py results/sim-scale/sim_scale.csv

Reads the CSV of scripts/bench/sim_scale.sh (SIM_SCALE_CSV: one row per run: case, tool,
P, topology, model, simulated seconds, wall, CPU seconds, peak RSS in MiB) and prints
one table of every run, then for each P of the side-by-side case the smpirun / collsim
ratios of wall time, CPU time and peak RSS and the relative difference of the two
simulated times. When a (case, tool, P) was run several times (several chains), the
median of each figure is used. Standard library only.
"""
import csv
import statistics
import sys


def median(rows, key):
    return statistics.median(float(r[key]) for r in rows)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    runs, order = {}, []
    for r in rows:
        key = (r["case"], r["tool"], int(r["P"]), r["topology"], r["model"])
        if key not in runs:
            runs[key] = []
            order.append(key)
        runs[key].append(r)
    print("| case | tool | P | topology | model | runs | simulated (us) | wall s | CPU s | "
          "peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for key in order:
        case, tool, P, topo, model = key
        rs = runs[key]
        print("| {} | {} | {:,} | {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:,.0f} |".format(
            case, tool, P, topo, model, len(rs), median(rs, "simulated_s") * 1e6,
            median(rs, "wall_s"), median(rs, "cpu_s"), median(rs, "peak_rss_mib")))
    print()
    for key in order:
        case, tool, P, topo, model = key
        if case != "side_by_side" or tool != "smpirun":
            continue
        other = runs.get(("side_by_side", "collsim", P, topo, "smpi"))
        if not other:
            continue
        s, c = runs[key], other
        sim_s, sim_c = median(s, "simulated_s"), median(c, "simulated_s")
        print("P = {:,} ({}): smpirun / collsim: wall x{:.1f}, CPU x{:.1f}, peak RSS x{:.1f}; "
              "simulated times {:.2f} us and {:.2f} us ({:+.2%}).".format(
                  P, topo, median(s, "wall_s") / median(c, "wall_s"),
                  median(s, "cpu_s") / median(c, "cpu_s"),
                  median(s, "peak_rss_mib") / median(c, "peak_rss_mib"), sim_s * 1e6,
                  sim_c * 1e6, (sim_c - sim_s) / sim_s))


if __name__ == "__main__":
    main(sys.argv)
