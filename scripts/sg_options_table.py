#!/usr/bin/env python3
"""sg_options_table.py - the SimGrid options table of results/sim-scale/README.md.

    python3 scripts/sg_options_table.py results/sim-scale/sg_options.csv

Reads the CSV of scripts/bench/sg_options.sh (option, case, P, simulated seconds, median
CPU seconds, runs) and prints, for every option and case, the CPU time, its ratio to the
default's, and the simulated time's relative change against the default ("same" when
the printed times are equal). Where an (option, case) has several rows (a later chain
re-ran it), the last one with a simulated time counts; "failed" when none has one.
Standard library only.
"""
import csv
import sys


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    base = {(r["case"], r["P"]): r for r in rows if r["option"] == "default" and r["simulated_s"]}
    cases = list(dict.fromkeys((r["case"], r["P"]) for r in rows))
    print("| option | " + " | ".join("{} P={} CPU s (x default) / simulated".format(c, p)
                                      for c, p in cases) + " |")
    print("|---|" + "---|" * len(cases))
    for opt in dict.fromkeys(r["option"] for r in rows):
        cells = []
        for c, p in cases:
            # the last run of (option, case) with a simulated time: a later chain re-ran it
            done = [x for x in rows if x["option"] == opt and (x["case"], x["P"]) == (c, p)
                    and x["simulated_s"]]
            r = done[-1] if done else None
            b = base.get((c, p))
            if r is None or not r["simulated_s"]:
                cells.append("failed")
                continue
            cpu, sim = float(r["cpu_s"]), float(r["simulated_s"])
            if b is None:
                cells.append("{:.2f}".format(cpu))
                continue
            bsim = float(b["simulated_s"])
            change = "same" if r["simulated_s"] == b["simulated_s"] else \
                "{:+.3g}%".format(100 * (sim - bsim) / bsim)
            cells.append("{:.2f} (x{:.2f}) / {}".format(cpu, cpu / float(b["cpu_s"]), change))
        print("| `{}` | {} |".format(opt, " | ".join(cells)))


if __name__ == "__main__":
    main(sys.argv)
