//! `kotra-ai score`: the mean move error of a network on a set of
//! decisions labelled by GNU Backgammon (the oracle's dev-moves format),
//! overall and by phase, as ../shared/oracle/score.py counts it.

use crate::eval::{Evaluator, model_or_shipped};
use crate::train::dev_set::DevSet;
use std::collections::BTreeMap;
use std::path::Path;

pub fn run(set: &Path, model: Option<&Path>, ply: u8, json: bool) -> anyhow::Result<()> {
    if ply > 2 {
        anyhow::bail!("--ply must be 0 to 2");
    }
    let set = DevSet::load(set)?;
    let eval = Evaluator::new(model_or_shipped(model)?);
    let errors = set.errors_mp(&eval, ply);
    let mut by_label: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
    for (d, e) in set.decisions.iter().zip(&errors) {
        let slot = by_label.entry(d.label.as_str()).or_default();
        slot.0 += e;
        slot.1 += 1;
    }
    let mean = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
    if json {
        let labels: serde_json::Map<String, serde_json::Value> = by_label
            .iter()
            .map(|(l, (s, n))| (l.to_string(), serde_json::json!(s / *n as f64)))
            .collect();
        println!(
            "{}",
            serde_json::json!({"decisions": errors.len(), "ply": ply, "mean_mp": mean, "by_label": labels})
        );
        return Ok(());
    }
    println!(
        "{} decisions at {ply}-ply: mean error {mean:.2} mp",
        errors.len()
    );
    for (label, (sum, n)) in by_label {
        println!(
            "  {label:<10} {:>5} decisions {:>8.2} mp",
            n,
            sum / n as f64
        );
    }
    Ok(())
}
