#!/usr/bin/env python3
"""packet_vs_flow_table.py - the table of results/packet-vs-flow/README.md.

    python3 scripts/packet_vs_flow_table.py results/packet-vs-flow/packet_vs_flow.csv

Reads the CSV of scripts/bench/packet_vs_flow.sh (collsim sim times under the flow model
and the packet model with minimal and a second routing) and prints them in us with the
packet model's difference to the flow model, and the largest |difference| of the minimal
routing. Then, over the fat-tree rows whose second routing is ECMP, how much the flow
model's single fixed path per host pair overstates the time: flow / packet ECMP (the
whole difference), split into flow / packet minimal (same routes: the models' sharing)
and packet minimal / packet ECMP (the routing alone). Standard library only.
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
    overstatement(rows)
    return 0


def ratio_range(xs):
    lo, hi = min(xs), max(xs)
    return "%.2fx" % lo if "%.2f" % lo == "%.2f" % hi else "%.2fx to %.2fx" % (lo, hi)


def overstatement(rows):
    """The sentence on the fat-tree rows with ECMP (nothing when there are none)."""
    ft = [r for r in rows if r["topology"].startswith("fattree") and r["routing2"] == "ecmp"]
    if not ft:
        return
    f, m, e = ([float(r[k]) for r in ft]
               for k in ("flow_s", "packet_minimal_s", "packet_routing2_s"))
    ps = sorted({int(r["ranks"]) for r in ft})
    print("\nFat tree with ECMP (%d rows, P = %s): the flow model's time is %s the packet "
          "model's with per-flow ECMP (flow / packet ECMP); of that, %s comes from the "
          "models' sharing on the same routes (flow / packet minimal) and %s from the "
          "routing (packet minimal / packet ECMP)." % (
              len(ft), ", ".join("{:,}".format(p) for p in ps),
              ratio_range([a / b for a, b in zip(f, e)]),
              ratio_range([a / b for a, b in zip(f, m)]),
              ratio_range([a / b for a, b in zip(m, e)])))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
