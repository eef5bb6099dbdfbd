//! `kotra-ai campaign`: the training campaign's background generator of
//! the position database (`run`), its relabelling of stored batches by a
//! newer or deeper teacher (`relabel`), what the database holds
//! (`status`), and a clean stop for a running generator (`stop`).

use crate::train::campaign::relabel::RelabelOptions;
use crate::train::campaign::selection::Selection;
use crate::train::campaign::{CampaignOptions, STOP_FILE};
use crate::train::database::{Manifest, batch, batch_files};
use anyhow::Context;
use std::path::PathBuf;

#[derive(clap::Subcommand, Debug)]
pub enum CampaignCommand {
    /// Play teacher games and add the positions where 0-ply and 2-ply
    /// disagree to the database, batch by batch, until the time is up, a
    /// STOP file appears in the work folder, or the quota is reached.
    /// Resumes where an earlier run stopped; commits nothing.
    Run(RunArgs),
    /// Search the positions of stored batches again with the teacher (at
    /// --label-ply) and replace their targets, batch by batch in the
    /// order given; rolled-out targets stay. Resumes where an earlier run
    /// stopped; skips batches this teacher already labelled so; commits
    /// nothing.
    Relabel(RelabelArgs),
    /// What the database holds: batches, positions by network and origin,
    /// every batch file checked against its name.
    Status {
        #[arg(long, default_value = "training/data")]
        data: PathBuf,
    },
    /// Ask a running campaign to stop after the chunk it is playing.
    Stop {
        #[arg(long, default_value_os_t = default_work_dir())]
        work: PathBuf,
    },
}

/// Who teaches, which database, where the work in flight is kept, and
/// for how long: what `run` and `relabel` share.
#[derive(clap::Args, Debug)]
pub struct Place {
    /// The teacher: the network that labels (and for `run` plays).
    #[arg(long, default_value = "models/kotra.net")]
    teacher: PathBuf,
    /// The database folder.
    #[arg(long, default_value = "training/data")]
    data: PathBuf,
    /// Where unfinished batches' chunks are kept (outside the repository).
    #[arg(long, default_value_os_t = default_work_dir())]
    work: PathBuf,
    /// Stop after this many minutes (between chunks).
    #[arg(long)]
    minutes: Option<f64>,
}

#[derive(clap::Args, Debug)]
pub struct RunArgs {
    #[command(flatten)]
    place: Place,
    #[arg(long, default_value_t = 2000)]
    games_per_batch: u64,
    #[arg(long, default_value_t = 40)]
    games_per_chunk: u64,
    /// The least equity the 0-ply choice must lose at 2-ply to keep a decision.
    #[arg(long, default_value_t = Selection::default().threshold)]
    threshold: f32,
    /// Candidates kept beside the two choices.
    #[arg(long, default_value_t = Selection::default().siblings)]
    siblings: usize,
    /// The teacher's move noise.
    #[arg(long, default_value_t = Selection::default().noise)]
    noise: f32,
    /// One game in this many gives a position rolled out (0 = none).
    #[arg(long, default_value_t = Selection::default().rollout_every)]
    rollout_every: u64,
    /// One game in this many also gives a timing battle's position rolled
    /// out, where it reaches one (0 = none).
    #[arg(long, default_value_t = Selection::default().timing_every)]
    timing_every: u64,
    /// Trials of each of those rollouts.
    #[arg(long, default_value_t = Selection::default().rollout_trials)]
    rollout_trials: u32,
    /// The depth kept positions' targets are searched at (2 or 3).
    #[arg(long, default_value_t = Selection::default().label_ply)]
    label_ply: u8,
    /// Batches take the lowest seed from here on that the database lacks.
    #[arg(long, default_value_t = 1)]
    first_seed: u64,
    /// Stop once this run's batches reach this many megabytes.
    #[arg(long, default_value_t = 10.0)]
    max_new_mb: f64,
    /// Never grow the database's batches past this many megabytes.
    #[arg(long, default_value_t = 80.0)]
    max_total_mb: f64,
    /// No line per chunk.
    #[arg(long)]
    quiet: bool,
}

#[derive(clap::Args, Debug)]
pub struct RelabelArgs {
    /// The batches to relabel, by seed: e.g. 1-36 or 1,4,9-12.
    #[arg(long, value_parser = parse_seeds)]
    seeds: Seeds,
    #[command(flatten)]
    place: Place,
    /// The depth targets are searched at (2 or 3).
    #[arg(long, default_value_t = Selection::default().label_ply)]
    label_ply: u8,
    /// Positions labelled between two saves of the work.
    #[arg(long, default_value_t = 500)]
    records_per_chunk: usize,
    /// Search timing battles like every other position, instead of
    /// rolling them out (the search misjudges who cracks first).
    #[arg(long)]
    search_timing_battles: bool,
    /// No line per chunk.
    #[arg(long)]
    quiet: bool,
}

/// Batch seeds, in the order given.
#[derive(Clone, Debug)]
struct Seeds(Vec<u64>);

/// `1-36`, `1,4,9-12`: seeds and ranges of them, each at least 1.
fn parse_seeds(text: &str) -> Result<Seeds, String> {
    let bad =
        || format!("{text:?}: seeds are numbers from 1 and ranges of them, e.g. 1-36 or 1,4,9-12");
    let mut seeds = Vec::new();
    for part in text.split(',') {
        let number = |t: &str| t.trim().parse::<u64>().ok().filter(|&n| n >= 1);
        let (lo, hi) = match part.split_once('-') {
            Some((lo, hi)) => (number(lo).ok_or_else(bad)?, number(hi).ok_or_else(bad)?),
            None => {
                let n = number(part).ok_or_else(bad)?;
                (n, n)
            }
        };
        if lo > hi || hi - lo > 100_000 {
            return Err(bad());
        }
        for s in lo..=hi {
            if !seeds.contains(&s) {
                seeds.push(s);
            }
        }
    }
    Ok(Seeds(seeds))
}

/// `$HOME/.cache/kotra-ai/campaign`: outside the repository, kept between
/// sessions where the machine is.
fn default_work_dir() -> PathBuf {
    std::env::var_os("HOME")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(".cache/kotra-ai/campaign")
}

pub fn run(command: CampaignCommand) -> anyhow::Result<()> {
    match command {
        CampaignCommand::Run(args) => run_campaign(args),
        CampaignCommand::Relabel(args) => relabel(args),
        CampaignCommand::Status { data } => status(&data),
        CampaignCommand::Stop { work } => {
            let path = work.join(STOP_FILE);
            std::fs::create_dir_all(&work)
                .and_then(|_| std::fs::write(&path, b"stop\n"))
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!(
                "asked the campaign in {} to stop after its chunk in flight",
                work.display()
            );
            Ok(())
        }
    }
}

fn run_campaign(args: RunArgs) -> anyhow::Result<()> {
    let mb = |m: f64| (m.max(0.0) * 1e6) as u64;
    let opts = CampaignOptions {
        teacher: args.place.teacher,
        data_dir: args.place.data,
        work_dir: args.place.work,
        selection: Selection {
            threshold: args.threshold,
            siblings: args.siblings,
            noise: args.noise,
            rollout_every: args.rollout_every,
            timing_every: args.timing_every,
            rollout_trials: args.rollout_trials,
            label_ply: args.label_ply,
            ..Selection::default()
        },
        games_per_batch: args.games_per_batch,
        games_per_chunk: args.games_per_chunk,
        first_seed: args.first_seed,
        minutes: args.place.minutes,
        max_new_bytes: mb(args.max_new_mb),
        max_total_bytes: mb(args.max_total_mb),
        verbose: !args.quiet,
    };
    // A STOP left by the last run would end this one at once.
    let _ = std::fs::remove_file(opts.work_dir.join(STOP_FILE));
    let report = crate::train::campaign::run(&opts).context("campaign")?;
    let positions: u64 = report.batches.iter().map(|b| b.positions).sum();
    println!(
        "campaign stopped because {}: {} batches written ({positions} positions), {} chunks played",
        report.stopped,
        report.batches.len(),
        report.chunks_played
    );
    Ok(())
}

fn relabel(args: RelabelArgs) -> anyhow::Result<()> {
    let opts = RelabelOptions {
        teacher: args.place.teacher,
        data_dir: args.place.data,
        work_dir: args.place.work,
        seeds: args.seeds.0,
        selection: Selection {
            label_ply: args.label_ply,
            ..Selection::default()
        },
        records_per_chunk: args.records_per_chunk,
        roll_out_timing: !args.search_timing_battles,
        minutes: args.place.minutes,
        verbose: !args.quiet,
    };
    // A STOP left by the last run would end this one at once.
    let _ = std::fs::remove_file(opts.work_dir.join(STOP_FILE));
    let report = crate::train::campaign::relabel::run(&opts).context("relabel")?;
    let positions: u64 = report.batches.iter().map(|b| b.positions).sum();
    println!(
        "relabelling stopped because {}: {} batches relabelled ({positions} positions), {} chunks labelled",
        report.stopped,
        report.batches.len(),
        report.chunks_labelled
    );
    Ok(())
}

fn status(data: &std::path::Path) -> anyhow::Result<()> {
    let manifest = Manifest::load(data)?;
    let files = batch_files(data)?;
    let mut bytes = 0;
    for file in &files {
        let records = batch::read(file)?;
        bytes += std::fs::metadata(file).map_or(0, |m| m.len());
        let named = manifest
            .batches
            .iter()
            .find(|b| data.join(&b.file) == *file)
            .map_or(0, |b| b.positions);
        anyhow::ensure!(
            records.len() as u64 == named,
            "{}: {} positions, the manifest says {named}",
            file.display(),
            records.len()
        );
    }
    let (networks, origins) = manifest.totals();
    let games: u64 = manifest.batches.iter().map(|b| b.games).sum();
    let hours: f64 = manifest.batches.iter().map(|b| b.wall_seconds).sum::<f64>() / 3600.0;
    println!(
        "{}: {} batches, {} positions ({:.1} MB), {games} teacher games, {hours:.1} hours of wall time",
        data.display(),
        manifest.batches.len(),
        manifest.positions(),
        bytes as f64 / 1e6
    );
    let list = |m: &std::collections::BTreeMap<String, u64>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("by network: {}", list(&networks));
    println!("by origin: {}", list(&origins));
    let depths = manifest
        .label_depths()
        .iter()
        .map(|(&ply, d)| {
            let depth = match ply {
                0 => "other".to_string(),
                _ => format!("{ply}-ply"),
            };
            let mut text = format!("{depth} {} batches {} positions", d.batches, d.positions);
            if d.relabelled > 0 {
                text += &format!(", {} relabelled", d.relabelled);
            }
            text
        })
        .collect::<Vec<_>>()
        .join("; ");
    println!("by label depth: {depths}");
    println!("every batch file matches its name and the manifest");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_numbers_and_ranges_in_the_order_given() {
        assert_eq!(parse_seeds("1-3").unwrap().0, vec![1, 2, 3]);
        assert_eq!(parse_seeds("9,1-2,2,4").unwrap().0, vec![9, 1, 2, 4]);
        assert_eq!(parse_seeds(" 7 ").unwrap().0, vec![7]);
        for bad in ["", "0", "3-1", "1-", "-2", "a", "1,,2", "1-2-3", "1-999999"] {
            let e = parse_seeds(bad).unwrap_err();
            assert!(e.contains("e.g. 1-36"), "{bad}: {e}");
        }
    }
}
