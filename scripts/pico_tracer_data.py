#!/usr/bin/env python3
"""pico_tracer_data.py - the Leonardo-like allocations of tests/data/pico_tracer/ and the
PICO tracer's counts on them (tests/cli/pico_tracer.sh compares collsim with them).

    scripts/pico_tracer_data.py PICO_CHECKOUT OUT_DIR

PICO_CHECKOUT: a checkout of github.com/HLC-Lab/pico (its tracer/ directory is run, not
copied). Writes OUT_DIR/alloc_<name>.csv (MPI_Rank,allocation: one rank per node, the
hostnames lrdnNNNN of Leonardo) and OUT_DIR/traced_<name>.csv (the tracer's --save output)
for the allocations below, and OUT_DIR/leonardo_cells.txt: a collsim group map (groupmap.h)
of their nodes, each in its CELL of the tracer's tracer/maps/leonardo.txt.
"""
import os
import random
import subprocess
import sys

# name: list of (first node, count) blocks; then the ranks are shuffled with the seed
# (None: block order). Cells are 180 consecutive nodes in the map's first rows.
ALLOCS = {
    "16_2cells": ([(170, 8), (200, 8)], None),          # cells 1, 2; 8 + 8 in order
    "16_4cells_mixed": ([(5, 4), (400, 5), (700, 3), (1000, 4)], 7),
    "32_3cells": ([(100, 10), (361, 16), (900, 6)], 3),
    "64_4cells": ([(150, 30), (181, 18), (541, 10), (1261, 6)], None),
    "64_4cells_mixed": ([(150, 30), (181, 18), (541, 10), (1261, 6)], 11),
}
COLLECTIVES = "ALLREDUCE,ALLGATHER,ALLTOALL,REDUCE_SCATTER,BCAST,REDUCE,SCATTER"


def cells(pico):
    """node id -> CELL, as the tracer's load_topology reads the map"""
    out = {}
    with open(os.path.join(pico, "tracer/maps/leonardo.txt")) as f:
        for line in f:
            w = line.split()
            if "NODE" in w and "CELL" in w:
                out[int(w[w.index("NODE") + 1])] = int(w[w.index("CELL") + 1])
    return out


def main():
    pico, out = sys.argv[1], sys.argv[2]
    cell = cells(pico)
    used = set()
    for name, (blocks, seed) in ALLOCS.items():
        nodes = [n for first, count in blocks for n in range(first, first + count)]
        used.update(nodes)
        if seed is not None:
            random.Random(seed).shuffle(nodes)
        alloc = os.path.join(out, f"alloc_{name}.csv")
        with open(alloc, "w") as f:
            f.write("MPI_Rank,allocation\n")
            for rank, node in enumerate(nodes):
                f.write(f"{rank},lrdn{node:04d}\n")
        subprocess.run([sys.executable, os.path.join(pico, "tracer/trace_communications.py"),
                        "--location", "leonardo", "--alloc", alloc,
                        "--map", os.path.join(pico, "tracer/maps/leonardo.txt"),
                        "--comm", os.path.join(pico, "tracer/algo_patterns.json"),
                        "--coll", COLLECTIVES, "--save",
                        "--out", os.path.join(out, f"traced_{name}.csv")],
                       check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(out, "leonardo_cells.txt"), "w") as f:
        f.write("# the cells of the nodes of alloc_*.csv, from PICO's tracer/maps/leonardo.txt\n")
        for node in sorted(used):
            f.write(f"lrdn{node:04d} {cell[node]}\n")


if __name__ == "__main__":
    main()
