#!/usr/bin/env python3
"""bine_endpoint_stats.py - the "Endpoint costs" tables of results/bine/README.md, from
results/bine/bine_lumi_endpoint/results.csv (scenarios/bine_lumi_endpoint.lua).

    python3 scripts/bine_endpoint_stats.py [RESULTS_DIR] [SECTION]   (default results/bine)

Sections: params (the endpoint parameters of each variant, from the model column),
reproduce (the LUMI network-only rows against the same point ids of bine_lumi/), linear
(linear gather / scatter / alltoall against the best Bine algorithm, costs off and on),
pairs (Bine vs its binomial counterpart, the paper's Tables 3 and 4, per variant). Without
SECTION, all of them. Standard library only.

A row's variant (variant()): the machine (lumi, leonardo) and "off" (topology word
endpoint=none), "on" (the preset's own endpoint keys) or "on+o" (the preset's keys and
overheads given as sweep keys: the model column names a send_overhead the preset lacks),
followed by a nic_ports=N override of the topology when there is one.
Speedup of Bine over X = t_X / t_Bine (> 1: Bine faster); a win is > 1.01, a loss < 0.99.
"""
import csv
import math
import os
import sys
from collections import defaultdict

NAME = "bine_lumi_endpoint"
VARIANTS = ["lumi off", "lumi on", "lumi on+o", "lumi on+o nic_ports=1", "leonardo off",
            "leonardo on"]
BINE = {"bine", "bine_latency", "bine_bandwidth", "bine_scatter_allgather", "bine_rs_gather"}
# the paper's Tables 3 / 4: Bine algorithm(s) vs the binomial counterpart(s)
PAIRS = {"allreduce": ({"bine_latency", "bine_bandwidth"},
                       {"recursive_doubling", "rabenseifner order=nearest"}),
         "allgather": ({"bine", "bine strategy=permute"}, {"recursive_doubling"}),
         "reduce_scatter": ({"bine", "bine strategy=permute"}, {"recursive_halving"}),
         "alltoall": ({"bine"}, {"bruck"}),
         "bcast": ({"bine", "bine_scatter_allgather"}, {"binomial_halving", "scatter_allgather"}),
         "reduce": ({"bine", "bine_rs_gather"}, {"binomial", "rabenseifner"}),
         "gather": ({"bine"}, {"binomial"}),
         "scatter": ({"bine"}, {"binomial"})}
ORDER = ["allreduce", "allgather", "reduce_scatter", "alltoall", "bcast", "reduce", "gather",
         "scatter"]


def read_csv(path, ok_only=True):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if not ok_only or r["status"] == "ok"]


def variant(r):
    words = r["topology"].split()
    machine = os.path.basename(words[0]).split(".")[0]
    extra = "".join(" " + w for w in words[1:] if w.startswith("nic_ports="))
    if "endpoint=none" in words:
        return machine + " off" + extra
    preset_has_o = machine == "leonardo"  # platforms/endpoint/*.yaml: only Leonardo's sets o
    if "send_overhead=" in r["model"] and not preset_has_o:
        return machine + " on+o" + extra
    return machine + " on" + extra


def name(r):
    return r["algorithm"] + (" " + r["params"] if r["params"] else "")


def times(rows):
    """{variant: {(collective, ranks, size): {algorithm name: time_s}}}"""
    out = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        out[variant(r)][(r["collective"], int(r["ranks"]), int(r["size_bytes"]))][name(r)] = \
            float(r["time_s"])
    return out


def speedups(cells, coll, bine, base):
    """t_base / t_bine per configuration of coll: best of `bine` vs best of `base`."""
    out = {}
    for (c, p, n), t in cells.items():
        b = [t[a] for a in bine if a in t]
        o = [t[a] for a in base if a in t]
        if c == coll and b and o:
            out[(p, n)] = min(o) / min(b)
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def size_text(n):
    for u, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= f:
            return "%d %s" % (n // f, u)
    return "%d B" % n


def params(rows):
    seen = defaultdict(lambda: [set(), 0])
    for r in rows:
        v = seen[variant(r)]
        v[0].add((r["topology"], r["model"]))
        v[1] += 1
    print("| variant | topology | model column (the endpoint parameters in use) | ok rows |")
    print("|---|---|---|---|")
    for v in VARIANTS:
        if v in seen:
            for topo, model in sorted(seen[v][0]):
                print("| %s | `%s` | `%s` | %d |" % (v, topo, model, seen[v][1]))
    print()


def reproduce(resdir, rows):
    """The LUMI network-only rows against bine_lumi/'s rows of the same id."""
    ref = {r["id"]: r for r in read_csv(os.path.join(resdir, "bine_lumi", "results.csv"),
                                        ok_only=False)}
    cols = ["status", "time_s", "bytes_host", "bytes_local", "bytes_global",
            "bytes_intergroup_msgs", "max_link_bytes", "messages", "steps", "model"]
    off = [r for r in rows if variant(r) == "lumi off"]
    found = [r for r in off if r["id"] in ref]
    same = [r for r in found if all(r[c] == ref[r["id"]][c] for c in cols)]
    print("LUMI network-only rows (`endpoint=none`): %d; with a row of the same id in "
          "bine_lumi/: %d; identical in %s: %d." % (len(off), len(found), ", ".join(cols),
                                                     len(same)))
    print()


def linear(cells):
    """Linear vs the best Bine algorithm: per collective and variant, and per point."""
    print("| collective | variant | configs | linear faster (> 1 %) | Bine faster (> 1 %) | "
          "geomean t_linear / t_Bine | at 32 B | at 8 MiB |")
    print("|---|---|---|---|---|---|---|---|")
    for coll in ("gather", "scatter", "alltoall"):
        for v in VARIANTS:
            sp = speedups(cells.get(v, {}), coll, BINE, {"linear"})
            if not sp:
                continue
            def rng(n):
                xs = [x for (p, m), x in sp.items() if m == n]
                return "%.2f..%.2f" % (min(xs), max(xs)) if xs else ""
            print("| %s | %s | %d | %d | %d | %.2f | %s | %s |" % (
                coll, v, len(sp), sum(x < 0.99 for x in sp.values()),
                sum(x > 1.01 for x in sp.values()), geomean(list(sp.values())), rng(32),
                rng(8 << 20)))
    print()
    print("t_linear / t_Bine per point (best Bine algorithm; < 1: linear faster):")
    print()
    head = [v for v in VARIANTS if v in cells]
    print("| collective | nodes | size | %s |" % " | ".join(head))
    print("|---|---|---|%s" % ("---|" * len(head)))
    for coll in ("gather", "scatter", "alltoall"):
        per = {v: speedups(cells[v], coll, BINE, {"linear"}) for v in head}
        for key in sorted(set().union(*[set(s) for s in per.values()])):
            print("| %s | %d | %s | %s |" % (coll, key[0], size_text(key[1]), " | ".join(
                "%.2f" % per[v][key] if key in per[v] else "" for v in head)))
    print()


def pairs(cells):
    head = [v for v in VARIANTS if v in cells]
    print("Bine vs its binomial counterpart (the paper's Tables 3 / 4 pairs), per variant: "
          "win % / loss % of the configurations (geomean speedup):")
    print()
    print("| collective | Bine | counterpart | %s |" % " | ".join(head))
    print("|---|---|---|%s" % ("---|" * len(head)))
    # the pairs, then Bine's allgather / reduce-scatter with its default strategy alone
    block = [(c, {"bine"}, PAIRS[c][1]) for c in ("allgather", "reduce_scatter")]
    for coll, bine, base in [(c,) + PAIRS[c] for c in ORDER] + block:
        cell = []
        for v in head:
            sp = list(speedups(cells[v], coll, bine, base).values())
            cell.append("%.0f / %.0f (%.2f)" % (100.0 * sum(x > 1.01 for x in sp) / len(sp),
                                               100.0 * sum(x < 0.99 for x in sp) / len(sp),
                                               geomean(sp)) if sp else "")
        print("| %s | %s | %s | %s |" % (coll, "/".join(sorted(bine)), "/".join(sorted(base)),
                                         " | ".join(cell)))
    print()


def main(argv):
    resdir = argv[1] if len(argv) > 1 else "results/bine"
    section = argv[2] if len(argv) > 2 else None
    rows = read_csv(os.path.join(resdir, NAME, "results.csv"))
    if not rows:
        sys.exit("bine_endpoint_stats.py: no ok rows in %s" % os.path.join(resdir, NAME))
    cells = times(rows)
    run = {"params": lambda: params(rows), "reproduce": lambda: reproduce(resdir, rows),
           "linear": lambda: linear(cells), "pairs": lambda: pairs(cells)}
    if section is not None and section not in run:
        sys.exit("bine_endpoint_stats.py: unknown section '%s' (allowed: %s)"
                 % (section, ", ".join(run)))
    for s in ([section] if section else run):
        run[s]()


if __name__ == "__main__":
    main(sys.argv)
