#!/usr/bin/env python3
"""alltoallv_stats.py - statistics of the issue-8 scenarios (results/alltoallv/*).

  alltoallv_stats.py radix    results/alltoallv/alltoallv_radix/results.csv
      best ParLogNa radix per (machine, P, S), with sqrt(P) and the r=2 / r=P times
  alltoallv_stats.py parlinna results/alltoallv/alltoallv_parlinna/results.csv
      best (radix, batch_size) per (machine, variant, S)
  alltoallv_stats.py compare  results/alltoallv/alltoallv_compare/results.csv
      per (machine, workload): the best variant of each algorithm and its speedup
      over the best baseline; where it is slower but sends under half the messages per rank,
      the per-message software cost that would make it win ("break-even")
  alltoallv_stats.py radix-md | best-md | parlinna-md | compare-md  results.csv
      the Markdown tables of results/alltoallv/README.md (same numbers): the time of
      every radix per (machine, P, S), the best radix, the best ParLinNa variants, the
      comparison with the baselines; on a CSV with endpoint costs (issue 24) every table
      has an "endpoint" column (the endpoint keys of the row's model column, or "off")
  alltoallv_stats.py regimes-md results.csv
      the best radix per (machine, endpoint, P, S), the regime it is in (~2: r <= 4;
      ~sqrt(P): sqrt(P)/2 <= r <= 2 sqrt(P); ~P: r >= P/2) and the paper's regime for S
      (Figure 6: ~2 below 512 B, ~sqrt(P) up to 8 KiB, ~P above 8 KiB on Polaris and above
      32 KiB on Fugaku)
Reads only results.csv (rows with status ok); standard library only.
"""
import csv
import math
import sys
from collections import defaultdict

BASELINES = {"scattered", "linear", "pairwise", "xor", "spread_out", "bruck"}


def rows(path):
    with open(path, newline="") as f:
        return [r for r in csv.DictReader(f) if r["status"] == "ok"]


def machine(r):
    return r["topology"].split("/")[-1].split(".")[0]


ENDPOINT_KEYS = ("send_overhead", "recv_overhead", "msg_gap", "envelope", "eager_limit")


def endpoint(r):
    """The endpoint part of the model column ("send_overhead=3160ns recv_overhead=3160ns"
    -> "o_s=3160ns o_r=3160ns"), "off" when it names none (all zero)."""
    short = {"send_overhead": "o_s", "recv_overhead": "o_r", "msg_gap": "g",
             "envelope": "env", "eager_limit": "eager"}
    kv = [w.split("=", 1) for w in r["model"].split() if "=" in w]
    words = ["%s=%s" % (short[k], v) for k, v in kv if k in ENDPOINT_KEYS]
    return " ".join(words) or "off"


def has_endpoint(path):
    with open(path, newline="") as f:
        return any(endpoint(r) != "off" for r in csv.DictReader(f))


def mlabel(r, with_ep):
    """The machine, and its endpoint setting when the CSV has endpoint costs."""
    return machine(r) + ("|" + endpoint(r) if with_ep else "")


def mcells(m):
    """The table cells of an mlabel: "Polaris" or "Polaris | o_s=..."."""
    parts = m.split("|")
    return " | ".join([parts[0].capitalize()] + parts[1:])


def radix(path):
    groups = defaultdict(dict)
    for r in rows(path):
        key = (machine(r), int(r["ranks"]), int(r["size_bytes"]))
        groups[key][int(r["params"].split("=")[1])] = float(r["time_s"])
    print("machine  P     S      best_r  sqrtP  t_best_us  t_r2/t_best  t_rP/t_best")
    for (m, P, S), t in sorted(groups.items()):
        best = min(t, key=t.get)
        print(f"{m:8} {P:5} {S:6} {best:7} {math.sqrt(P):6.1f} {t[best]*1e6:10.1f}"
              f" {t.get(2, float('nan'))/t[best]:11.2f} {t.get(P, float('nan'))/t[best]:12.2f}")


def parlinna(path):
    groups = defaultdict(dict)
    for r in rows(path):
        groups[(machine(r), r["algorithm"], int(r["size_bytes"]))][r["params"]] = float(r["time_s"])
    print("machine  variant             S      best params               t_best_us  worst/best")
    for (m, a, S), t in sorted(groups.items()):
        best = min(t, key=t.get)
        print(f"{m:8} {a:19} {S:6} {best:25} {t[best]*1e6:10.1f} {max(t.values())/t[best]:10.2f}")


def break_even_us(t_alg, m_alg, t_base, m_base):
    """The software cost per message (us) above which an algorithm sending m_alg messages
    per rank would beat a baseline sending m_base, if every message added that cost to
    its rank's time (the additive model T + m o; the simulations charge none)."""
    return (t_alg - t_base) / (m_base - m_alg) * 1e6


def compare(path):
    """Workloads in the order of the rows (the plan's order); rows that are not ok (a
    timeout, an error) are named, since the best baseline is then the best finished one."""
    groups = defaultdict(dict)
    msgs = defaultdict(dict)  # messages per rank
    missing = defaultdict(list)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (machine(r), int(r["ranks"]), r["workload"].split(":seed")[0])
            name = r["algorithm"] + (" " + r["params"] if r["params"] else "")
            t = groups[key]  # creates the group in row order
            if r["status"] == "ok":
                t[name] = float(r["time_s"])
                msgs[key][name] = int(r["messages"]) / int(r["ranks"])
            else:
                missing[key].append(f"{name} ({r['status']})")
    for (m, P, w), t in groups.items():
        base = {k: v for k, v in t.items() if k.split()[0] in BASELINES}
        if not base:
            print(f"{m} P={P} {w}: no baseline row yet")
            continue
        bname = min(base, key=base.get)
        print(f"{m} P={P} {w}: best baseline {bname} {base[bname]*1e6:.1f} us")
        if missing[(m, P, w)]:
            print(f"    not ok: {', '.join(missing[(m, P, w)])}")
        best_of = {}
        for k, v in t.items():
            a = k.split()[0]
            if a not in BASELINES and (a not in best_of or v < t[best_of[a]]):
                best_of[a] = k
        mpr = msgs[(m, P, w)]
        for a, k in sorted(best_of.items()):
            line = f"    {k:45} {t[k]*1e6:10.1f} us  speedup {base[bname]/t[k]:6.2f}x"
            if t[k] > base[bname] and 2 * mpr[k] < mpr[bname]:  # markedly fewer messages
                line += f"  break-even {break_even_us(t[k], mpr[k], base[bname], mpr[bname]):.3f} us/msg"
            print(line)
        winner = min(t, key=t.get)
        print(f"    overall best: {winner}")


def size_text(n):
    return "%d KiB" % (n >> 10) if n >= 1024 else "%d B" % n


def radix_groups(path):
    groups, ep = defaultdict(dict), has_endpoint(path)
    for r in rows(path):
        groups[(int(r["ranks"]), mlabel(r, ep), int(r["size_bytes"]))][
            int(r["params"].split("=")[1])] = float(r["time_s"])
    return groups


def head(path):
    """The first header cells: "machine" and, with endpoint costs, "endpoint"."""
    return "machine | endpoint" if has_endpoint(path) else "machine"


def radix_md(path):
    """Per P: the time (us) of every radix, best in bold."""
    groups = radix_groups(path)
    for P in sorted({k[0] for k in groups}):
        rs = sorted({x for k, t in groups.items() if k[0] == P for x in t})
        print("**P = %d** (times in us, best in bold):\n" % P)
        print("| %s | S | " % head(path) + " | ".join("r=%d" % x for x in rs) + " | best |")
        print("|---" * (len(rs) + 2 + head(path).count("|") + 1) + "|")
        for (p, m, S), t in sorted(groups.items(), key=lambda kv: (kv[0][0], not kv[0][1].startswith("polaris"), kv[0][1].split("|")[0], not kv[0][1].endswith("|off"), kv[0][1], kv[0][2])):
            if p != P:
                continue
            b = min(t, key=t.get)
            cell = lambda x: "" if x not in t else ("**%.0f**" if x == b else "%.0f") % (t[x] * 1e6)
            print("| %s | %s | %s | %d |" % (mcells(m), size_text(S),
                                             " | ".join(cell(x) for x in rs), b))
        print()


def best_md(path):
    groups = radix_groups(path)
    print("| %s | P | S | best r | sqrt(P) | t_best (us) | r=2 / best | r=P / best |" % head(path))
    print("|---" * (8 + head(path).count("|")) + "|")
    for (P, m, S), t in sorted(groups.items(), key=lambda kv: (not kv[0][1].startswith("polaris"), kv[0])):
        b = min(t, key=t.get)
        print("| %s | %d | %s | %d | %.1f | %.1f | %.2f | %.2f |" % (
            mcells(m), P, size_text(S), b, math.sqrt(P), t[b] * 1e6,
            t.get(2, float("nan")) / t[b], t.get(P, float("nan")) / t[b]))


def parlinna_md(path):
    groups, ep = defaultdict(dict), has_endpoint(path)
    for r in rows(path):
        groups[(mlabel(r, ep), int(r["size_bytes"]), r["algorithm"])][r["params"]] = float(r["time_s"])
    print("| %s | S | variant | best (radix, batch; 0 = all) | t_best (us) | worst / best | points |" % head(path))
    print("|---" * (7 + head(path).count("|")) + "|")
    for (m, S, a), t in sorted(groups.items()):
        b = min(t, key=t.get)
        print("| %s | %s | %s | %s | %.1f | %.2f | %d |" % (mcells(m), size_text(S), a, b,
              t[b] * 1e6, max(t.values()) / t[b], len(t)))


def compare_md(path):
    """Per workload: best baseline, each algorithm's best variant as a speedup over it."""
    groups, msgs, bad = defaultdict(dict), defaultdict(dict), defaultdict(int)
    ep = has_endpoint(path)
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (mlabel(r, ep), int(r["ranks"]), r["workload"].split(":seed")[0])
            t = groups[key]
            name = r["algorithm"] + (" " + r["params"] if r["params"] else "")
            if r["status"] == "ok":
                t[name] = float(r["time_s"])
                msgs[key][name] = int(r["messages"]) / int(r["ranks"])
            else:
                bad[key] += 1
    algs = ("parlinna_coalesced", "parlinna_staggered", "parlogna")
    print("| %s | P | workload | best baseline | coalesced ParLinNa | staggered ParLinNa | "
          "best ParLogNa | best overall | break-even, coalesced (us/msg) | not ok |" % head(path))
    print("|---" * (10 + head(path).count("|")) + "|")
    for (m, P, w), t in groups.items():
        base = {k: v for k, v in t.items() if k.split()[0] in BASELINES}
        if not base:
            continue
        bname = min(base, key=base.get)
        cells, be = [], ""
        for a in algs:
            ks = [k for k in t if k.split()[0] == a]
            if not ks:
                cells.append("")
                continue
            k = min(ks, key=t.get)
            cells.append("%.2fx (%s)" % (base[bname] / t[k], k.split(" ", 1)[1] if " " in k else ""))
            if a == "parlinna_coalesced" and t[k] > base[bname] and 2 * msgs[(m, P, w)][k] < msgs[(m, P, w)][bname]:
                be = "%.3f" % break_even_us(t[k], msgs[(m, P, w)][k], base[bname], msgs[(m, P, w)][bname])
        print("| %s | %d | %s | %s, %.1f us | %s | %s | %s | %s | %s | %s |" % (
            mcells(m), P, w, bname, base[bname] * 1e6, cells[0], cells[1], cells[2],
            min(t, key=t.get), be, bad[(m, P, w)] or ""))


def regime(r, P):
    """The paper's regime a radix is in: "~2", "~sqrt(P)", "~P", or "between"."""
    if r <= 4:
        return "~2"
    if math.sqrt(P) / 2 <= r <= 2 * math.sqrt(P):
        return "~sqrt(P)"
    return "~P" if r >= P / 2 else "between"


def paper_regime(m, S):
    """Figure 6 (digest section 8.2): ~2 below 512 B, ~sqrt(P) from 512 B to 8 KiB, ~P
    above 8 KiB on Polaris and above 32 KiB on Fugaku (U-shaped, ~sqrt(P), below)."""
    if S < 512:
        return "~2"
    return "~P" if S > (8 if m.startswith("polaris") else 32) * 1024 else "~sqrt(P)"


def regimes_md(path):
    """The best radix per (machine, endpoint, P, S), its regime and the paper's; then one
    line per (machine, endpoint, P): how many sizes are in the paper's regime."""
    groups = radix_groups(path)
    hd = head(path)
    print("| %s | P | S | best r | its regime | paper's regime | same | t_best (us) | "
          "r=2 / best | r=sqrt(P) / best | r=P / best |" % hd)
    print("|---" * (11 + hd.count("|")) + "|")
    tally = defaultdict(list)
    order = lambda kv: (kv[0][1].split("|")[0] != "polaris", kv[0][1].split("|")[0],
                        not kv[0][1].endswith("|off"), kv[0][1], kv[0][0], kv[0][2])
    for (P, m, S), t in sorted(groups.items(), key=order):
        b = min(t, key=t.get)
        sq = min(t, key=lambda x: abs(x - math.sqrt(P)))
        got, want = regime(b, P), paper_regime(m, S)
        tally[(m, P)].append((S, b, got == want))
        print("| %s | %d | %s | %d | %s | %s | %s | %.1f | %.2f | %.2f | %.2f |" % (
            mcells(m), P, size_text(S), b, got, want, "yes" if got == want else "no",
            t[b] * 1e6, t.get(2, float("nan")) / t[b], t[sq] / t[b],
            t.get(P, float("nan")) / t[b]))
    msgs = {}  # messages a rank per (P, radix): the schedule's, the same in every row
    for r in rows(path):
        msgs[(int(r["ranks"]), int(r["params"].split("=")[1]))] = int(r["messages"]) / int(r["ranks"])
    print()
    print("| %s | P | best r over S (16 B ..) | sizes in the paper's regime | "
          "messages a rank, r = 2 / ~sqrt(P) / P |" % hd)
    print("|---" * (5 + hd.count("|")) + "|")
    for (m, P), xs in sorted(tally.items(), key=lambda kv: (kv[0][0].split("|")[0] != "polaris",
                                                            kv[0][0].split("|")[0],
                                                            not kv[0][0].endswith("|off"), kv[0])):
        sq = min((r for p, r in msgs if p == P), key=lambda x: abs(x - math.sqrt(P)))
        print("| %s | %d | %s | %d of %d | %s |" % (
            mcells(m), P, ", ".join(str(b) for _, b, _ in xs), sum(ok for _, _, ok in xs),
            len(xs), " / ".join("%g" % msgs.get((P, r), float("nan")) for r in (2, sq, P))))


if __name__ == "__main__":
    cmds = {"regimes-md": regimes_md, "radix": radix, "parlinna": parlinna, "compare": compare, "radix-md": radix_md,
            "best-md": best_md, "parlinna-md": parlinna_md, "compare-md": compare_md}
    if len(sys.argv) != 3 or sys.argv[1] not in cmds:
        sys.exit(__doc__)
    cmds[sys.argv[1]](sys.argv[2])
