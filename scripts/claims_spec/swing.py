"""swing.py - headline claims of Swing (De Sensi et al., NSDI '24), /work/shared/reference/swing.md.

The paper's baselines (swing.md 2.7): single-port torus-optimized recursive doubling
(RD-L, RD-B = recursive_doubling_torus / rabenseifner_torus), multiport bucket, and the
Hamiltonian rings on 2D tori. Its "mirrored RD" (4-port, ports=multi here) appears only in
Fig. 6 and is excluded from its gains; collsim's extra baselines (mirrored RD, plain RD,
single ring) come after, as "collsim set". Gain = t(best baseline) / t(best Swing).
The 64x64 torus claims' twins on the packet model with adaptive routing ("[packet
adaptive]") are in swing_packet.py, added at the end of CLAIMS.
"""
import statistics
import sys

from .core import Claim, Result, MiB, KiB, at_least, at_most, label, rel, rows, within, side

PAPER = "swing"
D = "results/swing/"
TORI, BW, LARGE = D + "swing_tori/results.csv", D + "swing_bandwidth/results.csv", D + "swing_large/results.csv"
RECT, D4 = D + "swing_rect/results.csv", D + "swing_8x8x8x8/results.csv"
HX2, HX4 = D + "swing_hx2mesh/results.csv", D + "swing_hx4mesh/results.csv"
SQUARE = D + "swing_square/results.csv"
SWING = {"swing_latency", "swing_bandwidth"}
PAPER_BASES = {"recursive_doubling_torus", "rabenseifner_torus", "bucket", "hamiltonian_rings"}
RD1 = {"recursive_doubling_torus", "rabenseifner_torus"}
FLUID = ("fluid model: no per-message / packet-level costs (NIC, flow control, adaptive "
         "routing) that the paper's SST baselines pay")


def table(path, topo):
    """{size: {label: time}} of one topology: `topo` is a substring of "topology dims
    model" (e.g. "dims=64x64"; "routing=adaptive" picks a packet CSV's adaptive rows)."""
    out = {}
    for r in rows(path):
        where = " ".join((r["topology"], r.get("dims", ""), r.get("model", "")))
        if topo in where and r["time_s"]:  # timed rows
            out.setdefault(int(r["size_bytes"]), {})[label(r)] = float(r["time_s"])
    return out


def gains(path, topo, bases=PAPER_BASES):
    """[(size, t best baseline / t best Swing)] over the sizes with both."""
    out = []
    for n, t in sorted(table(path, topo).items()):
        s = [v for a, v in t.items() if a in SWING]
        b = [v for a, v in t.items() if (a not in SWING if bases is None else a in bases)]
        if s and b:
            out.append((n, min(b) / min(s)))
    return out


def size_text(n):
    for u, f in (("GiB", 1 << 30), ("MiB", MiB), ("KiB", KiB)):
        if n >= f:
            return "%d %s" % (n // f, u)
    return "%d B" % n


def best_up_to(path, topo, bases=PAPER_BASES):
    """Largest size (MiB) up to which Swing beats every baseline at every size."""
    def f():
        g = gains(path, topo, bases)
        if not g:
            return None
        last = 0
        for n, x in g:
            if x < 1.0:
                break
            last = n
        return Result(last / MiB, last > 0, "first loss at %s" % size_text(n) if last != g[-1][0]
                      else "wins at every size to %s" % size_text(last))
    return f


def gain_at(path, topo, size, bases=PAPER_BASES):
    def f():
        g = dict(gains(path, topo, bases))
        return Result(g[size], g[size] > 1) if size in g else None
    return f


def gain_at_with_max(path, topo, size):
    """The gain at `size`, noting where the largest gain is."""
    def f():
        res, top = gain_at(path, topo, size)(), max_gain(path, topo)()
        if res and top:
            res.note = "largest %.2fx %s" % (top.value, top.note)
        return res
    return f


def max_gain(path, topo, bases=PAPER_BASES, upto=None, below=None):
    def f():
        g = [(x, n) for n, x in gains(path, topo, bases)
             if (upto is None or n <= upto) and (below is None or n < below)]
        if not g:
            return None
        x, n = max(g)
        return Result(x, x > 1, "at %s" % size_text(n))
    return f


def first_bucket_win(path, topo):
    """Smallest size (MiB) from which bucket is faster than the best Swing."""
    def f():
        for n, t in sorted(table(path, topo).items()):
            s = [v for a, v in t.items() if a in SWING]
            if s and "bucket" in t and t["bucket"] < min(s):
                return Result(n / MiB, True)
        return Result(float("inf"), False, "bucket never ahead")
    return f


def worst_loss():
    """Largest loss of Swing to bucket (1 - t_bucket / t_swing) on the square 2D tori."""
    out = []
    for path, topo in ((TORI, "dims=8x8 "), (TORI, "dims=16x16"), (LARGE, "dims=64x64")):
        for n, t in table(path, topo).items():
            s = min(v for a, v in t.items() if a in SWING)
            if "bucket" in t:
                out.append((100.0 * (1 - t["bucket"] / s), n))
    x, n = max(out)
    return Result(x, x > 0, "at %s" % size_text(n))


def peak_fraction(path, topo, size, peak_gbps):
    def f():
        t = table(path, topo).get(size, {})
        if "swing_bandwidth" not in t:
            return None
        return Result(100.0 * 8 * size / t["swing_bandwidth"] / 1e9 / peak_gbps, True)
    return f


def peak_ratio():
    a, b = table(HX2, "hx2mesh"), table(LARGE, "dims=64x64")
    pa = max(n / t["swing_bandwidth"] for n, t in a.items() if "swing_bandwidth" in t)
    pb = max(n / t["swing_bandwidth"] for n, t in b.items() if "swing_bandwidth" in t)
    return Result(pa / pb, pa > pb, "peak goodput Hx2Mesh / 64x64 torus")


def losses(path, topo):
    def f():
        g = gains(path, topo)
        lost = [size_text(n) for n, x in g if x < 1.0]
        return Result(len(lost), len(lost) < len(g) / 2,
                      "lost at " + ", ".join(lost) if lost else "of %d sizes" % len(g))
    return f


def rect_max_gain():
    res = [max_gain(RECT, t, upto=32 * MiB)() for t in ("dims=128x8", "dims=256x4")]
    best = max(res, key=lambda r: r.value)
    best.note += " (%s)" % ("128x8" if best is res[0] else "256x4")
    return best


def ring_over_swing():
    t = table(RECT, "dims=256x4").get(512 * MiB, {})
    s = min(v for a, v in t.items() if a in SWING)
    return Result(s / t["hamiltonian_rings"], s > t["hamiltonian_rings"]) if "hamiltonian_rings" in t else None


BWS = ("100", "200", "400", "800", "1600", "3200")


def bw_medians():
    return [statistics.median(x for _, x in gains(BW, "local_bw=%sGbps" % b)) for b in BWS]


def median_gain_bw():
    m = bw_medians()
    return Result((min(m), max(m)), all(x > 1 for x in m))


def gain_3200_512():
    g = dict(gains(BW, "local_bw=3200Gbps"))[512 * MiB]
    g100 = dict(gains(BW, "local_bw=100Gbps"))[512 * MiB]
    return Result(g, g > g100, "100 Gb/s: %.2fx" % g100)


ALL_TOPOS = [(TORI, "dims=8x8 "), (TORI, "dims=16x16"), (LARGE, "dims=64x64"),
             (TORI, "dims=8x8x8"), (D4, "8x8x8x8"), (RECT, "dims=64x16"), (RECT, "dims=128x8"),
             (RECT, "dims=256x4"), (HX2, "hx2mesh"), (HX4, "hx4mesh"), (LARGE, "hyperx")]


def median_range():
    m = [statistics.median(x for _, x in gains(p, t)) for p, t in ALL_TOPOS]
    return Result((min(m), max(m)), min(m) > 1, "11 topologies")


def congestion_deficiency(path, shape):
    """Swing-B's (ports=multi) most bytes on one link over bucket's (Xi_bucket = 1), traffic
    model: the congestion deficiency Xi of the paper's Table 2."""
    def f():
        hot = {label(r): int(r["max_link_bytes"]) for r in rows(path)
               if r["model"] == "traffic" and "dims=" + shape in r["topology"]}
        if "swing_bandwidth+multi" not in hot or "bucket+multi" not in hot:
            return None
        xi = hot["swing_bandwidth+multi"] / hot["bucket+multi"]
        return Result(xi, xi > 1, "%s, 32 MiB" % shape)
    return f


T64 = "64x64 torus, 400 Gb/s, allreduce, reductions free"
CLAIMS = [
    Claim("Fig. 6", "Swing beats every baseline from 32 B to 32 MiB", T64 + " (no ring: pruned plan)",
          "32 MiB", within(32, 32, " MiB"), best_up_to(LARGE, "dims=64x64"), [LARGE], "%g MiB",
          cause="bucket runs at its closed form in the fluid model; " + FLUID),
    Claim("Fig. 6", ">2x over recursive doubling at 2 MiB", T64 + "; vs single-port torus RD-L / RD-B",
          "> 2x", at_least(2.0, "x"), gain_at(LARGE, "dims=64x64", 2 * MiB, RD1), [LARGE], "%.2fx"),
    Claim("Fig. 6", "up to 50 % over RD-L below 32 KiB", T64 + "; vs single-port torus RD",
          "1.5x", rel(1.5, 0.1), max_gain(LARGE, "dims=64x64", RD1, below=32 * KiB), [LARGE], "%.2fx",
          cause="Swing-L splits the vector over 4 ports and RD-L uses one"),
    Claim("Fig. 6", "largest gain ~120 % (2.2x), at 2 MiB", T64 + "; the gain at 2 MiB",
          "2.2x", rel(2.2, 0.15), gain_at_with_max(LARGE, "dims=64x64", 2 * MiB), [LARGE], "%.2fx",
          cause="bucket's latency deficiency costs less in the fluid model; " + FLUID),
    Claim("Fig. 6", "bucket beats Swing from 128 MiB", T64, "128 MiB", within(128, 128, " MiB"),
          first_bucket_win(LARGE, "dims=64x64"), [LARGE], "%g MiB",
          cause="bucket's many steps cost only latency in the fluid model; " + FLUID),
    Claim("Fig. 6", "Swing-B reaches ~77 % of peak (800 Gb/s) at 512 MiB", T64, "77 %",
          rel(77, 0.05), peak_fraction(LARGE, "dims=64x64", 512 * MiB, 800), [LARGE], "%.1f %%",
          cause="the fluid model reaches the 1/Xi = 84.5 % bound; " + FLUID),
    Claim("Fig. 7", "negative gain vs bucket at most ~20 %", "8x8, 16x16, 64x64 tori, every size",
          "20 %", at_most(20, " %"), worst_loss, [TORI, LARGE], "%.1f %%"),
    Claim("Fig. 7", "Swing beats the state of the art up to 32 MiB (32x32)",
          "32x32 torus, 32 KiB, 2 MiB, 32 MiB (flow)", "32 MiB", within(32, 32, " MiB"),
          best_up_to(SQUARE, "dims=32x32"), [SQUARE], "%g MiB",
          cause="bucket's many steps cost only latency in the fluid model; " + FLUID),
    Claim("Sec. 5.1, Table 2", "Swing-B congestion deficiency 1.19 on a 2D torus",
          "128x128 torus, traffic model: hottest link of Swing-B / bucket (multiport)", "1.19",
          rel(1.19, 0.02), congestion_deficiency(SQUARE, "128x128"), [SQUARE], "%.3f"),
    Claim("Sec. 5.5, Fig. 8", "median gain ~25 % regardless of bandwidth",
          "8x8 torus, 100 Gb/s .. 3.2 Tb/s; range of the per-bandwidth medians", "1.25x",
          within(1.15, 1.35, "x"), median_gain_bw, [BW], "%.2fx",
          cause="the latency share grows with bandwidth and nothing per-packet offsets it; " + FLUID),
    Claim("Fig. 8", "at 3.2 Tb/s Swing beats every baseline even at 512 MiB", "8x8 torus, 3.2 Tb/s, 512 MiB",
          ">= 1x", at_least(1.0, "x"), gain_3200_512, [BW], "%.2fx",
          cause="in a fluid model both are pure bandwidth at 512 MiB: Swing-B at 1/Xi = "
                "1/1.078 of bucket at any bandwidth (the trend with bandwidth is the paper's)"),
    Claim("Fig. 10", "Swing best up to 32 MiB on every rectangular 1,024-node torus",
          "64x16, 128x8, 256x4; the smallest of the three", "32 MiB", at_least(32, " MiB"),
          lambda: Result(min(best_up_to(RECT, t)().value for t in ("dims=64x16", "dims=128x8", "dims=256x4")), True),
          [RECT], "%g MiB", cause=FLUID),
    Claim("Fig. 10, Sec. 5.5", "up to 3x on 128x8 and 256x4", "rectangular tori, sizes <= 32 MiB",
          "3x", rel(3.0, 0.15), rect_max_gain,
          [RECT], "%.2fx",
          cause="bucket's extra steps on elongated tori cost only latency here; " + FLUID),
    Claim("Sec. 5.5", "on 256x4 Swing ~60 % worse than the ring at 512 MiB", "256x4 torus, 512 MiB",
          "1.6x", rel(1.6, 0.15), ring_over_swing, [RECT], "%.2fx",
          cause=side(1.6, "Swing's congestion deficiency weighs more here", FLUID)),
    Claim("Fig. 11", "3D / 4D tori: up to 2x over every algorithm", "8x8x8x8 torus, 32 B .. 2 GiB",
          "2x", rel(2.0, 0.15), max_gain(D4, "8x8x8x8"), [D4], "%.2fx", cause=FLUID),
    Claim("Fig. 11", "3D / 4D tori: Swing wins at every size", "8x8x8 torus; sizes lost",
          "0", at_most(0), losses(TORI, "dims=8x8x8"), [TORI], "%d",
          cause="bucket at its Xi = 1 closed form beats Swing's Xi = 1.025 by <= 3 % at large sizes"),
    Claim("Fig. 11", "3D / 4D tori: Swing wins at every size", "8x8x8x8 torus; sizes lost",
          "0", at_most(0), losses(D4, "8x8x8x8"), [D4], "%d",
          cause="bucket at its Xi = 1 closed form beats Swing's Xi = 1.007 by < 1 % at large sizes"),
    Claim("Fig. 12", "Hx2Mesh: up to 2.5x at 2 MiB", "Hx2Mesh 32x32 boards of 2x2, 2 MiB", "2.5x",
          rel(2.5, 0.15), gain_at(HX2, "hx2mesh", 2 * MiB), [HX2], "%.2fx",
          cause="one non-blocking switch per row / column fat tree (not given by the paper): "
                "Swing's short distances buy nothing between boards"),
    Claim("Fig. 12", "Hx2Mesh: Swing wins at every size", "Hx2Mesh; sizes lost", "0", at_most(0),
          losses(HX2, "hx2mesh"), [HX2], "%d",
          cause="lock-step multiport sub-collectives pay the switch path at every step at small "
                "sizes; bucket's Xi = 1 at 512 MiB"),
    Claim("Fig. 12", "Hx2Mesh peak goodput above the 64x64 torus'", "Swing-B, best size", "> 1",
          at_least(1.0), peak_ratio, [HX2, LARGE], "%.2f"),
    Claim("Fig. 13", "Hx4Mesh: Swing no longer best from 128 MiB", "Hx4Mesh 16x16 boards of 4x4",
          "128 MiB", within(128, 128, " MiB"), first_bucket_win(HX4, "hx4mesh"), [HX4], "%g MiB"),
    Claim("Sec. 5.4.2", "Hx4Mesh: maximum gain ~2.5x", "Hx4Mesh", "2.5x", rel(2.5, 0.15),
          max_gain(HX4, "hx4mesh"), [HX4], "%.2fx",
          cause="one non-blocking switch per row / column fat tree: Swing's short distances "
                "buy nothing between boards"),
    Claim("Fig. 14", "HyperX: Swing best at any size, up to 3x", "64x64 HyperX, one switch per node",
          "3x", rel(3.0, 0.15), max_gain(LARGE, "hyperx"), [LARGE], "%.2fx",
          cause="every row / column peer is one hop away: short distances buy nothing; the "
                "paper's SST baselines pay adaptive routing over the switches"),
    Claim("Fig. 15", "median gain between 20 % and 50 %", "range of the per-topology medians, "
          "11 topologies (tori, rectangular, HammingMesh, HyperX)", "1.2..1.5x", within(1.2, 1.5, "x"),
          median_range, [TORI, LARGE, D4, RECT, HX2, HX4], "%.2fx",
          cause=side(1.5, FLUID, "on HammingMesh and HyperX Swing is level with the "
                     "single-port torus RD-L at small sizes (one switch per row / column)")),
    # collsim's extra baselines: mirrored RD (4 ports), plain RD, the single ring
    Claim("Fig. 6", "Swing beats every baseline up to 32 MiB, mirrored RD included",
          T64 + "; baselines incl. 4-port mirrored RD", "32 MiB", within(32, 32, " MiB"),
          best_up_to(LARGE, "dims=64x64", None), [LARGE], "%g MiB", baseline="collsim set", cause=FLUID),
    Claim("Fig. 6", "mirrored RD worse than Swing at every size", T64 + "; sizes where 4-port "
          "mirrored RD is ahead", "0", at_most(0),
          lambda: Result(sum(x < 1.0 for _, x in gains(LARGE, "dims=64x64",
                                                        {"recursive_doubling_torus+multi", "rabenseifner_torus+multi"})), False),
          [LARGE], "%d", baseline="collsim set", cause="(mirrored RD ahead)"),
    Claim("Fig. 14", "HyperX: up to 3x, against 4-port mirrored RD", "64x64 HyperX", "3x", rel(3.0, 0.15),
          max_gain(LARGE, "hyperx", None), [LARGE], "%.2fx", baseline="collsim set",
          cause="mirrored RD uses the same 4 ports over one-hop links: the same time"),
]

# the 64x64 torus claims on the packet model with adaptive routing (swing_packet.py)
from . import swing_packet  # noqa: E402

CLAIMS += swing_packet.claims(sys.modules[__name__])
