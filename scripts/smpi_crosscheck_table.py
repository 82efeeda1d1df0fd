#!/usr/bin/env python3
"""smpi_crosscheck_table.py - the table and summary of results/smpi-crosscheck/README.md.

    python3 scripts/smpi_crosscheck_table.py results/smpi-crosscheck/crosscheck.csv

Reads the CSV written by scripts/smpi_crosscheck.sh (smpirun vs collsim --model smpi on
the same platform) and prints the number of cases, the largest and mean |difference|
against the 5 % tolerance, and one Markdown row per case. Standard library only.
"""
import csv
import sys

TOLERANCE = 0.05


def size_text(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 else "%d KiB" % (n >> 10)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    diffs = [float(r["collsim_time_s"]) / float(r["smpi_time_s"]) - 1 for r in rows]
    worst = max(abs(d) for d in diffs)
    print("**%d cases, %s within %.2f %%** (mean |difference| %.2f %%; the tolerance is "
          "%g %%).\n" % (len(rows), "all" if worst <= TOLERANCE else "NOT all", 100 * worst,
                         100 * sum(abs(d) for d in diffs) / len(diffs), 100 * TOLERANCE))
    print("| topology | P | collective | SMPI / collsim | size | smpirun (s) | collsim (s) | difference |")
    print("|---|---|---|---|---|---|---|---|")
    for r, d in zip(rows, diffs):
        print("| %s | %s | %s | %s / %s | %s | %.6g | %.6g | %+.2f %% |" % (
            r["topology"], r["ranks"], r["collective"], r["smpi_algorithm"],
            r["collsim_algorithm"], size_text(int(r["size_bytes"])), float(r["smpi_time_s"]),
            float(r["collsim_time_s"]), 100 * d))
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
