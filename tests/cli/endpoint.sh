#!/bin/sh
# CLI test: endpoint costs (issue 24; docs/simulator.md "Endpoint costs").
#  - Without endpoint options, reference rows committed under results/ (cm02 and smpi,
#    generated before endpoint costs existed) are reproduced exactly: time_s and every
#    traffic column, as text; with every option given as 0 too. A planted 1 us send
#    overhead must change time_s (so the comparison can fail).
#  - Bad values name the option (or file:line:col and key) and what is allowed, exit 2.
#  - The model column names the effective non-zero keys; precedence CLI > spec > preset.
# usage: endpoint.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
py=${COLLSIM_PYTHON:-python3}

# ---- reference rows, exactly -------------------------------------------------------------
cat > "$tmp/replay.py" <<'PY'
# Re-runs rows of reference results.csv files with `collsim sim` and compares columns as
# text. argv: collsim, extra options ("" or "zeros" or "planted"), then FILE:N pairs
# (the first N ok rows of each file with at most 32 ranks).
import csv, subprocess, sys
bin, mode = sys.argv[1], sys.argv[2]
extra = {"": [], "zeros": ["--send-overhead", "0", "--recv-overhead", "0", "--msg-gap", "0",
                           "--envelope", "0B"],
         "planted": ["--send-overhead", "1us"]}[mode]
cols = ["time_s", "bytes_host", "bytes_local", "bytes_global", "bytes_intergroup_msgs",
        "max_link_bytes", "messages", "steps", "model"]
compared = differ = 0
for spec in sys.argv[3:]:
    path, n = spec.rsplit(":", 1)
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok" and
            int(r["ranks"]) <= 32 and r["model"] in ("cm02", "smpi") and not r["workload"]]
    for r in rows[:int(n)]:
        cmd = [bin, "sim", "--topology", r["topology"], "--collective", r["collective"],
               "--algorithm", r["algorithm"], "--ranks", r["ranks"], "--ranks-per-node",
               r["ranks_per_node"], "--size", r["size_bytes"], "--placement", r["placement"],
               "--model", r["model"], "--root", r["root"], "--dst", r["dst"],
               "--reduce-rate", r["reduce_Bps"] + "Bps" if float(r["reduce_Bps"]) else "free",
               "--copy-rate", r["copy_Bps"] + "Bps" if float(r["copy_Bps"]) else "free"]
        for p in r["params"].split():
            cmd += ["--param", p]
        if r["dims"]:
            cmd += ["--dims", r["dims"]]
        out = subprocess.run(cmd + extra, capture_output=True, text=True)
        if out.returncode != 0:
            print("FAIL replay %s point %s: %s" % (path, r["point"], out.stderr.strip()))
            sys.exit(1)
        got = next(csv.DictReader(out.stdout.splitlines()))
        compared += 1
        bad = [c for c in cols if got[c] != r[c]]
        if bad:
            differ += 1
            if mode != "planted":
                print("FAIL %s point %s: %s" % (path, r["point"],
                      ", ".join("%s %s != %s" % (c, got[c], r[c]) for c in bad)))
print("compared %d differ %d" % (compared, differ))
PY
REFS="results/kautz-2dfc/twodfc/results.csv:6 results/kautz-2dfc/kautz_p2p/results.csv:3"
check "reference rows reproduced without endpoint options" 0 "compared 9 differ 0" -- \
    "$py" "$tmp/replay.py" "$bin" "" $REFS
check "reference rows reproduced with every option 0" 0 "compared 9 differ 0" -- \
    "$py" "$tmp/replay.py" "$bin" zeros $REFS
check "planted: a 1 us send overhead changes every row" 0 "compared 9 differ 9" -- \
    "$py" "$tmp/replay.py" "$bin" planted $REFS

# ---- the model column and closed forms ------------------------------------------------------
STAR="fattree leaves=1 hosts_per_leaf=4 host_bw=1GBps host_lat=1us"
P2P="--collective p2p --algorithm direct --ranks 4 --root 0 --dst 3 --size 1000 --no-header"
# 3 us + 2 x 1 us + 1024 B / 1 GB/s + 5 us = 11.024 us
check "one message, model column" 0 \
    ",cm02 send_overhead=3000ns recv_overhead=5000ns envelope=24,1.1024e-05," -- \
    "$bin" sim --topology "$STAR" $P2P --send-overhead 3us --recv-overhead 5us --envelope 24B
# + a round trip of two 24-byte control messages: 2 x (2 us + 0.024 us)
check "rendezvous adds a round trip" 0 "envelope=24 eager_limit=512,1.5072e-05," -- \
    "$bin" sim --topology "$STAR" $P2P --send-overhead 3us --recv-overhead 5us --envelope 24B \
    --eager-limit 512
# wire bytes: 1024 on each of 2 host links
check "link bytes count the envelope" 0 ",1.1024e-05,[0-9.e+]*,[0-9.e+]*,2048,0,0,0,1024,1,1," -- \
    "$bin" sim --topology "$STAR" $P2P --send-overhead 3us --recv-overhead 5us --envelope 24B
check "packet model names its options first" 0 \
    ",packet routing=minimal mtu=4096 buffer=65536 send_overhead=3000ns msg_gap=100ns," -- \
    "$bin" sim --topology "$STAR" $P2P --model packet --send-overhead 3us --msg-gap 100ns
check "traffic model: no endpoint options" 2 "apply to timed models (cm02, lv08, smpi, packet), not to --model traffic" -- \
    "$bin" sim --topology "$STAR" $P2P --model traffic --envelope 24B
check "traffic model: a topology's endpoint keys are not applied" 0 ",traffic,,,,2000,0,0,0,1000,1,1," -- \
    "$bin" sim --topology "$STAR envelope=24" $P2P --model traffic

# ---- precedence: CLI > topology spec > preset > included fragment ---------------------------
mkdir -p "$tmp/m/calib"
printf 'send_overhead: 1us\nenvelope: 8B\n' > "$tmp/m/calib/frag.yaml"
printf 'family: fattree\nparams: {leaves: 1, hosts_per_leaf: 4, host_bw: 1GBps, host_lat: 1us}\ninclude: calib/frag.yaml\nenvelope: 16B\n' > "$tmp/m/m.yaml"
check "preset and include" 0 ",cm02 send_overhead=1000ns envelope=16," -- \
    "$bin" sim --topology "$tmp/m/m.yaml" $P2P
check "spec key over preset" 0 ",cm02 send_overhead=2000ns envelope=16," -- \
    "$bin" sim --topology "$tmp/m/m.yaml send_overhead=2us" $P2P
# 2 x 1 us + 1016 B / 1 GB/s
check "CLI over spec key, even 0" 0 ",cm02 envelope=16,3.016e-06," -- \
    "$bin" sim --topology "$tmp/m/m.yaml send_overhead=2us" $P2P --send-overhead 0
check "topo ignores the endpoint keys" 0 "4 hosts" -- \
    "$bin" topo "$STAR send_overhead=1us"

# ---- bad input -------------------------------------------------------------------------------
check "negative time" 2 "^collsim sim: --send-overhead: invalid time '-1us': must not be negative (allowed: a time from 0 to 1s" -- \
    "$bin" sim --topology "$STAR" $P2P --send-overhead -1us
check "unknown unit" 2 "--msg-gap: unknown unit 'furlongs'.*allowed units: s, ms, us, ns, ps" -- \
    "$bin" sim --topology "$STAR" $P2P --msg-gap 3furlongs
check "over a second" 2 "--recv-overhead: '2s' is more than 1s per message" -- \
    "$bin" sim --topology "$STAR" $P2P --recv-overhead 2s
check "bad size" 2 "--envelope: .*allowed: a size >= 0, e.g. 64B" -- \
    "$bin" sim --topology "$STAR" $P2P --envelope lots
check "eager limit not a size" 2 "--eager-limit: .*allowed: a size" -- \
    "$bin" sim --topology "$STAR" $P2P --eager-limit -4KiB
check "spec key value" 2 "topology spec: envelope: '2MiB' is out of range (allowed: 0 .. 1048576 bytes)" -- \
    "$bin" sim --topology "$STAR envelope=2MiB" $P2P
printf 'family: torus\nparams:\n  dims: 4\nrecv_overhead: 5parsecs\n' > "$tmp/m/bad.yaml"
check "preset value names file:line:col" 2 "bad.yaml:4:1: recv_overhead: unknown unit 'parsecs'" -- \
    "$bin" sim --topology "$tmp/m/bad.yaml" $P2P
printf 'send_overhead: 1us\nmtu: 4\n' > "$tmp/m/calib/bad.yaml"
printf 'family: torus\nparams:\n  dims: 4\ninclude: calib/bad.yaml\n' > "$tmp/m/inc.yaml"
check "fragment: only endpoint keys" 2 "inc.yaml:4:10: include: .*calib/bad.yaml:2:1: unknown field 'mtu' (a fragment holds only: send_overhead, recv_overhead, msg_gap, envelope, eager_limit)" -- \
    "$bin" sim --topology "$tmp/m/inc.yaml" $P2P
printf 'family: torus\nparams:\n  dims: 4\ninclude: nowhere.yaml\n' > "$tmp/m/gone.yaml"
check "fragment missing" 2 "gone.yaml:4:10: include: .*nowhere.yaml: cannot open" -- \
    "$bin" sim --topology "$tmp/m/gone.yaml" $P2P
# the packet model's rendezvous, in closed form: every hop (host -> switch -> host) stores
# and forwards a packet, lat + bytes / bw each: 1000 bytes take 2 (1 us + 1 us); a request
# (envelope bytes, one packet even when empty) and its reply take 2 (1 us + envelope ns)
# each before the data: eager 4 us; rendezvous 8 us; with a 24-byte envelope
# 2 x 2 (1 + 0.024) + 2 (1 + 1.024) us = 8.144 us
pkt() { "$bin" sim --topology "$STAR" $P2P --model packet "$@" | cut -d, -f10; }
check "packet: eager 1000 bytes" 0 "^4e-06$" -- pkt --eager-limit 4KiB
check "packet: rendezvous = data + a control round trip" 0 "^8e-06$" -- pkt --eager-limit 0
check "packet: rendezvous with envelopes" 0 "^8.144e-06$" -- pkt --eager-limit 0 --envelope 24B

# ---- sweep keys ----------------------------------------------------------------------------
cat > "$tmp/s.lua" <<LUA
collsim.sweep{topology = "$STAR", collective = "p2p", algorithm = "direct", ranks = 4,
              root = 0, dst = 3, size = 1000, send_overhead = {0, "3us"}, envelope = 24,
              reduce_rate = "free", copy_rate = "free"}
LUA
"$bin" run "$tmp/s.lua" -o "$tmp/out" -q --no-plot
check "sweep: model column and time" 0 ",cm02 send_overhead=3000ns envelope=24,.*,6.024e-06," -- \
    cat "$tmp/out/results.csv"
check "sweep: a given 0 is named in the manifest" 0 '"endpoint": "send_overhead=0 envelope=24"' -- \
    cat "$tmp/out/manifest.json"
cat > "$tmp/bad.lua" <<LUA
collsim.sweep{topology = "$STAR", collective = "p2p", algorithm = "direct", ranks = 4,
              msg_gap = "-3us"}
LUA
check "sweep: bad value" 2 "bad.lua:1: collsim.sweep: msg_gap: invalid time '-3us': must not be negative" -- \
    "$bin" run "$tmp/bad.lua" -o "$tmp/out2" -q --no-plot
cat > "$tmp/s2.lua" <<LUA
collsim.sweep{topology = "$STAR", collective = "p2p", algorithm = "direct", ranks = 4,
              root = 0, dst = 3, size = 1000, models = {"cm02", "packet"}, eager_limit = 0,
              reduce_rate = "free", copy_rate = "free"}
LUA
"$bin" run "$tmp/s2.lua" -o "$tmp/out3" -q --no-plot
check "sweep: eager_limit with the packet model (rendezvous, 8 us as above)" 0 \
    ",packet routing=minimal mtu=4096 buffer=65536 eager_limit=0,.*,8e-06," -- cat "$tmp/out3/results.csv"
# the flow model's rendezvous: three path latencies of 2 us, then 1000 B at 1 GB/s
check "sweep: eager_limit with cm02 (rendezvous, 3 x 2 us + 1 us)" 0 \
    ",cm02 eager_limit=0,.*,7e-06," -- cat "$tmp/out3/results.csv"
rm -rf "$tmp"
exit $fail
