//! `kotra-ai duel`: mirrored money games between two players.

use crate::eval::shipped_model;
use crate::players::{duel, parse_player};

pub fn run(a: &str, b: &str, games: u64, seed: u64, json: bool) -> anyhow::Result<()> {
    if games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let pa = parse_player(a, shipped_model)?;
    let pb = parse_player(b, shipped_model)?;
    let r = duel(pa.as_ref(), pb.as_ref(), games, seed);
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
