#!/bin/sh
# CLI test: `collsim sim --job` (several jobs on one topology): rows, columns, errors.
# usage: jobs.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
use_tmp
# a mesh line h0 - h1 - h2 - h3: h0 -> h2 and h1 -> h3 share the link h1 -> h2
LINE="torus dims=4 mesh=1 local_bw=1GBps local_lat=1us router_lat=0ns"
A='name=a,coll=p2p,alg=direct,ranks=2,hosts=[0,2],size=1000000B'
B='name=b,coll=p2p,alg=direct,ranks=2,hosts=[1,3],size=1000000B'
check "header" 0 ",sim_peak_rss_kb,job,start_s,reps,alone_time_s,slowdown$" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --format csv
# alone 2 us + 1 ms; together 2 us + 2 ms: slowdown 2.002/1.002
"$bin" sim --topology "$LINE" --job "$A" --job "$B" --format csv --no-header > "$tmp/rows.csv"
awk -F'"' '{ print $3 }' "$tmp/rows.csv" | awk -F, '
    { t = $3; job = $15; alone = $18; slow = $19 }
    t < 0.002001999 || t > 0.002002001 || alone < 0.001001999 || alone > 0.001002001 { bad = 1 }
    END { exit bad || NR != 2 }' && echo "ok   two rows, closed form" || {
    echo "FAIL two rows, closed form"; cat "$tmp/rows.csv"; fail=1; }
check "json" 0 '"job":"b","start_s":0,"reps":1,"alone_time_s":0.001002' -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --format json
check "text" 0 "^job a (start 0 s, 1 repetition)" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --format text
check "no alone" 0 "1000000,\"alloc:h\[0,2\]\",cm02,0.002002,.*,a,0,1,,$" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --no-alone --no-header
check "pattern job" 0 ",pattern,uniform,load=0.5 rounds=3 seed=7,4," -- \
    "$bin" sim --topology "$LINE" --job 'pattern=uniform,ranks=4,load=0.5,seed=7,size=1KiB,rounds=3' \
    --model traffic --no-header
check "overlap" 2 "jobs a and b both use host h2" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job 'name=b,coll=bcast,alg=linear,ranks=2,hosts=2-3'
check "bad key" 2 "job 1 ('coll=bcast,alg=linear,ranks=2,colour=red'): unknown key 'colour'" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job 'coll=bcast,alg=linear,ranks=2,colour=red'
check "point options" 2 "drop --collective" -- \
    "$bin" sim --topology "$LINE" --job "$A" --collective bcast
check "no topology" 2 "--job needs --topology" -- "$bin" sim --job "$A"
check "no-alone alone" 2 "--no-alone goes with --job" -- \
    "$bin" sim --topology "$LINE" --no-alone --collective bcast --algorithm linear --ranks 2
check "packet" 0 ",packet routing=minimal mtu=4096 buffer=65536,.*,b,0,1," -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --model packet --no-header
check "analytic refused" 2 "not yet on the analytic model" -- \
    "$bin" sim --topology "$LINE" --job "$A" --model analytic
# endpoint costs (overheads, envelope, rendezvous above the eager limit) apply to jobs as to
# a single point: job a alone takes exactly the time of the same point without --job
E="--send-overhead 1us --recv-overhead 2us --eager-limit 1KiB --envelope 64B"
for m in cm02 packet; do
    # shellcheck disable=SC2086
    j=$("$bin" sim --topology "$LINE" --job "$A" --model $m $E --no-header | awk -F'"' '{ print $3 }' | cut -d, -f3)
    # shellcheck disable=SC2086
    p=$("$bin" sim --topology "$LINE" --collective p2p --algorithm direct --ranks 2 --size 1000000B \
        --placement 'alloc:h[0,2]' --model $m $E --no-header | awk -F'"' '{ print $3 }' | cut -d, -f3)
    # the rendezvous makes it longer than the eager transfer of 1 ms + 2 us
    if [ -n "$j" ] && [ "$j" = "$p" ] && awk -v t="$j" 'BEGIN { exit !(t > 0.001005) }'; then
        echo "ok   endpoint costs with --job ($m): $j s = the single point"
    else
        echo "FAIL endpoint costs with --job ($m): job $j s, single point $p s"; fail=1
    fi
done
check "unknown algorithm" 2 "job a: allreduce nope\|job a: .*nope" -- \
    "$bin" sim --topology "$LINE" --job 'name=a,coll=allreduce,alg=nope,ranks=2'
check "memory" 2 "more than the limit of 1.0KiB (--max-memory" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --max-memory 1KiB
check "timeout" 0 ",a,0,1,0.001002,1.998003992$" -- \
    "$bin" sim --topology "$LINE" --job "$A" --job "$B" --point-timeout 60
check "external platform refused" 2 "need a generated topology" -- \
    "$bin" sim --platform tests/data/none.xml --job "$A"
rm -rf "$tmp"
exit $fail
