#!/bin/sh
# CLI test: scripts/slurm-array.sh against a real Slurm. Installs Debian's slurm-wlm and
# munge when they are missing (as root, or with sudo), starts a private munged and a
# one-node slurmctld + slurmd on this machine (own ports, socket, state and log files in
# a temporary directory; nothing of the system's configuration is used or changed),
# submits the job array and its merge job, waits for them, and compares the merged
# results.csv with an unsharded run. Skipped, with the reason, only when the packages
# cannot be installed or the daemons cannot start in this environment.
# usage: slurm_cluster.sh PATH/TO/collsim
set -u
bin=$1
. "$(dirname "$0")/lib/check.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
export PATH="$PATH:/usr/sbin:/sbin"

have_slurm() {
    command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged
}
if ! have_slurm >/dev/null 2>&1; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    if [ -n "$SUDO" ] && ! sudo -n true 2>/dev/null; then
        echo "skip real Slurm: slurm-wlm and munge are not installed, and installing them" \
            "needs root (or sudo without a password)"
        exit 0
    fi
    echo "installing slurm-wlm munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    if ! $SUDO apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null 2>&1; then
        $SUDO apt-get update -q >/dev/null 2>&1
        $SUDO apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null 2>&1
    fi
    if ! have_slurm >/dev/null 2>&1; then
        echo "skip real Slurm: apt-get could not install slurm-wlm and munge"
        exit 0
    fi
fi

tmp=$(mktemp -d)
export COLLSIM_CACHE_DIR="$tmp/cache"
pids=""
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null; done
    [ -s "$tmp/munge/munged.pid" ] && kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null
    sleep 1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- munge: a key and a daemon of our own, on our own socket ----------------------------------
mkdir -p "$tmp/munge" && chmod 700 "$tmp/munge"
mungekey --create --keyfile="$tmp/munge/munge.key" 2>/dev/null ||
    dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 600 "$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
if ! munged --force --socket="$sock" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
    --seed-file="$tmp/munge/munged.seed" 2>"$tmp/munge/start.err"; then
    echo "skip real Slurm: munged does not start here: $(head -c 300 "$tmp/munge/start.err")"
    exit 0
fi

# ---- a one-node cluster: this machine, two free ports --------------------------------------
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
host=$(hostname -s)
cpus=$(nproc 2>/dev/null || echo 1)
mkdir -p "$tmp/state" "$tmp/spool"
conf="$tmp/slurm.conf"
cat > "$conf" <<EOF
ClusterName=collsimtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
SlurmUser=$(id -un)
SlurmdUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf"
slurmctld -D -i -f "$conf" > "$tmp/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$conf" > "$tmp/slurmd.out" 2>&1 &
pids="$pids $!"
k=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    k=$((k + 1))
    if [ $k -gt 60 ]; then
        echo "skip real Slurm: the one-node cluster did not come up in 60 s:"
        tail -3 "$tmp/slurmctld.log" "$tmp/slurmd.log" 2>/dev/null
        exit 0
    fi
    sleep 1
done
echo "ok   one-node Slurm up: $(sinfo -h -o '%P %D %T')"

# ---- the sweep, as a job array of 3 shards + the merge job ----------------------------------
cat > "$tmp/tiny.lua" <<'LUA'
collsim.sweep{topology = collsim.topology.torus{dims = "4x2"}, collective = "allreduce",
              ranks = 8, algorithms = {"ring", "recursive_doubling", "rabenseifner"},
              sizes = collsim.sizes.geometric("1KiB", "1MiB", 4), model = "cm02"}
LUA
check "submit to the real Slurm" 0 "array job [0-9]* (3 tasks), merge job [0-9]*" -- \
    env COLLSIM="$bin" OUT="$tmp/out" sh "$root/scripts/slurm-array.sh" "$tmp/tiny.lua" 3 \
    --time=10
k=0
# every job of ours has left the queue (completed or failed)
while [ -n "$(squeue -h -o %i 2>/dev/null)" ] && [ $k -lt 300 ]; do sleep 1; k=$((k + 1)); done
"$bin" run "$tmp/tiny.lua" -o "$tmp/whole" -q --no-plot 2>/dev/null
if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
    echo "FAIL jobs still queued after 300 s:"; squeue; fail=1
elif cmp -s "$tmp/whole/results.csv" "$tmp/out/results.csv" &&
    [ "$(wc -l < "$tmp/out/results.csv")" -eq 19 ]; then
    echo "ok   array + merge on Slurm = the unsharded run (18 rows, byte-identical)"
else
    echo "FAIL the merged results.csv differs from the unsharded run"; fail=1
    ls "$tmp/out"; cat "$tmp/out"/slurm-*.out 2>/dev/null | tail -20
    tail -5 "$tmp/slurmctld.log"
fi
check "each shard ran as an array task" 0 "^3$" -- sh -c "ls '$tmp/out' | grep -c '^shard-[123]$'"
exit $fail
