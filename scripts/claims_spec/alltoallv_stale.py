"""alltoallv_stale.py - the alltoallv result sets whose Polaris rows are stale (issue 25).

The packet model gave a folded trunk (m parallel links as one: Polaris' 7 global links per
group pair, `trunk: 1`) the buffer of one link per virtual channel until commit 9e7ce5c;
the Polaris packet rows made before (commit f53a7cc and earlier) that put bytes on global
links are credit-limited on those trunks (`python3 scripts/trunk_fix_diff.py crossing`
says which; the P = 512 and 1,024 sets fit in one group and are unchanged). The sets below
were not rerun yet: a claim on their Polaris rows shows its
value but gets no verdict (core.Claim's `stale`). Fugaku's torus has no folded trunk
(ports 1): its rows are unchanged. Remove a set from STALE once it is rerun.
"""

BEFORE = ("Polaris packet rows made before the trunk-buffer fix (commit f53a7cc and earlier), "
          "credit-limited on Polaris' folded global trunks; redo: ")
D = "results/alltoallv/"
STALE = {
    D + "alltoallv_compare_2048_polaris_packet/results.csv":
        "ALLTOALLV_MACHINES=polaris collsim run --model packet scenarios/alltoallv_compare.lua "
        "-o DIR",
}


def mark(claims):
    """Set `stale` on the claims over Polaris P = 2048 rows of a stale set (their setup
    names the preset and P first); returns the claims."""
    for c in claims:
        redo = [STALE[d] for d in c.data if d in STALE]
        if redo and c.setup.startswith("Polaris preset, P = 2048"):
            c.stale = BEFORE + "; ".join(redo)
    return claims
