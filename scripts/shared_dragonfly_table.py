#!/usr/bin/env python3
"""shared_dragonfly_table.py - the table and findings of results/shared-dragonfly/README.md.

    python3 scripts/shared_dragonfly_table.py results/shared-dragonfly/results.csv

Reads the results.csv of scenarios/shared_dragonfly.lua (one point per case, each with a
victim row and a bully row, in that order; `collsim sim --job victim --job bully` rows
read the same) and prints, per bully load, victim size
and victim algorithm: the victim's global-link bytes, its time alone and with the bully, its
slowdown (time with the bully / time alone) and the bully's, and where the bully's hosts
are (on the victim's routers, or in groups no route of the victim crosses: the control);
then the findings: the control's slowdowns, the algorithm with the smallest slowdown per
case, the mean slowdown per algorithm, and in how many cases the algorithm with the fewest
global bytes was also the least slowed, and Bine against each of the others, per model. Fails
(exit 1) on a run whose victim finished after the bully (then the bully did not cover the
victim's whole run) or on rows that do not come in victim/bully pairs of one point with
status ok. Standard library only.
"""
import csv
import sys


def pairs(rows):
    """[(victim, bully)] in file order; ValueError when rows are not victim/bully pairs."""
    if len(rows) % 2:
        raise ValueError("%d job rows: expected victim/bully pairs" % len(rows))
    out = []
    for i in range(0, len(rows), 2):
        v, b = rows[i], rows[i + 1]
        if v["job"] != "victim" or b["job"] != "bully":
            raise ValueError("rows %d-%d are jobs %s, %s: expected victim, bully"
                             % (i + 2, i + 3, v["job"], b["job"]))
        if v.get("point") != b.get("point") or v.get("status", "ok") != "ok" or \
                b.get("status", "ok") != "ok":
            raise ValueError("rows %d-%d: expected victim and bully of one point, status ok "
                             "(points %s, %s; status %s, %s)" % (i + 2, i + 3, v.get("point"),
                             b.get("point"), v.get("status"), b.get("status")))
        out.append((v, b))
    return out


def load_of(bully):
    """The bully's offered load from its params "load=L rounds=N seed=S"."""
    return dict(kv.split("=") for kv in bully["params"].split())["load"]


def hosts_of(placement):
    """Host ids of a placement "alloc:h[0,2,4-7]"."""
    inner = placement[placement.index("[") + 1:placement.rindex("]")]
    out = set()
    for item in inner.split(","):
        lo, _, hi = item.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def sharing(victim, bully):
    """Where the bully's hosts are: on the victim's routers, in its groups, or elsewhere
    (a Dragonfly "dragonfly p=P a=A ...": host x on router x // p, group x // (p a))."""
    keys = dict(kv.split("=") for kv in victim["topology"].split()[1:])
    p, a = int(keys.get("p", 2)), int(keys.get("a", 4))
    v, b = hosts_of(victim["placement"]), hosts_of(bully["placement"])
    if {x // p for x in v} & {x // p for x in b}:
        return "victim's routers"
    if {x // (p * a) for x in v} & {x // (p * a) for x in b}:
        return "victim's groups"
    return "other groups"


def model_text(row):
    """"cm02", or "packet minimal" / "packet ugal" from "packet routing=R mtu=.. ..."."""
    words = row["model"].split()
    routing = [w.split("=")[1] for w in words if w.startswith("routing=")]
    return words[0] + (" " + routing[0] if routing else "")


def size_text(n):
    n = int(n)
    for unit, f in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % f == 0:
            return "%d%s" % (n // f, unit)
    return "%dB" % n


def findings(model, cases):
    """The summary lines of one model's cases (lists of (algorithm, global bytes,
    slowdown, time with the bully))."""
    means = {}
    for algs in cases:
        for a in algs:
            means.setdefault(a[0], []).append(a[2])
    fewest_least = sum(min(algs, key=lambda a: a[2])[0] == min(algs, key=lambda a: a[1])[0]
                       for algs in cases)
    print()
    print("%s: mean victim slowdown over %d cases with the bully on the victim's routers: "
          "%s." % (model, len(cases), ", ".join(
              "%s %.3f" % (a, sum(x) / len(x))
              for a, x in sorted(means.items(), key=lambda kv: sum(kv[1]) / len(kv[1])))))
    print("%s: the algorithm with the fewest global-link bytes was also the least slowed in "
          "%d of %d cases." % (model, fewest_least, len(cases)))
    for other in ("rabenseifner", "ring"):
        both = [dict((a[0], a[1:]) for a in algs) for algs in cases]
        both = [d for d in both if "bine_bandwidth" in d and other in d]
        fewer = sum(d["bine_bandwidth"][0] < d[other][0] for d in both)
        less = sum(d["bine_bandwidth"][1] < d[other][1] for d in both)
        print("%s: Bine against %s: fewer global-link bytes in %d of %d cases, a smaller "
              "slowdown in %d of %d." % (model, other, fewer, len(both), less, len(both)))


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[1], newline="") as f:
        rows = list(csv.DictReader(f))
    try:
        runs = pairs(rows)
    except ValueError as e:
        sys.exit("%s: %s" % (argv[1], e))
    print("| model | bully hosts | bully ranks | bully load | victim size | victim algorithm | "
          "victim global bytes (MiB) | alone (us) | with the bully (us) | victim slowdown | "
          "bully slowdown |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    cases, late, control = {}, [], []
    for v, b in runs:
        load, size, where = load_of(b), size_text(v["size_bytes"]), sharing(v, b)
        model = model_text(v)
        end = float(v["start_s"]) + float(v["time_s"]) * int(v["reps"])
        if end > float(b["time_s"]):
            late.append("%s %s load %s %s" % (v["algorithm"], size, load, model))
        slow = float(v["slowdown"])
        if where == "other groups":
            control.append(slow)
        else:
            cases.setdefault((model, load, size), []).append(
                (v["algorithm"], int(v["bytes_global"]), slow, float(v["time_s"])))
        print("| %s | %s | %s | %s | %s | %s | %.1f | %.1f | %.1f | %.3f | %.3f |" % (
            model, where, b["ranks"], load, size, v["algorithm"], int(v["bytes_global"]) / 2**20,
            float(v["alone_time_s"]) * 1e6, float(v["time_s"]) * 1e6, slow,
            float(b["slowdown"])))
    if late:
        sys.exit("the victim outlived the bully in: " + "; ".join(late))
    print()
    if control:
        print("Control, the bully in groups no victim route crosses: victim slowdown %.6f to "
              "%.6f over %d runs." % (min(control), max(control), len(control)))
        print()
    for (model, load, size), algs in cases.items():
        best = min(algs, key=lambda a: a[2])
        fewest = min(algs, key=lambda a: a[1])
        fastest = min(algs, key=lambda a: a[3])
        print("- %s, load %s, %s: least slowed %s (%.3f), fastest with the bully %s, fewest "
              "global bytes %s" % (model, load, size, best[0], best[2], fastest[0], fewest[0]))
    for model in sorted({key[0] for key in cases}):
        findings(model, [algs for key, algs in cases.items() if key[0] == model])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
