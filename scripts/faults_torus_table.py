#!/usr/bin/env python3
"""faults_torus_table.py - the tables of results/faults-torus/README.md, from its CSV.

usage: python3 scripts/faults_torus_table.py results/faults-torus/run/results.csv [SECTION]

SECTION (default all):
  times     allreduce time (us) per algorithm and size: intact torus, then 1, 2 and 4
            failed links (mean over the seeds, [min .. max])
  slowdown  time with faults / time intact, mean over the seeds, per failure count
  ranking   the fastest algorithm per size and failure count (mean time), and Swing (the
            faster of swing_latency and swing_bandwidth) against the best of ring, bucket
            and recursive doubling: their time over Swing's
  summary   the largest and smallest mean slowdowns, and whether the fastest algorithm
            changes with faults
The number of failed links and the seed come from the topology column
(fail_links=random:N fault_seed=S; no fail_links: the intact torus). Rows whose status is
not ok stop the script (a study with a missing point is not summarised). Standard library
only.
"""
import csv
import statistics
import sys

SWING = ("swing_latency", "swing_bandwidth")
OTHERS = ("ring", "bucket", "recursive_doubling")
ORDER = SWING + OTHERS


def size_text(n):
    for unit, k in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= k and n % k == 0:
            return "%d %s" % (n // k, unit)
    return "%d B" % n


def failed_links(topology):
    """(number of failed links, seed) of a topology spec; (0, None) when intact."""
    words = dict(w.split("=", 1) for w in topology.split()[1:] if "=" in w)
    spec = words.get("fail_links", "")
    if not spec:
        return 0, None
    if not spec.startswith("random:"):
        sys.exit("faults_torus_table.py: unexpected fail_links=%s" % spec)
    return int(spec.split(":")[1]), int(words.get("fault_seed", "1"))


def load(path):
    """{(algorithm, size, nfailed): [time_s per seed]} and the sorted sizes, counts."""
    times, sizes, counts = {}, set(), set()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                sys.exit("faults_torus_table.py: point %s is %s: %s"
                         % (r["point"], r["status"], r["error"]))
            n, _seed = failed_links(r["topology"])
            size = int(r["size_bytes"])
            times.setdefault((r["algorithm"], size, n), []).append(float(r["time_s"]))
            sizes.add(size)
            counts.add(n)
    return times, sorted(sizes), sorted(counts)


def mean(times, key):
    return statistics.mean(times[key])


def table_times(times, sizes, counts):
    faulty = [n for n in counts if n]
    print("| algorithm | size | intact (us) | "
          + " | ".join("%d failed (us)" % n for n in faulty) + " |")
    print("|---|---|---|" + "---|" * len(faulty))
    for alg in ORDER:
        for s in sizes:
            cells = ["%.2f" % (mean(times, (alg, s, 0)) * 1e6)]
            for n in faulty:
                v = times[(alg, s, n)]
                cells.append("%.2f [%.2f .. %.2f]" % (statistics.mean(v) * 1e6, min(v) * 1e6,
                                                      max(v) * 1e6))
            print("| %s | %s | %s |" % (alg, size_text(s), " | ".join(cells)))


def slowdown(times, alg, s, n):
    return mean(times, (alg, s, n)) / mean(times, (alg, s, 0))


def table_slowdown(times, sizes, counts):
    faulty = [n for n in counts if n]
    print("| algorithm | " + " | ".join(size_text(s) for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for alg in ORDER:
        cells = []
        for s in sizes:
            cells.append(" / ".join("%.2fx" % slowdown(times, alg, s, n) for n in faulty))
        print("| %s | %s |" % (alg, " | ".join(cells)))
    print("\nEach cell: %s failed links." % ", ".join(str(n) for n in faulty))


def fastest(times, s, n, algs):
    return min(algs, key=lambda a: mean(times, (a, s, n)))


def table_ranking(times, sizes, counts):
    print("| size | failed links | fastest | Swing | best other | best other / Swing |")
    print("|---|---|---|---|---|---|")
    for s in sizes:
        for n in counts:
            sw = fastest(times, s, n, SWING)
            ot = fastest(times, s, n, OTHERS)
            print("| %s | %d | %s | %s | %s | %.2f |" % (
                size_text(s), n, fastest(times, s, n, ORDER), sw, ot,
                mean(times, (ot, s, n)) / mean(times, (sw, s, n))))


def summary(times, sizes, counts):
    faulty = [n for n in counts if n]
    cells = [(slowdown(times, a, s, n), a, s, n) for a in ORDER for s in sizes for n in faulty]
    hi, lo = max(cells), min(cells)
    print("- Largest mean slowdown: %.2fx (%s, %s, %d failed links)."
          % (hi[0], hi[1], size_text(hi[2]), hi[3]))
    print("- Smallest mean slowdown: %.2fx (%s, %s, %d failed links)."
          % (lo[0], lo[1], size_text(lo[2]), lo[3]))
    for alg in ORDER:
        one = [slowdown(times, alg, s, faulty[0]) for s in sizes]
        print("- %s: mean slowdown over the sizes %.2fx with %d failed link(s), %.2fx with %d."
              % (alg, statistics.mean(one), faulty[0],
                 statistics.mean(slowdown(times, alg, s, faulty[-1]) for s in sizes),
                 faulty[-1]))
    changed = [(s, n) for s in sizes for n in faulty
               if fastest(times, s, n, ORDER) != fastest(times, s, 0, ORDER)]
    if changed:
        print("- The fastest algorithm changes with faults at: %s." % ", ".join(
            "%s with %d failed" % (size_text(s), n) for s, n in changed))
    else:
        print("- The fastest algorithm is the same with and without faults at every size.")


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    times, sizes, counts = load(argv[1])
    if 0 not in counts or len(counts) < 2:
        sys.exit("faults_torus_table.py: need rows of the intact torus and with faults")
    sections = {"times": table_times, "slowdown": table_slowdown, "ranking": table_ranking,
                "summary": summary}
    which = [argv[2]] if len(argv) == 3 else list(sections)
    for i, name in enumerate(which):
        if name not in sections:
            sys.exit("faults_torus_table.py: unknown section '%s' (allowed: %s)"
                     % (name, ", ".join(sections)))
        if i:
            print()
        sections[name](times, sizes, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
