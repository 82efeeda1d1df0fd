#!/usr/bin/python3
"""plot_jobs.py - the slowdown plots of a results.csv with several jobs per point (scripts/plot.py
draws them; docs/results.md "Several jobs").

A point of `collsim.sweep{jobs = {...}}` has one row per job, with `slowdown` = its time with
the other jobs / its time alone. For every collective job, its rows are grouped by what
stays the same across the sweep: topology, model, the job's name, collective, ranks and
hosts, and the other jobs of its point (their collective or pattern, algorithm,
parameters such as the offered load, size, ranks and hosts). Each group is one picture,
slowdown-<job>-<model>-<hash>.png: the slowdown against the job's vector size, one line per
algorithm (variant), 1 = no interference. Pattern jobs (collective "pattern") are not drawn:
their size is a message size, not a vector. Only rows with status "ok" are used.
"""
import hashlib
import os
import re
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

OTHER_COLUMNS = ("job", "collective", "algorithm", "params", "size_bytes", "ranks", "placement")


def has_jobs(rows):
    """Do the rows come from a plan with several jobs (a non-empty `job` column)?"""
    return any(r.get("job") for r in rows)


def groups(rows):
    """{key: [rows]}: the collective job rows that belong in one picture (see above)."""
    by_point = defaultdict(list)
    for r in rows:
        if r.get("job") and r.get("status") == "ok":
            by_point[r["point"]].append(r)
    out = defaultdict(list)
    for point_rows in by_point.values():
        for r in point_rows:
            if r["collective"] == "pattern" or not r.get("slowdown"):
                continue
            others = tuple(sorted(tuple(o[c] for c in OTHER_COLUMNS)
                                  for o in point_rows if o is not r))
            key = (r["topology"], r["model"], r["job"], r["collective"], r["ranks"],
                   r["placement"], others)
            out[key].append(r)
    return out


def size_label(n):
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB"), (1, "B")):
        if n >= factor and n % factor == 0:
            return "%d%s" % (n // factor, unit)
    return "%dB" % n


def others_text(others):
    """'beside bully: pattern alltoall load=1 rounds=74 seed=1, 32 ranks'"""
    parts = []
    for job, coll, alg, params, size, ranks, _ in others:
        what = "%s %s" % (coll, alg) if coll != "pattern" else "pattern %s" % alg
        parts.append("%s: %s%s, %s ranks, %s" % (job, what, " " + params if params else "",
                                                 ranks, size_label(int(size))))
    return "beside " + "; ".join(parts) if parts else "alone"


def file_name(key):
    digest = hashlib.sha1(repr(key).encode()).hexdigest()[:8]
    model = re.sub(r"[^A-Za-z0-9=._-]+", "_", key[1].split()[0])
    job = re.sub(r"[^A-Za-z0-9=._-]+", "_", key[2])
    return "slowdown-%s-%s-%s.png" % (job, model, digest)


def draw(key, rows, path):
    series = defaultdict(list)
    for r in rows:
        name = r["algorithm"] + (" " + r["params"] if r["params"] else "")
        series[name].append((int(r["size_bytes"]), float(r["slowdown"])))
    fig, ax = plt.subplots(figsize=(8, 5.5))
    markers = "os^vD<>phx*+"
    for i, (name, points) in enumerate(sorted(series.items())):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker=markers[i % len(markers)],
                linewidth=1.4, markersize=5, label=name)
    sizes = sorted({p[0] for pts in series.values() for p in pts})
    ax.set_xscale("log", base=2)
    ax.set_xticks(sizes)
    ax.set_xticklabels([size_label(s) for s in sizes], rotation=45)
    ax.minorticks_off()
    ax.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
    ax.set_xlabel("vector size of job %s (bytes)" % key[2])
    ax.set_ylabel("slowdown: time with the other jobs / time alone")
    ax.set_title("Slowdown of job %s (%s, P=%s, model %s)\n%s\n%s"
                 % (key[2], key[3], key[4], key[1], others_text(key[6])[:140], key[0]),
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def slowdown_plots(rows, outdir):
    """Draws every group's picture into outdir; returns the paths."""
    return [draw(key, g, os.path.join(outdir, file_name(key)))
            for key, g in sorted(groups(rows).items())]
