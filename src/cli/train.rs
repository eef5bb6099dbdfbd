//! `kotra-ai train`: starts or resumes a self-play training run.

use crate::train::{TrainConfig, TrainOptions, train};
use anyhow::Context;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training config (JSON, see training/); defaults to the built-in one.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Folder for the checkpoint, model, learning curve (CSV and PNG).
    #[arg(long, default_value = "train-out")]
    pub out: PathBuf,
    /// Continue the checkpoint in --out.
    #[arg(long)]
    pub resume: bool,
    /// Total games of the run (overrides the config).
    #[arg(long, allow_negative_numbers = true)]
    pub games: Option<u64>,
    /// Dev set for the error measurement (default: tests/data/dev-moves.jsonl if present).
    #[arg(long)]
    pub dev_set: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(args: TrainArgs) -> anyhow::Result<()> {
    let config = args.config.as_deref().map(TrainConfig::load).transpose()?;
    let dev_set = args.dev_set.or_else(|| {
        let default = PathBuf::from(DEFAULT_DEV_SET);
        default.exists().then_some(default)
    });
    let opts = TrainOptions {
        config,
        games: args.games,
        out_dir: args.out.clone(),
        resume: args.resume,
        dev_set,
        progress: !args.quiet,
    };
    let done = train(&opts).context("training")?;
    let model = args.out.join(crate::train::MODEL_FILE);
    match &done.config.distill_teacher {
        Some(teacher) => println!(
            "distilled {} games of {}{} over {} epochs in {:.0} s; model: {}",
            done.games_played,
            teacher.display(),
            extra_sets_said(&done.config.extra_sets),
            done.step,
            done.seconds,
            model.display()
        ),
        None => println!(
            "trained {} games in {:.0} s; model: {}",
            done.games_played,
            done.seconds,
            model.display()
        ),
    }
    if let Some(p) = done.curve.last() {
        println!("last measurement: {}", p.strength());
    }
    Ok(())
}

/// The oracle's dev set as copied into this repository.
pub const DEFAULT_DEV_SET: &str = "tests/data/dev-moves.jsonl";

/// The extra sets' games beside the main set's, which the closing line
/// would otherwise leave out (a run of 24,000 2-ply games beside 120,000
/// 1-ply ones said "distilled 24000 games").
fn extra_sets_said(sets: &[crate::train::ExtraSet]) -> String {
    let games: u64 = sets.iter().map(|set| set.games).sum();
    if games == 0 {
        String::new()
    } else {
        format!(" beside {games} games of its extra sets")
    }
}

#[cfg(test)]
mod tests {
    use super::extra_sets_said;
    use crate::train::ExtraSet;

    #[test]
    fn the_closing_line_counts_the_extra_sets_games() {
        let set = |games| ExtraSet {
            seed: 31,
            games,
            target_ply: 1,
            target_prune: 0,
            weight: 1,
            teacher: None,
            race_only: false,
            rollout_trials: 0,
            rollouts_per_game: 1,
            plan: None,
            rollout_window: None,
        };
        assert_eq!(extra_sets_said(&[]), "");
        assert_eq!(
            extra_sets_said(&[set(120_000), set(500)]),
            " beside 120500 games of its extra sets"
        );
    }
}
