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
  packet    the packet model's rows: time per algorithm, size and failure count (mean
            over the seeds) with minimal and with adaptive routing, and adaptive / minimal
  packet-summary  adaptive / minimal and the slowdown from the faults, over algorithms and
            sizes, per failure count
The sections times .. summary use the flow model's rows (model cm02), the packet sections
the packet model's (model "packet routing=R ..."). The number of failed links and the seed come from the topology column
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


def model_of(row):
    """'cm02', or the packet model's routing ('minimal', 'adaptive')."""
    words = row["model"].split()
    if words[0] != "packet":
        return words[0]
    return dict(w.split("=", 1) for w in words[1:])["routing"]


def load(path):
    """{model: {(algorithm, size, nfailed): [time_s per seed]}}, and the sorted sizes and
    failure counts of the cm02 rows."""
    tables, sizes, counts = {}, set(), set()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["status"] != "ok":
                sys.exit("faults_torus_table.py: point %s is %s: %s"
                         % (r["point"], r["status"], r["error"]))
            n, _seed = failed_links(r["topology"])
            size, model = int(r["size_bytes"]), model_of(r)
            tables.setdefault(model, {}).setdefault((r["algorithm"], size, n), []).append(
                float(r["time_s"]))
            if model == "cm02":
                sizes.add(size)
                counts.add(n)
    return tables, sorted(sizes), sorted(counts)


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


def packet_keys(tables):
    """The (algorithm, size, nfailed) of the packet rows, in table order; exits when a
    routing lacks a point the other has."""
    mini, adap = tables.get("minimal", {}), tables.get("adaptive", {})
    if not mini or set(mini) != set(adap):
        sys.exit("faults_torus_table.py: the packet rows need the same points with minimal "
                 "and adaptive routing")
    return sorted(mini, key=lambda k: (ORDER.index(k[0]), k[1], k[2]))


def table_packet(tables, sizes, counts):
    print("| algorithm | size | failed links | minimal (us) | adaptive (us) | adaptive / minimal |")
    print("|---|---|---|---|---|---|")
    for k in packet_keys(tables):
        m, a = mean(tables["minimal"], k), mean(tables["adaptive"], k)
        print("| %s | %s | %d | %.2f | %.2f | %.2f |" % (k[0], size_text(k[1]), k[2], m * 1e6,
                                                        a * 1e6, a / m))


def packet_summary(tables, sizes, counts):
    keys = packet_keys(tables)
    mini, adap = tables["minimal"], tables["adaptive"]
    for n in sorted({k[2] for k in keys}):
        at = [k for k in keys if k[2] == n]
        ratios = [mean(adap, k) / mean(mini, k) for k in at]
        line = ("- %d failed links: adaptive / minimal %.2f on average, %.2f .. %.2f"
                % (n, statistics.mean(ratios), min(ratios), max(ratios)))
        if n:
            slow = [(mean(mini, k) / mean(mini, (k[0], k[1], 0)),
                     mean(adap, k) / mean(adap, (k[0], k[1], 0))) for k in at]
            line += ("; slowdown from the faults %.2fx minimal, %.2fx adaptive"
                     % (statistics.mean(x[0] for x in slow), statistics.mean(x[1] for x in slow)))
        print(line + " (%d points: algorithms x sizes)." % len(at))
    best = min(keys, key=lambda k: mean(adap, k) / mean(mini, k))
    worst = max(keys, key=lambda k: mean(adap, k) / mean(mini, k))
    for word, k in (("Most", best), ("Least", worst)):
        print("- %s gained by adaptive routing: %s, %s, %d failed links (%.2f)."
              % (word, k[0], size_text(k[1]), k[2], mean(adap, k) / mean(mini, k)))


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    tables, sizes, counts = load(argv[1])
    if 0 not in counts or len(counts) < 2:
        sys.exit("faults_torus_table.py: need rows of the intact torus and with faults")
    flow = {"times": table_times, "slowdown": table_slowdown, "ranking": table_ranking,
            "summary": summary}
    packet = {"packet": table_packet, "packet-summary": packet_summary}
    which = [argv[2]] if len(argv) == 3 else list(flow) + list(packet)
    for i, name in enumerate(which):
        if name not in flow and name not in packet:
            sys.exit("faults_torus_table.py: unknown section '%s' (allowed: %s)"
                     % (name, ", ".join(list(flow) + list(packet))))
        if i:
            print()
        if name in flow:
            flow[name](tables["cm02"], sizes, counts)
        else:
            packet[name](tables, sizes, counts)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
