#!/usr/bin/env python3
"""swing_packet_stats.py - the Swing study's 64x64 torus on the packet model (minimal and
adaptive routing, scenarios/swing_torus_packet.lua) against the flow model's rows of the
same points (results/swing/swing_large, scenarios/swing_tori.lua): the tables of
results/packet-swing-torus/README.md.

    python3 scripts/swing_packet_stats.py PACKET_CSV FLOW_CSV [SECTION...]

Sections (default all):
  speed    per algorithm and size: the time under flow (cm02), packet minimal and packet
           adaptive, the ratios packet minimal / flow, packet adaptive / flow,
           adaptive / minimal, and the busiest link's bytes / 400 Gb/s (the time that link
           needs alone: a floor of every model; "a / b" where minimal and adaptive differ),
           and on how many points flow and packet minimal have the same busiest link
  winners  per size: the fastest algorithm under each model and Swing's gain over the
           paper's baselines and over collsim's set, with "*" where the fastest changes
  paper    per model: the paper's Fig. 6 conclusions (Swing best up to, bucket ahead from,
           the gain at 2 MiB, over recursive doubling, the median and largest gain)

Only the 64x64 torus rows of FLOW_CSV count (it may hold other topologies); every row of
PACKET_CSV must be one (else an error naming the line). A size is compared on "the same
points": the algorithms with an ok row under every model that has rows at that size (a
model without rows there, e.g. packet minimal at 128 MiB, is "-"). Gain = t(best baseline)
/ t(best Swing), Swing = Swing-L or Swing-B. The paper's baselines (swing.md 2.7):
single-port torus RD-L / RD-B (recursive_doubling_torus, rabenseifner_torus), bucket,
Hamiltonian rings; collsim's set adds the 4-port mirrored RD (ports=multi, "+multi").
Rows that are not ok are left out and listed under the speed table. Errors (a row of
another collective / topology / model, reductions not free, a duplicate point, a time that
is not a positive number or is below the busiest link's bytes / 400 Gb/s: faster than a
link can move them) name FILE:LINE and exit 1; a bad argument exits 2. Standard
library only.
"""
import csv
import statistics
import sys

SWING = ("swing_latency", "swing_bandwidth")
PAPER_BASES = ("recursive_doubling_torus", "rabenseifner_torus", "bucket", "hamiltonian_rings")
RD1 = ("recursive_doubling_torus", "rabenseifner_torus")
MODELS = ("flow", "minimal", "adaptive")
TITLE = {"flow": "flow (cm02)", "minimal": "packet minimal", "adaptive": "packet adaptive"}
TORUS = "swing-torus.yaml dims=64x64"
PACKET = {"packet routing=%s mtu=4096 buffer=65536" % r: r for r in ("minimal", "adaptive")}
KiB, MiB = 1 << 10, 1 << 20
LINK_BPS = 400e9 / 8  # platforms/swing-torus.yaml local_bw: 400 Gb/s per direction
ORDER = ("swing_latency", "swing_bandwidth", "recursive_doubling_torus", "rabenseifner_torus",
         "recursive_doubling_torus+multi", "rabenseifner_torus+multi", "bucket",
         "hamiltonian_rings")


class Bad(Exception):
    pass


def label(r):
    return r["algorithm"] + ("+multi" if "ports=multi" in r.get("params", "") else "")


def size_text(n):
    for unit, f in (("GiB", 1 << 30), ("MiB", MiB), ("KiB", KiB)):
        if n >= f and n % f == 0:
            return "%d %s" % (n // f, unit)
    return "%d B" % n


def row_model(path, line, r, packet):
    """'flow', 'minimal' or 'adaptive' of one row; Bad if it is not one of the study's."""
    m = r["model"]
    if packet and m in PACKET:
        return PACKET[m]
    if not packet and m == "cm02":
        return "flow"
    allowed = ", ".join(sorted(PACKET)) if packet else "cm02"
    raise Bad("%s:%d: model '%s' (allowed: %s)" % (path, line, m, allowed))


def check_row(path, line, r):
    if r["collective"] != "allreduce":
        raise Bad("%s:%d: collective '%s' (allowed: allreduce)" % (path, line, r["collective"]))
    if r.get("reduce_Bps", "0") not in ("0", "") or r.get("copy_Bps", "0") not in ("0", ""):
        raise Bad("%s:%d: reductions / copies not free (reduce_Bps %s, copy_Bps %s; the study "
                  "runs them free: 0)" % (path, line, r.get("reduce_Bps"), r.get("copy_Bps")))
    try:
        t = float(r["time_s"])
    except ValueError:
        t = -1.0
    if not t > 0:
        raise Bad("%s:%d: time_s '%s' is not a positive number" % (path, line, r["time_s"]))
    busiest = int(r.get("max_link_bytes") or 0) / LINK_BPS
    if t < busiest:
        raise Bad("%s:%d: time_s %s is below the busiest link's bytes / 400 Gb/s = %.6g s "
                  "(no model may move a link's bytes faster than the link)"
                  % (path, line, r["time_s"], busiest))
    return t, busiest


class Data:
    """times {model: {(label, size): time_s}}, busiest {same: max_link_bytes / 400 Gb/s},
    skipped [(model, label, size, status)] of the rows not ok."""

    def __init__(self):
        self.times, self.busiest, self.skipped = {}, {}, []


def read(path, packet, data):
    """Add the 64x64 torus rows of one CSV (packet: PACKET_CSV, else FLOW_CSV) to data."""
    seen = {}
    with open(path, newline="") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            if not r["topology"].endswith(TORUS):
                if packet:
                    raise Bad("%s:%d: topology '%s' (allowed: platforms/%s)"
                              % (path, line, r["topology"], TORUS))
                continue
            model = row_model(path, line, r, packet)
            key = (label(r), int(r["size_bytes"]))
            if (model,) + key in seen:
                raise Bad("%s:%d: the point %s %s %s again (first at line %d)" % (
                    path, line, model, key[0], size_text(key[1]), seen[(model,) + key]))
            seen[(model,) + key] = line
            if r["status"] != "ok":
                data.skipped.append((model, key[0], key[1], r["status"]))
                continue
            t, busiest = check_row(path, line, r)
            data.times.setdefault(model, {})[key] = t
            data.busiest.setdefault(model, {})[key] = busiest


def same_points(data):
    """{size: {model: {label: time}}} over the labels ok under every model with rows there."""
    sizes = sorted({n for d in data.values() for _, n in d})
    out = {}
    for n in sizes:
        models = [m for m in MODELS if any(s == n for _, s in data.get(m, {}))]
        names = set.intersection(*({a for a, s in data[m] if s == n} for m in models))
        if len(models) > 1 and names:
            out[n] = {m: {a: data[m][(a, n)] for a in names} for m in models}
    return out


def gain(t, bases):
    """t(best baseline) / t(best Swing), or None without either."""
    s = [v for a, v in t.items() if a in SWING]
    b = [v for a, v in t.items() if (a in bases if bases else a not in SWING)]
    return min(b) / min(s) if s and b else None


def best(t):
    return min((v, a) for a, v in t.items())[1]


def us(x):
    return "%.1f" % (x * 1e6) if x is not None else "-"


def ratio(a, b):
    return "%.3f" % (a / b) if a is not None and b is not None else "-"


def busiest_text(data, key):
    """The busiest link's time of the packet rows: one number, or minimal / adaptive."""
    b = [data.busiest[m][key] for m in ("minimal", "adaptive") if key in data.busiest.get(m, {})]
    if len(b) == 2 and "%.1f" % (b[0] * 1e6) != "%.1f" % (b[1] * 1e6):
        return "%.1f / %.1f" % (b[0] * 1e6, b[1] * 1e6)
    return "%.1f" % (b[0] * 1e6)


def section_speed(data):
    print("| algorithm | size | flow us | packet minimal us | packet adaptive us | "
          "minimal / flow | adaptive / flow | adaptive / minimal | busiest link us |")
    print("|---|---|---|---|---|---|---|---|---|")
    t = data.times
    keys = sorted({k for m in ("minimal", "adaptive") for k in t.get(m, {})},
                  key=lambda k: (ORDER.index(k[0]) if k[0] in ORDER else len(ORDER), k))
    for a, n in keys:
        f, mi, ad = (t.get(m, {}).get((a, n)) for m in MODELS)
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            a, size_text(n), us(f), us(mi), us(ad), ratio(mi, f), ratio(ad, f), ratio(ad, mi),
            busiest_text(data, (a, n))))
    b = data.busiest
    both = [k for k in b.get("minimal", {}) if k in b.get("flow", {})]
    same = sum(b["minimal"][k] == b["flow"][k] for k in both)
    print("\nThe busiest link's bytes, flow = packet minimal (the same routes): %d of %d "
          "points." % (same, len(both)))
    for m, a, n, status in data.skipped:
        print("\nleft out: %s %s %s, status %s" % (TITLE[m], a, size_text(n), status))


def cell(t):
    if t is None:
        return "-"
    g, ga = gain(t, PAPER_BASES), gain(t, None)
    return "%s (%s / %s)" % (best(t), "%.2fx" % g if g else "-", "%.2fx" % ga if ga else "-")


def section_winners(points):
    print("Fastest algorithm per size and model; in brackets Swing's gain over the paper's "
          "baselines / over collsim's set (mirrored RD included). `*`: the fastest differs "
          "from the flow model's.")
    print()
    print("| size | algorithms | flow (cm02) | packet minimal | packet adaptive |")
    print("|---|---|---|---|---|")
    for n, by in sorted(points.items()):
        flow = by.get("flow")
        cells = []
        for m in MODELS:
            t = by.get(m)
            mark = "*" if t and flow and m != "flow" and best(t) != best(flow) else ""
            cells.append(cell(t) + mark)
        print("| %s | %d | %s |" % (size_text(n), len(next(iter(by.values()))), " | ".join(cells)))


def model_gains(points, m, bases=PAPER_BASES):
    """[(size, gain)] of model m over its sizes (with both sides)."""
    out = []
    for n, by in sorted(points.items()):
        g = gain(by[m], bases) if m in by else None
        if g is not None:
            out.append((n, g))
    return out


def best_up_to(g):
    """(largest size up to which Swing wins every size or None, first loss or None)."""
    last = None
    for n, x in g:
        if x < 1.0:
            return last, n
        last = n
    return last, None


def bucket_from(points, m):
    """(first size where bucket beats the best Swing or None, Swing's worst loss to it)."""
    first, worst = None, 0.0
    for n, by in sorted(points.items()):
        t = by.get(m, {})
        s = [v for a, v in t.items() if a in SWING]
        if s and "bucket" in t and t["bucket"] < min(s):
            first = n if first is None else first
            worst = max(worst, 1 - t["bucket"] / min(s))
    return first, worst


def paper_row(points, m):
    g = model_gains(points, m)
    if not g:
        return None
    up, loss = best_up_to(g)
    buck, worst = bucket_from(points, m)
    at2 = dict(g).get(2 * MiB)
    rd2 = dict(model_gains(points, m, RD1)).get(2 * MiB)
    small = [x for n, x in model_gains(points, m, RD1) if n < 32 * KiB]
    top = max(g, key=lambda p: p[1])
    mirrored = [size_text(n) for n, x in model_gains(
        points, m, ("recursive_doubling_torus+multi", "rabenseifner_torus+multi")) if x < 1.0]
    return [TITLE[m], "%s..%s (%d)" % (size_text(g[0][0]), size_text(g[-1][0]), len(g)),
            (size_text(up) if up else "-") + (" (first loss %s)" % size_text(loss) if loss else ""),
            size_text(buck) + " (by %.1f %%)" % (100 * worst) if buck else "never",
            "%.2fx" % at2 if at2 else "-", "%.2fx" % rd2 if rd2 else "-",
            "%.2fx" % max(small) if small else "-",
            "%.2fx (%s)" % (top[1], size_text(top[0])), "%.2fx" % statistics.median(x for _, x in g),
            ", ".join(mirrored) if mirrored else "none"]


def section_paper(points):
    print("| model | sizes | Swing best up to | bucket ahead from (Swing's largest loss) | "
          "gain at 2 MiB | over RD-L / RD-B at 2 MiB | over RD-L / RD-B below 32 KiB | "
          "largest gain | median gain | mirrored RD ahead at |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("| paper, Fig. 6 (swing.md 5.2) | 32 B..512 MiB | 32 MiB | 128 MiB (<= ~20 %) | "
          "~2.2x | > 2x | up to 1.5x | ~2.2x (2 MiB) | - | none |")
    for m in MODELS:
        r = paper_row(points, m)
        if r:
            print("| " + " | ".join(r) + " |")


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    sections = argv[3:] or ["speed", "winners", "paper"]
    for s in sections:
        if s not in ("speed", "winners", "paper"):
            sys.stderr.write("swing_packet_stats.py: unknown section '%s' (allowed: speed, "
                             "winners, paper)\n" % s)
            return 2
    data = Data()
    try:
        read(argv[1], True, data)
        read(argv[2], False, data)
    except (Bad, OSError, KeyError) as e:
        sys.stderr.write("swing_packet_stats.py: %s\n" % (
            "missing column %s" % e if isinstance(e, KeyError) else e))
        return 1
    for m, path in (("flow", argv[2]), ("minimal", argv[1])):
        if m not in data.times and not (m == "minimal" and "adaptive" in data.times):
            sys.stderr.write("swing_packet_stats.py: %s: no ok row of the 64x64 torus (%s)\n"
                             % (path, TITLE[m] if m == "flow" else "packet"))
            return 1
    points = same_points(data.times)
    if not any("flow" in by for by in points.values()):
        sys.stderr.write("swing_packet_stats.py: no point of %s is also in %s (64x64 torus)\n"
                         % (argv[1], argv[2]))
        return 1
    for i, s in enumerate(sections):
        if i:
            print()
        if s == "speed":
            section_speed(data)
        elif s == "winners":
            section_winners(points)
        else:
            section_paper(points)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
