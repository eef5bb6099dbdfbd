#!/bin/bash
# What `scripts/campaign.sh start` runs in the background, from a copy, so
# that editing this file cannot change a run in flight (bash reads a
# script as it goes). It plays new batches until its time is up; when the
# database reaches its limit of bytes first, it spends the rest of the
# time relabelling the batches with the stalest labels
# (scripts/campaign_stale.py), so that a full database still gains from
# every session's hours, as many as the repository has room for.
#
#   campaign_background.sh BIN LOG MINUTES [`campaign run` options]
#
# Run from the repository's root. Of the options, `--teacher`, `--data`,
# `--work` and `--label-ply` (each followed by its value) also apply to
# the relabelling; the others are the new batches' alone.
set -uo pipefail
bin=$1 log=$2 minutes=$3
shift 3
deadline=$(($(date +%s) + 60 * minutes))
teacher=models/kotra.net data=training/data
shared=()
args=("$@")
for i in "${!args[@]}"; do
  value=${args[$((i + 1))]:-}
  case ${args[$i]} in
    --teacher) teacher=$value ;;
    --data) data=$value ;;
    --work | --label-ply) shared+=("${args[$i]}" "$value") ;;
  esac
done
"$bin" campaign run --minutes "$minutes" "$@" >>"$log" 2>&1
tail -n 1 "$log" | grep -q "reached its limit of bytes" || exit 0
left=$(((deadline - $(date +%s)) / 60))
[ "$left" -ge 5 ] || exit 0
seeds=$(python3 scripts/campaign_stale.py --teacher "$teacher" --data "$data" 2>>"$log") || exit 1
if [ -z "$seeds" ]; then
  echo "campaign: the database is full and every batch has the teacher's labels" >>"$log"
  exit 0
fi
# Every relabel grows the history by about a batch: relabel only as many
# as the repository's bound leaves room for (scripts/repo_room.py).
fit=$(python3 scripts/repo_room.py --relabels 2>>"$log") || exit 1
if [ "$fit" -le 0 ]; then
  echo "campaign: the database is full and the repository has no room left for relabels (scripts/repo_room.py)" >>"$log"
  exit 0
fi
seeds=$(echo "$seeds" | cut -d, -f"1-$fit")
echo "campaign: the database is full; relabelling the stalest batches for $left minutes" >>"$log"
exec "$bin" campaign relabel --seeds "$seeds" --teacher "$teacher" --data "$data" "${shared[@]}" \
  --minutes "$left" >>"$log" 2>&1
