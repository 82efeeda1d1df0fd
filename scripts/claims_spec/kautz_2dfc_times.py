"""kautz_2dfc_times.py - the Kautz/DF-C and 2dfc times of a results CSV, per model column,
shared by kautz_2dfc.py (network only) and kautz_2dfc_endpoint.py (endpoint costs on)."""
from collections import defaultdict

from .core import Result, rows


def dfc_times(path, model):
    """{(collective, block): {algorithm: time}}."""
    out = defaultdict(dict)
    for r in rows(path):
        if r["model"] == model:
            out[(r["collective"], int(r["size_bytes"]) // int(r["ranks"]))][r["algorithm"]] = float(r["time_s"])
    return out


def dfc_speedup(path, model, coll, block, alg=None):
    """DF-C time / Kautz time (alg, or the best Kautz variant)."""
    def f():
        t = dfc_times(path, model).get((coll, block))
        if not t or "df_c" not in t:
            return None
        k = {a: v for a, v in t.items() if a.startswith("kautz")}
        a = alg or min(k, key=k.get)
        return Result(t["df_c"] / k[a], t["df_c"] > k[a], a if alg is None else "")
    return f


def kc_over_km(path, model, coll, block):
    def f():
        t = dfc_times(path, model).get((coll, block))
        return Result(t["kautz_c"] / t["kautz_m"], t["kautz_c"] > t["kautz_m"]) if t else None
    return f


def two_times(path, model):
    """{(shape, bw, collective, block): {algorithm: time}}."""
    out = defaultdict(dict)
    for r in rows(path):
        if r["model"] == model:
            bw = [kv.split("=")[1] for kv in r["topology"].split() if kv.startswith("local_bw=")][0]
            out[(r["dims"], bw, r["collective"], int(r["size_bytes"]) // int(r["ranks"]))][r["algorithm"]] = float(r["time_s"])
    return out
