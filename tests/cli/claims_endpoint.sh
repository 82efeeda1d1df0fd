#!/bin/sh
# The endpoint-on claims (issue 24: scripts/claims_spec/alltoallv_endpoint.py,
# kautz_2dfc_endpoint.py, scripts/endpoint_switch.py, scripts/alltoallv_stats.py
# regimes-md) are computed from the endpoint results CSVs and react to their numbers:
# the regime classifier on hand-made radices, a planted slow r = 2 in a copy of the radix
# CSV that must move the best radix out of the paper's regime (claim verdict and regimes
# table), and the switch tables having verdicts for both settings. The committed claims
# CSVs and README sections themselves are checked by tests/cli/claims.sh. Standard
# library Python only; runs in seconds.
set -u
fail=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
py=python3

# 1. The regime rule, on values derived by hand (P = 512: sqrt(P) = 22.6, so ~sqrt(P) is
#    12..45; ~P is >= 256; the paper's S boundaries: 512 B, 8 KiB Polaris, 32 KiB Fugaku).
$py - <<'PY' || fail=1
import sys
sys.path.insert(0, "scripts")
import alltoallv_stats as s
cases = [(s.regime(2, 512), "~2"), (s.regime(4, 512), "~2"), (s.regime(8, 512), "between"),
         (s.regime(12, 512), "~sqrt(P)"), (s.regime(45, 512), "~sqrt(P)"),
         (s.regime(64, 512), "between"), (s.regime(256, 512), "~P"), (s.regime(512, 512), "~P"),
         (s.paper_regime("polaris", 256), "~2"), (s.paper_regime("polaris", 1024), "~sqrt(P)"),
         (s.paper_regime("polaris", 16384), "~P"), (s.paper_regime("fugaku|o_s=1", 16384), "~sqrt(P)"),
         (s.paper_regime("fugaku", 65536), "~P")]
bad = [(i, got, want) for i, (got, want) in enumerate(cases) if got != want]
if bad:
    sys.exit("FAIL regime rule: %s" % bad)
print("ok   regime rule (%d cases)" % len(cases))
PY

# 2. Planted bug: r = 2 and r = 4 made 10x slower for Polaris, paper setting, S = 16 B, in
#    a copy of the radix CSV. The claim "Polaris, small S: ideal radix ~2" must lose its verdict and
#    the regimes table must print "no" for that row.
mkdir -p "$tmp/results/alltoallv/alltoallv_radix_endpoint"
$py - results/alltoallv/alltoallv_radix_endpoint/results.csv \
    "$tmp/results/alltoallv/alltoallv_radix_endpoint/results.csv" <<'PY' || fail=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
hit = [r for r in rows if "polaris" in r["topology"] and "send_overhead=3160ns" in r["model"]
       and r["ranks"] == "512" and r["size_bytes"] == "16" and r["params"] in ("radix=2", "radix=4")]
if len(hit) != 2:
    sys.exit("FAIL planting: %d rows match" % len(hit))
for r in hit:
    r["time_s"] = repr(float(r["time_s"]) * 10)
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader(); w.writerows(rows)
PY
$py - "$tmp" <<'PY' || fail=1
import sys
sys.path.insert(0, "scripts")
from claims_spec import core, alltoallv_endpoint as ep
want = {c.claim: c.evaluate()[1] for c in ep.claims("paper")}
key = "Polaris, small S (2..512 B): ideal radix ~2"
if want[key] != "reproduced":
    sys.exit("FAIL: the committed data should reproduce %r, got %s" % (key, want[key]))
core.ROOT, core._cache = sys.argv[1], {}
got = {c.claim: c.evaluate()[1] for c in ep.claims("paper")}
if got[key] == "reproduced":
    sys.exit("FAIL: planted slow r = 2 still gives 'reproduced' for %r" % key)
print("ok   planted slow r = 2, 4: %r is now %s" % (key, got[key]))
PY
line=$($py scripts/alltoallv_stats.py regimes-md "$tmp/results/alltoallv/alltoallv_radix_endpoint/results.csv" |
       grep '^| Polaris | o_s=3160ns o_r=3160ns | 512 | 16 B | ')
case $line in
    *" | ~2 | no | "*) echo "ok   planted row out of its regime in the table";;
    *) echo "FAIL: the regimes table did not flag the planted row: $line"; fail=1;;
esac

# 3. The switch tables: every paper has claims with a verdict under the setting off and
#    under one with costs (not vacuous), and a bad paper name is an error naming the choices.
for p in alltoallv kautz-2dfc; do
    out=$($py scripts/endpoint_switch.py $p) || { echo "FAIL: endpoint_switch.py $p"; fail=1; continue; }
    n=$(printf '%s\n' "$out" | grep -c -E '\| (yes|no) \|$')
    [ "$n" -ge 5 ] && echo "ok   switch table $p: $n claims with both settings" ||
        { echo "FAIL: switch table $p has $n claims with both settings"; fail=1; }
done
out=$($py scripts/endpoint_switch.py bine 2>&1) && { echo "FAIL: an unknown paper passed"; fail=1; }
case $out in *"one paper of alltoallv, kautz-2dfc"*) echo "ok   unknown paper refused";;
    *) echo "FAIL: $out"; fail=1;; esac

[ $fail -eq 0 ] && echo "ok claims with endpoint costs"
exit $fail
