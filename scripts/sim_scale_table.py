#!/usr/bin/env python3
"""sim_scale_table.py - the tables of results/sim-scale/README.md.

    python3 scripts/sim_scale_table.py results/sim-scale/sim_scale.csv
    python3 scripts/sim_scale_table.py results/sim-scale/sim_scale_loop.csv \
        --against results/sim-scale/sim_scale.csv

Reads the CSV of scripts/bench/sim_scale.sh (SIM_SCALE_CSV: one row per run: case, tool,
P, topology, model, simulated seconds, wall, CPU seconds, peak RSS in MiB) and prints
one table of every run, then for each P of the side-by-side case the smpirun / collsim
ratios of wall time, CPU time and peak RSS and the relative difference of the two
simulated times (collsim --model smpi, and collsim --model cm02 --flow-engine loop, rows
of model "cm02 loop", when the CSV has them). When a (case, tool, P) was run several times (several chains), the
median of each figure is used. With --against, the loop engine's rows (model "cm02 loop",
--flow-engine loop) of the first CSV against SimGrid's cm02 rows of the second: CPU
ratios, simulated times, and the issue's CPU targets. Standard library only.
"""
import csv
import statistics
import sys


def median(rows, key):
    return statistics.median(float(r[key]) for r in rows)


def read_runs(path):
    """(case, tool, P, topology, model) -> rows, and the keys in file order."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    runs, order = {}, []
    for r in rows:
        key = (r["case"], r["tool"], int(r["P"]), r["topology"], r["model"])
        if key not in runs:
            runs[key] = []
            order.append(key)
        runs[key].append(r)
    return runs, order


def against(loop_csv, simgrid_csv):
    """The loop engine's rows (model "cm02 loop") against SimGrid's cm02 rows of the same
    case, P and topology: CPU and wall ratios, simulated times; then the issue's targets."""
    loop, order = read_runs(loop_csv)
    sg, _ = read_runs(simgrid_csv)
    print("| case | P | CPU s simgrid | CPU s loop | CPU simgrid / loop | simulated us simgrid "
          "| simulated us loop | difference |")
    print("|---|---|---|---|---|---|---|---|")
    for key in order:
        case, tool, P, topo, model = key
        other = sg.get((case, tool, P, topo, "cm02"))
        if model != "cm02 loop" or not other:
            continue
        a, b = loop[key], other
        ta, tb = median(a, "simulated_s"), median(b, "simulated_s")
        print("| {} | {:,} | {:.2f} | {:.2f} | x{:.1f} | {:.2f} | {:.2f} | {:+.3%} |".format(
            case, P, median(b, "cpu_s"), median(a, "cpu_s"),
            median(b, "cpu_s") / median(a, "cpu_s"), tb * 1e6, ta * 1e6, (ta - tb) / tb))
    print()
    targets = {("ring", 1024): 5.0, ("pairwise", 1024): 5.0, ("fixed", 1024): 0.1,
               ("ring", 4096): 60.0, ("pairwise", 4096): 60.0}
    for key in order:
        case, tool, P, topo, model = key
        if model == "cm02 loop" and (case, P) in targets:
            cpu, limit = median(loop[key], "cpu_s"), targets[(case, P)]
            print("- {} at P = {:,}: {:.2f} CPU s, target {} s: {}.".format(
                case, P, cpu, limit, "met" if cpu < limit else "not met"))


def main(argv):
    if len(argv) == 4 and argv[2] == "--against":
        against(argv[1], argv[3])
        return
    if len(argv) != 2:
        sys.exit(__doc__)
    runs, order = read_runs(argv[1])
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
        for cmodel in ("smpi", "cm02 loop"):
            other = runs.get(("side_by_side", "collsim", P, topo, cmodel))
            if not other:
                continue
            s, c = runs[key], other
            sim_s, sim_c = median(s, "simulated_s"), median(c, "simulated_s")
            print("P = {:,} ({}): smpirun / collsim{}: wall x{:.1f}, CPU x{:.1f}, peak RSS "
                  "x{:.1f}; simulated times {:.2f} us and {:.2f} us ({:+.2%}).".format(
                      P, topo, "" if cmodel == "smpi" else " (" + cmodel + ")",
                      median(s, "wall_s") / median(c, "wall_s"),
                      median(s, "cpu_s") / median(c, "cpu_s"),
                      median(s, "peak_rss_mib") / median(c, "peak_rss_mib"), sim_s * 1e6,
                      sim_c * 1e6, (sim_c - sim_s) / sim_s))


if __name__ == "__main__":
    main(sys.argv)
