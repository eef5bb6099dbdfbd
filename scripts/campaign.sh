#!/bin/bash
# The training campaign's generator in the background, at the lowest
# priority (nice 19, idle I/O class), so that it takes only what the
# session's own work leaves of the cores. Start it first thing in every
# session; commit what it finished (scripts/campaign_commit.sh) before the
# session stops.
#
#   scripts/campaign.sh start [MINUTES] [more `campaign run` options]
#                                   builds the release binary, copies it
#                                   aside (a rebuild cannot pull it from
#                                   under the run) and starts it; the log
#                                   is $KOTRA_CAMPAIGN_LOG. Once the
#                                   database is full, the rest of the
#                                   time relabels the stalest batches
#                                   (scripts/campaign_background.sh)
#   scripts/campaign.sh relabel MINUTES SEEDS [more `campaign relabel`
#                                   options]  the same, but searching the
#                                   stored batches of SEEDS (e.g. 1-36)
#                                   again with the teacher instead
#   scripts/campaign.sh stop        asks it to stop after its chunk in
#                                   flight, and waits until it has
#   scripts/campaign.sh status      the database, and the log's last lines
#
# A killed or stopped run loses at most its chunk in flight: the next
# start finds the chunks it left in the work folder (`campaign run
# --work`, by default ~/.cache/kotra-ai/campaign).
set -euo pipefail
cd "$(dirname "$0")/.."
log=${KOTRA_CAMPAIGN_LOG:-/tmp/kotra-campaign.log}
bin=/tmp/kotra-campaign-bin
background=/tmp/kotra-campaign-background.sh
pidfile=/tmp/kotra-campaign.pid

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

case "${1:-status}" in
  start|relabel)
    if running; then
      echo "a campaign is already running (pid $(cat "$pidfile")); log: $log"
      exit 0
    fi
    mode=$1
    minutes=${2:-150}
    shift $(( $# >= 2 ? 2 : $# ))
    if [ "$mode" = relabel ]; then
      [ $# -ge 1 ] || { echo "usage: scripts/campaign.sh relabel MINUTES SEEDS [OPTIONS]" >&2; exit 2; }
      seeds=$1
      shift
    fi
    cargo build --release --quiet
    cp target/release/kotra-ai "$bin"
    if [ "$mode" = relabel ]; then
      nohup nice -n 19 ionice -c 3 "$bin" campaign relabel --seeds "$seeds" --minutes "$minutes" "$@" >>"$log" 2>&1 &
    else
      cp scripts/campaign_background.sh "$background"
      nohup nice -n 19 ionice -c 3 "$background" "$bin" "$log" "$minutes" "$@" >/dev/null 2>&1 &
    fi
    echo $! >"$pidfile"
    echo "campaign ($mode) started (pid $!, at most $minutes minutes); log: $log"
    ;;
  stop)
    if ! running; then
      echo "no campaign is running"
      exit 0
    fi
    # Asked again while it runs: a full database's relabel, starting just
    # after a first ask, clears the STOP file it finds.
    while running; do
      target/release/kotra-ai campaign stop >/dev/null 2>&1 || "$bin" campaign stop >/dev/null
      sleep 5
    done
    tail -n 1 "$log"
    ;;
  status)
    target/release/kotra-ai campaign status
    if running; then echo "running (pid $(cat "$pidfile"))"; else echo "not running"; fi
    [ -f "$log" ] && tail -n 3 "$log"
    ;;
  *)
    echo "usage: scripts/campaign.sh start [MINUTES] [OPTIONS] | relabel MINUTES SEEDS [OPTIONS] | stop | status" >&2
    exit 2
    ;;
esac
