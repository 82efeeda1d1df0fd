#!/usr/bin/env python3
"""point_cost_fit.py - fits the constants of collsim run's per-point time estimate
(src/sweep/point_cost.c) on measured points: DIR/results.csv and DIR/timings.csv of a run
of scripts/bench/point_cost.lua (scripts/bench/point_cost.sh makes them).

Per model family, the measured wall time of a point is fitted as a sum of non-negative
terms, minimising the squared *relative* error (the points span milliseconds to a
minute):
    flow (cm02, lv08, smpi)  base + a*P + b*M + c*M*(M/steps)*sqrt(H)
                             (M/steps: messages in flight; H: the torus' hosts, or P if more)
    packet                   base + b*M + d*(bytes sent / mtu)*sqrt(H)*sqrt(M/steps)
    analytic, traffic        base + b*M
M is the messages column (all ranks' sends), steps the steps column. The bytes sent of
a point come from its algorithm's definition (the only ones the bench runs):
    allreduce ring, rabenseifner, bine_bandwidth: 2(P-1)n; recursive_doubling: n P log2 P;
    alltoall linear: (P-1)n (n is one rank's send buffer, docs/results.md).
Prints the constants, then each point's estimate / measured ratio and their spread.
usage: point_cost_fit.py DIR
"""
import csv
import itertools
import math
import sys


def bytes_sent(row):
    P, n = int(row["ranks"]), float(row["size_bytes"])
    alg = row["algorithm"]
    if alg in ("ring", "rabenseifner", "bine_bandwidth"):
        return 2 * (P - 1) * n
    if alg == "recursive_doubling":
        return n * P * math.log2(P)
    if alg == "linear" and row["collective"] == "alltoall":
        return (P - 1) * n
    raise SystemExit("point_cost_fit.py: no bytes formula for %s %s" % (row["collective"], alg))


def family(model):
    if model.startswith("packet"):
        return "packet"
    return model if model in ("analytic", "traffic") else "flow"


def features(fam, row):
    P, M, steps = float(row["ranks"]), float(row["messages"]), float(row["steps"])
    dims = row["topology"].split("dims=")[1].split()[0]
    H = max(math.prod(int(d) for d in dims.split("x")), P)
    inflight = M / steps if steps > 1 else M
    if fam == "flow":
        return [1.0, P, M, M * inflight * math.sqrt(H)]
    if fam == "packet":
        return [1.0, M, math.ceil(bytes_sent(row) / 4096.0) * math.sqrt(H) * math.sqrt(inflight)]
    return [1.0, M]


def solve(A, y):
    """Least squares by the normal equations (a few unknowns); None if singular."""
    k = len(A[0])
    N = [[sum(a[i] * a[j] for a in A) for j in range(k)] + [sum(a[i] * v for a, v in zip(A, y))]
         for i in range(k)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(N[r][c]))
        if abs(N[p][c]) < 1e-300:
            return None
        N[c], N[p] = N[p], N[c]
        for r in range(k):
            if r != c:
                f = N[r][c] / N[c][c]
                N[r] = [x - f * z for x, z in zip(N[r], N[c])]
    return [N[i][k] / N[i][i] for i in range(k)]


def fit(X, y):
    """Non-negative least squares of relative error: the best subset of terms whose
    coefficients all come out >= 0 (few terms: every subset is tried)."""
    k = len(X[0])
    best, best_err = [0.0] * k, float("inf")
    for r in range(1, k + 1):
        for keep in itertools.combinations(range(k), r):
            A = [[x[i] / v for i in keep] for x, v in zip(X, y)]
            c = solve(A, [1.0] * len(y))
            if c is None or min(c) < 0:
                continue
            coef = [0.0] * k
            for i, v in zip(keep, c):
                coef[i] = v
            err = sum((sum(a * b for a, b in zip(coef, x)) / v - 1) ** 2 for x, v in zip(X, y))
            if err < best_err:
                best, best_err = coef, err
    return best


def main():
    d = sys.argv[1]
    wall = {r["id"]: float(r["wall_s"]) for r in csv.DictReader(open(d + "/timings.csv"))}
    rows = [r for r in csv.DictReader(open(d + "/results.csv")) if r["status"] == "ok"]
    names = {"flow": ["base", "per rank", "per message", "per message x in flight x sqrt(H)"],
             "packet": ["base", "per message", "per packet x sqrt(H) x sqrt(in flight)"],
             "analytic": ["base", "per message"], "traffic": ["base", "per message"]}
    for fam in ("flow", "packet", "analytic", "traffic"):
        pts = [r for r in rows if family(r["model"]) == fam]
        X = [features(fam, r) for r in pts]
        y = [wall[r["id"]] for r in pts]
        coef = fit(X, y)
        print("%s (%d points): %s" % (fam, len(pts), ", ".join(
            "%s %.3g s" % (n, c) for n, c in zip(names[fam], coef))))
        ratios = []
        for r, x, v in zip(pts, X, y):
            est = sum(a * b for a, b in zip(coef, x))
            ratios.append(est / v)
            print("  %-9s %-20s P=%-5s n=%-8s measured %8.3f s  estimate %8.3f s  x%.2f" % (
                r["collective"], r["algorithm"], r["ranks"], r["size_bytes"], v, est, est / v))
        print("  estimate / measured: min x%.2f, max x%.2f" % (min(ratios), max(ratios)))


if __name__ == "__main__":
    main()
