"""bine_ugal.py - "[packet ugal]" twins of the Bine paper's Table 3 (LUMI) win / gain claims:
the same pairs (Bine vs its binomial counterpart) on results/bine/bine_lumi_ugal, the packet
model with UGAL-L routing, computed by the functions of scripts/bine_ugal_stats.py on the
points it shares with the flow-model bine_lumi (not repeated here). Part of bine.py's
CLAIMS. Every row's note gives the flow model's value on the same points, so a row says
both whether the claim reproduces with adaptive routing and what adaptive routing changed.
The data was rerun after the packet model's trunk-buffer fix (commit 9e7ce5c): the LUMI
preset's folded global trunks are no longer credit-limited.
Tolerances are the flow rows': ±15 pp for a win share, ±30 % for a maximum gain.
"""
import os
import sys

from .core import ROOT, Claim, Result, absolute, geomean, rel, side

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import bine_ugal_stats as us  # noqa: E402

DATA = ["results/bine/bine_lumi/results.csv", "results/bine/bine_lumi_ugal/results.csv"]
WHERE = "Table 3 (LUMI)"
SETUP = ("LUMI preset, linear placement, 16..1,024 nodes x 32 B..8 MiB (7 sizes), packet "
         "model (UGAL-L, 4 KiB packets, 64 KiB buffers), the points bine_lumi (flow) also has")
# the paper's Table 3 (bine.md 7.2): (win %, max gain %)
PAPER = {"allreduce": (67, 67), "allgather": (47, 177), "reduce_scatter": (39, 143),
         "alltoall": (94, 191)}
ABOVE = ("network-only run, without per-message software overhead or permutation cost: "
         "collsim's Bine gains are larger than the paper's under the flow model too (the "
         "note's value), and UGAL narrows them only a little (results/bine/README.md, 'LUMI "
         "on the packet model with UGAL')")
BELOW = ("adaptive routing gives the classic algorithms' congested inter-group traffic other "
         "paths and so takes away part of the contention Bine avoids: the counterpart gains "
         "more from UGAL than Bine does (the 'UGAL / flow' table of results/bine/README.md; "
         "the flow model's value is in the note); and with linear placement up to 124 nodes "
         "a job lies in one LUMI group, where Bine and its counterpart tie")
_cells = []


def _speedups(coll):
    if not _cells:
        _cells.append(us.common(os.path.join(ROOT, "results/bine")))
    bine, base = us.PAIRS[coll]
    sp = us.speedups(_cells[0], coll, bine, base).values()
    return [x for x, _ in sp], [y for _, y in sp]


def _win(sp):
    return (100.0 * sum(us.verdict(x) == "win" for x in sp) / len(sp),
            100.0 * sum(us.verdict(x) == "loss" for x in sp) / len(sp))


def win_share(coll):
    def f():
        flow, ugal = _speedups(coll)
        if not ugal:
            return None
        win, loss = _win(ugal)
        return Result(win, win > loss, "loss %.0f %% of %d configs; flow model: %.0f %%"
                      % (loss, len(ugal), _win(flow)[0]))
    return f


def max_gain(coll):
    def f():
        flow, ugal = _speedups(coll)
        if not ugal:
            return None
        return Result(100.0 * (max(ugal) - 1), max(ugal) > 1.01,
                      "geomean %.2fx; flow model: %.0f %%" % (geomean(ugal),
                                                              100.0 * (max(flow) - 1)))
    return f


CLAIMS = []
for coll, (win, gain) in PAPER.items():
    bine, base = us.PAIRS[coll]
    pair = "; best of %s vs best of %s" % ("/".join(sorted(bine)), "/".join(sorted(base)))
    CLAIMS.append(Claim(WHERE, "%s: Bine wins in %d %% of configurations (> 1 %%) [packet ugal]"
                        % (coll, win), SETUP + pair, "%d %%" % win, absolute(win, 15, " pp"),
                        win_share(coll), DATA, "%.0f %%", cause=side(win, ABOVE, BELOW)))
    CLAIMS.append(Claim(WHERE, "%s: maximum gain %d %% [packet ugal]" % (coll, gain),
                        SETUP + pair, "%d %%" % gain, rel(gain, 0.3), max_gain(coll), DATA,
                        "%.0f %%", cause=side(gain, ABOVE, BELOW)))
