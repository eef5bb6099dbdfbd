//! `kotra-ai score`: the mean move error of a network on a set of
//! decisions labelled by GNU Backgammon (the oracle's dev-moves format),
//! overall and by phase, as ../shared/oracle/score.py counts it; beside
//! it, how far our equity of gnubg's best move is from gnubg's (mean
//! absolute and signed gap), which is what a cube decision rests on.

use crate::eval::{Evaluator, model_or_shipped};
use crate::train::dev_set::{DevSet, Judgement};
use std::collections::BTreeMap;
use std::path::Path;

/// Sums over one group of decisions.
#[derive(Default)]
struct Tally {
    error: f64,
    gap_abs: f64,
    gap: f64,
    n: usize,
}

impl Tally {
    fn add(&mut self, j: &Judgement) {
        self.error += j.error_mp;
        self.gap_abs += j.gap_mp.abs();
        self.gap += j.gap_mp;
        self.n += 1;
    }

    /// Mean error, mean absolute gap, mean signed gap.
    fn means(&self) -> [f64; 3] {
        let n = self.n.max(1) as f64;
        [self.error / n, self.gap_abs / n, self.gap / n]
    }
}

pub fn run(set: &Path, model: Option<&Path>, ply: u8, json: bool) -> anyhow::Result<()> {
    crate::analysis::score_ply(i64::from(ply)).map_err(|e| anyhow::anyhow!("--{e}"))?;
    let set = DevSet::load(set)?;
    let eval = Evaluator::new(model_or_shipped(model)?);
    let bar = crate::progress::bar(
        !json,
        set.decisions.len() as u64,
        "{elapsed_precise} [{bar:30}] {pos}/{len} decisions ({rate}, eta {eta})",
    );
    let judged = set.judge_reporting(&eval, ply, &|n| bar.inc(n));
    bar.finish_and_clear();
    let mut all = Tally::default();
    let mut by_label: BTreeMap<&str, Tally> = BTreeMap::new();
    for (d, j) in set.decisions.iter().zip(&judged) {
        all.add(j);
        by_label.entry(d.label.as_str()).or_default().add(j);
    }
    let [mean, gap_abs, gap] = all.means();
    if json {
        let labels: serde_json::Map<String, serde_json::Value> = by_label
            .iter()
            .map(|(l, t)| (l.to_string(), serde_json::json!(t.means()[0])))
            .collect();
        println!(
            "{}",
            serde_json::json!({"decisions": judged.len(), "ply": ply, "mean_mp": mean,
                "by_label": labels, "equity_gap_mp": gap_abs, "equity_bias_mp": gap})
        );
        return Ok(());
    }
    println!(
        "{} decisions at {ply}-ply: mean error {mean:.2} mp; equity of gnubg's best move off by {gap_abs:.1} mp (bias {gap:+.1})",
        judged.len()
    );
    for (label, t) in by_label {
        let [error, gap_abs, gap] = t.means();
        println!(
            "  {label:<10} {:>5} decisions {error:>8.2} mp   equity gap {gap_abs:>6.1} (bias {gap:+.1})",
            t.n
        );
    }
    Ok(())
}
