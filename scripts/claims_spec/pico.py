"""pico.py - headline claims of PICO (/work/shared/reference/pico.md, section 4).

Most PICO claims are about real MPI libraries (default algorithm selection, UCX rails,
instrumentation, ATLAHS traces) and are not attempted; there is no results/pico yet. The
one traffic claim (Fig. 9) is computed from results/bine/bine_traffic.
"""
import statistics

from .core import Claim, Result, absolute, rows
from .bine import TRAFFIC, kind, preset

PAPER = "pico"


def bcast_external_share(alg):
    """Median over seeds of inter-group bytes / all message bytes of a 128-node bcast,
    Leonardo preset, fragmented:8 (the paper's allocation file is not in the repo)."""
    def f():
        xs = []
        for r in rows(TRAFFIC):
            if (r["collective"] == "bcast" and r["algorithm"] == alg and preset(r) == "leonardo"
                    and int(r["ranks"]) == 128 and kind(r["placement"]) == "fragmented:8"):
                xs.append(100.0 * int(r["bytes_intergroup_msgs"])
                          / (127 * int(r["size_bytes"])))
        return Result(statistics.median(xs), None, "%d seeds" % len(xs)) if xs else None
    return f


def direction(alg, other, more):
    """Wrap: the direction holds when alg's share is above (more) / below other's."""
    def f():
        a, b = bcast_external_share(alg)(), bcast_external_share(other)()
        if a is None or b is None:
            return None
        a.direction = a.value > b.value if more else a.value < b.value
        return a
    return f


SETUP = "Leonardo preset, 128 nodes, fragmented:8 (seeds 1..3); the paper's allocation is on Zenodo"
LIB = "needs real MPI libraries and machines (a measurement of software, not of the network)"

CLAIMS = [
    Claim("Fig. 9", "bcast distance-doubling: 122n of 127n bytes inter-group (96 %)", SETUP,
          "96 %", absolute(96, 10, " pp"), direction("binomial_doubling", "binomial_halving", True),
          [TRAFFIC], "%.0f %%",
          cause="a synthetic fragmented allocation instead of the paper's 128-node one"),
    Claim("Fig. 9", "bcast distance-halving: 37n of 127n bytes inter-group (29 %)", SETUP,
          "29 %", absolute(29, 10, " pp"), direction("binomial_halving", "binomial_doubling", False),
          [TRAFFIC], "%.0f %%",
          cause="a synthetic fragmented allocation instead of the paper's 128-node one"),
    Claim("Abstract, Fig. 6", "default allreduce up to 5x slower than the best", "3 systems",
          "5x", cause="collsim has no MPI library's default-selection logic to compare"),
    Claim("Sec. I, IV-A", "defaults typically 30-40 % short of the best", "3 systems",
          "30..40 %", cause="as above: no library default selection is modelled"),
    Claim("Fig. 7", "UCX_MAX_RNDV_RAILS=4 up to 10 % faster than 2", "Leonardo, 32 nodes, ring",
          "10 %", cause="no UCX rail model in collsim"),
    Claim("Fig. 10", "bcast 512 MiB: distance-halving 2.5x faster than distance-doubling",
          "Leonardo, 128 nodes x 4 ppn", "2.5x",
          cause="no timed Leonardo bcast run (results/pico not produced yet)"),
    Claim("Fig. 11", "Rabenseifner communication share 95 % -> 35 % -> 56 %", "Leonardo, 8 nodes",
          "95/35/56 %", cause=LIB),
    Claim("Sec. III-D", "instrumentation overhead < 100 ns", "-", "< 100 ns", cause=LIB),
    Claim("Fig. 12", "ATLAHS trace replay: -21 % / -44 % / ~0 %", "LLaMA-7B, Mistral MoE",
          "-21/-44/0 %", cause="no ATLAHS / NCCL trace import"),
]
