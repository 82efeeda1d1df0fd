#!/usr/bin/env python3
"""pico_alloc_files.py - writes the 128-node Leonardo allocations of scenarios/pico_bcast.lua.

    python3 scripts/pico_alloc_files.py [OUTDIR]     (default scenarios/pico_alloc)

Each file is a node list (docs/interop.md, `--alloc FILE`): one Leonardo node name per
line, in rank order (rank r on line r / Q with Q ranks per node). Node names and cells
follow platforms/leonardo.yaml: node lrdn(h+1) is host h, cell c holds the 180 nodes
lrdn 180(c-1)+1 .. 180c (23 cells). PICO's own Fig. 9 allocation is not public (its
example files are in the paper's Zenodo data), so these are constructed:

  chunks4   32 chunks of 4 consecutive nodes, consecutive chunks in different cells
            (chunk i in cell 5i mod 23): the shape Fig. 9's numbers imply. A distance-
            doubling bcast then keeps only its distance-1 and -2 messages inside a cell
            (3 of 127), a distance-halving one its distance-1 and -2 messages (96 of 127).
  cells5    the worked example of docs/interop.md, lrdn[0141-0204,0330-0361,0700-0731]:
            three contiguous pieces (64 + 32 + 32 nodes) touching 5 cells.
  frag7     7 chunks of random sizes at random free positions, hostname order (Slurm's
            block order on a busy machine), random.Random(7).
  frag16    16 chunks, the same way, random.Random(16).

The numbers of cells each job touches are printed (they are checked against the
scenario's traffic rows by scripts/pico_stats.py, which recounts them from these files).
"""
import os
import random
import sys

CELLS, PER_CELL, NODES = 23, 180, 128


def name(host):
    return "lrdn%04d" % (host + 1)


def cell(host):
    return host // PER_CELL


def chunks4():
    hosts = []
    for i in range(NODES // 4):
        c = (5 * i) % CELLS
        first = c * PER_CELL + 8 * (i // CELLS)   # a later chunk in the same cell: further on
        hosts += [first + j for j in range(4)]
    return hosts


def cells5():
    pieces = [(141, 204), (330, 361), (700, 731)]     # lrdn numbers, inclusive
    return [n - 1 for a, b in pieces for n in range(a, b + 1)]


def fragmented(chunks, seed):
    """`chunks` pieces of random sizes (>= 1) summing to NODES, at random positions with
    at least one free node between pieces, sorted by host (hostname order)."""
    rng = random.Random(seed)
    cuts = sorted(rng.sample(range(1, NODES), chunks - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [NODES])]
    total = CELLS * PER_CELL
    while True:
        starts = sorted(rng.sample(range(total), chunks))
        ok = all(starts[k] + sizes[k] < starts[k + 1] for k in range(chunks - 1))
        if ok and starts[-1] + sizes[-1] <= total:
            break
    # sizes in the order drawn, pieces in host order
    return [s + j for s, n in zip(starts, sizes) for j in range(n)]


ALLOCATIONS = {
    "chunks4": (chunks4, "32 chunks of 4 nodes, consecutive chunks in different cells"),
    "cells5": (cells5, "lrdn[0141-0204,0330-0361,0700-0731] (docs/interop.md example)"),
    "frag7": (lambda: fragmented(7, 7), "7 random chunks in hostname order, seed 7"),
    "frag16": (lambda: fragmented(16, 16), "16 random chunks in hostname order, seed 16"),
}


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "scenarios/pico_alloc"
    os.makedirs(outdir, exist_ok=True)
    for key, (make, what) in ALLOCATIONS.items():
        hosts = make()
        assert len(hosts) == NODES and len(set(hosts)) == NODES, key
        path = os.path.join(outdir, "leonardo_128_%s.txt" % key)
        with open(path, "w") as f:
            f.write("# Leonardo, 128 nodes: %s; %d cells\n" % (what,
                    len({cell(h) for h in hosts})))
            f.write("# written by scripts/pico_alloc_files.py\n")
            f.writelines(name(h) + "\n" for h in hosts)
        print(path, len(hosts), "nodes,", len({cell(h) for h in hosts}), "cells")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
