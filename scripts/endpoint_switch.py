#!/usr/bin/env python3
"""endpoint_switch.py - each endpoint claim with endpoint costs off and on (issue 24).

    python3 scripts/endpoint_switch.py PAPER
    python3 scripts/endpoint_switch.py --times results.csv [...]

prints a Markdown table: one row per claim of scripts/claims_spec/<paper>_endpoint.py,
its collsim value and verdict under every endpoint setting of that module (`SWITCH`:
"off" = all zero, then the settings with costs), computed from the same CSVs' rows of
each setting (the same points otherwise), and whether the verdict changes. A verdict that
changes between "off" and a setting with costs has the endpoint costs as its cause: the
points differ in nothing else (empty: fewer than two settings have data). Papers: alltoallv, kautz-2dfc.
--times: how much each setting with costs changes the time of the same points, per
(machine or topology, collective): the ratio time(setting) / time(off) over the points
that ran under both (min, median, max). Standard library only.
"""
import csv
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
MODULES = {"alltoallv": "alltoallv_endpoint", "kautz-2dfc": "kautz_2dfc_endpoint"}


def table(mod):
    names = mod.SWITCH
    per = {s: {(c.where, c.claim): c for c in mod.claims(s)} for s in names}
    keys = [(c.where, c.claim) for c in mod.claims(names[0])]
    head = ["where", "claim", "paper"]
    for s in names:
        head += ["%s: collsim" % s, "%s: verdict" % s]
    print("| " + " | ".join(head) + " | verdict changes |")
    print("|---" * (len(head) + 1) + "|")
    for k in keys:
        cells, verdicts = [k[0].replace(" [endpoint]", ""), k[1], per[names[0]][k].paper_value], []
        for s in names:
            c = per[s].get(k)
            if c is None:
                cells += ["", ""]
                continue
            value, verdict, _ = c.evaluate()
            cells += [value, verdict]
            verdicts.append(verdict)
        done = [v for v in verdicts if v != "not attempted"]
        cells.append("" if len(done) < 2 else "yes" if len(set(done)) > 1 else "no")
        print("| " + " | ".join(x.replace("|", "/") for x in cells) + " |")


def endpoint_words(model):
    keys = ("send_overhead=", "recv_overhead=", "msg_gap=", "envelope=", "eager_limit=")
    return " ".join(w for w in model.split() if w.startswith(keys)) or "off"


def times(paths):
    """Per CSV and (topology without options, collective, setting): time / time(off)."""
    print("| results | topology | collective | endpoint | points | time / time off: min | median | max |")
    print("|---|---|---|---|---|---|---|---|")
    for path in paths:
        with open(path, newline="") as f:
            ok = [r for r in csv.DictReader(f) if r["status"] == "ok"]
        t = {}
        for r in ok:
            ep = endpoint_words(r["model"])
            base = r["model"].replace(ep, "").strip() if ep != "off" else r["model"]
            key = (r["topology"], r["collective"], r["algorithm"], r["params"], r["ranks"],
                   r["size_bytes"], r["workload"], r["dims"], base)
            t.setdefault(key, {})[ep] = float(r["time_s"])
        ratios = {}
        for key, v in t.items():
            for ep, x in v.items():
                if ep != "off" and "off" in v:
                    g = (key[0].split()[0].split("/")[-1].replace(".yaml", ""), key[1], ep)
                    ratios.setdefault(g, []).append(x / v["off"])
        name = os.path.basename(os.path.dirname(path)) + "/"
        for g in sorted(ratios):
            xs = sorted(ratios[g])
            print("| `%s` | %s | %s | %s | %d | %.3f | %.3f | %.3f |" % (
                name, g[0], g[1], g[2], len(xs), xs[0], xs[len(xs) // 2], xs[-1]))


def main(argv):
    if len(argv) >= 3 and argv[1] == "--times":
        times(argv[2:])
        return 0
    if len(argv) != 2 or argv[1] not in MODULES:
        sys.exit("endpoint_switch.py: one paper of %s\n%s" % (", ".join(MODULES), __doc__))
    table(importlib.import_module("claims_spec." + MODULES[argv[1]]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
