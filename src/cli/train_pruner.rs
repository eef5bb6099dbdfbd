//! `kotra-ai train-pruner`: distils the search's pre-selection network
//! from a model's 0-ply values over the campaign database's positions,
//! and reports how often it keeps each roll's best beside PubEval and
//! the shipped pre-selection network.

use crate::eval::Evaluator;
use crate::eval::model_or_shipped;
use crate::eval::prune_net::shipped_prune_weights;
use crate::train::database::{batch_files, load};
use crate::train::prune_net::{
    LeafError, PruneTraining, net_errors, pubeval_errors, roll_moves, sample_positions, train,
};
use anyhow::Context;

/// The pre-selection sizes reported.
const KEEPS: [usize; 6] = [2, 3, 4, 5, 6, 8];

/// `kotra-ai train-pruner`'s options.
#[derive(clap::Args, Debug)]
pub struct TrainPrunerArgs {
    /// Where to write the network (e.g. models/kotra-prune.net).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// The teacher; the shipped network by default.
    #[arg(long)]
    pub model: Option<std::path::PathBuf>,
    /// The position database: its first batch is held out for the report.
    #[arg(long, default_value = "training/data")]
    pub database: std::path::PathBuf,
    /// Only the manifest's first N batches (in the order they were
    /// added), so that a network can be made again after the database
    /// has grown.
    #[arg(long, value_name = "N")]
    pub batches: Option<usize>,
    /// Positions sampled (with replacement) from the other batches.
    #[arg(long, default_value_t = 600_000)]
    pub positions: usize,
    #[arg(long, default_value_t = 6)]
    pub epochs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn row(name: &str, errors: &[LeafError]) -> String {
    let cells: Vec<String> = errors
        .iter()
        .map(|e| format!("{:.2} mp / {:.1}%", e.mp, 100.0 * e.missed))
        .collect();
    format!("| {name} | {} |", cells.join(" | "))
}

pub fn run(args: &TrainPrunerArgs) -> anyhow::Result<()> {
    // Either at zero would write an untrained network after minutes of
    // scoring, as if it were a distillation.
    anyhow::ensure!(
        args.positions >= 1 && args.epochs >= 1,
        "--positions and --epochs must be at least 1"
    );
    let model = model_or_shipped(args.model.as_deref())?;
    let teacher = args
        .model
        .as_deref()
        .map_or("models/kotra.net (shipped)".to_owned(), |p| {
            p.display().to_string()
        });
    let eval = Evaluator::new(model);
    let mut files = batch_files(&args.database)?;
    files.truncate(args.batches.unwrap_or(usize::MAX));
    anyhow::ensure!(
        files.len() >= 2,
        "{}: at least two batches are needed (the first is held out)",
        args.database.display()
    );
    let (held_out, rest) = files.split_at(1);
    let pool: Vec<_> = load(rest)?.into_iter().map(|r| r.position).collect();
    let test: Vec<_> = load(held_out)?.into_iter().map(|r| r.position).collect();
    anyhow::ensure!(!pool.is_empty(), "the database holds no positions");
    let sampled = sample_positions(&pool, args.positions, args.seed);
    let start = std::time::Instant::now();
    let rolls = roll_moves(&eval, &sampled, args.seed);
    let test_rolls = roll_moves(&eval, &test, args.seed ^ 0x5eed);
    eprintln!(
        "{} training rolls, {} held-out rolls ({}), scored in {:.1} s",
        rolls.len(),
        test_rolls.len(),
        held_out[0].display(),
        start.elapsed().as_secs_f64()
    );
    let header: Vec<String> = KEEPS.iter().map(|k| format!("keep {k}")).collect();
    println!("| pre-selection | {} |", header.join(" | "));
    println!("|---|{}", "---|".repeat(KEEPS.len()));
    println!("{}", row("PubEval", &pubeval_errors(&test_rolls, &KEEPS)));
    // The network the search uses now, judged by this teacher: what a new
    // distillation has to beat.
    println!(
        "{}",
        row(
            "shipped network",
            &net_errors(&shipped_prune_weights(), &test_rolls, &KEEPS)
        )
    );
    let settings = PruneTraining {
        epochs: args.epochs,
        seed: args.seed,
        ..PruneTraining::default()
    };
    let weights = train(&teacher, &rolls, &settings, |epoch, w| {
        println!(
            "{}",
            row(
                &format!("network, epoch {}", epoch + 1),
                &net_errors(w, &test_rolls, &KEEPS)
            )
        );
    });
    weights
        .save(&args.out)
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!(
        "wrote {} in {:.0} s",
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
