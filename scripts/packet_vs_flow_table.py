#!/usr/bin/env python3
"""packet_vs_flow_table.py - the table of results/packet-vs-flow/README.md.

    python3 scripts/packet_vs_flow_table.py results/packet-vs-flow/packet_vs_flow.csv

Reads the CSV of scripts/bench/packet_vs_flow.sh (collsim sim times under the flow model
and the packet model with minimal and a second routing) and prints them in us with the
packet model's difference to the flow model, and the largest |difference| of the minimal
routing. Standard library only.
"""
import csv
import sys


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    print("| topology | collective algorithm | P | size | placement | 2nd routing | flow (us) | "
          "packet minimal (us) | packet 2nd routing (us) |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for r in rows:
        f, m, a = (float(r[k]) for k in ("flow_s", "packet_minimal_s", "packet_routing2_s"))
        worst = max(worst, abs(m / f - 1))
        print("| `%s` | %s %s | %s | %s | %s | %s | %.1f | %.1f (%+.1f %%) | %.1f (%+.1f %%) |" % (
            r["topology"], r["collective"], r["algorithm"], r["ranks"], r["size"], r["placement"],
            r["routing2"], f * 1e6, m * 1e6, 100 * (m / f - 1), a * 1e6, 100 * (a / f - 1)))
    print("\nLargest |packet minimal / flow - 1|: %.1f %%." % (100 * worst))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
