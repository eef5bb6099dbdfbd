//! `kotra-ai review FILE`: a played match judged decision by decision.

use crate::analysis::Analyzer;
use crate::eval::{Evaluator, model_or_shipped};
use crate::notation::mat;
use anyhow::Context;
use std::path::Path;

/// How many of the biggest errors the text report lists.
const WORST: usize = 10;

pub fn run(file: &Path, ply: u8, model: Option<&Path>, json: bool) -> anyhow::Result<()> {
    if ply > super::analyze::MAX_PLY {
        anyhow::bail!("--ply must be 0 to {}", super::analyze::MAX_PLY);
    }
    let text =
        std::fs::read_to_string(file).with_context(|| format!("cannot read {}", file.display()))?;
    let record = mat::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let eval = Evaluator::new(model_or_shipped(model)?);
    let analyzer = Analyzer::new(&eval);
    let bar = crate::progress::bar(
        !json,
        0,
        "{elapsed_precise} [{bar:30}] {pos} decisions ({per_sec})",
    );
    let review = analyzer
        .review(&record, ply, &|n| bar.inc(n))
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    bar.finish_and_clear();
    if json {
        println!("{}", serde_json::to_string(&review)?);
        return Ok(());
    }
    let kind = if record.length == 0 {
        "money session".to_string()
    } else {
        format!("{}-point match", record.length)
    };
    println!(
        "{}: {kind}, {} games; checker play at {ply}-ply (cubeful, normalised equity)",
        file.display(),
        record.games.len()
    );
    println!(
        "{:<16} {:>9} {:>10} {:>8} {:>6}  {:>8} {:>4} {:>8}  rating",
        "player", "decisions", "lost", "mEMG", "PR", "doubtful", "bad", "very bad"
    );
    for p in &review.players {
        println!(
            "{:<16} {:>9} {:>10.3} {:>8.1} {:>6.1}  {:>8} {:>4} {:>8}  {}",
            p.name,
            p.decisions,
            p.total_loss,
            p.error_rate,
            p.pr,
            p.marks.doubtful,
            p.marks.bad,
            p.marks.very_bad,
            p.rating
        );
    }
    let mut worst: Vec<_> = review.decisions.iter().filter(|d| d.loss > 0.0).collect();
    worst.sort_by(|a, b| b.loss.total_cmp(&a.loss));
    if !worst.is_empty() {
        println!("\nBiggest errors (open one with kotra-ai analyze ID):");
    }
    for d in worst.iter().take(WORST) {
        println!(
            "  game {:>2} move {:>3} {:<12} {} {:<24} best {:<24} -{:.3}  {}",
            d.game,
            d.move_number,
            review.players[d.player as usize].name,
            d.dice,
            d.played,
            d.best,
            d.loss,
            d.gnubg_id
        );
    }
    Ok(())
}
