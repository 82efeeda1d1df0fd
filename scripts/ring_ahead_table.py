#!/usr/bin/env python3
"""ring_ahead_table.py - the table of results/smpi-crosscheck/README.md's section on
libbine's ring (allreduce ring_recv_ahead against SMPI running the same communication).

    python3 scripts/ring_ahead_table.py results/smpi-crosscheck/ring_ahead.csv

Reads the CSV written by scripts/ring_ahead_smpi.sh and prints a summary (the largest
|difference| where both sides charge the reductions alike, the range where they do not)
and one Markdown row per case. Standard library only.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from smpi_crosscheck_table import size_text  # noqa: E402  (one size format for both tables)


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        r["d"] = float(r["collsim_time_s"]) / float(r["smpi_time_s"]) - 1
    same = [r["d"] for r in rows if r["smpi_reduce"] == r["collsim_reduce"]]
    mixed = [r["d"] for r in rows if r["smpi_reduce"] != r["collsim_reduce"]]
    big = [r["d"] for r in rows if r["smpi_reduce"] == r["collsim_reduce"]
           and int(r["size_bytes"]) >= 1 << 20]
    print("**Reductions charged alike on both sides: %d cases within %.2f %% (%.2f %% from "
          "1 MiB up); SMPI free, collsim 10 GB/s: collsim slower by %.1f to %.1f %%.**\n"
          % (len(same), 100 * max(abs(d) for d in same), 100 * max(abs(d) for d in big),
             100 * min(mixed), 100 * max(mixed)))
    print("| topology | P | size | reductions: SMPI / collsim | smpirun (s) | collsim (s) | difference |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %s | %s | %s / %s | %.6g | %.6g | %+.2f %% |" % (
            r["topology"], r["ranks"], size_text(int(r["size_bytes"])), r["smpi_reduce"],
            r["collsim_reduce"], float(r["smpi_time_s"]), float(r["collsim_time_s"]),
            100 * r["d"]))


if __name__ == "__main__":
    main(sys.argv)
