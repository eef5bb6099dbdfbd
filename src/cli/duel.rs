//! `kotra-ai duel`: mirrored money games between two players.

use crate::eval::shipped_model;
use crate::players::{duel_reporting, parse_player};

pub fn run(a: &str, b: &str, games: u64, seed: u64, json: bool) -> anyhow::Result<()> {
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let pa = parse_player(a, shipped_model)?;
    let pb = parse_player(b, shipped_model)?;
    let bar = games_bar(!json, games);
    let r = duel_reporting(pa.as_ref(), pb.as_ref(), games, seed, &|n| bar.inc(n));
    bar.finish_and_clear();
    if json {
        println!("{}", serde_json::to_string(&r)?);
    } else {
        println!(
            "{a} vs {b}: {:+.3} ± {:.3} points per game for {a} over {} games (mirrored dice, cubeless, seed {seed})",
            r.ppg, r.se, r.games
        );
    }
    Ok(())
}

/// The games' progress bar on stderr (hidden for `--json`): a duel of
/// searching players runs for minutes.
pub(super) fn games_bar(visible: bool, games: u64) -> indicatif::ProgressBar {
    crate::progress::bar(
        visible,
        games.div_ceil(2) * 2,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games ({per_sec}, eta {eta})",
    )
}
