#!/usr/bin/env python3
"""csv_table.py - print a CSV (or the rows of it matching col=value filters) as a Markdown table.

    python3 scripts/csv_table.py FILE.csv [COLUMN=VALUE ...] [--columns a,b,c]

For the results READMEs whose data is a small CSV of its own (results/fuzz/runs.csv,
results/packet-vs-flow/*.csv): the README embeds the output in a generated section, so the
table and the CSV cannot drift apart. Integers get thousands separators. Standard library.
"""
import csv
import sys


def cell(v):
    return "{:,}".format(int(v)) if v.isdigit() and len(v) > 4 else v


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    path, filters, cols = argv[1], [], None
    args = iter(argv[2:])
    for a in args:
        if a == "--columns":
            cols = next(args, "").split(",")
        elif "=" in a:
            filters.append(a.split("=", 1))
        else:
            sys.exit("csv_table.py: %r is neither COLUMN=VALUE nor --columns" % a)
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        cols = cols or [c for c in reader.fieldnames if c not in dict(filters)]
        bad = [c for c in cols + [k for k, _ in filters] if c not in reader.fieldnames]
        if bad:
            sys.exit("csv_table.py: %s: no column %s; allowed: %s"
                     % (path, ", ".join(bad), ", ".join(reader.fieldnames)))
        rows = [r for r in reader if all(r[k] == v for k, v in filters)]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(cell(r[c]) for c in cols) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
