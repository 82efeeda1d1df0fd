#!/usr/bin/env python3
"""claims.py - the claims tables of results/claims/, computed from the results CSVs.

    python3 scripts/claims.py write          regenerate results/claims/<paper>.csv and
                                             every generated section of results/**/README.md
    python3 scripts/claims.py check          exit 1 naming the first difference between
                                             the committed claims CSVs / README sections
                                             and what the scripts compute now
    python3 scripts/claims.py table PAPER    the Markdown claims table of one paper
                                             (what the results READMEs embed)
    python3 scripts/claims.py verdicts       a one-line sanity check of the verdict rule

Options: --dir DIR (where the claims CSVs are; default results/claims), --no-readmes
(write/check the CSVs only). Papers: bine, swing, alltoallv, kautz-2dfc, pico. The
paper's numbers, tolerances and the computations live in scripts/claims_spec/<paper>.py;
the verdict rule is in scripts/claims_spec/core.py. Standard library only.
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from claims_spec import core, bine, swing, alltoallv, kautz_2dfc, pico  # noqa: E402
import check_generated  # noqa: E402

MODULES = {m.PAPER: m for m in (bine, swing, alltoallv, kautz_2dfc, pico)}
COLUMNS = ["paper", "where", "claim", "setup", "baseline", "paper_value", "collsim_value",
           "tolerance", "verdict", "cause", "data", "pending"]


def ordered(claims):
    """The paper's own baselines first, then collsim's extra baselines (stable)."""
    return sorted(claims, key=lambda c: c.baseline != "paper")


def records(paper):
    out = []
    for c in ordered(MODULES[paper].CLAIMS):
        value, verdict, cause = c.evaluate()
        out.append({"paper": paper, "where": c.where, "claim": c.claim, "setup": c.setup,
                    "baseline": c.baseline, "paper_value": c.paper_value,
                    "collsim_value": value,
                    "tolerance": c.tolerance.text if c.tolerance else "",
                    "verdict": verdict, "cause": cause, "data": " ".join(c.data),
                    "pending": c.pending})
    return out


def csv_text(paper):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(records(paper))
    return buf.getvalue()


def table(paper):
    """Markdown: one row per claim, then the list of claims waiting for regenerated data."""
    recs = records(paper)
    lines = ["| where | claim | setup | baseline | paper | collsim | tolerance | verdict | cause |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in recs:
        cells = [r[k] for k in ("where", "claim", "setup", "baseline", "paper_value",
                                "collsim_value", "tolerance")]
        cells.append("**%s**%s" % (r["verdict"], " (pending)" if r["pending"] else ""))
        cells.append(r["cause"])
        lines.append("| " + " | ".join(x.replace("|", "/") for x in cells) + " |")
    counts = {v: sum(r["verdict"] == v for r in recs) for v in core.VERDICTS}
    lines.append("")
    lines.append("%d claims: " % len(recs) + ", ".join(
        "%d %s" % (n, v) for v, n in counts.items() if n) + ".")
    pend = [r for r in recs if r["pending"]]
    if pend:
        lines.append("(pending): the data of %d claim(s) is to be regenerated (%s); rerun "
                     "`python3 scripts/claims.py write` after it is." % (
                         len(pend), "; ".join(sorted({r["pending"] for r in pend}))))
    return "\n".join(lines)


def first_difference(paper, path):
    want = csv_text(paper)
    if not os.path.exists(path):
        return "%s: missing (run python3 scripts/claims.py write)" % path
    with open(path, newline="") as f:
        have = f.read()
    if have == want:
        return None
    hl, wl = have.splitlines(), want.splitlines()
    for i, (a, b) in enumerate(zip(hl, wl)):
        if a != b:
            return "%s:%d: committed\n    %s\nbut the spec and the CSVs give\n    %s" % (
                path, i + 1, a, b)
    return "%s: %d lines committed, %d computed" % (path, len(hl), len(wl))


def verdict_selftest():
    """The verdict rule on made-up claims (also run by tests/cli/claims.sh)."""
    mk = lambda v, d: core.Claim("t", "t", "t", "1", core.rel(1.0, 0.1),
                                 compute=lambda: core.Result(v, d), cause="c")
    got = [mk(1.05, False).evaluate()[1], mk(1.5, True).evaluate()[1],
           mk(1.5, False).evaluate()[1], core.Claim("t", "t", "t", "1").evaluate()[1],
           mk((0.95, 1.2), True).evaluate()[1],
           core.Claim("t", "t", "t", "1", core.rel(1.0, 0.1), compute=lambda: core.Result(1.0, True),
                      stale="old rows").evaluate()[1]]
    want = ["reproduced", "partial", "not reproduced", "not attempted", "partial",
            "not attempted"]
    if got != want:
        print("verdict rule broken: got %s, want %s" % (got, want))
        return 1
    print("ok verdict rule: " + ", ".join(want))
    return 0


def main(argv):
    args, cdir, readmes = [], os.path.join(core.ROOT, "results", "claims"), True
    it = iter(argv[1:])
    for a in it:
        if a == "--dir":
            cdir = next(it, None)
            if cdir is None:
                sys.exit("claims.py: --dir needs a directory")
        elif a == "--no-readmes":
            readmes = False
        else:
            args.append(a)
    if not args or args[0] not in ("write", "check", "table", "verdicts"):
        sys.exit(__doc__)
    cmd = args[0]
    if cmd == "verdicts":
        return verdict_selftest()
    if cmd == "table":
        if len(args) != 2 or args[1] not in MODULES:
            sys.exit("claims.py table: one paper of %s" % ", ".join(MODULES))
        print(table(args[1]))
        return 0
    if cmd == "write":
        os.makedirs(cdir, exist_ok=True)
        for p in MODULES:
            with open(os.path.join(cdir, p + ".csv"), "w", newline="") as f:
                f.write(csv_text(p))
        return check_generated.main(["check_generated.py", "--write"]) if readmes else 0
    for p in MODULES:
        diff = first_difference(p, os.path.join(cdir, p + ".csv"))
        if diff:
            print("claims.py check: " + diff)
            return 1
    print("ok claims CSVs (%s) match the spec and the results CSVs" % ", ".join(MODULES))
    return check_generated.main(["check_generated.py"]) if readmes else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
