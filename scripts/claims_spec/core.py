"""core.py - claim records, tolerances and the verdict rule of scripts/claims.py.

A verdict is never typed: it follows from collsim's value and the stated tolerance.
  reproduced      the value is within the tolerance
  partial         not within it, but the claim's direction holds (the spec's `direction`
                  test, e.g. "Swing is faster than the baseline")
  not reproduced  neither
  not attempted   the spec has no computation, or its data is absent or stale (the cause
                  says why; a stale claim's value is still shown, but never gets a verdict)
"""
import csv
import math
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

VERDICTS = ("reproduced", "partial", "not reproduced", "not attempted")


class Tol:
    """A tolerance: ok(value) and the text shown in the table."""

    def __init__(self, text, ok):
        self.text, self.ok = text, ok


def rel(paper, frac):
    """|value - paper| <= frac x |paper|."""
    return Tol("±%g %%" % (100 * frac), lambda v: abs(v - paper) <= frac * abs(paper))


def absolute(paper, delta, unit=""):
    """|value - paper| <= delta."""
    return Tol("±%g%s" % (delta, unit), lambda v: abs(v - paper) <= delta)


def within(lo, hi, unit=""):
    return Tol("%g..%g%s" % (lo, hi, unit), lambda v: lo <= v <= hi)


def at_least(x, unit=""):
    return Tol(">= %g%s" % (x, unit), lambda v: v >= x)


def at_most(x, unit=""):
    return Tol("<= %g%s" % (x, unit), lambda v: v <= x)


class Result:
    """What a claim's computation returns: the value (a number, or a (lo, hi) range whose
    two ends must both be within the tolerance), whether the claim's direction holds, and
    an optional note on where the value comes from (shown after the value)."""

    def __init__(self, value, direction=False, note=""):
        self.value, self.direction, self.note = value, direction, note


class Claim:
    """One headline claim. `compute` is None for a claim not attempted (then `cause` says
    why); otherwise it returns a Result, or None when its data is absent. `cause` is the
    named cause shown when the claim is not reproduced: a text, or a function of the
    Result (when the cause depends on which side of the paper's number collsim lands).
    `stale` names why the data is known to be wrong (e.g. made before a model fix, and how
    to redo it): the value is computed and shown, the verdict is "not attempted"."""

    def __init__(self, where, claim, setup, paper_value, tolerance=None, compute=None,
                 data=(), fmt="%.2f", cause="", baseline="paper", pending="", stale=""):
        self.where, self.claim, self.setup = where, claim, setup
        self.paper_value, self.tolerance, self.compute = paper_value, tolerance, compute
        self.data, self.fmt, self.cause = list(data), fmt, cause
        self.baseline, self.pending, self.stale = baseline, pending, stale

    def evaluate(self):
        """-> (collsim_value text, verdict, cause)."""
        if self.compute is None:
            return "", "not attempted", self.cause
        missing = [d for d in self.data if not os.path.exists(os.path.join(ROOT, d))]
        res = None if missing else self.compute()
        if res is None:
            why = "no data: " + ", ".join(missing) if missing else "no matching rows"
            return "", "not attempted", why
        v = res.value
        ends = v if isinstance(v, tuple) else (v,)
        text = " .. ".join(self.fmt % x for x in ends) + (" (%s)" % res.note if res.note else "")
        if self.stale:
            return text, "not attempted", "stale data: " + self.stale
        if all(self.tolerance.ok(x) for x in ends):
            return text, "reproduced", ""
        verdict = "partial" if res.direction else "not reproduced"
        cause = self.cause(res) if callable(self.cause) else self.cause
        return text, verdict, cause or "(cause not named in the spec)"


# ---- reading results CSVs (paths relative to the repository root) ----

_cache = {}


def rows(path, ok_only=True):
    """The rows of a results CSV (cached); only status ok ones unless ok_only=False."""
    key = (path, ok_only)
    if key not in _cache:
        with open(os.path.join(ROOT, path), newline="") as f:
            _cache[key] = [r for r in csv.DictReader(f)
                           if not ok_only or r.get("status", "ok") == "ok"]
    return _cache[key]


def label(r):
    """algorithm name, with +multi for ports=multi and +1 for ports=1."""
    p = r.get("params", "")
    return r["algorithm"] + ("+multi" if "ports=multi" in p else "+1" if "ports=1" in p else "")


def times(path, key, name=label, pred=lambda r: True):
    """{key(row): {name(row): time_s}} over the ok rows that satisfy pred."""
    out = {}
    for r in rows(path):
        if pred(r) and r.get("time_s"):
            out.setdefault(key(r), {})[name(r)] = float(r["time_s"])
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


MiB = 1 << 20
KiB = 1 << 10


def side(paper, above, below):
    """A cause that depends on whether collsim's value is above or below the paper's."""
    def f(res):
        v = res.value[1] if isinstance(res.value, tuple) else res.value
        return above if v > paper else below
    return f
