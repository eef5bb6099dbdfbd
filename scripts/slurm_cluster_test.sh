#!/bin/bash
# Tests deploy/slurm/ for real: starts a one-node Slurm cluster on this
# machine (Debian's slurm-wlm and munge, installed when missing), submits
# a small distillation as a 4-shard job array and its merge-and-train job,
# cancels one shard part-way (scancel) and requeues it, then checks that
# the merged chunks and the trained model equal a one-process
# `kotra-ai train` of the same config, byte for byte.
#
#   scripts/slurm_cluster_test.sh [WORK_DIR]
#
# Needs root (it starts munged, slurmctld and slurmd, and stops them on
# exit); takes a few minutes on 2 cores. Not part of `cargo test`.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/kotra-slurm-test.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)
shards=4

say() { echo "== $*"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    say "installing slurm-wlm and munge"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

say "building kotra-ai"
(cd "$repo" && cargo build --release --quiet)
export KOTRA_AI="$repo/target/release/kotra-ai"

# A distillation small enough for minutes: 1-ply targets of the shipped
# network over 32 chunks of 50 noisy games, a small student, two epochs.
cat >"$work/config.json" <<EOF
{ "seed": 7, "distill_teacher": "$repo/models/kotra-v29.net", "target_ply": 1,
  "move_noise": 0.1, "games": 1600, "games_per_step": 50, "contact_hidden": 32,
  "epochs": 2, "measure_games": 20 }
EOF

say "one process: kotra-ai train"
"$KOTRA_AI" train --quiet --config "$work/config.json" --out "$work/alone" >"$work/alone.log"
cat "$work/alone.log"

say "starting a one-node cluster in $work/slurm"
node=$(hostname)
s="$work/slurm"
mkdir -p "$s/state" "$s/spool"
cat >"$s/slurm.conf" <<EOF
ClusterName=kotra-test
SlurmctldHost=$node
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
ReturnToService=2
MinJobAge=3600
NodeName=$node CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$s/slurm.conf"
started_munge=
if ! munge -n </dev/null >/dev/null 2>&1; then
    [ -s /etc/munge/munge.key ] || mungekey --create --force >/dev/null 2>&1 || true
    mkdir -p /run/munge && chown munge:munge /run/munge 2>/dev/null || true
    su -s /bin/sh munge -c /usr/sbin/munged 2>/dev/null || /usr/sbin/munged --force
    started_munge=1
fi
stop() {
    [ -s "$s/slurmd.pid" ] && kill "$(cat "$s/slurmd.pid")" 2>/dev/null || true
    [ -s "$s/slurmctld.pid" ] && kill "$(cat "$s/slurmctld.pid")" 2>/dev/null || true
    if [ -n "$started_munge" ]; then pkill -x munged 2>/dev/null || true; fi
}
trap stop EXIT
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 30); do
    sinfo -h -o %t 2>/dev/null | grep -q idle && break
    sleep 1
done
sinfo

say "submitting $shards shards and the merge"
cd "$repo"
read -r array merge < <(deploy/slurm/submit.sh "$work/config.json" "$work/shared" "$shards" "$work/merged" 1 2)
echo "array job $array, merge job $merge"

victim="${array}_2"
state() { squeue -h -j "$1" -o %T 2>/dev/null || true; }
for _ in $(seq 120); do
    [ "$(state "$victim")" = RUNNING ] && break
    sleep 1
done
[ "$(state "$victim")" = RUNNING ] || fail "shard 2 never started"
sleep 5
say "scancel $victim part-way"
scancel "$victim"
sleep 2
scontrol show job "$victim" | grep -o 'JobState=[A-Z]*'
say "scontrol requeue $victim"
scontrol requeue "$victim"
# A requeued job waits out a begin time; let it start now.
scontrol update jobid="$victim" StartTime=now

for _ in $(seq 600); do
    [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
    sleep 1
done
[ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] || fail "jobs still queued after 10 minutes"

say "shard logs"
for i in $(seq 0 $((shards - 1))); do cat "$work/shared/logs/shard-$i.log"; done
say "merge-and-train log"
cat "$work/shared/logs/merge-train.log"
merge_state=$(scontrol show job "$merge" | grep -o 'JobState=[A-Z]*')
echo "merge job: $merge_state"
[ "$merge_state" = JobState=COMPLETED ] || fail "the merge-and-train job did not complete"
grep -q "try 2" "$work/shared/logs/shard-2.log" || fail "shard 2 was not run a second time"

say "comparing with the one-process run"
chunks=$(find "$work/alone/positions" -name '*.bin' | wc -l)
diff -r "$work/alone/positions" "$work/merged/positions" || fail "merged chunks differ"
cmp "$work/alone/model.net" "$work/merged/model.net" || fail "the trained models differ"
echo "PASS: $chunks chunks and model.net identical to the one-process run"
