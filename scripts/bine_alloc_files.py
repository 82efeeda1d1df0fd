#!/usr/bin/env python3
"""bine_alloc_files.py - writes the allocation files of scenarios/bine_traffic.lua.

    python3 scripts/bine_alloc_files.py [OUTDIR]     (default scenarios/bine_alloc)

An allocation file (docs/simulator.md, placement `file:PATH`) names the host of every
rank, one `h<id>` per line. These files model *aligned power-of-two groups*: the job
takes the first G hosts of every Dragonfly group (G = 16 or 64, a power of two), so the
ranks 0..G-1 share group 0, G..2G-1 group 1, ... This is the case in which binomial
butterflies stay inside aligned blocks and Bine can send MORE bytes over global links
(bine.md section 6, "[DERIVED] anchors" 1; the paper's caveat in Sec. 2.4.2).
Hosts are numbered group by group, as `collsim topo platforms/<preset>.yaml` builds them
(LUMI: 24 groups of 124; Leonardo: its real cells, group_hosts = 19 x 180, 324, 2 x 624
and a 23rd group without hosts, which the files skip).
"""
import os
import sys

# preset -> hosts of each group: platforms/lumi.yaml, platforms/leonardo.yaml (group_hosts)
PRESETS = {"lumi": [124] * 24, "leonardo": [180] * 19 + [324, 624, 624, 0]}
GROUP_SIZES = (16, 64)


def aligned_hosts(sizes, take):
    """The first `take` hosts of every group that has hosts, group by group."""
    out, first = [], 0
    for n in sizes:
        out += [first + j for j in range(min(take, n))]
        first += n
    return out


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "scenarios/bine_alloc"
    os.makedirs(outdir, exist_ok=True)
    for name, sizes in PRESETS.items():
        groups = sum(1 for n in sizes if n)
        for take in GROUP_SIZES:
            path = os.path.join(outdir, "%s_aligned%d.txt" % (name, take))
            hosts = aligned_hosts(sizes, take)
            with open(path, "w") as f:
                f.write("# %s: the first %d hosts of each of the %d groups (%d ranks)\n"
                        % (name, take, groups, len(hosts)))
                f.write("# written by scripts/bine_alloc_files.py\n")
                f.writelines("h%d\n" % h for h in hosts)
            print(path, len(hosts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
