#!/usr/bin/env python3
"""bine_alloc_files.py - writes the allocation files of scenarios/bine_traffic.lua.

    python3 scripts/bine_alloc_files.py [OUTDIR]     (default scenarios/bine_alloc)

An allocation file (docs/simulator.md, placement `file:PATH`) names the host of every
rank, one `h<id>` per line. These files model *aligned power-of-two groups*: the job
takes the first G hosts of every Dragonfly group (G = 16 or 64, a power of two), so the
ranks 0..G-1 share group 0, G..2G-1 group 1, ... This is the case in which binomial
butterflies stay inside aligned blocks and Bine can send MORE bytes over global links
(bine.md section 6, "[DERIVED] anchors" 1; the paper's caveat in Sec. 2.4.2).
Hosts are numbered group by group (group g = hosts g*S .. g*S+S-1, S hosts per group),
as `collsim topo platforms/<preset>.yaml` builds them.
"""
import os
import sys

# preset -> (hosts per group, groups): platforms/lumi.yaml, platforms/leonardo.yaml
PRESETS = {"lumi": (124, 24), "leonardo": (180, 23)}
GROUP_SIZES = (16, 64)


def aligned_hosts(hosts_per_group, groups, take):
    """The first `take` hosts of every group, group by group."""
    return [g * hosts_per_group + j for g in range(groups) for j in range(take)]


def main(argv):
    outdir = argv[1] if len(argv) > 1 else "scenarios/bine_alloc"
    os.makedirs(outdir, exist_ok=True)
    for name, (per_group, groups) in PRESETS.items():
        for take in GROUP_SIZES:
            path = os.path.join(outdir, "%s_aligned%d.txt" % (name, take))
            hosts = aligned_hosts(per_group, groups, take)
            with open(path, "w") as f:
                f.write("# %s: the first %d hosts of each of the %d groups (%d ranks)\n"
                        % (name, take, groups, len(hosts)))
                f.write("# written by scripts/bine_alloc_files.py\n")
                f.writelines("h%d\n" % h for h in hosts)
            print(path, len(hosts))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
