"""pico.py - headline claims of PICO (/work/shared/reference/pico.md, section 4).

Most PICO claims are about real MPI libraries (default algorithm selection, UCX rails,
instrumentation, ATLAHS traces) and are not attempted. The bcast case study (Fig. 9
tracer, Fig. 10 times) is computed from results/pico/pico_bcast (128-node Leonardo
allocations of scenarios/pico_alloc/) by the functions of scripts/pico_stats.py, whose
paper numbers and tolerances are imported, not repeated. The paper's allocation is on
Zenodo, not in the repository: `chunks4` (32 chunks of 4 nodes, the shape Fig. 9's
numbers imply) stands for it; cells5 / frag7 / frag16 are Slurm-like allocations.
"""
import os
import sys

from .core import ROOT, Claim, Result, absolute, at_most, rel, rows

sys.path.insert(0, os.path.join(ROOT, "scripts"))
import pico_stats as ps  # noqa: E402

PAPER = "pico"
BCAST = "results/pico/pico_bcast/results.csv"
PAPER_ALLOC = "chunks4"
SLURM = ("cells5", "frag7", "frag16")
OTHER = {"binomial_doubling": "binomial_halving", "binomial_halving": "binomial_doubling"}


def external(alg, allocs):
    """External bytes (units of n) of alg's 128-rank bcast: one allocation's value, or the
    (min, max) range over several. Direction: doubling sends more between cells than
    halving on every allocation."""
    def f():
        split = ps.tracer_bytes(rows(BCAST))
        xs = [split[(a, alg)][1] for a in allocs if (a, alg) in split]
        ys = [split[(a, OTHER[alg])][1] for a in allocs if (a, OTHER[alg]) in split]
        if len(xs) != len(allocs) or len(ys) != len(allocs):
            return None
        dd, dh = (xs, ys) if alg == "binomial_doubling" else (ys, xs)
        holds = all(a > b for a, b in zip(dd, dh))
        v = xs[0] if len(xs) == 1 else (min(xs), max(xs))
        return Result(v, holds, "" if len(xs) == 1 else ", ".join(allocs))
    return f


def fig10_ratio(alloc, q):
    """Doubling / halving time at 512 MiB; direction: halving faster."""
    def f():
        t, _ = ps.flow_times(rows(BCAST))
        r, _ = ps.fig10(t, alloc, q)
        others = [ps.fig10(t, a, q)[0] for a in SLURM]
        return Result(r, r > 1, "Slurm-like allocations %.2f..%.2f" % (min(others), max(others)))
    return f


def fig10_small(alloc, q):
    """Largest |doubling / halving - 1| at <= 16 KiB, in %."""
    def f():
        t, _ = ps.flow_times(rows(BCAST))
        return Result(100 * ps.fig10(t, alloc, q)[1], False)
    return f


TRACER = ("Leonardo preset, 128 nodes x 1 rank (Fig. 9's 127n totals are a 128-rank tree), "
          "traffic model, allocation %s")
TIME = "Leonardo preset, 128 nodes x 4 ranks per node, flow model, allocation %s" % PAPER_ALLOC
SLURM_CAUSE = ("Slurm-like allocations keep long runs of consecutive ranks in one cell, "
               "so distance-halving sends less between cells than on the paper's allocation")
CONCENTRATED = ("the preset routes every pair of leaves / cells over one path, so the "
                "distance-doubling tree's concurrent 512 MiB messages meet on one link "
                "(results/pico/README.md, busiest-link column); the real machine spreads them")
NO_SW = ("no per-message software cost in the flow model: below 16 KiB the measured "
         "curves are set by per-message overheads equal for both trees")
LIB = "needs real MPI libraries and machines (a measurement of software, not of the network)"

_DD, _DH = ps.PAPER_TRACER["binomial_doubling"], ps.PAPER_TRACER["binomial_halving"]
CLAIMS = [
    Claim("Fig. 9", "bcast distance-doubling: %dn of 127n bytes inter-group" % _DD[1],
          TRACER % PAPER_ALLOC, "%d n" % _DD[1], absolute(_DD[1], ps.TRACER_TOL, " n"),
          external("binomial_doubling", (PAPER_ALLOC,)), [BCAST], "%.0f n",
          cause="a reconstructed allocation (the paper's is on Zenodo)"),
    Claim("Fig. 9", "bcast distance-halving: %dn of 127n bytes inter-group" % _DH[1],
          TRACER % PAPER_ALLOC, "%d n" % _DH[1], absolute(_DH[1], ps.TRACER_TOL, " n"),
          external("binomial_halving", (PAPER_ALLOC,)), [BCAST], "%.0f n",
          cause="a reconstructed allocation (the paper's is on Zenodo)"),
    Claim("Fig. 9", "bcast distance-doubling: %dn inter-group (other allocations)" % _DD[1],
          TRACER % "cells5 / frag7 / frag16 (Slurm-like)", "%d n" % _DD[1],
          absolute(_DD[1], ps.TRACER_TOL, " n"), external("binomial_doubling", SLURM), [BCAST],
          "%.0f n", cause=SLURM_CAUSE.replace("distance-halving", "distance-doubling")),
    Claim("Fig. 9", "bcast distance-halving: %dn inter-group (other allocations)" % _DH[1],
          TRACER % "cells5 / frag7 / frag16 (Slurm-like)", "%d n" % _DH[1],
          absolute(_DH[1], ps.TRACER_TOL, " n"), external("binomial_halving", SLURM), [BCAST],
          "%.0f n", cause=SLURM_CAUSE),
    Claim("Fig. 10", "bcast 512 MiB: distance-halving %gx faster than distance-doubling"
          % ps.PAPER_RATIO, TIME, "%gx" % ps.PAPER_RATIO, rel(ps.PAPER_RATIO, ps.RATIO_TOL),
          fig10_ratio(PAPER_ALLOC, 4), [BCAST], "%.2fx", cause=CONCENTRATED),
    Claim("Fig. 10", "bcast doubling and halving curves nearly identical up to 16 KiB",
          TIME + "; largest |doubling / halving - 1| at 32 B..16 KiB", "~0 %",
          at_most(100 * ps.SMALL_TOL, " %"), fig10_small(PAPER_ALLOC, 4), [BCAST], "%.0f %%",
          cause=NO_SW),
    Claim("Abstract, Fig. 6", "default allreduce up to 5x slower than the best", "3 systems",
          "5x", cause="collsim has no MPI library's default-selection logic to compare"),
    Claim("Sec. I, IV-A", "defaults typically 30-40 % short of the best", "3 systems",
          "30..40 %", cause="as above: no library default selection is modelled"),
    Claim("Fig. 7", "UCX_MAX_RNDV_RAILS=4 up to 10 % faster than 2", "Leonardo, 32 nodes, ring",
          "10 %", cause="no UCX rail model in collsim"),
    Claim("Fig. 11", "Rabenseifner communication share 95 % -> 35 % -> 56 %", "Leonardo, 8 nodes",
          "95/35/56 %", cause=LIB),
    Claim("Sec. III-D", "instrumentation overhead < 100 ns", "-", "< 100 ns", cause=LIB),
    Claim("Fig. 12", "ATLAHS trace replay: -21 % / -44 % / ~0 %", "LLaMA-7B, Mistral MoE",
          "-21/-44/0 %", cause="no ATLAHS / NCCL trace import"),
]
