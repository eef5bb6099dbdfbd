#!/bin/bash
# Judges a block of the training campaign (issue 70): trains the
# candidate recipe on the whole position database, then plays it
#   1. against the shipped network: mirrored money games with the cube at
#      0-ply (`kotra-ai duel --cube --luck`), DUEL_GAMES in all over two
#      seeds, each reported as played and with the rolls' luck removed;
#   2. against gnubg 0-ply (`scripts/strength_vs_gnubg.py`), GNUBG_GAMES
#      for the shipped network and as many for the candidate on the same
#      seeds, and the two game by game, when GNUBG_GAMES > 0 (gnubg must
#      be installed).
# A candidate ships when its duel gain is beyond two standard errors and
# it is not worse against gnubg (models/README.md); the script only
# measures, and says nothing is shipped.
#
#   scripts/campaign_judge.sh [CONFIG] [OUT] [DUEL_GAMES] [GNUBG_GAMES] [GNUBG_SEED]
#
# Defaults: training/campaign-candidate.json, runs/campaign-candidate,
# 100000, 0, 701. A fresh run keeps its recipe and the database's
# manifest as OUT.recipe.json and OUT.manifest.json, which freeze the
# recipe if it ships. A training run in OUT is resumed (a finished one is reused;
# delete OUT to train again); the gnubg runs resume from their chunks.
set -euo pipefail
cd "$(dirname "$0")/.."
config=${1:-training/campaign-candidate.json}
out=${2:-runs/campaign-candidate}
duel_games=${3:-100000}
gnubg_games=${4:-0}
gnubg_seed=${5:-701}
# The candidate must list every deep batch the manifest has now (a relabel
# renames a batch's file); other recipes are the caller's to keep.
if [ "$config" = training/campaign-candidate.json ]; then
  python3 scripts/campaign_candidate.py --check
fi
# A copy, so that a rebuild during the run cannot swap the binary under
# it; $KOTRA_BIN names a binary already built instead.
bin=$(mktemp /tmp/kotra-judge-bin.XXXXXX)
trap 'rm -f "$bin"' EXIT
if [ -n "${KOTRA_BIN:-}" ]; then
  cp "$KOTRA_BIN" "$bin"
else
  cargo build --release --quiet
  cp target/release/kotra-ai "$bin"
fi
chmod 755 "$bin"
$bin campaign status
resume=()
[ -d "$out" ] && resume=(--resume)
# What a fresh run trains on, kept beside it: batches that land while it
# trains are not the judged candidate's, and freezing its recipe later
# (campaign_candidate.py --freeze --config/--manifest) must not list them.
if [ ${#resume[@]} -eq 0 ]; then
  mkdir -p "$(dirname "$out")"
  cp "$config" "$out.recipe.json"
  cp training/data/manifest.json "$out.manifest.json"
fi
$bin train --config "$config" --out "$out" "${resume[@]}" --quiet 2>&1 | tail -n 2
half=$(( duel_games / 2 ))
for seed in 71 72; do
  $bin duel --cube --luck --a "net:$out/model.net" --b net --games "$half" --seed "$seed" 2>/dev/null | tail -n 2
done
if [ "$gnubg_games" -gt 0 ]; then
  # The shipped network first, so that the candidate's run can pair its
  # games with those on the same dice; its folder is named by the
  # network's digest, so a later candidate reuses its games and a newly
  # shipped network does not.
  digest=$(sha256sum models/kotra.net | cut -c1-8)
  shipped=runs/strength/campaign-shipped-$digest-$gnubg_seed
  python3 scripts/strength_vs_gnubg.py --ply 0 --games "$gnubg_games" --seed "$gnubg_seed" \
    --bin "$bin" --model "$(pwd)/models/kotra.net" --dir "$shipped" | grep RESULT | sed "s/^/shipped: /"
  # The candidate's folder is named by its digest too: a later block's
  # candidate must not resume an earlier one's games.
  candidate=runs/strength/campaign-candidate-$(sha256sum "$out/model.net" | cut -c1-8)-$gnubg_seed
  python3 scripts/strength_vs_gnubg.py --ply 0 --games "$gnubg_games" --seed "$gnubg_seed" \
    --bin "$bin" --model "$(pwd)/$out/model.net" --dir "$candidate" \
    --against "$shipped" | grep "RESULT\|PAIRED" | sed "s/^/candidate: /"
fi
